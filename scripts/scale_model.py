#!/usr/bin/env python3
"""Scale beyond one machine: measured and projected (issue 22 §2).

Reads only committed files and the Python standard library:
  data/daldos/solved.csv, data/daldos/solved_full.csv,
  data/scale/solved_danish_sum5.csv                   (built layers)
  data/dakon/openings.csv                               (measured totals)
  data/scale/openings_layers.csv                        (measured layer logs)
  data/dakon/openings_first.csv                         (the abandoned counts)
and writes data/scale/projection.md and data/scale/projection.csv
(each to a temporary file first, then renamed).

    python3 scripts/scale_model.py [--check]

--check writes nothing: it verifies that the layer-size formula
reproduces every measured Daldøs layer and that data/scale/projection.md
is what the model gives (CI runs it), and prints the table.

Daldøs: layer sizes are exact (the generating function of
crates/daldos/src/solved/index.rs, in big integers; checked against every
layer in the solved csv files, and crates/daldos/src/solved/index.rs's
tests pin the same numbers). Memory is the solver's own plan
(16 bytes of bounds a position, plus twice the largest component's
working set at 464 bytes a position: solved/build.rs), time the measured
CPU seconds a position.

Dakon openings: positions per layer (the mover's store s, 0..T with
T = 2·n·m seeds) are measured on 6×6, 6×7, 7×6 and 7×7; ln N_s is
interpolated at x = s/T and fitted as a(x) + b(x)·T over the measured
boards, then summed over the layers of 8×8 and 9×9. Everything about
8×8 and 9×9 is extrapolated; the fit's error is measured by fitting
without 7×7 and predicting it.
"""

import csv
import math
import os
import sys
from math import comb, factorial

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
GIB = 1 << 30

# One node: 24 GiB of memory, of which a build may use what
# dalkon_store::memory::budget leaves (a tenth kept free); 32 cores
# (the sbatch example of docs/mpi.md).
NODE_BYTES = 24 * GIB
NODE_USABLE = NODE_BYTES - NODE_BYTES // 10
NODE_CORES = 32
DISK_BYTES = 79e9  # the disk of this machine

# ---------------------------------------------------------------- Daldøs

# Bytes a position of a component while it is solved (solved/build.rs,
# COMPONENT_BYTES): ten throws of (bound, range), about sixty inside
# plays, order and bounds.
COMPONENT_BYTES = 10 * (16 + 4) + 60 * 4 + 8 + 16
BOUND_BYTES = 16


def layer_size(L, a, b):
    """[x^a y^b] (1+x+y)^(L+3) (1+2x+y)^(L-1) (1+x+2y)^(L-1), exactly."""
    poly = [[0] * (b + 1) for _ in range(a + 1)]
    poly[0][0] = 1
    for (cx, cy), times in (((1, 1), L + 3), ((2, 1), L - 1), ((1, 2), L - 1)):
        for _ in range(times):
            for i in range(a, -1, -1):
                for j in range(b, -1, -1):
                    v = poly[i][j]
                    if i:
                        v += cx * poly[i - 1][j]
                    if j:
                        v += cy * poly[i][j - 1]
                    poly[i][j] = v
    return poly[a][b]


def patterns(L, k):
    """Row patterns of k pieces: [x^k] (1+x)(1+2x)^(L-1)."""
    n = comb(L - 1, k) * 2**k
    if k >= 1:
        n += comb(L - 1, k - 1) * 2 ** (k - 1)
    return n


def loops(L, a, b, ka, kb):
    """Positions of one component with ka, kb pieces on the two patterns."""
    s = 0
    for i in range(a - ka + 1):
        for j in range(b - kb + 1):
            if i + j > L + 1:
                continue
            mid = factorial(L + 1) // (factorial(i) * factorial(j) * factorial(L + 1 - i - j))
            s += comb(L - kb, a - ka - i) * comb(L - ka, b - kb - j) * mid
    return s


def largest_component(L, a, b):
    return max(
        loops(L, a, b, ka, kb)
        for ka in range(min(a, L) + 1)
        for kb in range(min(b, L) + 1)
        if patterns(L, ka) * patterns(L, kb) > 0
    )


