#!/usr/bin/env bash
# Fails when a crate of the workspace declares a dependency that none of
# its sources names (the check cargo-machete makes, without installing it):
# for every line of a crate's [dependencies] / [dev-dependencies] /
# [build-dependencies], the crate name (dashes as underscores) must occur in
# its src/, tests/, benches/, examples/ or build.rs. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for manifest in crates/*/Cargo.toml; do
    dir=$(dirname "$manifest")
    deps=$(awk '
        /^\[/ { section = $0; next }
        section ~ /^\[(dev-|build-)?dependencies\]$/ && /^[A-Za-z0-9_-]+[ .=]/ {
            name = $1; sub(/[.=].*/, "", name); print name
        }' "$manifest")
    for dep in $deps; do
        ident=${dep//-/_}
        if ! grep -rqsw --include='*.rs' "$ident" "$dir/src" "$dir/tests" "$dir/benches" "$dir/examples" "$dir/build.rs"; then
            echo "$manifest: dependency '$dep' is not used by any source file" >&2
            status=1
        fi
    done
done
[ "$status" = 0 ] && echo "unused_deps: every dependency is used"
exit "$status"
