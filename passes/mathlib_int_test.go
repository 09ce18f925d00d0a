package passes

import (
	"math/rand/v2"
	"testing"

	"spv2visa/ir"
)

// dwordKeep keeps the integer built-ins a target has for dwords only (as
// vISA's mulh, rol, lzd and cbit), so that the other widths expand.
func dwordKeep(fn ir.MathFn, t *ir.Type) bool {
	switch fn.String() {
	case "u_mul_hi", "s_mul_hi", "rotate", "clz", "popcount":
		return t.Scalar().Bits == 32
	}
	return DefaultKeep(fn, t)
}

// TestMathlibIntWidths checks the expansions of the dword-only integer
// built-ins at 8, 16 and 64 bits, scalar and vector, against the
// interpreter's own evaluation of the built-in, on random operands and
// on the edges (0, ±1, the extremes, single bits, counts past the width).
func TestMathlibIntWidths(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	everything := func(ir.MathFn, *ir.Type) bool { return true }
	for _, fn := range []string{"u_mul_hi", "s_mul_hi", "u_mad_hi", "s_mad_hi", "u_mad_sat", "s_mad_sat", "rotate", "clz", "ctz", "popcount"} {
		for _, bits := range []int{8, 16, 64} {
			for _, lanes := range []int{1, 3} {
				st := ir.Int(bits)
				typ := st
				if lanes > 1 {
					typ = ir.Vec(st, lanes)
				}
				nargs := map[string]int{"rotate": 2, "u_mul_hi": 2, "s_mul_hi": 2, "clz": 1, "ctz": 1, "popcount": 1}[fn]
				if nargs == 0 {
					nargs = 3
				}
				mask := uint64(1)<<bits - 1
				if bits == 64 {
					mask = ^uint64(0)
				}
				edges := []uint64{0, 1, mask, mask >> 1, mask>>1 + 1, 2, 3, uint64(bits), uint64(bits) + 1, uint64(bits) - 1, 0xffffffff & mask, 1 << 32 & mask}
				const n = 1200
				args := make([]*ir.Type, nargs)
				in := make([][]uint64, nargs)
				for k := range in {
					args[k] = typ
					for i := 0; i < n*lanes; i++ {
						switch x := r.Uint64(); {
						case i < len(edges)*len(edges):
							// every pair of edges in the first two operands
							in[k] = append(in[k], edges[[]int{i % len(edges), i / len(edges) % len(edges), i % 5}[min(k, 2)]])
						case x%4 == 0:
							in[k] = append(in[k], edges[r.IntN(len(edges))])
						case x%4 == 1:
							in[k] = append(in[k], uint64(1)<<r.IntN(bits)&mask)
						default:
							in[k] = append(in[k], r.Uint64()&mask)
						}
					}
				}
				want := runMathKeep(t, fn, args, typ, in, everything)[0]
				got := runMathKeep(t, fn, args, typ, in, dwordKeep)[0]
				for i := range want {
					if got[i] != want[i] {
						ops := make([]uint64, nargs)
						for k := range ops {
							ops[k] = in[k][i]
						}
						t.Fatalf("%s of %s: operands %#x: expansion %#x, built-in %#x", fn, typ, ops, got[i], want[i])
					}
				}
			}
		}
	}
}