def check_daldos_sizes():
    """Every built layer's positions, as the formula gives them."""
    n = 0
    for name in ("daldos/solved.csv", "daldos/solved_full.csv", "scale/solved_danish_sum5.csv"):
        with open(os.path.join(ROOT, "data", name)) as f:
            for row in csv.DictReader(f):
                L, a, b = int(row["board"]), int(row["a"]), int(row["b"])
                want = int(row["positions"])
                got = layer_size(L, a, b)
                if got != want:
                    sys.exit(f"layer size formula: L={L} {a} v {b} gives {got}, measured {want}")
                n += 1
    return n


# Measured CPU seconds of whole builds (README "Speed", and the runs of
# this script's commit, docs/mpi.md "Scale"): scope, positions, CPU s.
DALDOS_RUNS = [
    # Norwegian a, b <= 3: 254,481,695 positions, about 47 CPU-min.
    ("norwegian up to 3 v 3", 12, (3, 3), 47 * 60.0),
    # The whole L = 5 game: 58,054,207 positions, 941 s of CPU.
    ("L = 5 up to 5 v 5", 5, (5, 5), 941.0),
    # Danish a + b <= 4: 8,858,940 positions, 72 s of CPU.
    ("danish a + b <= 4", 16, "sum4", 72.0),
]


def scope_layers(L, scope):
    if scope == "sum4" or scope == "sum5":
        top = 4 if scope == "sum4" else 5
        return [(a, b) for a in range(1, top) for b in range(1, top) if a + b <= top]
    A, B = scope
    out = set()
    for a in range(1, A + 1):
        for b in range(1, B + 1):
            out.add((a, b))
            out.add((b, a))
    return sorted(out)


def cpu_per_piece_position():
    """CPU seconds per position and piece (a + b): the work of a position
    is its plays, which grow with the pieces that can move."""
    rates = []
    for what, L, scope, cpu in DALDOS_RUNS:
        work = sum((a + b) * layer_size(L, a, b) for a, b in scope_layers(L, scope))
        rates.append((what, cpu / work))
    return rates


def daldos_projection(name, L, scope, c):
    layers = scope_layers(L, scope)
    sizes = {k: layer_size(L, *k) for k in layers}
    positions = sum(sizes.values())
    big = max(sizes, key=lambda k: sizes[k])
    comp = max(largest_component(L, a, b) for a, b in layers)
    # The plan of solved/build.rs: every layer's bounds in memory, and two
    # largest components' working sets.
    plan = positions * BOUND_BYTES + 2 * comp * COMPONENT_BYTES
    # Out of core: finished layers on disk (mapped), the pair being built
    # and its components in memory.
    pair = max(sizes[k] + (sizes.get((k[1], k[0]), 0) if k[0] != k[1] else 0) for k in layers)
    ooc_ram = pair * BOUND_BYTES + 2 * comp * COMPONENT_BYTES
    cpu = c * sum((a + b) * n for (a, b), n in sizes.items())
    return {
        "what": name,
        "kind": "daldos",
        "positions": positions,
        "positions_measured": "exact (formula checked on every built layer)",
        "largest_layer": f"{big[0]} v {big[1]}: {sizes[big]:,}",
        "largest_layer_positions": sizes[big],
        "largest_component": comp,
        "component_bytes": comp * COMPONENT_BYTES,
        "bytes": plan,
        "nodes": math.ceil(plan / NODE_USABLE),
        "cpu_seconds": cpu,
        "ooc_ram": ooc_ram,
        "disk": positions * BOUND_BYTES,
        "layers": [(f"{a} v {b}", sizes[(a, b)]) for a, b in layers],
    }


# ---------------------------------------------------------- Dakon openings


def read_layer_logs():
    """Forward layer sizes: {(holes, seeds): {layer: positions}}."""
    logs = {}
    with open(os.path.join(ROOT, "data", "scale", "openings_layers.csv")) as f:
        for row in csv.DictReader(f):
            if row["pass"] != "forward":
                continue
            key = (int(row["holes"]), int(row["seeds"]))
            logs.setdefault(key, {})[int(row["layer"])] = int(row["positions"])
    return logs


def read_totals():
    with open(os.path.join(ROOT, "data", "dakon", "openings.csv")) as f:
        return {(int(r["holes"]), int(r["seeds"])): int(r["positions"]) for r in csv.DictReader(f)}


XS = [i / 200 for i in range(40, 200)]  # x = s/T from 0.2 to 0.995


