#!/usr/bin/env bash
# The Python package's tests (crates/python): a fresh virtual environment
# with pinned tools from the package registry, the package installed into
# it the way README says (`pip install ./crates/python`, here without build
# isolation so that the pinned maturin builds it), then pytest.
# Run from anywhere; VENV overrides where the environment goes.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-target/python-venv}
rm -rf "$venv"
python3 -m venv "$venv"
venv=$(cd "$venv" && pwd)
# The build backend runs the `maturin` command: the pinned one.
export PATH="$venv/bin:$PATH"
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    maturin==1.16.0 pytest==9.2.0 numpy==2.4.6 open_spiel==2.0.2
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation ./crates/python
# The tests that run the `dalkon` binary find it here (built by the Rust
# tests above, or now).
cargo build --release --quiet -p dalkon-cli
export DALKON_BIN="$PWD/target/release/dalkon"
# A watchdog: a test that hangs (a long call that ignores Ctrl-C) fails the
# run after 10 minutes instead of holding CI to its limit; the suite takes
# well under a minute.
timeout --signal=KILL 600 "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/python/tests
