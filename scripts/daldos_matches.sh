#!/usr/bin/env bash
# The Daldøs engine strength benchmark: the 1000-game matches of the README
# on the Danish board under the default rules, seed 1, written to
# data/daldos/matches.json (with the capture tables, which take seconds).
# The list of matches and their targets is `MATCHES` in
# crates/reproduce/src/daldos/matches.rs; this runs all of them, the slow
# engine:3 one included. Results do not depend on the thread count; the
# seconds each match took go to reproduce.log, not to data/.
#
#   scripts/daldos_matches.sh
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release -p dalkon-cli --quiet -- reproduce --only daldos --full "$@"
