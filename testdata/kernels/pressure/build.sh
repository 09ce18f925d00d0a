#!/usr/bin/env bash
# Builds pressure.spv from pressure.cl (or X.spv from the X.cl given), as
# ../build.sh builds the corpus at -O2: clang-15, llvm-spirv-15, spirv-val.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${1:-$here/pressure.cl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -O2 \
  -no-opaque-pointers -finclude-default-header -emit-llvm-bc "$src" -o "$work/k.bc"
llvm-spirv-15 --spirv-max-version=1.2 "$work/k.bc" -o "$work/k.spv"
spirv-val --target-env opencl2.2 "$work/k.spv"
mv "$work/k.spv" "${src%.cl}.spv"
