"""Game records and whole-game analysis from Python: the records the CLI
writes read back, bad ones are refused with the CLI's message, and
``analyse`` returns exactly the CLI's JSON (``dalkon dakon analyse
--format json``)."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

import dalkon
from dalkon import dakon, daldos

REPO = pathlib.Path(__file__).resolve().parents[3]

DAKON_GAME = """[Game "dakon"]
[Holes "3"]
[Seeds "2"]

1 2 1 2 3 2 3
"""


def dalkon_binary():
    env = os.environ.get("DALKON_BIN")
    for candidate in [env, shutil.which("dalkon"), REPO / "target" / "release" / "dalkon"]:
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    return None


def test_a_dakon_record_reads_writes_and_replays(tmp_path):
    start = dakon.Position.start(4, 4)
    r = dakon.Record(start, [1, 2])
    assert r.moves == [1, 2]
    assert r.result == "*"
    text = str(r)
    assert text.startswith('[Game "dakon"]\n[Rules "origin=sow mikul=on nembak=keep"]\n[Holes "4"]\n[Seeds "4"]\n')
    back = dakon.Record.parse(text)
    assert back.moves == [1, 2] and back.start == start
    assert back.positions()[-1] == dakon.replay(start, [1, 2])
    path = tmp_path / "g.record"
    r.write(path)
    assert str(dakon.Record.read(path)) == text


def test_a_bad_record_is_refused_with_the_line_and_column(tmp_path):
    with pytest.raises(dalkon.InputError) as e:
        dakon.Record.parse('[Game "dakon"]\n[Holes "4"]\n[Seeds "4"]\n1 2\n  9\n')
    assert str(e.value) == "line 5, column 3: move 3 `9`: there is no hole 9: holes are numbered 1 to 4 (North (1) to move)"
    with pytest.raises(dalkon.InputError) as e:
        daldos.Record.parse('[Game "dakon"]\n')
    assert "this is a record of \"dakon\", read here as a record of daldos" in str(e.value)
    with pytest.raises(dalkon.InputError):
        dakon.Record.read(tmp_path / "none.record")
    with pytest.raises(dalkon.InputError) as e:
        dakon.Record(dakon.Position.start(4, 4), [1, 1])
    assert str(e.value) == "move 2 (1): hole 1 of the side to move is empty"


def test_a_daldos_record_keeps_its_plays():
    rules = daldos.Rules(board=4)
    start = daldos.Position.start(rules)
    pos, plays = start, []
    for d1, d2 in [(3, 1), (4, 3), (2, 2), (4, 1)]:
        p = pos.plays(d1, d2)[0]
        plays.append(p)
        pos = p.position
    r = daldos.Record(start, plays)
    text = str(r)
    assert text.startswith('[Game "daldos"]\n[Rules "board=4 dal=any capture=final end=last"]\n')
    back = daldos.Record.parse(text)
    assert [str(p) for p in back.plays] == [str(p) for p in plays]
    assert back.positions()[-1] == pos
    assert back.rules == rules


def test_dakon_analyse_is_the_cli_json(tmp_path):
    report = dakon.analyse(DAKON_GAME)
    assert report["game"] == "dakon"
    assert [d["played"] for d in report["decisions"]] == [1, 2, 1, 2, 3, 2, 3]
    assert all(d["exact"] for d in report["decisions"])
    # A Record gives the same report as its text.
    again = dakon.analyse(dakon.Record.parse(DAKON_GAME), time=None)
    strip = lambda r: [{k: v for k, v in d.items() if k not in ("nodes", "seconds")} for d in r["decisions"]]
    assert strip(again) == strip(report)
    if dalkon_binary() is None:
        pytest.skip("no dalkon binary built")
    path = tmp_path / "g.record"
    path.write_text(DAKON_GAME)
    out = subprocess.run(
        [dalkon_binary(), "dakon", "analyse", str(path), "--format", "json"],
        capture_output=True, text=True, check=True,
    )
    cli = json.loads(out.stdout)
    assert strip(cli) == strip(report)
    assert cli["summary"] == report["summary"]
    assert set(cli) == set(report)


def test_dakon_analyse_probing_databases_gives_the_same_judgements(tmp_path):
    # The 6 x 6 game of docs/python.md: every decision exact, with and
    # without the endgame databases (levels 0 to 10, built once into the
    # folder), and the CLI's `--probe-seeds` gives the same report.
    path = REPO / "docs" / "examples" / "dakon-6x6.record"
    g = dakon.Record.parse(path.read_text())
    strip = lambda r: [{k: v for k, v in d.items() if k not in ("nodes", "seconds")} for d in r["decisions"]]
    plain = dakon.analyse(g, time=None)
    db = tmp_path / "db"
    probing = dakon.analyse(g, time=None, probe_seeds=10, db_dir=db)
    assert strip(probing) == strip(plain)
    assert probing["summary"] == plain["summary"]
    assert len(list(db.iterdir())) == 11
    assert sum(d["nodes"] for d in probing["decisions"]) < sum(d["nodes"] for d in plain["decisions"])
    with pytest.raises(dalkon.InputError, match="--probe-seeds 200 must be between 0 and 127"):
        dakon.analyse(g, probe_seeds=200)
    if dalkon_binary() is None:
        pytest.skip("no dalkon binary built")
    out = subprocess.run(
        [dalkon_binary(), "dakon", "analyse", str(path), "--time", "0", "--probe-seeds", "10",
         "--db-dir", str(db), "--format", "json"],
        capture_output=True, text=True, check=True,
    )
    assert strip(json.loads(out.stdout)) == strip(plain)


def test_the_example_of_docs_python_md():
    # docs/python.md, "Game records and analysis", as shown there.
    g = dakon.Record.parse((REPO / "docs" / "examples" / "dakon-6x6.record").read_text())
    assert (len(g.moves), g.result) == (19, "0-1")
    r = dakon.analyse(g, time=None)
    assert [(d["ply"], d["played"], d["best"], d["loss"], d["mark"]) for d in r["decisions"][:3]] == [
        (1, 2, [1], 128, "blunder"),
        (2, 6, [3, 4], 80, "blunder"),
        (3, 6, [5], 34, "blunder"),
    ]


def test_daldos_analyse_is_the_cli_json_and_luck_adds_up(tmp_path):
    rules = daldos.Rules(board=4)
    daldos.solve_tables(rules, (4, 4), db_dir=tmp_path)
    text = """[Game "daldos"]
