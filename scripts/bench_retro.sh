#!/usr/bin/env bash
# Benchmark of the Dakon retrograde databases (crates/dakon/benches/retro.rs):
# builds every database of the 4-hole board up to 32 seeds on the board
# (76,904,685 positions) in memory with 2 threads and then 1 thread, prints
# positions per second and checks the values it computed (the benchmark
# fails on a wrong value). Target: at least 5 million positions/s on 2 cores.
#
#   scripts/bench_retro.sh            # the benchmark
#   FULL=1 scripts/bench_retro.sh     # also build 4 holes up to 64 seeds into
#                                     # $DALKON_DB_DIR (default ./dalkon-db) and
#                                     # print the start values of 4 x 1..8 seeds
#                                     # (about 12 GB of files and of memory; long)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p dalkon-dakon --bench retro --no-run
for threads in ${THREADS:-2 1}; do
    RAYON_NUM_THREADS=$threads cargo bench -p dalkon-dakon --bench retro
done
if [ "${FULL:-0}" = 1 ]; then
    cargo run --release -p dalkon-dakon --example retro_build -- 4 64 "${DALKON_DB_DIR:-dalkon-db}"
fi
