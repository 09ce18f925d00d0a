#!/usr/bin/env bash
# Regenerates the IGC reference dumps in this directory: what Intel's own
# compiler (ocloc with IGC inside) makes of every testdata/kernels/spv/*.O2.spv
# module, for each device. Other tests read them as references: the ze_info
# reader and validator, the vISA reader, the emulator.
#
#   testdata/igc/gen.sh              # every device: tgllp, dg2, pvc
#   testdata/igc/gen.sh dg2          # only some devices
#
# For each device D and module M it writes under D/:
#   M.ze_info.yaml       the zebin's .ze_info section, as IGC wrote it (1.20)
#   M.<kernel>.visaasm   IGC's vISA text of the SIMD variant the zebin holds
#   M.<kernel>.asm       the finalizer's Gen assembly dump of that variant,
#                        only with ASM=1 (about 18 MB for the three devices,
#                        so they are not committed)
#   FAILED               the modules ocloc rejects for D, with its messages
#
# Recipe per module (see the reference toolchain notes):
#   IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump IGC_EnableZEBinary=1 \
#     ocloc compile -file M.O2.spv -spirv_input -device D -output k -output_no_suffix
#   ocloc disasm -file k -dump dis -device D
# IGC dumps several SIMD variants of a kernel (dump/*_simdNN_*.visaasm); the
# one kept is the variant whose Gen code (.dat) is the start of the zebin's
# .text.<kernel>, and its .kernel "name" line gives the kernel name. IGC's
# file names carry a hash of the module; it does not appear in the content.
# Nothing is stripped from the dumps: two runs give identical files.
#
# A device's directory is replaced only when all its modules are done.
# OCLOC overrides the ocloc binary.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
spvdir=$(cd "$here/../kernels/spv" && pwd)
OCLOC=${OCLOC:-ocloc}
devices=("$@")
[ ${#devices[@]} -gt 0 ] || devices=(tgllp dg2 pvc)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# kernels prints "name simd_size" for each kernel of a ze_info file (the
# top-level kernels: sequence only, not kernels_misc_info and the like).
kernels() {
	awk '
		/^[a-z_]+:/ { top = $1 }
		top == "kernels:" && /^  - name:/ { if (name != "") print name, simd; name = $3; simd = "" }
		top == "kernels:" && /^      simd_size:/ { simd = $2 }
		END { if (name != "") print name, simd }
	' "$1"
}

for dev in "${devices[@]}"; do
	out=$work/$dev
	mkdir -p "$out"
	for spv in "$spvdir"/*.O2.spv; do
		m=$(basename "$spv" .O2.spv)
		w=$work/$dev.$m
		mkdir -p "$w/dump" "$w/dis"
		if ! (cd "$w" && IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$w/dump" IGC_EnableZEBinary=1 \
			"$OCLOC" compile -file "$spv" -spirv_input -device "$dev" -output k -output_no_suffix) \
			>"$w/log" 2>&1; then
			{
				echo "$m.O2.spv:"
				# IGC repeats its messages once per SIMD variant and retry;
				# each distinct line is kept once, without dump-related noise.
				sed -e "s|$spvdir/||g" -e "s|$w/||g" -e '/^$/d' -e '/^ShaderDumpEnable Warning/d' \
					-e '/^Compilation from IR - skipping loading of FCL$/d' "$w/log" |
					awk '!seen[$0]++ { print "  " $0 }'
			} >>"$out/FAILED"
			rm -rf "$w"
			continue
		fi
		"$OCLOC" disasm -file "$w/k" -dump "$w/dis" -device "$dev" >"$w/log" 2>&1 || {
			cat "$w/log" >&2
			echo "gen.sh: ocloc disasm failed for $m on $dev" >&2
			exit 1
		}
		cp "$w/dis/.ze_info" "$out/$m.ze_info.yaml"
		while read -r name simd; do
			text=$w/dis/.text.$name
			pick=
			for v in "$w"/dump/*_simd"${simd}"_*.visaasm; do
				[ -f "$v" ] || continue
				grep -qxF ".kernel \"$name\"" "$v" || continue
				dat=${v%.visaasm}.dat
				[ -f "$dat" ] && [ -f "$text" ] || continue
				if cmp -s -n "$(stat -c %s "$dat")" "$dat" "$text"; then
					pick=$v
				fi
			done
			if [ -z "$pick" ]; then
				echo "gen.sh: $m on $dev: no SIMD$simd dump of kernel $name matches .text.$name" >&2
				exit 1
			fi
			cp "$pick" "$out/$m.$name.visaasm"
			if [ "${ASM:-0}" = 1 ]; then
				cp "${pick%.visaasm}.asm" "$out/$m.$name.asm"
			fi
		done < <(kernels "$w/dis/.ze_info")
		rm -rf "$w"
	done
	rm -rf "${here:?}/$dev"
	mv "$out" "$here/$dev"
	echo "$dev: $(ls "$here/$dev" | wc -l) files, $(du -sh "$here/$dev" | cut -f1)"
done
