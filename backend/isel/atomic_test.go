package isel_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/backend/visa/emu"
	"spv2visa/backend/zebin"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
)

// aggregateSlot is one counter of TestAggregateAtomics: an atomic
// add, sub, inc or dec whose old value is unused, of a kernel argument
// (arg) or a constant, at a uniform address.
type aggregateSlot struct {
	op    string
	bits  int
	arg   bool
	k     uint64
	every bool // false: only work-items whose id is a multiple of m
}

// The counters: the 64-bit ones at out64[i], the 32-bit ones at
// out32[i], in order.
var aggregateSlots = []aggregateSlot{
	{op: "add", bits: 64, arg: true, every: true},
	{op: "sub", bits: 64, arg: true, every: true},
	{op: "add", bits: 64, k: 1, every: true},
	{op: "add", bits: 64, k: 0x100000001, every: true},
	{op: "sub", bits: 64, k: 0x100000001, every: true},
	{op: "add", bits: 64, k: 8, every: true},
	{op: "add", bits: 64, k: 1 << 31, every: true},
	{op: "add", bits: 64, k: 1 << 32, every: true},
	{op: "add", bits: 64, k: 1 << 40, every: true},
	{op: "add", bits: 64, k: 1 << 63, every: true},
	{op: "add", bits: 64, k: 0xfffffffffffffffd, every: true}, // -3
	{op: "add", bits: 64, k: 0x123456789abcdef1, every: true},
	{op: "add", bits: 64, k: 0xffffffff, every: true},
	{op: "add", bits: 64, k: 0, every: true},
	{op: "inc", bits: 64, every: true},
	{op: "dec", bits: 64, every: true},
	{op: "add", bits: 64, arg: true},
	{op: "sub", bits: 64, k: 0x100000001},
	{op: "inc", bits: 64},
	{op: "add", bits: 32, arg: true, every: true},
	{op: "sub", bits: 32, arg: true, every: true},
	{op: "add", bits: 32, k: 0x80000001, every: true},
	{op: "inc", bits: 32, every: true},
	{op: "dec", bits: 32, every: true},
	{op: "add", bits: 32, arg: true},
}

// aggregateSource writes the kernel: params out64, out32, v (i64), m
// (i32); the counters that not every work-item updates are in a
// divergent block.
func aggregateSource() string {
	var b strings.Builder
	n := 0
	val := func(format string, args ...any) string {
		fmt.Fprintf(&b, "  v%d = %s\n", n, fmt.Sprintf(format, args...))
		n++
		return fmt.Sprintf("v%d", n-1)
	}
	b.WriteString("kernel @k(ptr(global, i64), ptr(global, i32), i64, i32) void {\nb0:\n")
	out64 := val("param [0] : ptr(global, i64)")
	out32 := val("param [1] : ptr(global, i32)")
	v := val("param [2] : i64")
	m := val("param [3] : i32")
	v32 := val("sconv %s : i32", v)
	emit := func(every bool) {
		i64, i32 := 0, 0
		for _, s := range aggregateSlots {
			t, base, idx := "i64", out64, i64
			if s.bits == 32 {
				t, base, idx = "i32", out32, i32
				i32++
			} else {
				i64++
			}
			if s.every != every {
				continue
			}
			p := val("ptradd %s %s : ptr(global, %s)", base, val("const [%d] : i64", idx*s.bits/8), t)
			x := val("const [%d] : %s", s.k, t)
			if s.arg {
				x = v
				if s.bits == 32 {
					x = v32
				}
			}
			val("atomicrmw %s %s [%s device] : %s", p, x, s.op, t)
		}
	}
	emit(true)
	gid := val("uconv %s : i32", val("globalid [0] : i64"))
	sel := val("eq %s %s : i1", val("urem %s %s : i32", gid, m), val("const [0] : i32"))
	fmt.Fprintf(&b, "  if %s -> b1 b2\nb1: <- b0\n", sel)
	emit(false)
	b.WriteString("  jump b2\nb2: <- b0 b1\n  ret\n}\n")
	return b.String()
}

