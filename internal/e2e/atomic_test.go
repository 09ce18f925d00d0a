package e2e

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/backend/visa/emu"
	"spv2visa/backend/zebin"
	"spv2visa/internal/compiler"
	"spv2visa/internal/oracle"
	"spv2visa/passes"
	"spv2visa/zeinfo"
)

// aggregateAtomicsCL holds atomics that selection aggregates (an add,
// sub, inc or dec of a uniform value at a uniform address whose old
// value is unused: one message adding the value times the active
// channels), 64-bit ones through the legacy atom_ built-ins and C11
// atomic_long, one whose old value is used (not aggregated), one under
// a divergent branch, and 32-bit ones.
const aggregateAtomicsCL = `#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void add1(global long *out) { atom_add(out, 1L); }
kernel void addv(global long *out, long v) { atom_add(out, v); atom_sub(out + 1, v); }
kernel void addu(global ulong *out, ulong v) { atom_add(out, v); }
kernel void addk(global long *out) {
	atom_add(out, 0x100000001L); atom_sub(out + 1, 0x123456789abcdef1L);
	atom_add(out + 2, 1L << 40); atom_add(out + 3, -3L); atom_add(out + 4, 8L);
}
kernel void incdec(global long *out) { atom_inc(out); atom_dec(out + 1); }
kernel void c11(global atomic_long *out, long v) {
	atomic_fetch_add_explicit(out, v, memory_order_relaxed, memory_scope_device);
	atomic_fetch_sub_explicit(out + 1, v, memory_order_relaxed, memory_scope_device);
	atomic_fetch_add(out + 2, v);
}
kernel void used(global long *out, global long *old, long v) {
	old[get_global_id(0)] = atomic_fetch_add_explicit((global atomic_long *)out, v, memory_order_relaxed, memory_scope_device);
}
kernel void partial(global long *out, long v, int m) { if (get_global_id(0) % m == 0) atom_add(out, v); }
kernel void add32(global int *out, int v) { atomic_add(out, v); atomic_sub(out + 1, v); atomic_inc(out + 2); atomic_dec(out + 3); }
`

