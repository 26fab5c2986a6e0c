"""Tests of dalkon.daldos against values read off the `dalkon` binary once
(`dalkon daldos moves/odds/best/value/match --format json`) and the pinned
values of docs/solved.md and crates/daldos/tests."""

import _thread
import ast
import json
import os
import shutil
import subprocess
import pathlib
import pickle
import copy
import threading
import time
from fractions import Fraction

import pytest

import dalkon
from dalkon import daldos as d

DANISH_START = "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a"
NORWEGIAN_START = "AAAAAAAAAAAA/............./BBBBBBBBBBBB a"
# The 16-against-16 middle game of the Rust benchmark.
MIDDLE = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a"
# docs/solved.md: A's undalt piece on A4, B's dalt piece on M2, A to throw.
ONE_V_ONE = "...A/..b../.... a"


@pytest.fixture
def empty_db(tmp_path):
    """A tables folder with no tables (so no test reads ./dalkon-db)."""
    path = tmp_path / "empty-db"
    path.mkdir()
    return path


# ------------------------------------------------------------ rules


def test_throws_are_the_ten_distinct_throws_with_weights_out_of_16():
    t = d.throws()
    assert t == [
        (1, 1, 1),
        (2, 1, 2),
        (3, 1, 2),
        (4, 1, 2),
        (2, 2, 1),
        (3, 2, 2),
        (4, 2, 2),
        (3, 3, 1),
        (4, 3, 2),
        (4, 4, 1),
    ]
    assert sum(w for _, _, w in t) == 16
    assert sum(Fraction(w, 16) for _, _, w in t) == 1


def test_rules_values_str_repr_eq_hash():
    r = d.Rules()
    assert (r.board, r.board_len, r.dal, r.capture, r.end) == ("danish", 16, "any", "final", "last")
    assert str(r) == "board=danish dal=any capture=final end=last"
    n = d.Rules(board="norwegian", dal="sternmost", capture="path", end="one")
    assert n.board_len == 12
    assert str(n) == "board=norwegian dal=sternmost capture=path end=one"
    assert repr(n) == 'Rules(board="norwegian", dal="sternmost", capture="path", end="one")'
    assert d.Rules(board=12) == d.Rules(board="norwegian") == d.Rules(board="12")
    assert hash(d.Rules(board=16)) == hash(d.Rules())
    assert d.Rules(board=7) != d.Rules(board=7, end="one")
    assert eval(repr(d.Rules(board=7, end="one")), {"Rules": d.Rules}) == d.Rules(board=7, end="one")
    assert pickle.loads(pickle.dumps(n)) == n
    with pytest.raises(AttributeError):
        r.board = "norwegian"


def test_rules_errors_are_the_cli_messages():
    # `dalkon daldos moves --board 3 ...`: "error: --board: <this>".
    with pytest.raises(dalkon.InputError) as e:
        d.Rules(board=3)
    assert str(e.value) == "board length 3 is too short: the rules need L >= 4"
    with pytest.raises(dalkon.InputError) as e:
        d.Rules(board="wide")
    assert str(e.value) == (
        'unknown board "wide": expected danish, norwegian or a row length L from 4 to 32'
    )
    with pytest.raises(dalkon.InputError) as e:
        d.Rules(dal="first")
    assert str(e.value) == 'invalid value "first" for dal: expected any or sternmost'


