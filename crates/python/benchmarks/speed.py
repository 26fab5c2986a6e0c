"""Speed of dalkon's OpenSpiel games against a pure-Python OpenSpiel Dakon.

Run from the repository root, in an environment with dalkon and open_spiel:

    python crates/python/benchmarks/speed.py

It measures, in one run and on the same machine:

- random playouts per CPU second (uniformly random moves, whole games, through
  the OpenSpiel Python state API) of ``dalkon_dakon`` and of
  ``python_dakon`` (pure_dakon.py) on the standard 7×7 start, of the same
  loop on :mod:`dalkon.dakon` alone (no OpenSpiel), and of
  ``dalkon_daldos`` on the Norwegian and Danish boards; ``--rounds`` rounds
  of ``--seconds`` each, interleaved, the best round kept;
- the time of ``open_spiel.python.algorithms.minimax.alpha_beta_search``
  on the 4×4 and 5×3 starts with each Dakon game, each run in a child
  process stopped after ``--timeout`` CPU seconds (default 120).

CPU time, not wall time, is the measure because the machines this runs on
are shared (the load average is printed); both are printed for alpha-beta.

Every figure is checked: the two Dakon games, driven by one seed, must play
the same games to the same final margins, and every alpha-beta value must
equal data/dakon/initial_values.csv. It prints a Markdown table.
``--profile`` adds a cProfile of ``dalkon_dakon`` playouts (where the time
goes).
"""

import argparse
import cProfile
import csv
import importlib.metadata
import io
import os
import platform
import pstats
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))

import pyspiel  # noqa: E402

import pure_dakon  # noqa: E402,F401  (registers python_dakon)
from dalkon import openspiel  # noqa: E402

openspiel.register()


def playouts(game, seconds, seed):
    """Random playouts of ``game`` for about ``seconds`` of CPU: (games,
    plies, CPU seconds, list of player-0 returns)."""
    rng = random.Random(seed)
    root = game.new_initial_state()
    games = plies = 0
    results = []
    start = time.process_time()
    while True:
        state = root.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        results.append(state.returns()[0])
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games, plies, elapsed, results


def direct_playouts(holes, seeds, seconds, seed):
    """Random playouts through :mod:`dalkon.dakon` alone, no OpenSpiel: what
    the bindings cost without OpenSpiel's Python-game layer."""
    from dalkon import dakon

    rng = random.Random(seed)
    rules = dakon.Rules()
    root = dakon.Position.start(holes, seeds)
    games = plies = 0
    results = []
    start = time.process_time()
    while True:
        pos = root
        margin = pos.terminal_margin(rules)
        while margin is None:
            pos, _events = pos.play(rng.choice(pos.legal_moves(rules)), rules)
            margin = pos.terminal_margin(rules)
            plies += 1
        results.append(margin)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games, plies, elapsed, results


def same_games(a, b, games, seed):
    """Plays ``games`` seeded random games of two games at once and checks
    that they agree at every ply; returns the number of plies compared."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    plies = 0
    for _ in range(games):
        x, y = a.new_initial_state(), b.new_initial_state()
        while not x.is_terminal():
            assert str(x) == str(y) and x.legal_actions() == y.legal_actions()
            mx, my = rng_a.choice(x.legal_actions()), rng_b.choice(y.legal_actions())
            x.apply_action(mx)
            y.apply_action(my)
            plies += 1
        assert y.is_terminal() and x.returns() == y.returns()
    return plies


def initial_value(holes, seeds):
    with open(ROOT / "data" / "dakon" / "initial_values.csv", newline="") as f:
        for row in csv.DictReader(f):
            if (row["holes"], row["seeds"], row["origin"], row["mikul"], row["nembak"]) == (
                str(holes), str(seeds), "sow", "on", "keep"):
                return int(row["value"])
    raise KeyError((holes, seeds))


def alpha_beta_child(name, holes, seeds):
    """In the child process: one alpha_beta_search, prints value and seconds."""
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game(name, {"holes": holes, "seeds": seeds})
    sys.setrecursionlimit(100_000)
    start, cpu = time.perf_counter(), time.process_time()
    value, action = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length())
    print(value, action, time.perf_counter() - start, time.process_time() - cpu)


def alpha_beta(name, holes, seeds, timeout):
    """(wall, CPU) seconds of alpha_beta_search in a child process, or None
    when it was stopped after ``timeout`` CPU seconds."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 5))

    cmd = [sys.executable, __file__, "--alpha-beta-child", name, str(holes), str(seeds)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10 * timeout,
                             preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        if out.returncode < 0:  # SIGXCPU / SIGKILL: the CPU limit
            return None
        raise RuntimeError(out.stderr)
    value, _action, wall, cpu = out.stdout.split()
    expected = initial_value(holes, seeds)
    if float(value) != expected:
        raise AssertionError(f"{name} {holes}x{seeds}: alpha-beta {value}, expected {expected}")
    return float(wall), float(cpu)


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}"


