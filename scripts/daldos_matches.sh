#!/usr/bin/env bash
# The Daldøs engine strength benchmark: the seeded matches of the README
# (1000 or 2000 games, Danish and Norwegian boards, default rules, seed 1),
# written to data/daldos/matches.json, with everything else that
# `reproduce --only daldos --full` writes (the tables it needs are built
# first when missing). The list of matches is `MATCHES` in
# crates/reproduce/src/daldos/matches.rs; this runs all of them, the slow
# depth-3 ones included (about half an hour on 2 cores). Results do not depend on the thread count; the
# seconds each match took go to reproduce.log, not to data/.
#
#   scripts/daldos_matches.sh
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release -p dalkon-cli --quiet -- reproduce --only daldos --full "$@"