def test_position_start_parse_round_trip_and_properties():
    p = d.Position.start()
    assert str(p) == DANISH_START
    assert p.side_to_throw == 0
    assert p.pieces() == (16, 16)
    assert p.undalt() == (16, 16)
    assert not p.is_over() and p.winner() is None
    assert p.rules == d.Rules()
    n = d.Position.start(d.Rules(board="norwegian"))
    assert str(n) == NORWEGIAN_START and n.board_len == 12
    m = d.Position.parse(MIDDLE)
    assert str(m) == MIDDLE
    assert d.Position.parse(str(m), m.rules) == m
    assert d.Position(MIDDLE) == m
    assert hash(d.Position(MIDDLE)) == hash(m)
    assert m.pieces() == (16, 16)
    assert m.undalt() == (7, 7)
    assert m.holes(0)[:3] == ["A1", "A2", "A3"]
    assert m.cell("A9") == "a" and m.cell("A1") == "A" and m.cell("A8") == "." and m.cell("M0") == "b"
    assert repr(m) == f'Position("{MIDDLE}")'
    a = d.Position.parse("Aa../.b.../.bB. b").array()
    assert a.dtype.name == "int8"
    assert a.tolist() == [1, 2, 0, 0, 0, -2, 0, 0, 0, 0, -2, -1, 0]
    assert m.mirror().side_to_throw == 1 and m.mirror().mirror() == m
    assert m.with_side_to_throw(1) == d.Position(MIDDLE[:-1] + "b")
    # Positions under other rules are other game states.
    one = d.Position.parse(MIDDLE, d.Rules(end="one"))
    assert one != m and str(one) == str(m)
    assert repr(one) == f'Position("{MIDDLE}", Rules(board="danish", dal="any", capture="final", end="one"))'
    assert pickle.loads(pickle.dumps(one)) == one
    assert copy.deepcopy(one) == one


def test_game_over_and_winner_follow_the_end_rule():
    p = d.Position.parse("a.../...../...b a")
    assert not p.is_over()
    assert p.is_over(d.Rules(board=4, end="one"))
    over = d.Position.parse("a.../...../.... b")
    assert over.is_over() and over.winner() == 0
    assert over.plays(3, 1) == []


def test_position_errors_are_the_cli_messages():
    # `dalkon daldos moves --position POS ...`: "error: --position \"POS\": <this>".
    cases = {
        "AAAA/...../BBBx a": "column 15: unknown character 'x' at hole B4 (expected '.', 'A', 'a', 'B' or 'b')",
        "AAA/..../BBB a": "column 1: row A has 3 holes: board length 3 is too short: the rules need L >= 4",
        "AAAA/...../BBBB c": "column 17: side to move must be 'a' or 'b', found \"c\"",
    }
    for text, message in cases.items():
        with pytest.raises(dalkon.InputError) as e:
            d.Position.parse(text)
        assert str(e.value) == message
    with pytest.raises(dalkon.InputError) as e:
        d.Position.parse(NORWEGIAN_START, d.Rules())
    assert str(e.value) == (
        "rules board danish (L=16) disagrees with the position, whose rows give L=12"
    )
    assert isinstance(e.value, dalkon.DalkonError)


# ------------------------------------------------------------ plays


# Play counts and first plays as `dalkon daldos moves --format json` prints them.
MOVES = [
    (DANISH_START, (1, 3), 1, ["A16-M16 M16-M13"]),
    (MIDDLE, (3, 1), 52, ["A11-A14 A7-A8", "A11-A14 A9-A10", "A11-A14 A16-M16x", "A11-A14 M1-M0x"]),
    (MIDDLE, (1, 1), 44, ["A7-A8 A6-A7", "A7-A8 A9-A10", "A7-A8 A11-A12", "A7-A8 A16-M16x"]),
    (MIDDLE, (4, 4), 10, ["A11-A15x A9-A13", "A11-A15x M1-B3x", "A11-A15x M7-M3", "A11-A15x B14-M15x"]),
    (MIDDLE, (2, 3), 38, ["A11-A13 A9-A12", "A11-A13 A16-M14", "A11-A13 M1-B2x", "A11-A13 M7-M4x"]),
    (NORWEGIAN_START, (3, 1), 1, ["A12-M12 M12-M9"]),
    (ONE_V_ONE, (2, 1), 1, ["A4-M4 M4-M2x"]),
]


@pytest.mark.parametrize("text,dice,count,first", MOVES)
def test_plays_match_the_cli(text, dice, count, first):
    p = d.Position.parse(text)
    out = d.plays(p, *dice)
    assert len(out) == count
    assert [str(x) for x in out[: len(first)]] == first
    assert [str(x) for x in p.plays(*dice)] == [str(x) for x in out]


