#!/usr/bin/env bash
# Timing of the Daldøs value tables through the CLI (`dalkon daldos solve`),
# each scope built from nothing into a fresh folder, with the peak memory
# (GNU time's maximum resident set) and the work rates:
#   positions/s   = positions of every layer / seconds
#   updates/s     = position updates (positions x sweeps, summed over
#                   components; the `updates` field of the JSON) / seconds
#
#   scripts/bench_solved.sh            # L=4 whole game, Norwegian up to 2,2
#   scripts/bench_solved.sh --full     # also L=5 whole game, Norwegian up to
#                                      # 3,3 (most of an hour), Danish a+b<=4
#
# Needs GNU time (/usr/bin/time) and python3 for the arithmetic.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p dalkon-cli
bin=target/release/dalkon
scopes=("4 4,4" "norwegian 2,2")
if [[ "${1:-}" == "--full" ]]; then
    scopes+=("5 5,5" "norwegian 3,3" "danish 3,1" "danish 2,2")
fi
for scope in "${scopes[@]}"; do
    read -r board pieces <<<"$scope"
    dir=$(mktemp -d)
    /usr/bin/time -f "%e %M" -o "$dir/time" \
        "$bin" daldos solve --board "$board" --pieces "$pieces" --db-dir "$dir/db" --format json \
        >"$dir/out.json"
    python3 - "$dir" "$board" "$pieces" <<'PY'
import json, sys
d, board, pieces = sys.argv[1:]
out = json.load(open(f"{d}/out.json"))
secs, rss_kib = open(f"{d}/time").read().split()
secs = float(secs)
positions = sum(l["positions"] for l in out["layers"])
updates = sum(l["updates"] for l in out["layers"])
start = out.get("start")
w = f"  W(start) {start['value']:.12f}" if start else ""
print(f"board {board} up to {pieces}: {positions:,} positions in {secs:.1f} s, "
      f"{positions/secs:,.0f} positions/s, {updates/secs:.3e} updates/s, "
      f"peak {int(rss_kib)/2**20:.2f} GiB{w}")
PY
    rm -rf "$dir"
done
