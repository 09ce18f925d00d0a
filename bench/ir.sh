#!/bin/sh
# bench/ir.sh: SPIR-V to optimized IR compile time (BenchmarkCompileIR in
# internal/e2e: read, validate, lower, -O2 pipeline), and how it scales
# with module size: each module replicated 1, 10 and 100 times in one
# module (spvgen.Replicate). Prints the raw benchmark lines, then a table
# of medians over COUNT runs: time per module and per SPIR-V instruction,
# and the 10x/1x and 100x/1x time ratios (10 and 100 when compile time
# grows linearly; ns/inst then stays flat).
#
#   bench/ir.sh                 # COUNT=3 runs of each benchmark
#   COUNT=5 bench/ir.sh
#   bench/ir.sh raw.txt         # only print the table of earlier output
#
# Run it from the repository root (make bench-ir does).
set -e
GO=${GO:-go}
COUNT=${COUNT:-3}
if [ $# -ge 1 ]; then
  raw=$1
else
  raw=$(mktemp)
  trap 'rm -f "$raw"' EXIT
  $GO test ./internal/e2e -run '^$' -bench 'CompileIR/(corpus|scale)' -count "$COUNT" -cpu 1 | tee "$raw"
  echo
fi

awk '
# name -> the values of every run, space-separated.
function add(arr, k, v) { arr[k] = (k in arr) ? arr[k] " " v : v }
function median(list,   n, a, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
/^BenchmarkCompileIR\// {
  name = $1; sub(/^BenchmarkCompileIR\//, "", name); sub(/-[0-9]+$/, "", name)
  for (i = 3; i < NF; i++) {
    if ($(i + 1) == "ns/op") add(nsop, name, $i)
    if ($(i + 1) == "ns/inst") add(nsinst, name, $i)
    if ($(i + 1) == "insts") insts[name] = $i
    if ($(i + 1) == "ns/module") add(nsmod, name, $i)
  }
  if (name ~ /^scale-/) {
    m = name; sub(/^scale-[0-9]+\//, "", m)
    if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
  }
}
END {
  if ("corpus" in nsop) {
    printf "corpus (%d SPIR-V instructions): %.1f ms in all, %.3f ms per module, %.0f ns per instruction\n\n",
      insts["corpus"], median(nsop["corpus"]) / 1e6, median(nsmod["corpus"]) / 1e6, median(nsinst["corpus"])
  }
  printf "%-20s %9s %10s %10s %10s %7s %8s %8s %8s %8s\n", "module", "insts 1x", "1x ms", "10x ms", "100x ms", "10x/1x", "100x/1x", "ns/i 1x", "ns/i 10x", "ns/i 100x"
  for (k = 1; k <= nm; k++) {
    m = order[k]; a = "scale-1/" m; b = "scale-10/" m; c = "scale-100/" m
    t1 = (a in nsop) ? median(nsop[a]) : 0; t10 = (b in nsop) ? median(nsop[b]) : 0; t100 = (c in nsop) ? median(nsop[c]) : 0
    printf "%-20s %9d %10.2f %10.2f %10.2f %7.1f %8.1f %8.0f %8.0f %8.0f\n", m, insts[a], t1 / 1e6, t10 / 1e6, t100 / 1e6,
      t1 ? t10 / t1 : 0, t1 ? t100 / t1 : 0,
      (a in nsinst) ? median(nsinst[a]) : 0, (b in nsinst) ? median(nsinst[b]) : 0, (c in nsinst) ? median(nsinst[c]) : 0
  }
}' "$raw"