def test_plays_follow_the_rule_options():
    # `dalkon daldos moves --dice 3,2 [--capture path]`: 38 plays, 41 with path captures.
    m = d.Position.parse(MIDDLE)
    assert len(m.plays(3, 2)) == 38
    path = d.Rules(capture="path")
    assert len(m.plays(3, 2, path)) == 41
    assert len(d.plays(d.Position.parse(MIDDLE, path), 3, 2)) == 41
    assert all(x.position.rules == path for x in m.plays(3, 2, path))
    assert [str(x) for x in m.plays(3, 2, path)[:2]] == ["A11-A14 A9-A11", "A11-A14 A16-M15x"]


def test_play_details_and_the_next_side():
    (play,) = d.Position.parse(NORWEGIAN_START).plays(3, 1)
    assert str(play) == "A12-M12 M12-M9"
    assert str(play.position) == "AAAAAAAAAAA./.........a.../BBBBBBBBBBBB b"
    assert play.steps == [("A12", "M12", False), ("M12", "M9", False)]
    assert play.dice == (3, 1) and not play.is_pass and play.captures == 0
    assert play.position.side_to_throw == 1
    # The lost throw: one play, pass, action 0, the turn passes.
    (lost,) = d.Position.parse(NORWEGIAN_START).plays(2, 2)
    assert str(lost) == "pass" and lost.is_pass and lost.action == 0 and lost.steps == []
    assert str(lost.position) == "AAAAAAAAAAAA/............./BBBBBBBBBBBB b"
    # A dal-dal: the same side throws again, also after a lost dal-dal.
    dd = d.Position.parse("AAAA/...../BBBB a").plays(1, 1)
    assert [(str(x), str(x.position)) for x in dd] == [
        ("A4-M4 A3-A4", "AA.a/....a/BBBB a"),
        ("A4-M4 M4-M3", "AAA./...a./BBBB a"),
    ]
    assert all(x.position.side_to_throw == 0 for x in dd)
    (added,) = d.Position.parse("AAAA/...../.b.. b").plays(1, 1)
    assert str(added) == "B2-B3 B3-B4" and str(added.position) == "AAAA/...../...b b"
    assert added.position.side_to_throw == 1
    capture = d.Position.parse(ONE_V_ONE).plays(2, 1)[0]
    assert capture.captures == 1 and capture.position.winner() == 0


def test_throw_errors_are_the_cli_messages():
    p = d.Position.start()
    with pytest.raises(dalkon.InputError) as e:
        p.plays(5, 1)
    # `dalkon daldos moves --dice 5,1`: "error: --dice: <this>".
    assert str(e.value) == 'dice "5,1": face 5 is not on a four-sided long die (1..=4)'


def test_action_codes_are_distinct_in_range_and_round_trip():
    for text in [DANISH_START, MIDDLE, NORWEGIAN_START, ONE_V_ONE, "a.b./..ab./b.a. b"]:
        p = d.Position.parse(text)
        n = d.num_actions(p.rules)
        for d1 in range(1, 5):
            for d2 in range(1, 5):
                out = p.plays(d1, d2)
                codes = [x.action for x in out]
                assert len(set(codes)) == len(codes), (text, d1, d2)
                assert all(0 <= c < n for c in codes)
                for x in out:
                    assert p.play_action(d1, d2, x.action) == x.position
                # The order of the dice changes no result's code.
                swapped = {x.action: x.position for x in p.plays(d2, d1)}
                assert swapped == {x.action: x.position for x in out}
    assert d.num_actions() == 1 + 4 * 49 + 2 * 49 * 49 == 4999
    assert d.num_actions(d.Rules(board=4)) == 1 + 4 * 13 + 2 * 13 * 13 == 391
    # Pinned codes: pass is 0; A12-M12 M12-M9 on the Norwegian board (C = 37)
    # is an added move from hole 11 with the smaller die first: 1 + 2C + 22 + 1.
    assert d.Position.parse(NORWEGIAN_START).plays(3, 1)[0].action == 1 + 2 * 37 + 2 * 11 + 1
    with pytest.raises(dalkon.InputError) as e:
        d.Position.parse(NORWEGIAN_START).play_action(3, 1, 5)
    assert str(e.value) == (
        "action 5 is not a play of the throw 3,1 here; its plays have actions 98"
    )
    assert d.Position.parse(NORWEGIAN_START).play_action(2, 2, 0).side_to_throw == 1