[Rules "board=4 dal=any capture=final end=last"]

3,1 (A4-M4 M4-M1) 4,3 - 3,2 (M1-B2 B2-B4x) 2,1 (B3-B4 B4-M3)
4,3 (B4-M1 M1-B2x) 3,2 (M3-M0 M0-A2x) 4,3 (B2-M3 M3-M0)
4,1 (B1-B2 B2-M3) 4,2 (M0-B4 B4-M3x) 3,2 (A2-M4 M4-M2) 3,2 (M3-M0 M0-B2)
2,1 (M2-M0 M0-A1x) 2,2 (B2-B4 B4-M3) 4,1 (A1-M4 M4-M3x) 4,2 -
2,1 (M3-M1 M1-M0) 4,2 - 4,3 M0-A3x
"""
    report = daldos.analyse(text, db_dir=tmp_path)
    assert report["game"] == "daldos"
    assert all(d["exact"] for d in report["decisions"])
    signed = sum((1 if d["side"] == "a" else -1) * (d["luck"] - d["loss"]) for d in report["decisions"])
    assert abs(report["result"] - report["start_value"] - signed) < 1e-9
    assert report["result"] == 0.0  # B won
    assert daldos.analyse(daldos.Record.parse(text), db_dir=tmp_path)["summary"] == report["summary"]
    if dalkon_binary() is None:
        pytest.skip("no dalkon binary built")
    path = tmp_path / "g.record"
    path.write_text(text)
    out = subprocess.run(
        [dalkon_binary(), "daldos", "analyse", str(path), "--db-dir", str(tmp_path), "--format", "json"],
        capture_output=True, text=True, check=True,
    )
    cli = json.loads(out.stdout)
    strip = lambda r: [{k: v for k, v in d.items() if k not in ("nodes", "seconds")} for d in r["decisions"]]
    assert strip(cli) == strip(report)
    assert cli["summary"] == report["summary"]