// TestAggregateAtomicsOpenCL builds aggregateAtomicsCL with clang-15 and
// llvm-spirv-15 and compiles it for every device at every SIMD width
// with the finalizer: GenX_IR must accept every kernel without a
// message (it has no 64-bit integer multiply on any platform; the
// aggregated count once multiplied in 64 bits), ocloc must accept the
// zebin, and on the emulator each counter must end as the work-items'
// own atomics would leave it (modulo 2^64 or 2^32), for values whose
// high dword matters, with whole and partial threads and work-groups.
func TestAggregateAtomicsOpenCL(t *testing.T) {
	clang := oracle.Tool(t, "clang-15")
	llvmSpirv := oracle.Tool(t, "llvm-spirv-15")
	genx := oracle.Tool(t, "GenX_IR")
	ocloc := oracle.Tool(t, "ocloc")
	dir := t.TempDir()
	src, bc, spv := filepath.Join(dir, "k.cl"), filepath.Join(dir, "k.bc"), filepath.Join(dir, "k.spv")
	if err := os.WriteFile(src, []byte(aggregateAtomicsCL), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := oracle.Run(nil, clang, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-O2",
		"-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc", src, "-o", bc); err != nil {
		t.Fatalf("clang: %v\n%s", err, out)
	}
	if out, err := oracle.Run(nil, llvmSpirv, "--spirv-max-version=1.2", bc, "-o", spv); err != nil {
		t.Fatalf("llvm-spirv: %v\n%s", err, out)
	}
	data, err := os.ReadFile(spv)
	if err != nil {
		t.Fatal(err)
	}
	fin := &zebin.Finalizer{Path: genx}
	const m64 = ^uint64(0)
	for _, p := range platform.Platforms {
		for _, simd := range p.SIMD {
			t.Run(fmt.Sprintf("%s/simd%d", p.Name, simd), func(t *testing.T) {
				out, err := compiler.Compile(context.Background(), data, compiler.Options{
					Platform: p, Passes: passes.Config{Opt: 2}, Jobs: 1, Finalizer: fin, SIMD: simd, File: "k.spv"})
				if err != nil {
					t.Fatal(err)
				}
				zi, ds := zeinfo.Check(out.ZeInfo, zeinfo.Options{GRFBytes: p.GRFBytes})
				if len(ds) != 0 {
					t.Fatalf("zeinfo.Check: %v", ds)
				}
				bin := filepath.Join(t.TempDir(), "k.bin")
				if err := os.WriteFile(bin, out.Zebin, 0o644); err != nil {
					t.Fatal(err)
				}
				if _, err := checkOcloc(ocloc, bin, p, zi); err != nil {
					t.Error(err)
				}
				progs := map[string]*emu.Program{}
				for _, k := range out.Kernels {
					if ws := (visa.GenXOut{Messages: k.Final.Messages}).Warnings(); len(ws) > 0 {
						t.Errorf("kernel %s: GenX_IR prints %q", k.Name, ws)
					}
					if progs[k.Name], err = emu.Compile(k.Sel.Kernel, &k.ZeInfo, p); err != nil {
						t.Fatalf("kernel %s: %v", k.Name, err)
					}
				}
				for _, sz := range [][2]int{{64, 64}, {100, 50}, {7, 7}, {3 * simd, simd}} {
					n := uint64(sz[0])
					for _, v := range []uint64{1, 0x100000001, m64, 0x123456789abcdef1} {
						// run launches kernel k with a zeroed buffer of
						// words 8-byte (or 4-byte) counters and the given
						// by-value arguments, and returns the counters.
						run := func(k string, words, size int, extra ...emu.Arg) ([]uint64, []byte) {
							buf := make([]byte, words*size)
							args := append([]emu.Arg{emu.Buffer(buf)}, extra...)
							var old []byte
							if k == "used" {
								old = make([]byte, 8*sz[0])
								args = []emu.Arg{emu.Buffer(buf), emu.Buffer(old), extra[0]}
							}
							l := &emu.Launch{Dims: 1, Global: [3]int{sz[0], 1, 1}, Local: [3]int{sz[1], 1, 1}, Args: args, Strict: true, MaxSteps: 1 << 26}
							if _, err := progs[k].Run(l); err != nil {
								t.Fatalf("%s: %v", k, err)
							}
							r := make([]uint64, words)
							for i := range r {
								if size == 8 {
									r[i] = binary.LittleEndian.Uint64(buf[8*i:])
								} else {
									r[i] = uint64(binary.LittleEndian.Uint32(buf[4*i:]))
								}
							}
							return r, old
						}
						val := emu.Value(binary.LittleEndian.AppendUint64(nil, v))
						check := func(what string, got, want []uint64) {
							if !slices.Equal(got, want) {
								t.Errorf("%s, global %d local %d, v %#x: got %#x, want %#x", what, sz[0], sz[1], v, got, want)
							}
						}
						if v == 1 {
							got, _ := run("add1", 1, 8)
							check("add1", got, []uint64{n})
							got, _ = run("addk", 5, 8)
							check("addk", got, []uint64{0x100000001 * n, -(0x123456789abcdef1 * n), n << 40, -(3 * n), 8 * n})
							got, _ = run("incdec", 2, 8)
							check("incdec", got, []uint64{n, -n})
						}
						got, _ := run("addv", 2, 8, val)
						check("addv", got, []uint64{v * n, -v * n})
						got, _ = run("addu", 1, 8, val)
						check("addu", got, []uint64{v * n})
						got, _ = run("c11", 3, 8, val)
						check("c11", got, []uint64{v * n, -v * n, v * n})
						got, old := run("used", 1, 8, val)
						check("used", got, []uint64{v * n})
						var olds, wantOlds []uint64
						for i := range sz[0] {
							olds = append(olds, binary.LittleEndian.Uint64(old[8*i:]))
							wantOlds = append(wantOlds, v*uint64(i))
						}
						slices.Sort(olds)
						slices.Sort(wantOlds)
						check("used (old values)", olds, wantOlds)
						for _, m := range []int{1, 3} {
							got, _ := run("partial", 1, 8, val, emu.Value(binary.LittleEndian.AppendUint32(nil, uint32(m))))
							check(fmt.Sprintf("partial m=%d", m), got, []uint64{v * ((n + uint64(m) - 1) / uint64(m))})
						}
						v32 := emu.Value(binary.LittleEndian.AppendUint32(nil, uint32(v)))
						got, _ = run("add32", 4, 4, v32)
						w := uint32(v) * uint32(n)
						check("add32", got, []uint64{uint64(w), uint64(-w), uint64(uint32(n)), uint64(-uint32(n))})
					}
				}
			})
		}
	}
}