def test_max_game_length_comes_from_the_rules():
    assert d.DEFAULT_MAX_THROWS == 5000
    assert d.max_game_length() == 10000
    assert d.max_game_length(3) == 6


# ------------------------------------------------------------ odds


def test_odds_exact_fractions():
    # docs/rules.md §1.7, Table 1, d = 1: 7/16 (43.75%, published as 44).
    o = d.odds(d.Position.parse("................/........ab......./................ b"))
    assert o.side == 1 and o.exact and o.any == Fraction(7, 16)
    (t,) = o.targets
    assert (t.hole, t.probability, t.bound, t.exact) == ("M8", Fraction(7, 16), 0, True)
    assert t.probability_float == 0.4375
    # `dalkon daldos odds`: d = 3 on the board, with a dal-dal rethrow (8 nodes:
    # the "any" certificate's relaxed states count against the budget too).
    o = d.odds(d.Position.parse("................/........a..b...../................ b"))
    assert o.targets[0].probability == Fraction(151, 256) and o.daldals == 1 and o.nodes == 8
    # crates/cli's json test: two targets.
    o = d.odds(d.Position.parse("................/........aab....../BBBBBBBB........ b"))
    assert [(t.hole, t.probability) for t in o.targets] == [("M8", Fraction(3, 16)), ("M9", Fraction(1, 16))]
    assert o.any == Fraction(3, 16) and o.bound == 0
    only = d.odds(d.Position.parse("................/........aab....../BBBBBBBB........ b"), target="M9")
    assert [t.hole for t in only.targets] == ["M9"]
    with pytest.raises(dalkon.InputError) as e:
        d.odds(d.Position.parse("................/........ab......./................ b"), target="M5")
    assert str(e.value) == "target M5: no piece of a (the side not to move) there; its pieces are on M8"


# ------------------------------------------------------------ best


def test_best_with_dice_matches_the_cli(empty_db):
    r = d.best(d.Position.parse(NORWEGIAN_START), dice=(3, 1), depth=2, db_dir=empty_db)
    again = d.best(d.Position.parse(NORWEGIAN_START), dice="3,1", depth=2, db_dir=str(empty_db))
    assert (again.value, again.nodes) == (r.value, r.nodes)
    # `dalkon daldos best --dice 3,1 --depth 2 --format json`.
    assert r.value == 0.576141357421875
    assert not r.exact
    assert str(r.best) == "A12-M12 M12-M9"
    assert (r.depth, r.depth_asked, r.complete, r.nodes, r.nodes_total, r.tables) == (2, 2, True, 12, 13, 0)
    assert len(r.plays) == 1 and r.throws is None
    assert r.stats["terminals"] + r.stats["leaves"] + r.stats["chance_nodes"] + r.stats["table_hits"] == 12


def test_best_without_dice_pins_the_winning_throws(empty_db):
    # crates/daldos/tests/search_daldos.rs: B's dalt b 3 holes behind A's last
    # piece wins at once on 9 throws out of 16.
    p = d.Position.parse("b.............../........a..b...../................ b")
    r = d.best(p, depth=2, db_dir=empty_db)
    assert r.value == 0.9970358610153198 and not r.exact and r.best is None and r.plays == []
    assert (r.nodes, r.nodes_total) == (398, 438)
    won = {t.dice: str(t.best) for t in r.throws if t.value == 1.0}
    assert sum(t.weight for t in r.throws if t.value == 1.0) == 9
    assert won == {
        (2, 1): "M11-M9 M9-M8x",
        (3, 1): "M11-M8x",
        (3, 2): "M11-M8x",
        (3, 3): "A1-A4 M11-M8x",
        (4, 3): "A1-A5 M11-M8x",
    }
    assert all(t.exact for t in r.throws if t.value == 1.0)
    assert sum(t.weight * t.value for t in r.throws) / 16 == pytest.approx(r.value, abs=1e-15)