def profile(seconds):
    game = pyspiel.load_game("dalkon_dakon")
    prof = cProfile.Profile()
    prof.enable()
    playouts(game, seconds, 1)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per playout round")
    parser.add_argument("--rounds", type=int, default=5, help="playout rounds (best kept)")
    parser.add_argument("--timeout", type=float, default=120.0, help="CPU seconds per alpha-beta run")
    parser.add_argument("--profile", action="store_true", help="cProfile dalkon_dakon playouts")
    parser.add_argument("--alpha-beta-child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.alpha_beta_child:
        name, holes, seeds = args.alpha_beta_child
        alpha_beta_child(name, int(holes), int(seeds))
        return

    native = pyspiel.load_game("dalkon_dakon")
    pure = pyspiel.load_game("python_dakon")
    compared = same_games(native, pure, 50, 99)

    dakon_loop = "`dalkon.dakon.Position` loop 7×7, no OpenSpiel"
    games_to_time = [
        ("`dalkon_dakon` 7×7", native),
        ("`python_dakon` 7×7", pure),
        (dakon_loop, None),
        ("`dalkon_daldos` Norwegian", pyspiel.load_game("dalkon_daldos", {"board": 12})),
        ("`dalkon_daldos` Danish", pyspiel.load_game("dalkon_daldos")),
    ]
    best = {}
    for _round in range(args.rounds):
        for label, game in games_to_time:
            if game is None:
                games, plies, cpu, results = direct_playouts(7, 7, args.seconds, 1)
                bound = 98
            else:
                games, plies, cpu, results = playouts(game, args.seconds, 1)
                bound = game.max_utility()
            assert games > 0 and all(-bound <= r <= bound for r in results)
            if label not in best or plies / cpu > best[label][1]:
                best[label] = (games / cpu, plies / cpu, plies / games)
    rows = [(label, *best[label]) for label, _ in games_to_time]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    ab = []
    for holes, seeds in [(4, 4), (5, 3)]:
        times = [alpha_beta(name, holes, seeds, args.timeout)
                 for name in ("dalkon_dakon", "python_dakon")]
        ab.append((holes, seeds, initial_value(holes, seeds), *times))

    def fmt(t):
        if t is None:
            return f"> {args.timeout:.0f} s CPU (stopped)"
        return f"{t[1]:.2f} s CPU ({t[0]:.2f} s wall)"

    command = "python " + " ".join([os.path.relpath(__file__, ROOT)] + sys.argv[1:])
    print(f"Machine: {machine()}  ")
    print(f"Python {platform.python_version()}, OpenSpiel {importlib.metadata.version('open_spiel')}, "
          f"dalkon {importlib.metadata.version('dalkon')}  ")
    print(f"Load average before the alpha-beta runs: {load:.2f}  ")
    print(f"Command: `{command}` (random playouts: best of {args.rounds} rounds of "
          f"{args.seconds:g} CPU s; "
          f"the two Dakon games agreed on {compared} plies of 50 seeded games)")
    print()
    pure_rate = best["`python_dakon` 7×7"][1]
    print("| random playouts | games/CPU s | plies/CPU s | plies/game | plies/s vs `python_dakon` |")
    print("|---|---:|---:|---:|---:|")
    for label, gps, pps, ppg in rows:
        ratio = f"{pps / pure_rate:.2f}×" if "7×7" in label else ""
        print(f"| {label} | {gps:,.1f} | {pps:,.0f} | {ppg:.1f} | {ratio} |")
    print()
    print("| `alpha_beta_search` from the start | value | `dalkon_dakon` | `python_dakon` |")
    print("|---|---:|---:|---:|")
    for holes, seeds, value, t_native, t_pure in ab:
        print(f"| {holes}×{seeds} | {value:+d} | {fmt(t_native)} | {fmt(t_pure)} |")
    if args.profile:
        print()
        print("```")
        print(profile(args.seconds))
        print("```")


if __name__ == "__main__":
    main()
