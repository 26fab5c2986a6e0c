#!/usr/bin/env bash
# Fails when a build CI makes after the workspace's test build would
# compile a shared dependency again because its features differ: for
# `cargo build -p dalkon-cli` and the Python package (maturin builds
# dalkon-python), every dependency's features must be exactly those of
# `cargo test --workspace` (normal, build and dev dependencies). The fix is
# a feature in crates/unify/Cargo.toml. Needs only the lock file, no build.
set -euo pipefail
cd "$(dirname "$0")/.."
features() {
    cargo tree --locked --prefix none -f '{p} {f}' "$@" |
        sed -e 's/ (\*)$//' -e 's/ (proc-macro)//' | sort -u
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
features --workspace -e normal,build,dev >"$tmp/workspace"
status=0
for package in dalkon-cli dalkon-python; do
    features -p "$package" -e normal,build >"$tmp/$package"
    drift=$(comm -13 "$tmp/workspace" "$tmp/$package")
    if [ -n "$drift" ]; then
        echo "unify_check: $package's build resolves these differently from the workspace's tests:" >&2
        echo "$drift" | sed 's/^/  /' >&2
        status=1
    fi
done
[ "$status" = 0 ] && echo "unify_check: dalkon-cli and dalkon-python resolve every dependency as the workspace's tests do"
exit "$status"
