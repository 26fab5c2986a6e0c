#!/usr/bin/env bash
# MPI tests (issue 22; needs openmpi-bin, libopenmpi-dev, libclang-dev):
# builds dalkon with the feature `mpi`, then checks, with real MPI jobs
# (mpirun --oversubscribe -np K):
# - jobs of 1, 2 and 4 ranks print the single-process count byte for byte
#   (but for the seconds and peak-memory lines), text and JSON, on 5x5 and
#   6x6, and the jobs of 2 and 4 ranks log the same layers and hashes;
# - a rank killed mid-job (kill -9) ends the job with Open MPI's clear
#   error and a non-zero exit, never a hang; the same command then resumes
#   from the last checkpoint to the same output, and so does a job of
#   another number of ranks (the checkpoint partitioned again);
# - `daldos solve` (Norwegian up to 2 v 2) with 1, 2, 4 ranks writes the
#   one-process files byte for byte, with the same report and layer log; a
#   rank killed mid-solve ends the job, which resumes with 4 ranks from the
#   finished layers to the same files;
# - a rank that fails (a damaged file of its part) stops every rank with
#   its error, the others saying which rank failed.
# `--quick` (CI): 6x6 in text with 2 and 4 ranks only.
# Run from anywhere; every mpirun is bounded by a timeout.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = --quick ] && quick=1
t0=$(date +%s)
cargo build --release --features mpi -p dalkon-cli
bin=$PWD/target/release/dalkon
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'echo "mpi_tests: FAILED at line $LINENO" >&2' ERR
mpi() { timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$@"; }
strip() { grep -v -e '^seconds ' -e '^peak memory ' "$1"; }
layers() { grep '^layer ' "$1" | sed 's/, [0-9]* bytes exchanged$//'; }
# kill_a_rank OUT READY CMD...: run CMD under `mpirun -np 2` in the
# background, kill -9 one rank as soon as the shell test READY holds, and
# check that the job then fails with Open MPI's clear error (in OUT.err)
# and no output (OUT.out), never a hang.
kill_a_rank() {
    local out=$1 ready=$2 job launcher victim
    shift 2
    timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$@" >"$out.out" 2>"$out.err" &
    job=$!
    for _ in $(seq 1 600); do
        if eval "$ready"; then break; fi
        sleep 0.05
    done
    eval "$ready"
    # (ps pads the pid with spaces: strip them, or --ppid refuses it.)
    launcher=$(ps -o pid= --ppid $job | tr -d ' ' || true)
    victim=$(ps -o pid= --ppid "${launcher:-0}" | tail -n 1 | tr -d ' ' || true)
    if [ -z "$victim" ]; then
        echo "mpi_tests: the job ended before a rank could be killed (make it longer)" >&2
        exit 1
    fi
    kill -9 $victim
    if wait $job; then
        echo "mpi_tests: the job went on after a rank was killed" >&2
        exit 1
    fi
    grep -q 'exited on signal 9 (Killed)' "$out.err"
    [ ! -s "$out.out" ]
}
for n in 5 6; do
    formats="text json"
    ranks="1 2 4"
    if [ $quick = 1 ] && [ $n = 6 ]; then
        formats=text
        ranks="2 4"
    fi
    for fmt in $formats; do
        "$bin" dakon openings --holes $n --seeds $n --format $fmt --work-dir "$tmp/w" >"$tmp/one.$fmt"
        for k in $ranks; do
            mpi $k "$bin" dakon openings --holes $n --seeds $n --format $fmt --work-dir "$tmp/w" \
                >"$tmp/k$k.$fmt" 2>"$tmp/k$k.$fmt.log"
            diff <(strip "$tmp/one.$fmt") <(strip "$tmp/k$k.$fmt")
        done
        diff <(layers "$tmp/k2.$fmt.log") <(layers "$tmp/k4.$fmt.log")
        [ "$(layers "$tmp/k2.$fmt.log" | wc -l)" -gt 10 ]
    done
    echo "mpi_tests: ${n}x$n ($formats) with $ranks ranks agrees with one process ($(($(date +%s) - t0)) s)"
done

# A rank killed mid-job, then the job resumed (6x6, a checkpoint after
# every layer: about 3 s with 2 ranks, so that the kill lands mid-job).
count=(dakon openings --holes 6 --seeds 6 --checkpoint-minutes 0)
"$bin" "${count[@]}" --work-dir "$tmp/w" >"$tmp/one.txt"
w=$tmp/killed
kill_a_rank "$tmp/killed" '[ -f "$w/job" ] && grep -q "^layer [1-9][0-9]" "$w/job"' \
    "$bin" "${count[@]}" --work-dir "$w"
echo "mpi_tests: a killed rank ends the job with a clear error ($(grep 'exited on signal' "$tmp/killed.err"))"
cp -a "$w" "$tmp/again"
cp -a "$w" "$tmp/damaged"
mpi 2 "$bin" "${count[@]}" --work-dir "$w" >"$tmp/resumed.txt" 2>/dev/null
diff <(strip "$tmp/one.txt") <(strip "$tmp/resumed.txt")
[ ! -e "$w" ]
mpi 4 "$bin" "${count[@]}" --work-dir "$tmp/again" >"$tmp/resumed4.txt" 2>/dev/null
diff <(strip "$tmp/one.txt") <(strip "$tmp/resumed4.txt")
echo "mpi_tests: the killed job resumes to the same output with 2 ranks, and with 4"

# One rank's part damaged (its state edited): that rank says what is wrong, the other which
# rank failed; both stop.
# (Every state of the rank: a kill between a rank's new state and the job's
# record of it leaves two.)
for state in "$tmp/damaged/rank-001-of-002"/state-*; do
    sed -i 's/^layer /layer 1/' "$state"
done
if mpi 2 "$bin" "${count[@]}" --work-dir "$tmp/damaged" >"$tmp/out" 2>"$tmp/err"; then
    echo "mpi_tests: a damaged part was not refused" >&2
    exit 1
fi
# (Once in CI, on 2026-12-07, one of these messages was missing and a rerun
# passed: print what the ranks said, so that the next failure shows why.)
if ! grep -q "its checksum does not match its text" "$tmp/err" ||
    ! grep -q "rank 1 of the job failed (its error is reported by that rank); every rank stopped" "$tmp/err"; then
    echo "mpi_tests: a damaged part was refused without the expected messages; the ranks said:" >&2
    cat "$tmp/err" >&2
    ls -l "$tmp/damaged"/rank-* >&2 || true
    exit 1
fi
[ ! -s "$tmp/out" ]
echo "mpi_tests: a failing rank stops every rank with a clear error"

# Daldøs tables (daldos solve) partitioned across ranks: the files of one
# process byte for byte, the same report, the same layer log for any K; a
# rank killed mid-job, then the job resumed (with 4 ranks) from the
# finished layers to the same files.
solve=(daldos solve --board norwegian --pieces 2,2)
"$bin" "${solve[@]}" --db-dir "$tmp/t1" >"$tmp/t1.txt" 2>/dev/null
report() { grep -v -e '^tables in ' "$1" | sed 's/ *[0-9.]*$//'; }
dranks="1 2 4"
[ $quick = 1 ] && dranks="2 4"
for k in $dranks; do
    mpi $k "$bin" "${solve[@]}" --db-dir "$tmp/tk$k" >"$tmp/tk$k.txt" 2>"$tmp/tk$k.log"
    for f in "$tmp/t1"/*.tbl; do cmp "$f" "$tmp/tk$k/$(basename "$f")"; done
    [ "$(ls "$tmp/tk$k" | wc -l)" = "$(ls "$tmp/t1" | wc -l)" ]
    diff <(report "$tmp/t1.txt") <(report "$tmp/tk$k.txt")
    grep -c '^layer .* checksum ' "$tmp/tk$k.log" | grep -qx 4
done
diff <(sed 's/, [0-9]* bytes exchanged$//' "$tmp/tk2.log") <(sed 's/, [0-9]* bytes exchanged$//' "$tmp/tk4.log")
echo "mpi_tests: daldos solve with $dranks ranks writes the one-process files byte for byte"
w=$tmp/tkilled
kill_a_rank "$tmp/tkilled" 'ls "$w" 2>/dev/null | grep -q -- "-1v2\.tbl$"' \
    "$bin" "${solve[@]}" --db-dir "$w"
[ ! -e "$w/$(basename "$(ls "$tmp/t1"/*-2v2.tbl)")" ]
mpi 4 "$bin" "${solve[@]}" --db-dir "$w" >"$tmp/tresumed.txt" 2>"$tmp/tresumed.log"
grep -q '^layer 2 v 1: .* loaded' "$tmp/tresumed.log"
grep -q '^layer 2 v 2: .* built' "$tmp/tresumed.log"
for f in "$tmp/t1"/*.tbl; do cmp "$f" "$w/$(basename "$f")"; done
echo "mpi_tests: a killed solve ends with a clear error and resumes with 4 ranks to the same files"
echo "mpi_tests: all passed in $(($(date +%s) - t0)) s"
