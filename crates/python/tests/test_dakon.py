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
