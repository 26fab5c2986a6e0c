#!/usr/bin/env bash
# The Daldøs engine strength benchmark: three 1000-game matches on the
# Danish board under the default rules, written to data/daldos/matches.json.
#   engine:2 vs random   target: a_win_rate >= 0.95
#   engine:2 vs greedy   target: a_win_rate >= 0.70
#   engine:2 vs engine:2 (first_player_win_rate: the value of starting)
#   engine:3 vs greedy   (extra: what one more throw of depth buys)
# Usage: scripts/daldos_matches.sh [GAMES] [SEED]   (defaults 1000, 1)
# Results do not depend on the thread count; only "seconds" varies.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-1000}"
seed="${2:-1}"
out=data/daldos/matches.json
mkdir -p data/daldos
cargo build --release -p dalkon-cli --quiet
bin="${CARGO_TARGET_DIR:-target}/release/dalkon"
run() {
    echo "dalkon daldos match --a $1 --b $2 --games $games --seed $seed --format json" >&2
    "$bin" daldos match --a "$1" --b "$2" --games "$games" --seed "$seed" --format json
}
vr=$(run engine:2 random)
vg=$(run engine:2 greedy)
ve=$(run engine:2 engine:2)
v3=$(run engine:3 greedy)
{
    echo "{"
    echo "  \"command\": \"scripts/daldos_matches.sh $games $seed\","
    echo "  \"engine2_vs_random\": $vr,"
    echo "  \"engine2_vs_greedy\": $vg,"
    echo "  \"engine2_vs_engine2\": $ve,"
    echo "  \"engine3_vs_greedy\": $v3"
    echo "}"
} > "$out.tmp"
mv "$out.tmp" "$out"
jq -r 'to_entries[] | select(.value|type=="object") |
  "\(.key): \(.value.a_wins)/\(.value.games) a_win_rate \(.value.a_win_rate) ci95 \(.value.ci95) first_player_win_rate \(.value.first_player_win_rate) mean_turns \(.value.mean_turns) capped \(.value.capped) \(.value.seconds|floor) s"' "$out"