def test_best_errors_are_the_library_messages(empty_db):
    with pytest.raises(dalkon.InputError) as e:
        d.best(d.Position.parse("AAAA/...../BBBB a"), depth=9, db_dir=empty_db)
    assert str(e.value) == "search depth 9 is out of range 1..=8"
    with pytest.raises(dalkon.InputError) as e:
        d.best(d.Position.parse("AAAA/...../.... a"), db_dir=empty_db)
    assert str(e.value) == "the game is already over in this position (a has won under end=last)"


def test_ctrl_c_interrupts_a_long_best_promptly_and_the_gil_is_free():
    p = d.Position.parse(MIDDLE)
    ticks = []
    done = threading.Event()

    def tick():
        # Python code that runs only while the search has released the GIL.
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.02)

    timer = threading.Timer(1.0, _thread.interrupt_main)
    started = time.monotonic()
    threading.Thread(target=tick, daemon=True).start()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # Depth 8 of the middle game without a node limit: hours.
            d.best(p, depth=8, max_nodes=None, db_dir="/nonexistent-dalkon-db")
    finally:
        done.set()
        timer.cancel()
    elapsed = time.monotonic() - started
    assert elapsed < 5.0, elapsed
    # The other thread kept running while the search did, before the interrupt.
    assert len([t for t in ticks if t < started + 1.0]) >= 5, ticks


# ------------------------------------------------------------ solved tables


def test_value_from_board_4_tables(tmp_path):
    rules = d.Rules(board=4)
    reports = d.solve_tables(rules, (1, 1), tmp_path)
    assert [(r.a, r.b, r.positions, r.loaded) for r in reports] == [(1, 1, 237, False)]
    assert d.solve_tables(rules, (1, 1), tmp_path)[0].loaded
    p = d.Position.parse(ONE_V_ONE)
    v = d.value(p, db_dir=tmp_path)
    # docs/solved.md: W = 0.385784037429, exact to 1e-12.
    assert v.exact and abs(v.value - 0.385784037429) < 1e-12
    assert v.lower <= v.value <= v.upper and v.upper - v.lower <= 1e-12
    by_dice = {t.dice: t for t in v.throws}
    assert [t.dice for t in v.throws] == [(a, b) for a, b, _ in d.throws()]
    assert str(by_dice[(1, 1)].best) == "A4-M4 M4-M3"
    assert abs(by_dice[(1, 1)].plays[0].value - 0.698856616908) < 1e-12
    assert str(by_dice[(1, 1)].best.position) == "..../..ba./.... a"
    assert by_dice[(2, 1)].plays[0].value == 1.0
    assert abs(by_dice[(3, 1)].plays[0].value - 0.288531998917) < 1e-12
    assert abs(by_dice[(4, 1)].plays[0].value - 0.239275278413) < 1e-12
    for dice in [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (4, 4)]:
        assert str(by_dice[dice].best) == "pass"
        assert abs(by_dice[dice].plays[0].value - 0.268674825255) < 1e-12
    total = sum(t.weight * t.plays[0].value for t in v.throws) / 16
    assert abs(total - v.value) < 1e-12
    # With the tables, best is exact at depth 1 (`dalkon daldos best --depth 1`).
    b = d.best(p, depth=1, db_dir=tmp_path)
    assert b.exact and b.value == 0.38578403742887835 and b.tables == 1 and b.nodes == 10
    # A finished game: 1 for the winner, no throws.
    over = d.value(d.Position.parse("..../..a../.... b"), db_dir=tmp_path)
    assert (over.value, over.exact, over.throws) == (0.0, True, [])


