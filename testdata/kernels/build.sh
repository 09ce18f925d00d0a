#!/usr/bin/env bash
# Regenerates spv/<name>.O0.spv and spv/<name>.O2.spv for every <name>.cl in
# this directory (or only for the .cl files given as arguments).
#
# Recipe per module (LEVEL is -O0 or -O2):
#   clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 LEVEL \
#     -no-opaque-pointers -finclude-default-header [build-flags] -emit-llvm-bc k.cl -o k.bc
#   llvm-spirv-15 --spirv-max-version=1.2 [spirv-flags] k.bc -o k.spv
#   spirv-val --target-env opencl2.2 k.spv        (or the file's val-env)
#
# Per-file overrides are comment lines in the .cl file:
#   // build-flags: <extra clang -cc1 flags>     e.g. -DTILE=8 or -cl-ext=+cl_khr_subgroups
#   // spirv-flags: <extra llvm-spirv flags>     e.g. --spirv-ext=+SPV_INTEL_subgroups
#   // val-env: <spirv-val target env>           default opencl2.2
#
# Known quirks handled here:
#   * llvm-spirv-15 cannot translate the LLVM `freeze` instruction (clang -O2
#     creates it, e.g. when it pairs x / y with x % y). Modules containing it
#     go through text IR: each `%x = freeze <ty> %y` is deleted and the uses
#     of %x are replaced by %y. (A numbered result such as %7 cannot be deleted
#     without renumbering, so it becomes `%7 = select i1 true, <ty> %y, <ty> %y`.)
#   * llvm-spirv-15 sometimes emits a block before its dominator, which
#     spirv-val rejects ("... appears in the binary before its dominator", or
#     "ID ... has not been defined" for a value defined in the dominator).
#     Such a module is kept unchanged if a copy whose blocks are put in
#     reverse post-order validates; any other validation failure is an error.
#
# Output files are written through temporary files and renamed; a file is only
# replaced when its content changes. Nothing under spv/ changes unless every
# requested module builds. Tools can be overridden with CLANG, LLVM_SPIRV,
# LLVM_DIS, LLVM_AS, SPIRV_VAL, SPIRV_DIS and SPIRV_AS.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
spvdir=$here/spv

CLANG=${CLANG:-clang-15}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
LLVM_DIS=${LLVM_DIS:-llvm-dis-15}
LLVM_AS=${LLVM_AS:-llvm-as-15}
SPIRV_VAL=${SPIRV_VAL:-spirv-val}
SPIRV_DIS=${SPIRV_DIS:-spirv-dis}
SPIRV_AS=${SPIRV_AS:-spirv-as}

for tool in "$CLANG" "$LLVM_SPIRV" "$LLVM_DIS" "$LLVM_AS" "$SPIRV_VAL" "$SPIRV_DIS" "$SPIRV_AS"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "build.sh: missing tool: $tool" >&2; exit 1; }
done

export LC_ALL=C
work=$(mktemp -d)
pending_tmp=
cleanup() {
    rm -rf "$work"
    if [ -n "$pending_tmp" ]; then rm -f "$pending_tmp"; fi
}
trap cleanup EXIT

# --- freeze removal on textual LLVM IR --------------------------------------
FREEZE_AWK=$(cat <<'AWK'
function resolve(t,   n) {
    n = 0
    while ((t in map) && n < 1000) { t = map[t]; n++ }
    return t
}
function subst(s,   out, t) {
    out = ""
    while (match(s, /%[-a-zA-Z$._0-9]+/)) {
        t = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1) resolve(t)
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}
function flush(   k) {
    for (k = 1; k <= nl; k++) print subst(buf[k])
    nl = 0
    for (k in map) delete map[k]
}
BEGIN { infn = 0; nl = 0 }
/^define / { infn = 1 }
{
    if (!infn) { print; next }
    if ($0 ~ /^[ \t]*%[-a-zA-Z$._0-9]+ = freeze /) {
        ty = $4
        for (k = 5; k < NF; k++) ty = ty " " $k
        if ($1 ~ /^%[0-9]+$/) {
            buf[++nl] = "  " $1 " = select i1 true, " ty " " $NF ", " ty " " $NF
        } else {
            map[$1] = $NF
        }
        next
    }
    buf[++nl] = $0
    if ($0 ~ /^}/) { flush(); infn = 0 }
}
END { flush() }
AWK
)

# --- put the blocks of every function in reverse post-order -----------------
# Input: spirv-dis --raw-id output. Used only to classify validation failures.
REORDER_AWK=$(cat <<'AWK'
function visit(b,   n, arr, k, s) {
    seen[b] = 1
    n = split(succ[b], arr, " ")
    for (k = 1; k <= n; k++) {
        s = idx[arr[k]]
        if (s != "" && !seen[s]) visit(s)
    }
    post[++np] = b
}
function emit(   k, b) {
    for (k in seen) delete seen[k]
    np = 0
    if (nb > 0) visit(1)
    for (k = np; k >= 1; k--) print body[post[k]]
    for (b = 1; b <= nb; b++) if (!seen[b]) print body[b]
    for (k in idx) delete idx[k]
    nb = 0
}
BEGIN { infn = 0; nb = 0 }
{
    op = ($2 == "=") ? $3 : $1
    if (!infn) {
        print
        if (op == "OpFunction") infn = 1
        next
    }
    if (op == "OpFunctionEnd") { emit(); print; infn = 0; next }
    if (op == "OpLabel") { nb++; idx[$1] = nb; body[nb] = $0; succ[nb] = ""; next }
    if (nb == 0) { print; next }          # OpFunctionParameter
    body[nb] = body[nb] "\n" $0
    if (op == "OpBranch") succ[nb] = $2
    else if (op == "OpBranchConditional") succ[nb] = $3 " " $4
    else if (op == "OpSwitch") {
        for (k = 3; k <= NF; k++) if ($k ~ /^%/) succ[nb] = succ[nb] " " $k
    }
}
AWK
)

