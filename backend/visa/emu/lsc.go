package emu

import (
	"fmt"
	"math/bits"

	"spv2visa/backend/visa"
)

func regLSC(handlers map[visa.Op]handler) {
	handlers[visa.OpLscLoad] = (*compiler).lsc
	handlers[visa.OpLscStore] = (*compiler).lsc
	handlers[visa.OpLscLoadQuad] = (*compiler).lsc
	handlers[visa.OpLscStoreQuad] = (*compiler).lsc
	for _, op := range visa.LscAtomic {
		handlers[op] = (*compiler).lsc
	}
}

// lscSizes gives, per LSC data size, the bytes of an element in memory
// and in a register, and whether it sits in the high half of its dword.
var lscSizes = map[int]struct {
	mem, reg int
	high     bool
}{
	visa.LSCData8: {1, 1, false}, visa.LSCData16: {2, 2, false}, visa.LSCData32: {4, 4, false},
	visa.LSCData64: {8, 8, false}, visa.LSCData8U32: {1, 4, false}, visa.LSCData16U32: {2, 4, false},
	visa.LSCData16U32H: {2, 4, true},
}

var lscAddrBytes = map[int64]int{visa.AddrSize16: 2, visa.AddrSize32: 4, visa.AddrSize64: 8}

// lscAtomic is an LSC atomic operation by sub-opcode name: the legacy
// operation it computes and its number of data operands.
var lscAtomicOps = map[string]struct {
	op, nsrc int
}{
	"iinc": {visa.AtomicInc, 0}, "idec": {visa.AtomicDec, 0}, "load": {-1, 0}, "store": {visa.AtomicXchg, 1},
	"iadd": {visa.AtomicAdd, 1}, "isub": {visa.AtomicSub, 1}, "smin": {visa.AtomicIMin, 1},
	"smax": {visa.AtomicIMax, 1}, "umin": {visa.AtomicMin, 1}, "umax": {visa.AtomicMax, 1},
	"icas": {visa.AtomicCmpxchg, 2}, "fadd": {visa.AtomicFAdd, 1}, "fsub": {visa.AtomicFSub, 1},
	"fmin": {visa.AtomicFMin, 1}, "fmax": {visa.AtomicFMax, 1}, "fcas": {visa.AtomicFCmpwr, 2},
	"and": {visa.AtomicAnd, 1}, "or": {visa.AtomicOr, 1}, "xor": {visa.AtomicXor, 1},
}