def test_not_covered_is_the_cli_message(tmp_path):
    with pytest.raises(d.NotCoveredError) as e:
        d.value(d.Position.parse("AAA./...../B... a"), db_dir=tmp_path)
    assert str(e.value) == (
        f"AAA./...../B... a is not covered by the tables in {tmp_path}: it needs layer 3 v 1 "
        "(pieces of the side to throw v the other); build it with "
        f"`dalkon daldos solve --board 4 --pieces 3,1 --db-dir {tmp_path}`"
    )
    assert isinstance(e.value, dalkon.InputError)
    with pytest.raises(dalkon.InputError) as e:
        d.solve_tables(d.Rules(board=4), (5, 1), tmp_path)
    assert str(e.value) == "5 pieces a side do not fit board 4: each side has at most L = 4"


def test_a_damaged_table_is_a_data_error(tmp_path):
    d.solve_tables(d.Rules(board=4), (1, 1), tmp_path)
    (table,) = pathlib.Path(tmp_path).glob("daldos-*.tbl")
    table.write_bytes(table.read_bytes()[:100])
    with pytest.raises(dalkon.DataError) as e:
        d.value(d.Position.parse(ONE_V_ONE), db_dir=tmp_path)
    assert str(e.value).startswith(str(table) + ": ")
    assert str(e.value).endswith("; the folder is a cache: delete the file and the layer is rebuilt")


# ------------------------------------------------------------ match


def test_match_seeded_results_match_the_cli():
    # `dalkon daldos match --a engine:1 --b random --games 20 --seed 7 --board 6 --format json`.
    m = d.match("engine:1", "random", games=20, seed=7, rules=d.Rules(board=6))
    assert (m.games, m.a_wins, m.b_wins, m.capped, m.first_player_wins) == (20, 18, 2, 0, 12)
    assert (m.a_win_rate, m.first_player_win_rate, m.mean_turns) == (0.9, 0.6, 26.7)
    assert m.ci95 == (0.6989663547715128, 0.9721335187862319)
    assert (m.a, m.b, m.seed, m.board, m.rules, m.turn_cap) == (
        "engine:1", "random", 7, "6", "dal=any capture=final end=last", 5000)
    assert len(m.records) == 20 and m.records[0][1] is True and m.records[1][1] is False
    assert sum(t for _, _, t in m.records) == 534
    # `dalkon daldos match --a greedy --b random --games 50 --seed 3 --board 4`.
    g = d.match("greedy", "random", games=50, seed=3, rules=d.Rules(board=4))
    assert (g.a_wins, g.b_wins, g.first_player_wins, g.mean_turns) == (40, 10, 29, 18.18)


def test_match_errors_are_the_cli_messages():
    with pytest.raises(dalkon.InputError) as e:
        d.match("foo", "random")
    assert str(e.value) == 'a: unknown player "foo": expected random, greedy, engine:N, hand:N or perfect'
    with pytest.raises(dalkon.InputError) as e:
        d.match("random", "engine:9")
    assert str(e.value) == 'b: bad engine depth "9": expected a number from 1 to 8'


def test_perfect_is_refused_without_the_whole_game(tmp_path):
    d.solve_tables(d.Rules(board=4), (1, 1), tmp_path)
    with pytest.raises(dalkon.InputError) as e:
        d.match("perfect", "random", games=2, rules=d.Rules(board=4), db_dir=tmp_path)
    # `dalkon daldos match --a perfect ...`: "error: --a: <the same>".
    assert str(e.value) == (
        f"a: perfect needs the tables of board 4 up to 4 v 4 (layer 2 v 1 is not in {tmp_path}): "
        f"run dalkon daldos solve --board 4 --pieces 4,4 --db-dir {tmp_path}"
    )


def test_ctrl_c_interrupts_a_long_match():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        d.match("engine:2", "engine:2", games=100000, seed=1)
    timer.cancel()
    assert time.monotonic() - started < 10.0


