#!/usr/bin/env bash
# MPI tests (issue 22; needs openmpi-bin, libopenmpi-dev, libclang-dev):
# builds dalkon with the feature `mpi`, then checks that a one-rank job
# (`mpirun -np 1`) prints the single-process count byte for byte (but for
# the seconds and peak-memory lines), text and JSON, on 5x5 and 6x6, and
# that a job of 2 or 4 ranks is refused with a clear error and a non-zero
# exit, never a hang or K copies of the count (the count is not yet
# partitioned across ranks). Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --features mpi -p dalkon-cli
bin=$PWD/target/release/dalkon
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpi() { timeout 120 mpirun --oversubscribe --allow-run-as-root -np "$@"; }
strip() { grep -v -e '^seconds ' -e '^peak memory ' "$1"; }
for n in 5 6; do
    for fmt in text json; do
        "$bin" dakon openings --holes $n --seeds $n --format $fmt --work-dir "$tmp/w" >"$tmp/one.$fmt"
        mpi 1 "$bin" dakon openings --holes $n --seeds $n --format $fmt --work-dir "$tmp/w" >"$tmp/k1.$fmt"
        diff <(strip "$tmp/one.$fmt") <(strip "$tmp/k1.$fmt")
    done
    echo "mpi_tests: ${n}x$n with 1 rank agrees with one process"
done
for k in 2 4; do
    if mpi $k "$bin" dakon openings --holes 5 --seeds 5 --work-dir "$tmp/w" >"$tmp/out" 2>"$tmp/err"; then
        echo "mpi_tests: a job of $k ranks was not refused" >&2
        exit 1
    fi
    grep -q "does not yet partition the count" "$tmp/err"
    [ ! -s "$tmp/out" ]
    echo "mpi_tests: a job of $k ranks is refused with a clear error"
done
echo "mpi_tests: all passed"
