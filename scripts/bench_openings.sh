#!/usr/bin/env bash
# Benchmark of the Dakon openings count (crates/dakon/benches/openings.rs):
# counts the winning first-turn chains of the 6x6 and 7x6 starts with 2
# threads and then 1 thread, checks the counts (the benchmark fails on a
# wrong one) and prints distinct positions per second.
#
#   scripts/bench_openings.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p dalkon-dakon --bench openings --no-run
for threads in ${THREADS:-2 1}; do
    RAYON_NUM_THREADS=$threads cargo bench -p dalkon-dakon --bench openings
done
