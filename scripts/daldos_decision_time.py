#!/usr/bin/env python3
"""Time `daldos best` for a throw at depths 2 and 3 (and, with --depth4, 4)
over the decisions of full-board games between engines (issue 21: depth 3
within 2 s on a full board).

Needs the Python package (`scripts/python_tests.sh` installs it into
target/python-venv):

    target/python-venv/bin/python scripts/daldos_decision_time.py danish
    target/python-venv/bin/python scripts/daldos_decision_time.py norwegian

Six seeded games a board; each play is the engine's at depth 2 (four
times in five) or a random one, so that the games vary; every third
decision (a throw with more than one play) is timed, without tables (an
empty table folder), as `daldos best --dice D --depth N` answers it.
"""
import random
import sys
import tempfile
import time

import dalkon.daldos as d


def main():
    board = sys.argv[1] if len(sys.argv) > 1 else "danish"
    depths = [2, 3] + ([4] if "--depth4" in sys.argv else [])
    rules = d.Rules(board=board)
    db = tempfile.mkdtemp()
    times = {n: [] for n in depths}
    worst = (0.0, "")
    for g in range(6):
        rng = random.Random(100 + g)
        p = d.Position.start(rules)
        k = 0
        while not p.is_over() and k < 400:
            d1, d2 = rng.randint(1, 4), rng.randint(1, 4)
            plays = p.plays(d1, d2)
            if len(plays) == 1:
                p = plays[0].position
                continue
            k += 1
            if k % 3 == 0:
                for n in depths:
                    t = time.perf_counter()
                    r = d.best(p, dice=(d1, d2), depth=n, db_dir=db)
                    s = time.perf_counter() - t
                    assert r.complete and r.depth == n
                    times[n].append(s)
                    if n == 3:
                        worst = max(worst, (s, f"{p} --dice {d1},{d2}"))
            r = d.best(p, dice=(d1, d2), depth=2, db_dir=db)
            if rng.random() < 0.8:
                p = next(x for x in plays if str(x) == str(r.best)).position
            else:
                p = rng.choice(plays).position
    for n in depths:
        ts = sorted(times[n])
        m = len(ts)
        print(
            f"{board} depth {n}: {m} decisions, median {ts[m // 2]:.3f} s, "
            f"90th percentile {ts[int(m * 0.9)]:.3f} s, max {ts[-1]:.3f} s, "
            f"over 2 s: {sum(t > 2 for t in ts)}"
        )
    print(f"slowest at depth 3 ({worst[0]:.3f} s): {worst[1]}")


if __name__ == "__main__":
    main()
