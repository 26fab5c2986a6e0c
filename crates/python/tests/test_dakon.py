"""dalkon.dakon: rules, positions, the solver, proofs, errors, Ctrl-C and the GIL.

Values are pinned against the repository's golden data
(data/dakon/initial_values.csv) and against hand-worked moves.
"""

import _thread
import csv
import json
import os
import pathlib
import pickle
import shutil
import subprocess
import threading
import time

import numpy as np
import pytest

import dalkon
from dalkon.dakon import Position, Rules, prove, replay, solve, verify

REPO = pathlib.Path(__file__).resolve().parents[3]
VALUES = REPO / "data" / "dakon" / "initial_values.csv"


def golden_rows(predicate):
    with VALUES.open() as f:
        return [r for r in csv.DictReader(f) if predicate(r)]


def rules_of(row):
    return Rules(origin=row["origin"], mikul=row["mikul"], nembak=row["nembak"])


# -- rules ------------------------------------------------------------------


def test_rules_default_to_the_standard_rules():
    r = Rules()
    assert (r.origin, r.mikul, r.nembak) == ("sow", "on", "keep")
    assert str(r) == "origin=sow mikul=on nembak=keep"
    assert repr(r) == "Rules(origin='sow', mikul='on', nembak='keep')"
    assert r == Rules(origin="sow", mikul="on", nembak="keep")
    assert r != Rules(nembak="take")
    assert len({Rules(), Rules(), Rules(origin="skip")}) == 2
    assert Rules.parse("origin=skip mikul=off nembak=take") == Rules("skip", "off", "take")
    assert pickle.loads(pickle.dumps(Rules(mikul="off"))) == Rules(mikul="off")


def test_rules_are_read_only():
    with pytest.raises(AttributeError):
        Rules().origin = "skip"


def test_a_misspelt_rule_is_refused_with_the_rules_message():
    with pytest.raises(dalkon.InputError) as e:
        Rules(mikul="of")
    assert str(e.value) == 'mikul: "of" is not a value of this option (expected on or off)'


# -- positions ----------------------------------------------------------------


def test_start_parse_and_str_round_trip():
    p = Position.start(7, 7)
    text = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0"
    assert str(p) == text
    assert repr(p) == f"Position('{text}')"
    assert Position.parse(text) == p
    assert hash(Position.parse(text)) == hash(p)
    assert (p.holes, p.side_to_move, p.stores, p.seeds_on_board()) == (7, 0, (0, 0), 98)
    q = Position.parse("3,0,1/0,2,4/5,6 1")
    assert str(Position.parse(str(q))) == "3,0,1/0,2,4/5,6 1"
    assert (q.side_to_move, q.stores, q.seeds_on_board()) == (1, (5, 6), 10)
    assert q.legal_moves() == [2, 3]
    assert pickle.loads(pickle.dumps(q)) == q


def test_from_rows_builds_and_validates_like_the_parser():
    p = Position.from_rows([3, 0, 1], [0, 2, 4], (5, 6), 1)
    assert p == Position.parse("3,0,1/0,2,4/5,6 1")
    assert Position.from_rows(*Position.start(4, 2).seeds.tolist()) == Position.start(4, 2)
    with pytest.raises(dalkon.InputError) as e:
        Position.from_rows([1, 2], [1])
    assert str(e.value) == "row 0 has 2 holes but row 1 has 1"
    with pytest.raises(dalkon.InputError) as e:
        Position.from_rows([1], [1], side_to_move=2)
    assert str(e.value) == 'the side to move must be 0 or 1, got "2"'
    with pytest.raises(dalkon.InputError, match=r"^256 seeds in all"):
        Position.from_rows([255], [1])


def test_seeds_is_a_fresh_uint8_array_of_both_rows():
    p = Position.parse("3,0,1/0,2,4/5,6 1")
    a = p.seeds
    assert a.dtype == np.uint8 and a.shape == (2, 3)
    assert a.tolist() == [[3, 0, 1], [0, 2, 4]]
    a[0, 0] = 99
    assert p.seeds[0, 0] == 3