def profile(layers, T):
    """ln N_s interpolated at each x of XS (None outside the measured layers)."""
    pts = sorted((s / T, math.log(n)) for s, n in layers.items() if n > 0)
    out = []
    for x in XS:
        lo = [p for p in pts if p[0] <= x]
        hi = [p for p in pts if p[0] >= x]
        if not lo or not hi:
            out.append(None)
            continue
        (x0, y0), (x1, y1) = lo[-1], hi[0]
        out.append(y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0))
    return out


def fit(boards, logs):
    """Per x: least squares of ln N = a + b·T over the boards measured there."""
    profs = {k: profile(logs[k], 2 * k[0] * k[1]) for k in boards}
    coef = []
    for i in range(len(XS)):
        pts = [(2 * k[0] * k[1], profs[k][i]) for k in boards if profs[k][i] is not None]
        ts = {t for t, _ in pts}
        if len(ts) < 2:
            coef.append(None)
            continue
        mt = sum(t for t, _ in pts) / len(pts)
        my = sum(y for _, y in pts) / len(pts)
        b = sum((t - mt) * (y - my) for t, y in pts) / sum((t - mt) ** 2 for t, _ in pts)
        coef.append((my - b * mt, b))
    return coef


def predict(coef, holes, seeds):
    """Predicted positions per layer of board holes × seeds (layers whose x
    lies in the fitted range)."""
    T = 2 * holes * seeds
    out = {}
    for s in range(T + 1):
        x = s / T
        i = round((x - XS[0]) * 200)
        if 0 <= i < len(XS) and coef[i] is not None:
            a, b = coef[i]
            out[s] = math.exp(a + b * T)
    return out


# Measured: the 7×7 count of `reproduce --full` (README "Speed"), both
# passes, 2 threads: positions a second of the whole count.
OPENINGS_RATE_2_THREADS = 3_870_246_473 / 1952.0

# Measured peaks (bytes charged by the count, one process, every finished
# layer in memory) of the example's runs on this commit: board, positions,
# peak bytes charged, peak RSS in KB.
OPENINGS_PEAKS = [
    ("6x7", 34_988_529, 91_643_471, 266_344),
    ("7x6", 62_608_833, 168_491_292, 410_952),
    ("9x4", 25_445_060, 72_536_407, 241_528),
]

# Measured Daldøs builds on this commit (`/usr/bin/time`): scope, plan
# bytes are computed, peak RSS in KB, CPU seconds.
DALDOS_RSS = [
    ("norwegian --pieces 2,2", 12, (2, 2), 92_400, 9.21),
    ("danish --pieces 3,1", 16, (3, 1), 306_632, 42.2),
    ("5 --pieces 5,5 (README)", 5, (5, 5), int(0.93 * (1 << 20)), 941.0),
    ("norwegian --pieces 3,3 (README)", 12, (3, 3), int(6.7 * (1 << 20)), 47 * 60.0),
    ("danish --pieces 3,2", 16, (3, 2), 5_880_444, 1778.2),
]

# Danish a + b <= 5 built on this machine (this commit): `--pieces 3,2`
# then `--pieces 4,1` into the same folder (the second loads the layers
# of the first), 2 threads, machine shared. Wall s, CPU s, peak RSS KB.
DANISH5_BUILT = (1173.6 + 638.8, 1778.2 + 804.9, 5_880_444)


