#!/usr/bin/env bash
# The pages of `dalkon serve` in a real headless browser (docs/web.md,
# "Tests in a browser"): Debian's chromium and chromium-driver (installed
# with apt-get when missing), Selenium pinned from PyPI in a virtual
# environment, then scripts/web_e2e.py against a fresh release binary.
# Run from anywhere; VENV overrides where the environment goes.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver
fi
venv=${VENV:-target/web-venv}
if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check selenium==4.51.0
fi
cargo build --release --quiet -p dalkon-cli
# A watchdog: the run takes about a minute or two; a hung browser fails it
# after 10 minutes instead of holding CI to its limit.
timeout --signal=KILL 600 "$venv/bin/python" scripts/web_e2e.py "$@"