def test_a_relay_move_worked_by_hand():
    # 2x2 start, South plays hole 2: 1 seed to the store, 1 into N1 (now 3),
    # which is lifted and sown on N2, (North's store skipped), S1, S2; the
    # last seed lands in the emptied S2, and the opposite N1 is empty.
    p, events = Position.start(2, 2).play(2)
    assert events == [
        "lap: 2 seeds from S2",
        "relay: 3 seeds from N1",
        "nembak at S2: opposite hole empty, nothing captured",
    ]
    assert str(p) == "3,1/0,3/1,0 1"
    assert p.seeds.tolist() == [[3, 1], [0, 3]]
    assert p.legal_moves() == [2]


def test_a_bonus_move():
    p, events = Position.start(2, 2).play(1)
    assert events == ["lap: 2 seeds from S1", "bonus: last seed in own store, move again"]
    assert str(p) == "0,3/2,2/1,0 0"
    assert p.side_to_move == 0


def test_a_nembak_capture_ends_the_game_and_both_nembak_rules():
    start = Position.parse("1,0/5,0/0,0 0")
    p, events = start.play(1)
    assert events == [
        "lap: 1 seeds from S1",
        "nembak at S2: captured 5 from the opposite hole",
        "game over: 1 seeds left on the board go to South (0)'s store",
    ]
    assert str(p) == "0,0/0,0/6,0 1"
    assert p.is_over() and p.legal_moves() == []
    assert p.terminal_margin() == 6
    take = Rules(nembak="take")
    p, events = start.play(1, take)
    assert events[1] == "nembak at S2: captured 6 (5 opposite + the landing seed)"
    assert p.terminal_margin(take) == 6
    assert start.terminal_margin() is None and not start.is_over()


def test_terminal_margin_is_south_minus_north_with_the_sweep():
    # North to move has no seeds: South's 4 on the board go to South.
    p = Position.parse("1,3/0,0/2,9 1")
    assert p.is_over()
    assert p.terminal_margin() == (2 + 4) - 9


def test_an_illegal_move_raises_the_rules_message():
    p = Position.start(3, 2)
    with pytest.raises(dalkon.InputError, match=r"^there is no hole 4: holes are numbered 1 to 3$"):
        p.play(4)
    with pytest.raises(dalkon.InputError, match=r"^hole 2 of the side to move is empty$"):
        Position.parse("1,0,1/1,1,1/0,0 0").play(2)
    with pytest.raises(dalkon.InputError, match=r"^the game is over$"):
        Position.parse("0,0/1,1/0,0 0").play(1)


BAD_MESSAGE = 'expected `<row 0>/<row 1>/<store 0>,<store 1> <side>`, got "BAD"'


def test_a_bad_position_raises_the_cli_message():
    with pytest.raises(dalkon.InputError) as e:
        Position.parse("BAD")
    assert str(e.value) == BAD_MESSAGE
    assert isinstance(e.value, dalkon.DalkonError)
    with pytest.raises(dalkon.InputError) as e:
        Position.parse("1,x/1,1/0,0 0")
    assert str(e.value) == 'row 0, item 2: "x" is not a seed count (a whole number from 0 to 255)'
    with pytest.raises(dalkon.InputError) as e:
        Position.start(4, 0)
    assert str(e.value) == "--seeds 0 must be between 1 and 255"


def dalkon_binary():
    env = os.environ.get("DALKON_BIN")
    for candidate in [env, shutil.which("dalkon"), REPO / "target" / "release" / "dalkon"]:
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    return None


@pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")
def test_the_message_is_the_line_the_binary_prints():
    out = subprocess.run(
        [dalkon_binary(), "dakon", "play", "--position", "BAD", "--moves", "1"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    # The CLI names its flag before the rules' message.
    assert out.stderr.strip() == f'error: bad --position "BAD": {BAD_MESSAGE}'


# -- solving ------------------------------------------------------------------


def cli_moves(moves):
    return [(m["move"], m["value"], m["value"]) if "value" in m else (m["move"], m["lower"], m["upper"]) for m in moves]


@pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")
@pytest.mark.parametrize(
    "text, options, every_move",
    [
        ("4,4,4,4/4,4,4,4/0,0 0", {}, False),
        ("3,0,1/0,2,4/5,6 1", {}, False),
        ("3,3,3,3,3/3,3,3,3,3/0,0 0", {"origin": "skip", "nembak": "take"}, False),
        ("2,5,0,3/1,0,4,2/3,1 0", {"mikul": "off"}, True),
    ],
)
def test_solve_answers_as_dakon_best(text, options, every_move):
    flags = [arg for k, v in options.items() for arg in (f"--{k}", v)]
    flags += ["--every-move"] if every_move else []
    out = subprocess.run(
        [dalkon_binary(), "dakon", "best", "--position", text, "--format", "json", "--tt-mb", "64", *flags],
        capture_output=True,
        text=True,
        check=True,
    )
    cli = json.loads(out.stdout)
    r = solve(Position.parse(text), Rules(**options), every_move=every_move, tt_mb=64)
    assert (r.value, r.best_moves, r.pv, r.exact) == (cli["value"], cli["best_moves"], cli["pv"], cli["exact"])
    assert r.moves == cli_moves(cli["moves"])



SMALL = golden_rows(lambda r: int(r["holes"]) * int(r["seeds"]) <= 9)


@pytest.mark.parametrize(
    "row", SMALL, ids=[f"{r['holes']}x{r['seeds']}-{r['origin']}-{r['mikul']}-{r['nembak']}" for r in SMALL]
)
def test_small_starts_have_their_golden_values(row):
    pos = Position.start(int(row["holes"]), int(row["seeds"]))
    r = solve(pos, rules_of(row), tt_mb=64)
    assert r.exact
    assert r.value == r.lower == r.upper == int(row["value"])
    assert r.best_moves == [int(h) for h in row["best_moves"].split()]


def test_the_seven_by_seven_start_is_plus_98_and_its_pv_replays_to_it():
    r = solve(Position.start(7, 7), tt_mb=512)
    assert (r.value, r.best_moves, r.exact) == (98, [1], True)
    end = replay(Position.start(7, 7), r.pv)
    assert end.is_over()
    assert end.terminal_margin() == 98
    assert r.nodes > 0 and r.seconds > 0


def test_a_non_standard_rule_set():
    rules = Rules(origin="skip")
    row = golden_rows(lambda r: (r["holes"], r["seeds"], r["origin"], r["mikul"], r["nembak"]) == ("4", "4", "skip", "on", "keep"))[0]
    r = solve(Position.start(4, 4), rules, tt_mb=64)
    assert (r.value, r.best_moves) == (int(row["value"]), [int(h) for h in row["best_moves"].split()]) == (30, [1])
    end = replay(Position.start(4, 4), r.pv, rules)
    assert end.terminal_margin(rules) == 30
    # The same board under the standard rules is worth 32.
    assert solve(Position.start(4, 4), tt_mb=64).value == 32


def test_every_move_gives_every_move_its_exact_value():
    pos = Position.start(3, 2)
    r = solve(pos, every_move=True, tt_mb=64)
    assert r.value == 6 and r.best_moves == [3]
    assert [m[0] for m in r.moves] == [1, 2, 3]
    assert all(lo == hi for _, lo, hi in r.moves)
    assert max(lo for _, lo, _ in r.moves) == 6
    # Each move's value is the mover's gain after it plus the child's value.
    for hole, lo, _ in r.moves:
        child, _ = pos.play(hole)
        c = solve(child, tt_mb=64).value
        assert lo == (c if child.side_to_move == pos.side_to_move else -c)


def test_the_pv_for_north_to_move_ends_at_its_value():
    pos, _ = Position.start(3, 3).play(2)
    assert pos.side_to_move == 1
    r = solve(pos, tt_mb=64)
    end = replay(pos, r.pv)
    # The value is North's (the side to move): South's margin negated.
    assert end.terminal_margin() == -r.value


def test_a_node_budget_gives_a_bounded_answer():
    r = solve(Position.start(7, 7), max_nodes=2000, tt_mb=64)
    assert not r.exact
    assert r.lower <= r.value <= r.upper
    assert r.lower <= 98 <= r.upper
    assert len(r.best_moves) == 1
    assert "exact=False" in repr(r)


def test_a_game_over_position_is_its_terminal_value():
    r = solve(Position.parse("1,3/0,0/2,9 1"), tt_mb=64)
    # North to move: its final store minus South's.
    assert (r.value, r.best_moves, r.pv, r.exact) == (9 - 6, [], [], True)


def test_a_bad_time_is_refused():
    with pytest.raises(dalkon.InputError, match="--time must be more than 0 seconds"):
        solve(Position.start(2, 2), time=0)


# -- Ctrl-C and the GIL -------------------------------------------------------


# 15 holes of 8 seeds: the search would run for hours, and the estimate
# that a budget-cut answer runs would take seconds (a stopped search skips it).
HUGE = Position.start(15, 8)


def test_ctrl_c_interrupts_a_long_solve_promptly():
    timer = threading.Timer(0.5, _thread.interrupt_main)
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(HUGE, tt_mb=64)
    finally:
        timer.cancel()
    elapsed = time.monotonic() - t0
    assert 0.5 <= elapsed < 1.5, elapsed


def test_ctrl_c_interrupts_every_move_too():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(Position.start(9, 9), every_move=True, tt_mb=64)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 2.3


def test_solve_releases_the_gil():
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    t = threading.Thread(target=tick)
    t0 = time.monotonic()
    t.start()
    try:
        # 12 x 10: a budget-cut answer's estimate takes well under a second.
        r = solve(Position.start(12, 10), time=1.0, tt_mb=64)
    finally:
        done.set()
        t.join()
    assert not r.exact
    during = [x for x in ticks if t0 + 0.2 < x < t0 + 0.9]
    # The other thread ticked all along (every 5 ms, allow for a slow box).
    assert len(during) > 40, len(during)


# -- proofs ---------------------------------------------------------------------


def test_prove_then_verify_a_small_board(tmp_path):
    p = prove(holes=3, seeds=3, out_dir=tmp_path)
    assert (p.value, p.best_moves) == (10, [1])
    mover, opponent = p.files
    assert mover.path == tmp_path / "mover.strategy"
    assert opponent.path == tmp_path / "opponent.strategy"
    assert (mover.player, mover.guarantees) == (0, 10)
    assert (opponent.player, opponent.guarantees) == (1, -10)
    assert mover.bytes == os.path.getsize(mover.path)
    for f in p.files:
        v = verify(f.path)
        assert v.valid and v.failure is None
        assert v.guarantees == f.guarantees
        assert v.proved >= v.guarantees
        assert v.player == f.player
        assert v.lines == f.lines
        assert v.root == Position.start(3, 3) and v.rules == Rules()
        assert v.positions_checked > 0
    # The guarantees meet: South secures 10, North secures -10.
    assert verify(mover.path).proved == 10 and verify(opponent.path).proved == -10


def test_prove_a_position_gzipped_under_other_rules(tmp_path):
    pos = Position.parse("2,1,0/1,0,2/0,0 0")
    rules = Rules(nembak="take")
    p = prove(pos, rules, out_dir=tmp_path, gzip=True)
    assert p.value == solve(pos, rules, tt_mb=64).value
    assert [f.path.name for f in p.files] == ["mover.strategy.gz", "opponent.strategy.gz"]
    v = verify(p.files[0].path)
    assert v.valid and v.rules == rules and v.root == pos
    assert v.guarantees == p.value


def test_prove_needs_a_position_or_a_board(tmp_path):
    with pytest.raises(dalkon.InputError, match="either a position or both holes and seeds"):
        prove(holes=3, out_dir=tmp_path)


def test_a_damaged_proof_file_is_refused(tmp_path):
    p = prove(holes=2, seeds=2, out_dir=tmp_path)
    path = p.files[0].path
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) - 1]))  # cut short
    with pytest.raises(dalkon.DataError) as e:
        verify(path)
    assert str(e.value).startswith(f"{path}: ")
    with pytest.raises(dalkon.DataError, match="^cannot read "):
        verify(tmp_path / "missing.strategy")


