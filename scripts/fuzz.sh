#!/usr/bin/env bash
# The long fuzz run: 10,000,000 cases over every parser and every command
# (crates/{rules,daldos,cli}/tests/fuzz.rs) and over what is read back from
# disk and from long input lines (crates/cli/tests/fuzz_files.rs: forged
# Daldøs tables and Dakon databases, edited openings checkpoints, batch
# lines of up to several MiB), from the same fixed seeds as CI (which runs
# a small sample in `cargo test`). Prints one line per kind (cases,
# accepted, refused) and the total count and time.
#
# The split (DALKON_FUZZ_CASES_<KIND>; override any of them, or set
# DALKON_FUZZ_SEED to explore other inputs):
#   board 1,958,000  hole 2,000,000  throw 2,000,000  dakon_rules 1,500,000
#   dakon_position 1,000,000  player 1,000,000  daldos_position 150,000
#   dakon_moves 100,000  daldos_plays 50,000  cli 200,000
#   table_value 9,000  database_value 30,000  checkpoint 1,000
#   endless_line 2,000
# (the file kinds cost 6 to 180 ms a case, about 3 minutes each).
# Usage: scripts/fuzz.sh [--test-threads N]   (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${2:-2}
[ "${1:-}" = "--test-threads" ] || threads=2

export DALKON_FUZZ_CASES_BOARD=${DALKON_FUZZ_CASES_BOARD:-1958000}
export DALKON_FUZZ_CASES_HOLE=${DALKON_FUZZ_CASES_HOLE:-2000000}
export DALKON_FUZZ_CASES_THROW=${DALKON_FUZZ_CASES_THROW:-2000000}
export DALKON_FUZZ_CASES_DAKON_RULES=${DALKON_FUZZ_CASES_DAKON_RULES:-1500000}
export DALKON_FUZZ_CASES_DAKON_POSITION=${DALKON_FUZZ_CASES_DAKON_POSITION:-1000000}
export DALKON_FUZZ_CASES_PLAYER=${DALKON_FUZZ_CASES_PLAYER:-1000000}
export DALKON_FUZZ_CASES_DALDOS_POSITION=${DALKON_FUZZ_CASES_DALDOS_POSITION:-150000}
export DALKON_FUZZ_CASES_DAKON_MOVES=${DALKON_FUZZ_CASES_DAKON_MOVES:-100000}
export DALKON_FUZZ_CASES_DALDOS_PLAYS=${DALKON_FUZZ_CASES_DALDOS_PLAYS:-50000}
export DALKON_FUZZ_CASES_CLI=${DALKON_FUZZ_CASES_CLI:-200000}
export DALKON_FUZZ_CASES_TABLE_VALUE=${DALKON_FUZZ_CASES_TABLE_VALUE:-9000}
export DALKON_FUZZ_CASES_DATABASE_VALUE=${DALKON_FUZZ_CASES_DATABASE_VALUE:-30000}
export DALKON_FUZZ_CASES_CHECKPOINT=${DALKON_FUZZ_CASES_CHECKPOINT:-1000}
export DALKON_FUZZ_CASES_ENDLESS_LINE=${DALKON_FUZZ_CASES_ENDLESS_LINE:-2000}

# The whole output (a failing case is printed there, shrunk) is kept.
log=${DALKON_FUZZ_LOG:-target/fuzz.log}
mkdir -p "$(dirname "$log")"
: > "$log"
start=$(date +%s)
cargo build --release --tests -q -p dalkon-rules -p dalkon-daldos -p dalkon-cli
status=0
printed=0
for target in dalkon-rules:fuzz dalkon-daldos:fuzz dalkon-cli:fuzz dalkon-cli:fuzz_files; do
    package=${target%%:*}
    test=${target#*:}
    if ! cargo test --release -q -p "$package" --test "$test" -- --nocapture --test-threads "$threads" \
        >> "$log" 2>&1; then
        echo "fuzz: $package $test FAILED (see $log)"
        status=1
    fi
    # (`-q` prints a test's dot on the line of its summary: cut it off.)
    tail -n "+$((printed + 1))" "$log" | grep -a -o 'fuzz .*' || true
    printed=$(wc -l < "$log")
done
end=$(date +%s)
total=$(grep -a -o -E 'fuzz [a-z_]+: cases [0-9]+' "$log" | awk '{ n += $4 } END { print n }')
echo "fuzz total: $total cases in $((end - start)) s"
exit "$status"
