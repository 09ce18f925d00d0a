# spv2visa: `make test` installs the reference tools when any is missing,
# then vets, checks formatting and runs every test.

# The independent oracles the tests compare against (see DEVELOPERS.md).
TOOLS    := spirv-val spirv-as spirv-dis clang-15 llvm-spirv-15 llvm-dis-15 llvm-as-15 GenX_IR ocloc iga64
PACKAGES := spirv-tools spirv-headers clang-15 llvm-spirv-15 \
            intel-opencl-icd libigc1 libigdfcl1 libigc-tools \
            pocl-opencl-icd python3-pyopencl
# Debian's python3, which has pyopencl; another python3 may come first on PATH.
PYTHON   := /usr/bin/python3
GO       ?= go
FUZZTIME ?= 10m
COUNT    ?= 3

.PHONY: test tools check vet fmt fuzz bench bench-quick bench-scaling bench-validate bench-ir kernels generate

test: tools check

check: vet fmt
	$(GO) test ./...

vet:
	$(GO) vet ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# Installs the reference tools with apt-get when any is missing; does
# nothing when all are present (so it is safe to run every time).
tools:
	@missing=""; \
	for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	$(PYTHON) -c 'import pyopencl' >/dev/null 2>&1 || missing="$$missing pyopencl"; \
	if [ -n "$$missing" ]; then \
	  echo "installing reference tools (missing:$$missing)"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(PACKAGES); \
	fi

# Runs the reader+validator fuzzer (FUZZTIME=10m by default).
fuzz:
	$(GO) test ./frontend/validate -run '^$$' -fuzz FuzzReadValidate -fuzztime $(FUZZTIME)

# spv2visa vs ocloc on the -O2 corpus for tgllp, dg2 and pvc: compile
# time ratios, Gen instructions vs IGC, spills, SIMD widths, peak RSS
# (bench/README.md). Writes bench/out/; BENCHFLAGS adds flags
# (e.g. BENCHFLAGS="-runs 9 -devices tgllp").
bench:
	$(GO) run ./bench $(BENCHFLAGS)

bench-quick:
	$(GO) run ./bench -quick $(BENCHFLAGS)

# spv2visa compile time to vISA vs module size (1x, 10x, 100x kernels).
bench-scaling:
	$(GO) run ./bench -scaling $(BENCHFLAGS)

# Read+validate throughput.
bench-validate:
	$(GO) test ./frontend/validate -run '^$$' -bench ReadValidate -cpu 1

# SPIR-V to optimized IR time on the corpus, and its growth with module
# size (1x, 10x, 100x replicated modules): a table after the raw output;
# COUNT runs of each benchmark (medians).
bench-ir:
	GO=$(GO) COUNT=$(COUNT) bench/ir.sh

# Rebuilds testdata/kernels/spv from the OpenCL C sources (needs clang-15).
kernels:
	testdata/kernels/build.sh

# Regenerates the grammar tables from the vendored grammar files.
generate:
	$(GO) generate ./grammar