def test_a_strategy_claiming_too_much_does_not_hold(tmp_path):
    p = prove(holes=3, seeds=3, out_dir=tmp_path)
    path = p.files[0].path
    text = path.read_text().replace("guarantees 10\n", "guarantees 11\n", 1)
    path.write_text(text)
    v = verify(path)
    assert not v.valid
    assert (v.guarantees, v.proved) == (11, 10)
    assert v.failure.kind == "below_guarantee"
    assert v.failure.message.startswith("it secures only 10, not the 11 it claims: a worst game is ")
    end = replay(Position.start(3, 3), v.failure.path)
    assert end.is_over() and end.terminal_margin() == 10


@pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")
def test_prove_writes_the_files_dakon_prove_writes(tmp_path):
    text = "2,1,3/0,2,2/1,0 1"
    out = subprocess.run(
        [dalkon_binary(), "dakon", "prove", "--position", text, "--out", str(tmp_path / "cli"),
         "--mikul", "off", "--format", "json", "--tt-mb", "64"],
        capture_output=True,
        text=True,
        check=True,
    )
    cli = json.loads(out.stdout)
    p = prove(Position.parse(text), Rules(mikul="off"), out_dir=tmp_path / "py", tt_mb=64)
    assert (p.value, p.best_moves) == (cli["value"], cli["best_moves"])
    for f, c in zip(p.files, cli["files"]):
        assert (f.player, f.guarantees, f.lines, f.reached, f.settled, f.bytes) == (
            c["player"], c["guarantees"], c["lines"], c["reached"], c["settled"], c["bytes"])
        assert f.path.read_bytes() == pathlib.Path(c["path"]).read_bytes()