def main():
    check_only = "--check" in sys.argv[1:]
    checked = check_daldos_sizes()
    rates = cpu_per_piece_position()
    c = max(r for _, r in rates)
    rows = []
    lines = []
    out = lines.append
    out("# Scale beyond one machine: measured and projected")
    out("")
    out("Generated by `python3 scripts/scale_model.py` from the committed csv files")
    out("(data/daldos/solved*.csv, data/dakon/openings*.csv). Issue 22 §2.")
    out("A node is 24 GiB (a build may use 90 % of it) and 32 cores; this machine")
    out("has 2 cores, 24 GiB and a 79 GB disk.")
    out("")
    out("## Daldøs tables")
    out("")
    out(f"Layer sizes are exact: the generating function of")
    out(f"`crates/daldos/src/solved/index.rs` reproduces all {checked} built layers of")
    out("`data/daldos/solved.csv` and `solved_full.csv` (the script stops otherwise).")
    out("Memory is the solver's plan (`solved/build.rs`): 16 bytes of bounds for every")
    out(f"position of the scope, plus twice the largest component at {COMPONENT_BYTES} bytes a")
    out("position. Measured peak RSS against that plan:")
    out("")
    out("| build | positions | plan | peak RSS | CPU s | CPU µs per position × pieces |")
    out("|---|---:|---:|---:|---:|---:|")
    for what, L, sc, rss_kb, cpu in DALDOS_RSS:
        p = daldos_projection(what, L, sc, c)
        work = sum((a + b) * layer_size(L, a, b) for a, b in scope_layers(L, sc))
        out(f"| `{what}` | {p['positions']:,} | {p['bytes'] / (1 << 20):,.0f} MiB | "
            f"{rss_kb / 1024:,.0f} MiB | {cpu:,.1f} | {cpu / work * 1e6:.2f} |")
    out("")
    out("Time: the CPU seconds of a build are close to proportional to positions × pieces")
    out("(the plays of a position grow with the pieces that can move): "
        + ", ".join(f"{w} {r * 1e6:.2f} µs" for w, r in rates)
        + f"; the projection takes the highest, {c * 1e6:.2f} µs.")
    out("")
    projections = [
        (daldos_projection("Norwegian 4 v 4 (`--board norwegian --pieces 4,4`)", 12, (4, 4), c), (4, 4)),
        (daldos_projection("Danish a + b ≤ 5 (`--board danish --pieces 4,1` and `3,2`)", 16, "sum5", c),
         "sum5"),
    ]
    for p, scope in projections:
        out(f"### {p['what']}")
        out("")
        out("| layer | positions |")
        out("|---|---:|")
        for k, n in p["layers"]:
            out(f"| {k} | {n:,} |")
        out("")
        out(f"- positions: **{p['positions']:,}** (exact); largest layer {p['largest_layer']}; "
            f"largest component {p['largest_component']:,} positions "
            f"({fmt_bytes(p['component_bytes'])} of working set);")
        nodes = "node" if p["nodes"] == 1 else "nodes"
        out(f"- memory (the plan): **{fmt_bytes(p['bytes'])}**, so **{p['nodes']} {nodes}** of 24 GiB;")
        if p["component_bytes"] > NODE_USABLE:
            out(f"  but the largest component alone needs {fmt_bytes(p['component_bytes'])} while it is"
                f" solved, more than a node: sharing whole components among the ranks is not"
                f" enough, a component must itself be split (or its {COMPONENT_BYTES} bytes a"
                " position cut, e.g. plays regenerated each sweep instead of stored);")
        out(f"- CPU: {p['cpu_seconds'] / 3600:,.0f} CPU-hours: {fmt_time(p['cpu_seconds'] / 2)} on this "
            f"machine's 2 cores, {fmt_time(p['cpu_seconds'] / NODE_CORES)} on one 32-core node, "
            f"{fmt_time(p['cpu_seconds'] / NODE_CORES / max(p['nodes'], 1))} on {p['nodes']} {nodes} "
            "(if components spread evenly: not measured, `daldos solve` is not yet an MPI job);")
        fits_disk = p["disk"] < DISK_BYTES
        fits_ram = p["ooc_ram"] < NODE_USABLE
        out(f"- out of core on one machine: tables {fmt_bytes(p['disk'])} on disk "
            f"({'fits' if fits_disk else 'does not fit'} the 79 GB disk), "
            f"{fmt_bytes(p['ooc_ram'])} in memory for the largest pair and its components "
            f"({'fits' if fits_ram else 'does not fit'} 24 GiB).")
        if scope == "sum5":
            wall, cpu, rss = DANISH5_BUILT
            out(f"- **built on this machine** (`dalkon daldos solve --board danish --pieces 3,2`, then"
                f" `--pieces 4,1`; every layer in `data/scale/solved_danish_sum5.csv`, no layer"
                f" stalled): {wall / 60:.1f} min wall, {cpu:,.0f} CPU-s"
                f" ({cpu / p['cpu_seconds']:.2f}× the projection), peak RSS {rss / (1 << 20):.2f} GiB"
                f" ({rss * 1024 / p['bytes']:.2f}× the plan).")
        out("")
        rows.append(p)
    lines, rows2 = openings_section(lines, rows)
    text = "\n".join(lines) + "\n"
    if check_only:
        path = os.path.join(ROOT, "data", "scale", "projection.md")
        with open(path) as f:
            if f.read() != text:
                sys.exit("data/scale/projection.md is not what the model gives: run "
                         "python3 scripts/scale_model.py")
        sys.stdout.write(text)
        return
    atomic_write(os.path.join(ROOT, "data", "scale", "projection.md"), text)
    buf = ["what,kind,positions,largest_layer_positions,bytes,nodes_24gib,cpu_hours,"
           "hours_one_node,hours_k_nodes,out_of_core_ram_bytes,disk_bytes,measured"]
    for p in rows2:
        hours1 = p["cpu_seconds"] / NODE_CORES / 3600
        buf.append(",".join([
            '"' + p["what"].replace('"', "'") + '"', p["kind"], f"{p['positions']:.6g}",
            f"{p['largest_layer_positions']:.6g}", f"{p['bytes']:.6g}", str(p["nodes"]),
            f"{p['cpu_seconds'] / 3600:.4g}", f"{hours1:.4g}",
            f"{hours1 / max(p['nodes'], 1):.4g}", f"{p['ooc_ram']:.6g}", f"{p['disk']:.6g}",
            '"' + p["positions_measured"] + '"',
        ]))
    atomic_write(os.path.join(ROOT, "data", "scale", "projection.csv"), "\n".join(buf) + "\n")
    sys.stdout.write(text)