// lsc compiles the untyped LSC messages (LSC_UNTYPED.md): loads and
// stores, gathering (one address per channel, vector element v of
// channel n in register block v) or transposed (SIMD1, one address,
// successive elements), and atomics.
func (c *compiler) lsc(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	name := in.Op.String()
	var atomic string
	if a, ok := cutPrefix(name, "lsc_atomic_"); ok {
		atomic = a
	}
	quad := in.Op == visa.OpLscLoadQuad || in.Op == visa.OpLscStoreQuad
	store := in.Op == visa.OpLscStore || in.Op == visa.OpLscStoreQuad
	// Operand positions: loads and atomics dst, addrs; stores addrs,
	// data; the surface after them.
	var dataA, addrA, surfA int
	switch {
	case atomic != "":
		dataA, addrA, surfA = 0, 1, 4
	case store:
		dataA, addrA, surfA = 1, 0, 2
	default:
		dataA, addrA, surfA = 0, 1, 2
	}
	if err := args(in, surfA+1); err != nil {
		return nil, err
	}
	sfid, atype := lit(in, 0), lit(in, 4)
	size, vec, tr := visa.ShapeParts(lit(in, 3))
	sz, ok := lscSizes[size]
	if !ok {
		return nil, fmt.Errorf("data size %d", size)
	}
	nelem := vec
	if quad {
		nelem = bits.OnesCount(uint(vec & 15))
		tr = false
	}
	if nelem < 1 {
		return nil, fmt.Errorf("vector size %d", vec)
	}
	abytes, ok := lscAddrBytes[lit(in, 6)]
	if !ok {
		return nil, fmt.Errorf("address size %d", lit(in, 6))
	}
	immoff, scale := uint64(lit(in, 5)), uint64(max(lit(in, 7), 1))
	addrs, err := c.raw(in.Args[addrA])
	if err != nil {
		return nil, err
	}
	data, err := c.raw(in.Args[dataA])
	if err != nil {
		return nil, err
	}
	n := e.n
	if tr && n != 1 {
		return nil, fmt.Errorf("transposed message with %d channels", n)
	}
	if err := addrs.need(abytes * n); err != nil {
		return nil, err
	}
	// Register layout of element v of channel i.
	block := (n*sz.reg + c.prog.grf - 1) / c.prog.grf * c.prog.grf
	regAt := func(v, i int) int {
		if tr {
			return v * sz.reg
		}
		return v*block + i*sz.reg
	}
	if err := data.need(regAt(nelem-1, n-1) + sz.reg); err != nil {
		return nil, err
	}
	var srcs [2]rawOp
	aop := -2
	if atomic != "" {
		ao, ok := lscAtomicOps[atomic]
		if !ok {
			return nil, fmt.Errorf("atomic %s", atomic)
		}
		aop = ao.op
		for k := 0; k < 2; k++ {
			if srcs[k], err = c.raw(in.Args[2+k]); err != nil {
				return nil, err
			}
			if k < ao.nsrc {
				if srcs[k].null {
					return nil, fmt.Errorf("atomic %s needs source %d", atomic, k+1)
				}
				if err := srcs[k].need(regAt(0, n-1) + sz.reg); err != nil {
					return nil, err
				}
			}
		}
		if tr || nelem != 1 {
			return nil, fmt.Errorf("atomic with a vector or transposed shape")
		}
	}
	// The target memory.
	var sv *src
	switch atype {
	case visa.AddrFlat:
	case visa.AddrBTI, visa.AddrSS:
		if sv, err = c.src(in.Args[surfA], 1); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("address type %d is not supported", atype)
	}
	slm := sfid == visa.SFIDSLM
	if slm && atype != visa.AddrFlat {
		return nil, fmt.Errorf("SLM message with address type %d", atype)
	}
	// Quad messages take the enabled components of x, y, z, w.
	var comps []int
	for v := 0; v < vec && !quad || quad && v < 4; v++ {
		if !quad || vec&(1<<v) != 0 {
			comps = append(comps, v)
		}
	}
	return func(t *thread) {
		chen := e.chen(t)
		if tr {
			// A transposed (block) message ignores the execution mask.
			chen = 1
		}
		if chen == 0 || !t.addrDefined(addrs, abytes, chen, "the address") {
			return
		}
		// access returns the memory of one element.
		var sp *space
		switch {
		case slm:
			sp = t.grp.slm
		case sv != nil:
			s, ok := sv.u64(t)
			if !ok {
				return
			}
			if atype == visa.AddrSS {
				if uint32(s) != t.ssBase {
					t.fail("surface state offset 0x%x is not this thread's scratch surface (0x%x)", s, t.ssBase)
					return
				}
				sp = t.scratchSpace()
			} else {
				sf := t.run.surfaces[uint32(s)]
				if sf == nil || sf.buf == nil {
					t.fail("binding table index %d is not a buffer", s)
					return
				}
				sp = sf.buf
			}
			if sp == nil {
				return
			}
		}
		for m := chen; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			base := t.rd(addrs.off+abytes*i, abytes)*scale + immoff
			if abytes < 8 {
				base = zext(base, abytes)
			}
			for k, v := range comps {
				a := base + uint64(v*sz.mem)
				var b []byte
				var err error
				if sp != nil {
					b, err = sp.at(a, sz.mem)
				} else {
					b, err = t.run.mem.find(a, sz.mem)
				}
				if err != nil {
					t.fail("channel %d: %v", i, err)
					return
				}
				r := data.off + regAt(k, i)
				switch {
				case aop >= -1:
					var x, y uint64
					if !srcs[0].null {
						x = zext(t.rd(srcs[0].off+regAt(0, i), sz.reg), sz.mem)
					}
					if !srcs[1].null {
						y = zext(t.rd(srcs[1].off+regAt(0, i), sz.reg), sz.mem)
					}
					old := getMem(b)
					if aop >= 0 {
						// LSC compare-and-swap compares with the first
						// source and stores the second.
						if aop == visa.AtomicCmpxchg {
							x, y = y, x
						}
						nw, _ := applyAtomic(aop, old, x, y, sz.mem)
						putMem(b, nw)
					}
					if !data.null {
						t.wr(r, sz.reg, old)
					}
				case store:
					if !t.stored(r, sz.reg, i) {
						return
					}
					v := t.rd(r, sz.reg)
					if sz.high {
						v >>= 16
					}
					putMem(b, v)
				case !data.null:
					v := getMem(b)
					if sz.high {
						v <<= 16
					}
					t.wr(r, sz.reg, v)
				}
			}
		}
	}, nil
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return "", false
}