# -- one answer everywhere (issue 18) ----------------------------------------

#: 7×7 positions from the principal variation of the 7×7 start, and one with
#: North to move; the CLI's agreement tests use the same.
GAME_7X7 = [
    "0,0,0,1,0,0,7/0,6,0,2,6,9,2/65,0 0",
    "3,3,3,0,1,2,1/1,0,1,5,1,2,5/70,0 0",
    "4,1,0,3,2,1,2/0,1,0,6,0,3,0/75,0 0",
    "3,1,4,2,0,1,3/1,0,1,0,1,0,1/80,0 0",
    "0,6,0,2,6,9,2/0,0,0,1,0,0,7/0,65 1",
]


def agreement_positions():
    starts = [str(Position.start(h, s)) for h in range(2, 6) for s in range(1, 5)]
    return starts + GAME_7X7


def cli_json(*args):
    out = subprocess.run([dalkon_binary(), *args, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")
def test_solve_gives_the_clis_answer_on_small_boards_and_7x7_positions():
    for text in agreement_positions():
        pos = Position.parse(text)
        for every_move in (False, True):
            flags = ["--every-move"] if every_move else []
            cli = cli_json("dakon", "best", "--position", text, *flags)
            r = solve(pos, every_move=every_move)
            assert (r.value, r.best_moves, r.exact, r.pv) == (
                cli["value"], cli["best_moves"], cli["exact"], cli["pv"]), text
            # Each move: the CLI's exact value, or its bounds.
            by_hole = {m[0]: m for m in r.moves}
            assert sorted(by_hole) == [m["move"] for m in cli["moves"]], text
            for m in cli["moves"]:
                _, lower, upper = by_hole[m["move"]]
                if "value" in m:
                    assert lower == upper == m["value"], (text, m)
                else:
                    assert (lower, upper) == (m["lower"], m["upper"]), (text, m)
        show = cli_json("dakon", "show", "--position", text, "--best", "--max-nodes", "1000000000")
        assert (show["value"], show["best_moves"], show["exact"]) == (r.value, r.best_moves, r.exact)


@pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")
def test_the_svg_and_the_drawing_are_the_clis():
    for text in ["1,2,3/4,5,6/7,8 1", "0,0/5,0/3,0 0", GAME_7X7[0]]:
        pos = Position.parse(text)
        for fmt, got in (("svg", pos._repr_svg_()), ("text", pos.draw())):
            out = subprocess.run([dalkon_binary(), "dakon", "show", "--position", text,
                                  "--format", fmt], check=True, capture_output=True,
                                 text=True).stdout
            assert got == out, (text, fmt)


def test_prove_takes_a_position_or_a_board_not_both(tmp_path):
    with pytest.raises(dalkon.InputError, match="give either a position or both holes and seeds"):
        prove(Position.start(2, 1), holes=2, seeds=1, out_dir=tmp_path)


def cli_lines(lines):
    return [
        {"move": l.move, "value": l.value, "exact": l.exact, "pv": l.pv}
        | ({} if l.exact else {"lower": l.lower, "upper": l.upper})
        for l in lines
    ]


@pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")
@pytest.mark.parametrize(
    "text, k",
    [
        ("4,4,4,4/4,4,4,4/0,0 0", 3),
        ("1,1/1,1/0,0 0", 5),
        ("0,3,0,1,2/1,0,2,0,3/6,4 1", 2),
        ("2,1,0,3,4,0,2/1,4,0,2,1,3,0/30,45 0", 4),
    ],
)
def test_multipv_gives_the_lines_of_dakon_best(text, k):
    out = subprocess.run(
        [dalkon_binary(), "--threads", "1", "dakon", "best", "--position", text, "--multipv", str(k), "--format", "json", "--tt-mb", "64"],
        capture_output=True,
        text=True,
        check=True,
    )
    cli = json.loads(out.stdout)
    r = solve(Position.parse(text), multipv=k, tt_mb=64)
    assert (r.value, r.best_moves, r.pv, r.exact) == (cli["value"], cli["best_moves"], cli["pv"], cli["exact"])
    assert cli_lines(r.lines) == cli["lines"]
    assert len(r.lines) == min(k, len(r.moves))
    south = 1 if text.endswith(" 0") else -1
    for line in r.lines:
        assert line.pv[0] == line.move
        end = replay(Position.parse(text), line.pv)
        assert end.is_over() and south * end.terminal_margin() == line.value
    # The hand-worked line: S2 (a bonus move), S1 captures, N2 ends it, +2.
    if text == "1,1/1,1/0,0 0":
        assert repr(r.lines[1]) == "Line(move=2, value=2, exact=True, pv=[2, 1, 2])"


def test_multipv_zero_is_refused_and_none_gives_no_lines():
    with pytest.raises(dalkon.InputError) as e:
        solve(Position.start(4, 4), multipv=0)
    assert str(e.value) == "--multipv must be at least 1 (the number of best moves to show)"
    assert solve(Position.start(4, 4)).lines is None


@pytest.mark.skipif(dalkon_binary() is None, reason="no dalkon binary built")
def test_solve_probing_databases_gives_the_clis_answer(tmp_path):
    text = "0,2,0,6,1/2,0,3,1,4/15,16 1"
    db = tmp_path / "db"
    cli = cli_json("dakon", "best", "--position", text, "--probe-seeds", "10", "--db-dir", str(db))
    r = solve(Position.parse(text), probe_seeds=10, db_dir=db)
    plain = solve(Position.parse(text))
    assert (r.value, r.best_moves, r.pv) == (cli["value"], cli["best_moves"], cli["pv"])
    assert (r.value, r.best_moves, r.pv, r.moves) == (plain.value, plain.best_moves, plain.pv, plain.moves)
    assert len(list(db.iterdir())) == 11  # levels 0 to 10, built once, reused
    with pytest.raises(dalkon.InputError, match="--probe-seeds 128 must be between 0 and 127"):
        solve(Position.parse(text), probe_seeds=128)
