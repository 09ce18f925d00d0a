#!/usr/bin/env bash
# Vendors the SPIR-V grammar files from KhronosGroup/SPIRV-Headers, fetched
# through the Go module proxy at the version in VERSION (or the one given as
# the first argument, which is then recorded), and regenerates the tables.
#
#   grammar/vendor.sh                      # re-fetch the pinned version
#   grammar/vendor.sh v0.0.0-2026...-abc   # move to another version
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ver=${1:-$(cat "$here/VERSION")}
mod=github.com/KhronosGroup/SPIRV-Headers
dir=$(cd "$here" && GOFLAGS=-mod=mod go mod download -json "$mod@$ver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] || { echo "vendor.sh: cannot download $mod@$ver" >&2; exit 1; }
src=$dir/include/spirv/unified1
for f in spirv.core.grammar.json extinst.opencl.std.100.grammar.json extinst.opencl.debuginfo.100.grammar.json; do
  install -m 0644 "$src/$f" "$here/$f"
done
install -m 0644 "$dir/LICENSE" "$here/LICENSE"
echo "$ver" > "$here/VERSION"
(cd "$here" && go generate .)
echo "vendored $mod@$ver"