// TestAggregateAtomics runs atomic adds, subs, incs and decs of uniform
// values at uniform addresses, old values unused (one message adding
// the value times the number of active channels), on every platform and
// SIMD width: GenX_IR must accept the kernel without a message (it has
// no 64-bit integer multiply on any platform: "mul does not support
// Q/UQ types"), and each counter must
// equal the sum the work-items' own atomics would leave, modulo 2^64
// or 2^32, with whole and partial threads and with lanes masked off by
// a divergent branch.
func TestAggregateAtomics(t *testing.T) {
	fin := &zebin.Finalizer{Path: oracle.Tool(t, "GenX_IR")}
	src := aggregateSource()
	n64, n32 := 0, 0
	for _, s := range aggregateSlots {
		if s.bits == 64 {
			n64++
		} else {
			n32++
		}
	}
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, simd := range p.SIMD {
			t.Run(fmt.Sprintf("%s/simd%d", dev, simd), func(t *testing.T) {
				m, err := ir.Parse(src)
				if err != nil {
					t.Fatalf("%v\n%s", err, src)
				}
				res, err := isel.Compile(m.Kernels()[0], p, isel.Options{SIMD: simd})
				if err != nil {
					t.Fatal(err)
				}
				text := res.Kernel.Text()
				// With IGC's options, as a compile runs it: without them
				// GenX_IR crashes (signal 11, in local register
				// allocation) on DG2 at SIMD8 and on PVC at SIMD16 on
				// kernels of about 30 aggregated 64-bit atomics, before
				// and after they multiply in dwords.
				f, err := fin.Finalize(context.Background(), []byte(text), zebin.Options{Platform: p, GRFs: res.GRFs, InlineData: res.Payload.InlineData > 0})
				if err != nil {
					t.Fatalf("GenX_IR rejects the kernel: %v\n%s", err, text)
				}
				if ws := (visa.GenXOut{Messages: f.Messages}).Warnings(); len(ws) > 0 {
					t.Fatalf("GenX_IR prints %q", ws)
				}
				info := res.ZeInfo()
				prog, err := emu.Compile(res.Kernel, &info, p)
				if err != nil {
					t.Fatal(err)
				}
				// Whole threads; a work-group of one partial thread;
				// groups of several threads, the last partial.
				sizes := [][2]int{{4 * simd, 2 * simd}, {simd - 3, simd - 3}, {3 * (simd + 5), simd + 5}}
				vals := []uint64{1, 0x100000001, 0xffffffffffffffff, 0x123456789abcdef1, 0xffffffff, 1 << 63}
				for _, sz := range sizes {
					for _, v := range vals {
						for _, mod := range []uint32{1, 3} {
							out64 := make([]byte, 8*n64)
							out32 := make([]byte, 4*n32)
							l := &emu.Launch{Dims: 1, Global: [3]int{sz[0], 1, 1}, Local: [3]int{sz[1], 1, 1}, Strict: true, MaxSteps: 1 << 24,
								Args: []emu.Arg{emu.Buffer(out64), emu.Buffer(out32), emu.Value(leBytes(v, 8)), emu.Value(leBytes(uint64(mod), 4))}}
							if _, err := prog.Run(l); err != nil {
								t.Fatalf("emulator: %v\n%s", err, text)
							}
							all := uint64(sz[0])
							some := uint64((sz[0] + int(mod) - 1) / int(mod))
							i64, i32 := 0, 0
							for _, s := range aggregateSlots {
								cnt := all
								if !s.every {
									cnt = some
								}
								x := s.k
								if s.arg {
									x = v
								}
								switch s.op {
								case "inc":
									x = 1
								case "dec":
									x = ^uint64(0)
								case "sub":
									x = -x
								}
								want := x * cnt
								var got uint64
								if s.bits == 64 {
									got = binary.LittleEndian.Uint64(out64[8*i64:])
									i64++
								} else {
									want = uint64(uint32(want))
									got = uint64(binary.LittleEndian.Uint32(out32[4*i32:]))
									i32++
								}
								if got != want {
									t.Errorf("global %d local %d, v %#x, m %d: %d-bit %s of %#x (arg %v, every %v): got %#x, want %#x",
										sz[0], sz[1], v, mod, s.bits, s.op, s.k, s.arg, s.every, got, want)
								}
							}
						}
					}
				}
			})
		}
	}
}
