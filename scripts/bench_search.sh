#!/usr/bin/env bash
# Benchmark of the exact Dakon search (crates/dakon/benches/search.rs):
# solves the 5x5, 7x3 and 6x4 starts (default rules) with 2 threads and then
# 1 thread, checks the values (the benchmark fails on a wrong value) and
# prints positions, nodes per second and the transposition-table hit rate.
# Target: the 5x5 start in well under 60 s.
#
#   scripts/bench_search.sh                     # the benchmark
#   SEARCH_BENCH_BIG=1 scripts/bench_search.sh  # also the 7x4 start (minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p dalkon-dakon --bench search --no-run
for threads in ${THREADS:-2 1}; do
    RAYON_NUM_THREADS=$threads cargo bench -p dalkon-dakon --bench search
done