def fmt_bytes(b):
    if b >= 1 << 60:
        return f"{b / (1 << 60):,.1f} EiB"
    if b >= 1 << 50:
        return f"{b / (1 << 50):,.1f} PiB"
    if b >= 1 << 40:
        return f"{b / (1 << 40):,.1f} TiB"
    return f"{b / GIB:,.1f} GiB"


def fmt_time(s):
    if s < 60:
        return f"{s:.0f} s"
    if s >= 86400 * 365:
        return f"{s / 86400 / 365:,.0f} years"
    if s >= 86400 * 2:
        return f"{s / 86400:,.0f} days"
    if s >= 3600:
        return f"{s / 3600:,.1f} h"
    return f"{s / 60:,.0f} min"


def atomic_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# ---------------------------------------------------------- Dakon openings
#
# Model: the growth of a layer over the one below, ln r(s) = ln(N_{s+1}/N_s),
# as a function of x = s/T (T = 2·n·m seeds), is that of the reference
# board 7×6 (the largest whose every layer is measured) shifted by
# beta·(T - 84): the larger board grows faster at the same x. beta is one
# least-squares constant over every (board, layer) measured on both. A
# board is then projected from its last measured layer upwards.

REF = (7, 6)
SMOOTH = 2  # layers either side averaged in ln r


def forward_logs():
    logs = {}
    with open(os.path.join(ROOT, "data", "scale", "openings_layers.csv")) as f:
        for row in csv.DictReader(f):
            if row["pass"] == "forward":
                key = (int(row["holes"]), int(row["seeds"]))
                logs.setdefault(key, {})[int(row["layer"])] = int(row["positions"])
    return logs


def growth(layers):
    """Smoothed ln r at x = (s + 1/2)/T for the layers of at least 200 positions."""
    raw = {s: math.log(layers[s + 1] / layers[s]) for s in layers if s + 1 in layers and layers[s] >= 200}
    out = {}
    for s in raw:
        w = [raw[k] for k in range(s - SMOOTH, s + SMOOTH + 1) if k in raw]
        if len(w) == 2 * SMOOTH + 1:
            out[s] = sum(w) / len(w)
    return out


def ref_curve(logs):
    T = 2 * REF[0] * REF[1]
    g = growth(logs[REF])
    # Past the top, the smoothing window runs out: the raw ratios there.
    layers = logs[REF]
    for s in layers:
        if s + 1 in layers and s not in g and s > max(g):
            g[s] = math.log(layers[s + 1] / layers[s])
    return sorted(((s + 0.5) / T, v) for s, v in g.items())


def interp(pts, x):
    if x <= pts[0][0]:
        return pts[0][1]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return pts[-1][1]


def fit_beta(logs, boards):
    ref = ref_curve(logs)
    num = den = 0.0
    x_lo, x_hi = ref[0][0], ref[-1][0]
    for b in boards:
        T = 2 * b[0] * b[1]
        if T == 2 * REF[0] * REF[1]:
            continue
        for s, v in growth(logs[b]).items():
            x = (s + 0.5) / T
            if x_lo <= x <= x_hi:
                num += (v - interp(ref, x)) * (T - 84)
                den += (T - 84) ** 2
    return num / den