flags_of() { # file key -> the values of all "// key:" lines, space separated
    sed -n "s|^// $2:[[:space:]]*||p" "$1" | tr '\n' ' '
}

if [ "$#" -gt 0 ]; then
    sources=()
    for a in "$@"; do sources+=("$(basename "$a")"); done
else
    sources=()
    for f in "$here"/*.cl; do sources+=("$(basename "$f")"); done
fi
[ "${#sources[@]}" -gt 0 ] || { echo "build.sh: no .cl files" >&2; exit 1; }

freeze_list=()
blockorder_list=()
built=()

# build_one NAME LEVEL  -> $work/out/NAME.LEVEL.spv
build_one() {
    local name=$1 level=$2
    local src=$name.cl
    local d=$work/$name.$level
    mkdir -p "$d" "$work/out"
    local cflags sflags venv
    read -r -a cflags <<<"$(flags_of "$here/$src" build-flags)"
    read -r -a sflags <<<"$(flags_of "$here/$src" spirv-flags)"
    venv=$(flags_of "$here/$src" val-env | awk '{print $1}')
    venv=${venv:-opencl2.2}

    # Compile from inside the source directory so that no machine path ends up
    # in the module (clang records the file name as given).
    (cd "$here" && "$CLANG" -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 "-$level" \
        -no-opaque-pointers -finclude-default-header ${cflags[@]+"${cflags[@]}"} \
        -emit-llvm-bc "$src" -o "$d/k.bc")

    local bc=$d/k.bc
    "$LLVM_DIS" "$bc" -o "$d/k.ll"
    local nfreeze
    nfreeze=$(grep -c ' = freeze ' "$d/k.ll" || true)
    if [ "$nfreeze" -gt 0 ]; then
        awk "$FREEZE_AWK" "$d/k.ll" >"$d/nofreeze.ll"
        if grep -q ' = freeze ' "$d/nofreeze.ll"; then
            echo "build.sh: $name.$level: could not remove every freeze" >&2
            exit 1
        fi
        "$LLVM_AS" "$d/nofreeze.ll" -o "$d/nofreeze.bc"
        bc=$d/nofreeze.bc
        freeze_list+=("$name.$level ($nfreeze)")
        echo "note: $name.$level: removed $nfreeze freeze instruction(s) before translation"
    fi

    "$LLVM_SPIRV" --spirv-max-version=1.2 ${sflags[@]+"${sflags[@]}"} "$bc" -o "$d/k.spv"

    if ! "$SPIRV_VAL" --target-env "$venv" "$d/k.spv" >"$d/val.txt" 2>&1; then
        # Is block order the only problem? Validate a copy with reordered blocks.
        "$SPIRV_DIS" --raw-id "$d/k.spv" -o "$d/k.spvasm"
        local ver
        ver=$(sed -n 's/^; Version: \([0-9]*\.[0-9]*\).*/\1/p' "$d/k.spvasm")
        awk "$REORDER_AWK" "$d/k.spvasm" >"$d/rpo.spvasm"
        if "$SPIRV_AS" --target-env "spv${ver:-1.2}" "$d/rpo.spvasm" -o "$d/rpo.spv" 2>"$d/rpo_as.txt" &&
            "$SPIRV_VAL" --target-env "$venv" "$d/rpo.spv" >"$d/rpo_val.txt" 2>&1; then
            blockorder_list+=("$name.$level")
            echo "note: $name.$level: kept despite the llvm-spirv block-order quirk: $(head -n 1 "$d/val.txt")"
        else
            echo "build.sh: $name.$level: spirv-val --target-env $venv failed:" >&2
            cat "$d/val.txt" >&2
            exit 1
        fi
    fi
    cp "$d/k.spv" "$work/out/$name.$level.spv"
    built+=("$name.$level.spv")
}

for src in "${sources[@]}"; do
    name=${src%.cl}
    [ -f "$here/$src" ] || { echo "build.sh: no such kernel: $src" >&2; exit 1; }
    for level in O0 O2; do
        build_one "$name" "$level"
    done
done

# Install: temp file in the destination directory, then rename.
mkdir -p "$spvdir"
changed=0
for f in "${built[@]}"; do
    if cmp -s "$work/out/$f" "$spvdir/$f"; then continue; fi
    pending_tmp=$(mktemp "$spvdir/.$f.XXXXXX")
    cp "$work/out/$f" "$pending_tmp"
    chmod 644 "$pending_tmp"
    mv -f "$pending_tmp" "$spvdir/$f"
    pending_tmp=
    changed=$((changed + 1))
done

# A full build also drops modules whose source is gone.
removed=0
if [ "$#" -eq 0 ]; then
    for f in "$spvdir"/*.spv; do
        [ -e "$f" ] || continue
        base=$(basename "$f")
        name=${base%.O[02].spv}
        if [ ! -f "$here/$name.cl" ]; then rm -f "$f"; removed=$((removed + 1)); fi
    done
fi

echo "built ${#built[@]} modules from ${#sources[@]} sources ($changed updated, $removed stale removed)"
echo "freeze workaround: ${#freeze_list[@]}${freeze_list[*]:+: ${freeze_list[*]}}"
echo "block-order quirk: ${#blockorder_list[@]}${blockorder_list[*]:+: ${blockorder_list[*]}}"
