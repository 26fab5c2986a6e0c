#!/usr/bin/env bash
# Is `dakon best --time T` kept on every board? Runs the release binary on
# starts from 5 to 32 holes a row (and the game position of issue 20 that
# needs minutes to prove) and prints each wall time against the limit
# T + 10 % + 0.1 s of start-up; exits 1 if one is over.
#
#   scripts/bench_time.sh          # T = 1
#   TIME=0.3 scripts/bench_time.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p dalkon-cli
bin=target/release/dalkon
t=${TIME:-1}
limit=$(python3 -c "print($t * 1.1 + 0.1)")
row() { python3 -c "print(','.join(['$2'] * $1))"; }
positions=(
    "$(row 7 7)/$(row 7 7)/0,0 0"
    "$(row 9 9)/$(row 9 9)/0,0 0"
    "$(row 16 5)/$(row 16 5)/0,0 0"
    "$(row 32 1)/$(row 32 1)/0,0 0"
    "$(row 32 3)/$(row 32 3)/0,0 0"
    "1,0,12,2,12,9,0/9,0,3,5,8,4,0/22,11 1"
)
over=0
for p in "${positions[@]}"; do
    s=$(date +%s.%N)
    "$bin" dakon best --position "$p" --time "$t" --format json > /dev/null
    e=$(date +%s.%N)
    wall=$(python3 -c "print(round($e - $s, 3))")
    ok=$(python3 -c "print('ok' if $wall <= $limit else 'OVER')")
    [ "$ok" = ok ] || over=1
    printf '%-8s %6.3f s (limit %.2f s)  %.60s\n' "$ok" "$wall" "$limit" "$p"
done
exit $over