# A layer never holds more than a few percent of its compositions (the
# rows' seeds, U(s) = C(T - s + 2n - 1, 2n - 1)): measured at most 0.036
# (6×6), 0.029 (7×6), 0.090 (6×7); the projection caps each layer at
# CAP · U(s), and gives the range of the caps measured.
CAP = 0.05
CAPS = (0.03, 0.09)


def universe(board, s):
    T = 2 * board[0] * board[1]
    return comb(T - s + 2 * board[0] - 1, 2 * board[0] - 1)


def project(logs, beta, board, anchor, cap=CAP):
    """Layers of `board`: measured up to `anchor`, then projected."""
    T = 2 * board[0] * board[1]
    ref = ref_curve(logs)
    layers = {s: float(n) for s, n in logs.get(board, {}).items() if s <= anchor}
    n = layers[anchor]
    for s in range(anchor, T):
        n *= math.exp(interp(ref, (s + 0.5) / T) + beta * (T - 84))
        if n < 1:
            break
        layers[s + 1] = min(n, cap * universe(board, s + 1))
    return layers


def openings_section(lines, rows):
    logs = forward_logs()
    totals = read_totals()
    out = lines.append
    measured = sorted(logs)
    full = [b for b in measured if sum(logs[b].values()) == totals.get(b)]
    partial = [b for b in measured if b not in full]
    out("## Dakon openings counts")
    out("")
    out("Measured: the positions of every layer (the mover's store s) of the first turn,")
    out("`data/scale/openings_layers.csv`, written by")
    out("`cargo run --release -p dalkon-dakon --example openings_layers -- HOLES SEEDS`;")
    out("complete on " + ", ".join(f"{h}×{m}" for h, m in full)
        + " (their sums are the counts of `data/dakon/openings.csv`), the first layers only on "
        + ", ".join(f"{h}×{m} (to s = {max(logs[(h, m)])})" for h, m in partial) + ".")
    out("")
    out("Model: the growth of a layer over the one below, ln(N(s+1)/N(s)), at x = s/T")
    out("(T = 2nm seeds) is the 7×6 curve shifted by β·(T − 84): bigger boards grow")
    out("faster at the same x. β is one least-squares constant over every layer measured")
    out("on two boards. A board is projected from its last measured layer upwards, each")
    out(f"layer capped at {CAP} of its compositions U(s) = C(T − s + 2n − 1, 2n − 1) (the")
    out("measured layers never hold more than 0.036 of them on 6×6, 0.029 on 7×6, 0.090 on")
    out(f"6×7; the ranges below are the caps {CAPS[0]} and {CAPS[1]}). Without the cap the")
    out("8×8 projection passes U(s) itself, which no layer can.")
    out("")
    # Validation: without 7×7, predict it from its layer 40.
    others = [b for b in measured if b != (7, 7)]
    beta_v = fit_beta(logs, others)
    v = project(logs, beta_v, (7, 7), 40)
    m77 = logs[(7, 7)]
    last = max(m77)
    out(f"**Checked where the truth is known.** Fitted without 7×7 (β = {beta_v:.5f}) and")
    out(f"projected from its layer 40: layer {last} {v[last]:,.0f} against {m77[last]:,} measured"
        f" ({v[last] / m77[last]:.2f}×); the whole 7×7 turn {sum(v.values()):,.0f} against"
        f" 3,870,246,473 ({sum(v.values()) / 3870246473:.2f}×).")
    cap_ratios = [sum(project(logs, beta_v, (7, 7), 40, c).values()) / 3870246473 for c in CAPS]
    out(f"The cap is chosen, not fitted: with the measured extremes {CAPS[0]} and {CAPS[1]} this"
        f" prediction is {cap_ratios[0]:.2f}× and {cap_ratios[1]:.2f}×.")
    beta = fit_beta(logs, measured)
    v8 = project(logs, beta, (8, 8), max(logs[(8, 8)]))
    upto52 = sum(n for s, n in v8.items() if s <= 52)
    out(f"With every board (β = {beta:.5f}), 8×8 from its layer {max(logs[(8, 8)])}: layer 52"
        f" {v8[52]:,.0f} against 775,784,514 measured when the count was abandoned"
        f" ({v8[52] / 775784514:.2f}×), layers up to 52 {upto52:,.0f} against 'more than"
        " 2,000,000,000' (`data/dakon/openings_first.csv`).")
    v7 = project(logs, beta, (7, 7), last)
    out(f"7×7 from its layer {last} with that β: {sum(v7.values()):,.0f}"
        f" ({sum(v7.values()) / 3870246473:.2f}× the measured count).")
    ratios = [sum(v.values()) / 3870246473, sum(v7.values()) / 3870246473] + cap_ratios
    err = max(max(ratios), 1 / min(ratios))
    out(f"So the totals below are good to a factor of about {err:.1f} at one board's")
    out("distance, and less sure two boards away (9×9).")
    out("")
    # Memory: measured bytes charged per position.
    per_pos = max(p / n for _, n, p, _ in OPENINGS_PEAKS)
    out("Memory, measured (`openings_layers` on this commit, one process, every finished")
    out("layer in memory): peak bytes charged per position "
        + ", ".join(f"{b} {p / n:.2f}" for b, n, p, _ in OPENINGS_PEAKS)
        + "; docs/mpi.md's 7×6 jobs hold 160.7 MiB in one process, 70.4 MiB a rank with"
        " K = 2 and 36.1 MiB with K = 4 (falling as 1/K), plus about 50 MB a rank of its own.")
    out("In the code a pending position costs 8 bytes (a sorted vector of ranks, up to a"
        " quarter more before it is deduplicated; the bitmap form is never used on these"
        " boards, whose layers have more than 6 GiB of compositions), a finished one 1–3"
        " bytes (delta-encoded, in memory or on disk), a winning one 48 bytes.")
    out("Projected memory = measured bytes per position × positions; out of core (finished"
        " layers on disk) the largest layer and the two above it pending at 10 bytes a position.")
    out("Time: the measured 7×7 rate, 1.98 M positions a second for both passes on 2 threads"
        " (0.99 M a core), scaled to 32 cores a node (not measured beyond 2 cores).")
    out("")
    out("| board | positions | range | largest layer | memory | 24 GiB nodes | one node | K nodes |")
    out("|---|---:|---|---:|---:|---:|---:|---:|")
    for board, name in (((7, 7), "7×7 (measured)"), ((8, 8), "8×8"), ((9, 9), "9×9")):
        if board == (7, 7):
            layers = {**{s: float(n) for s, n in m77.items()}, **v7}
            total = 3870246473
            lo = hi = total
        else:
            layers = project(logs, beta, board, max(logs[board]))
            total = sum(layers.values())
            lo, hi = (sum(project(logs, beta, board, max(logs[board]), c).values()) for c in CAPS)
        top = max(layers, key=layers.get)
        mem = total * per_pos
        nodes = math.ceil(mem / NODE_USABLE)
        cpu = total / (OPENINGS_RATE_2_THREADS / 2)
        ooc = 10 * sum(layers.get(s, 0) for s in range(top, top + 3))
        p = {
            "what": f"Dakon openings {name}",
            "kind": "openings",
            "positions": total,
            "positions_measured": "measured" if board == (7, 7) else
            f"extrapolated from measured layers 0..{max(logs[board])}",
            "largest_layer_positions": layers[top],
            "bytes": mem,
            "nodes": nodes,
            "cpu_seconds": cpu,
            "ooc_ram": ooc,
            "disk": 2 * total,
        }
        rows.append(p)
        rng = "measured" if board == (7, 7) else f"{lo:.2g} – {hi:.2g}"
        out(f"| {name} | {total:.3g} | {rng} | s = {top}: {layers[top]:.3g} | {fmt_bytes(mem)} | {nodes:,} |"
            f" {fmt_time(cpu / NODE_CORES)} | {fmt_time(cpu / NODE_CORES / nodes)} on {nodes:,} |")
    out("")
    out(f"7×7: the count is measured; its largest layer is projected (layers above {last} were not")
    out("logged). \"K nodes\": the CPU time shared perfectly among the nodes the memory needs;")
    out("the exchanges (2.8–4.7 bytes a position measured on 7×6 with 2 and 4 ranks, docs/mpi.md)")
    out("and the collectives of every round are not in it, and nothing is measured beyond 2 cores.")
    out("")
    for p in rows:
        if p["kind"] != "openings":
            continue
        out(f"- {p['what']}: out of core on one machine needs about {fmt_bytes(p['ooc_ram'])} of"
            f" memory and {fmt_bytes(p['disk'])} of disk (2 bytes a finished position):"
            + (" fits this machine." if p["ooc_ram"] < NODE_USABLE and p["disk"] < DISK_BYTES
               else " does not fit this machine (79 GB disk, 24 GiB)."))
    out("")
    return lines, rows


if __name__ == "__main__":
    main()