def test_ctrl_c_interrupts_a_table_build_and_keeps_the_finished_layers(tmp_path):
    rules = d.Rules(board=5)
    timer = threading.Timer(1.0, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # The whole board-5 game: about a quarter of an hour of work.
            d.solve_tables(rules, (5, 5), db_dir=tmp_path)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 6.0
    names = sorted(p.name for p in tmp_path.iterdir())
    # Only whole layer files: the pair in progress was abandoned unwritten.
    assert names and all(n.endswith(".tbl") for n in names), names
    assert "daldos-L5-any-final-last-1v1.tbl" in names
    assert "daldos-L5-any-final-last-5v5.tbl" not in names
    # A new build resumes from them.
    reports = d.solve_tables(rules, (1, 1), db_dir=tmp_path)
    assert [(r.a, r.b, r.loaded) for r in reports] == [(1, 1, True)]


# ------------------------------------------------------------ documentation


def test_every_public_name_has_a_docstring_and_a_stub():
    stub = ast.parse((pathlib.Path(d.__file__).with_suffix(".pyi")).read_text())
    stubbed = {n.name for n in stub.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    for name in d.__all__:
        obj = getattr(d, name)
        assert obj.__doc__ and obj.__doc__.strip(), name
        assert name in stubbed, name
    for cls in [d.Rules, d.Position, d.Play, d.Odds, d.BestResult, d.ValueResult, d.MatchResult]:
        for attr, member in vars(cls).items():
            if not attr.startswith("_"):
                assert member.__doc__, f"{cls.__name__}.{attr}"


# ------------------------------------------------------------ pictures


def test_position_draws_itself_as_svg_for_notebooks():
    p = d.Position.parse("AAA./.b.a./BBB. a")
    svg = p._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    # Board 4: rows A and B of 4 holes, the middle row of 5; 8 pieces.
    assert svg.count('class="hole"') == 13
    assert 'data-hole="M0"' in svg and 'data-hole="B4"' in svg
    assert svg.count('class="piece"') == 8
    # The picture `dalkon daldos show --format svg` draws, byte for byte.
    binary = dalkon_binary()
    if binary is not None:
        assert svg == cli(["show", "--position", str(p), "--format", "svg"], json_out=False)


# ------------------------------------------------------------ one answer everywhere


REPO = pathlib.Path(__file__).resolve().parents[3]


def dalkon_binary():
    env = os.environ.get("DALKON_BIN")
    for candidate in [env, shutil.which("dalkon"), REPO / "target" / "release" / "dalkon"]:
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    return None


def cli(args, json_out=True):
    out = subprocess.run([dalkon_binary(), "daldos", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout) if json_out else out.stdout


needs_cli = pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")


def plays_of(plays):
    return [(str(p.play), p.value, p.exact, p.upper_bound) for p in plays]


def cli_plays(plays):
    return [(p["play"], p["value"], p["exact"], p["upper_bound"]) for p in plays]


@needs_cli
@pytest.mark.parametrize(
    "text", ["................/........aab....../BBBBBBBB........ b", "A..a/..b../.... a", MIDDLE]
)
def test_odds_is_the_cli_json(text):
    o = d.odds(d.Position.parse(text))
    j = cli(["odds", "--position", text, "--format", "json"])
    assert "ab"[o.side] == j["side"]
    assert [(t.hole, t.probability_float, str(t.probability), t.exact) for t in o.targets] == [
        (t["hole"], t["probability"], t["fraction"], t["exact"]) for t in j["targets"]
    ]
    assert (o.any_float, str(o.any), o.exact, o.nodes, o.daldals) == (
        j["any"], j["any_fraction"], j["exact"], j["nodes"], j["daldals"]
    )


def solve_41(db):
    """Board 4 up to 2 v 1 (and 1 v 2) pieces into `db`."""
    d.solve_tables(d.Rules(board=4), (2, 1), db)
    d.solve_tables(d.Rules(board=4), (1, 2), db)


@needs_cli
@pytest.mark.parametrize("tables", [False, True])
def test_best_and_show_best_are_the_cli_json(tmp_path, tables):
    db = tmp_path / "db"
    db.mkdir()
    if tables:
        solve_41(db)
    for text, dice in [("A..a/..b../.... a", "2,2"), ("A.../....b/...a a", "3,2"), (NORWEGIAN_START, "3,1")]:
        p = d.Position.parse(text)
        r = d.best(p, dice=dice, db_dir=db)
        j = cli(["best", "--position", text, "--dice", dice, "--db-dir", str(db), "--format", "json"])
        assert (str(r.best), r.value, r.exact, r.depth, r.nodes, r.nodes_total, r.tables) == (
            j["best"], j["value"], j["exact"], j["depth"], j["nodes"], j["nodes_total"], j["tables"]
        )
        assert plays_of(r.plays) == cli_plays(j["plays"])
        assert r.stats == j["stats"]
        # `show --best` is the same request (its own default budget).
        s = d.best(p, dice=dice, db_dir=db, max_nodes=2_000_000)
        js = cli(["show", "--position", text, "--dice", dice, "--best", "--db-dir", str(db), "--format", "json"])
        assert (str(s.best), s.value, s.exact, s.depth) == (js["best"], js["value"], js["exact"], js["depth"])
        if tables and text != NORWEGIAN_START:
            assert r.exact and r.tables == 3
    # Without dice: every distinct throw, as the CLI's ordered throws.
    text = "A..a/..b../.... a"
    r = d.best(d.Position.parse(text), db_dir=db)
    j = cli(["best", "--position", text, "--db-dir", str(db), "--format", "json"])
    assert (r.value, r.exact, r.nodes) == (j["value"], j["exact"], j["nodes"])
    by_dice = {t["dice"]: t for t in j["throws"]}
    for t in r.throws:
        jt = by_dice[f"{t.dice[0]},{t.dice[1]}"]
        assert (str(t.best), t.value, t.exact) == (jt["best"], jt["value"], jt["exact"])
        assert plays_of(t.plays) == cli_plays(jt["plays"])


@needs_cli
def test_value_is_the_cli_json(tmp_path):
    solve_41(tmp_path)
    for text in ["A..a/..b../.... a", "A.../....b/...a a", ONE_V_ONE, "..../..a../.... b"]:
        v = d.value(d.Position.parse(text), db_dir=tmp_path)
        j = cli(["value", "--position", text, "--db-dir", str(tmp_path), "--format", "json"])
        assert (v.value, v.lower, v.upper, v.exact) == (j["value"], j["lower"], j["upper"], j["exact"])
        assert [
            (list(t.dice), t.weight, str(t.best), [(str(p.play), p.value, p.lower, p.upper, str(p.play.position)) for p in t.plays])
            for t in v.throws
        ] == [
            (t["dice"], t["weight"], t["best"], [(p["play"], p["value"], p["lower"], p["upper"], p["result"]) for p in t["plays"]])
            for t in j["throws"]
        ]


@needs_cli
def test_best_rollouts_are_the_cli_json(tmp_path):
    """best(rollouts=N) gives each play the CLI's rollout; 0 games is refused."""
    args = ["best", "--position", MIDDLE, "--dice", "3,1", "--depth", "1", "--top", "all",
            "--rollouts", "20", "--rollout-seed", "5", "--db-dir", str(tmp_path), "--format", "json"]
    j = cli(args)
    r = d.best(d.Position.parse(MIDDLE), dice="3,1", depth=1, db_dir=tmp_path, rollouts=20, rollout_seed=5)
    assert [p.rollout for p in r.plays] == [
        (p["rollout"]["games"], p["rollout"]["mean"], p["rollout"]["stderr"]) for p in j["plays"]
    ]
    assert d.best(d.Position.parse(MIDDLE), dice="3,1", depth=1, db_dir=tmp_path).plays[0].rollout is None
    with pytest.raises(dalkon.InputError, match="out of range"):
        d.best(d.Position.parse(MIDDLE), dice="3,1", depth=1, rollouts=0)
