package isel

import (
	"math"

	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// store is where an IR value lives.
type store struct {
	// v holds numeric values: lanes components, each one element
	// (scalar storage) or simd elements (component c at element c*simd).
	v *visa.Var
	// preds hold a boolean's components as predicates of simd channels.
	preds []*visa.Var
	// fields hold a structure's fields, each a store of its own.
	fields []*store
	// konst: a constant, with each component's bits.
	konst  bool
	bits   []uint64
	t      visa.Type
	lanes  int
	scalar bool // one element per component, computed unmasked
}

// vtype returns the vISA type that holds an IR scalar type.
func (s *sel) vtype(t *ir.Type) visa.Type {
	switch t.Kind {
	case ir.KInt:
		return visa.IntType(t.Bits/8, false)
	case ir.KFloat:
		switch t.Bits {
		case 16:
			return visa.HF
		case 32:
			return visa.F
		}
		return visa.DF
	case ir.KPtr:
		if t.Space == ir.SpaceLocal {
			return visa.UD
		}
		return visa.UQ
	case ir.KBool:
		return visa.Bool
	}
	s.fail("values of type %s are not supported", t)
	return 0
}

// pureOps can run unmasked on uniform operands: no memory access, no
// side effect, no fault.
var pureOps = func() [256]bool {
	var p [256]bool
	for _, op := range []ir.Op{
		ir.OpConst, ir.OpZero, ir.OpUndef, ir.OpParam, ir.OpGlobalAddr, ir.OpCopy, ir.OpSelect,
		ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpNeg, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot,
		ir.OpShl, ir.OpLShr, ir.OpAShr, ir.OpBitCount, ir.OpBitReverse,
		ir.OpFAdd, ir.OpFSub, ir.OpFMul, ir.OpFDiv, ir.OpFNeg,
		ir.OpEq, ir.OpNe, ir.OpULt, ir.OpULe, ir.OpUGt, ir.OpUGe, ir.OpSLt, ir.OpSLe, ir.OpSGt, ir.OpSGe,
		ir.OpFOEq, ir.OpFONe, ir.OpFOLt, ir.OpFOLe, ir.OpFOGt, ir.OpFOGe,
		ir.OpFUEq, ir.OpFUNe, ir.OpFULt, ir.OpFULe, ir.OpFUGt, ir.OpFUGe, ir.OpFOrd, ir.OpFUno,
		ir.OpIsNan, ir.OpIsInf, ir.OpIsFinite, ir.OpIsNormal, ir.OpSignBit, ir.OpAny, ir.OpAll,
		ir.OpUConv, ir.OpSConv, ir.OpFConv, ir.OpFToU, ir.OpFToS, ir.OpUToF, ir.OpSToF,
		ir.OpSatSToU, ir.OpSatUToS, ir.OpBitcast, ir.OpPtrToInt, ir.OpIntToPtr,
		ir.OpExtract, ir.OpInsert, ir.OpExtractDyn, ir.OpInsertDyn, ir.OpShuffle, ir.OpConstruct,
		ir.OpPtrAdd, ir.OpMath, ir.OpAlloca,
		ir.OpGroupID, ir.OpGlobalSize, ir.OpLocalSize, ir.OpEnqueuedLocalSize, ir.OpNumGroups,
		ir.OpGlobalOffset, ir.OpWorkDim, ir.OpSubgroupSize, ir.OpSubgroupMaxSize,
		ir.OpNumSubgroups, ir.OpNumEnqueuedSubgroups, ir.OpSamplerConst, ir.OpPhi,
	} {
		p[op] = true
	}
	return p
}()

// classify decides which values get scalar storage: uniform values whose
// computation is pure and whose operands are scalar themselves, so that
// they can be computed unmasked in one channel wherever they are. A
// value that work-items keep after leaving a loop at different
// iterations needs a copy per work-item. A phi is scalar only when the
// branches that lead to it are computed unmasked too (their predicate
// bits then agree), so its predicated copies read valid bits.
//
// It starts from every candidate scalar and drops each one with an
// operand that is not, until none changes: a loop's uniform induction
// variable and its increment, each the other's operand, stay scalar
// (starting from none, neither would ever become one).
func (s *sel) classify() {
	for _, b := range s.order {
		for _, v := range b.Values {
			s.scalar[v.ID] = s.candidate(v)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range s.order {
			for _, v := range b.Values {
				if s.scalar[v.ID] && !s.operandsScalar(v) {
					s.scalar[v.ID] = false
					changed = true
				}
			}
		}
	}
}

// candidate reports whether v may be scalar whatever its operands.
func (s *sel) candidate(v *ir.Value) bool {
	if int(v.Op) >= len(pureOps) || !(pureOps[v.Op] || v.Op == ir.OpLoad && s.uniformLoad(v)) || !s.uni.IsUniform(v) || s.uni.EscapesDivergentLoop(v) {
		return false
	}
	return !(v.Type.Kind == ir.KVector && v.Type.Elem.Kind == ir.KBool)
}

// operandsScalar reports whether candidate v may stay scalar given its
// operands' storage.
func (s *sel) operandsScalar(v *ir.Value) bool {
	if v.Op == ir.OpPhi {
		for i, a := range v.Args {
			if !s.scalarOrConst(a) {
				return false
			}
			if p := v.Block.Preds[i]; p.Kind != ir.BlockPlain && !s.scalarOrConst(p.Control) {
				return false
			}
		}
		return true
	}
	for _, a := range v.Args {
		if !s.scalarOrConst(a) {
			return false
		}
	}
	return true
}

func (s *sel) scalarOrConst(v *ir.Value) bool {
	return v != nil && (s.scalar[v.ID] || isConst(v))
}

func isConst(v *ir.Value) bool {
	switch v.Op {
	case ir.OpConst, ir.OpZero, ir.OpUndef:
		return true
	case ir.OpConstruct:
		for _, a := range v.Args {
			if !isConst(a) {
				return false
			}
		}
		return true
	}
	return false
}

// constBits returns the bits of component c of a constant value.
func constBits(v *ir.Value, c int) uint64 {
	switch v.Op {
	case ir.OpConst:
		return uint64(v.AuxInt)
	case ir.OpConstruct:
		if v.Type.Kind == ir.KVector {
			return constBits(v.Args[c], 0)
		}
	}
	return 0
}

// get returns v's storage, declaring it on first use.
func (s *sel) get(v *ir.Value) *store {
	if st := s.vals[v.ID]; st != nil {
		return st
	}
	if h := s.exitOf[v.ID]; h != nil {
		st := s.get(h)
		s.vals[v.ID] = st
		return st
	}
	if h := s.latchOf[v.ID]; h != nil {
		st := s.get(h)
		s.vals[v.ID] = st
		return st
	}
	t := v.Type
	if t.Kind == ir.KStruct {
		st := s.structStore(v, t)
		s.vals[v.ID] = st
		return st
	}
	lanes := t.Lanes()
	st := &store{lanes: lanes, scalar: s.scalar[v.ID]}
	if v.Op == ir.OpAlloca && s.regionOf[v.ID] == nil {
		// A private variable in memory: its address, per lane.
		st.t = visa.UQ
		s.alloc(st)
		s.vals[v.ID] = st
		return st
	}
	if v.Op == ir.OpGlobalAddr && s.regionOf[v.ID] == nil && v.Aux.(*ir.Global).Space != ir.SpaceLocal {
		// A program-scope variable in memory: its address, from a
		// relocation.
		st.t = visa.UQ
		s.alloc(st)
		s.vals[v.ID] = st
		return st
	}
	if v.Op == ir.OpAlloca || v.Op == ir.OpGlobalAddr {
		// The start of a region, or a __local variable's SLM offset.
		st.konst, st.t, st.bits = true, visa.UD, []uint64{uint64(s.addrOf(v))}
		s.vals[v.ID] = st
		return st
	}
	if isConst(v) {
		st.konst = true
		st.t = s.vtype(t.Scalar())
		for c := 0; c < lanes; c++ {
			st.bits = append(st.bits, constBits(v, c))
		}
		s.vals[v.ID] = st
		return st
	}
	el := t.Scalar()
	if el.Kind == ir.KBool {
		st.t = visa.Bool
		for c := 0; c < lanes; c++ {
			st.preds = append(st.preds, s.k.DeclPred("", s.simd))
		}
		s.vals[v.ID] = st
		return st
	}
	st.t = s.vtype(el)
	if s.regionOf[v.ID] != nil || s.surfOf[v.ID] > 0 {
		st.t = visa.UD // a byte offset into registers or a surface
	}
	s.alloc(st)
	s.vals[v.ID] = st
	return st
}

// alloc declares the variable of a numeric store.
func (s *sel) alloc(st *store) {
	n := st.lanes
	if !st.scalar {
		n *= s.simd
	}
	st.v = s.k.Decl("", st.t, n, s.alignFor(st.t, n))
}

// exec returns the execution that writes one component of st.
func (s *sel) exec(st *store) visa.Exec {
	switch {
	case st.preds != nil && st.scalar:
		// Every channel of an unmasked boolean, so all bits agree.
		return visa.NM(s.simd)
	case st.scalar:
		return sexec()
	}
	return s.vexec()
}

// src returns component c of v as a source operand of type t (0: the
// storage's type), broadcast when v is scalar.
func (s *sel) src(v *ir.Value, c int, t visa.Type) visa.Operand {
	return s.srcOf(s.get(v), c, t)
}

// srcOf returns component c of st as a source of type t (0: st's).
func (s *sel) srcOf(st *store, c int, t visa.Type) visa.Operand {
	if t == nat {
		t = st.t
	}
	if st.konst {
		return immOf(t, st.t, st.bits[c])
	}
	if st.v == nil {
		s.fail("a boolean value is used as a number")
	}
	return s.compOf(st.v, c, st.scalar, t)
}

// compOf addresses component c of a variable holding lanes × (1 or simd)
// elements, viewed as type t of the same size.
func (s *sel) compOf(x *visa.Var, c int, scalar bool, t visa.Type) visa.Operand {
	if t != x.Type {
		s.sameSize(x, t)
		x = s.as(x, t)
	}
	if scalar {
		return visa.Scalar(x, c)
	}
	row, col := s.rowCol(x.Type, c*s.simd)
	return visa.Src(x, row, col, 1, 1, 0)
}

// rowCol splits an element index into a register row and column.
func (s *sel) rowCol(t visa.Type, elem int) (int, int) {
	per := s.p.GRFBytes / t.Size()
	return elem / per, elem % per
}

// dst returns component c of v as a destination of type t (0: storage's).
func (s *sel) dst(v *ir.Value, c int, t visa.Type) visa.Operand {
	return s.dstOf(s.get(v), c, t)
}

// dstOf returns component c of st as a destination of type t (0: st's).
func (s *sel) dstOf(st *store, c int, t visa.Type) visa.Operand {
	if st.v == nil {
		s.fail("a boolean value is written as a number")
	}
	x := st.v
	if t != nat && t != x.Type {
		s.sameSize(x, t)
		x = s.as(x, t)
	}
	if st.scalar {
		return visa.Dst(x, 0, c, 1)
	}
	row, col := s.rowCol(x.Type, c*s.simd)
	return visa.Dst(x, row, col, 1)
}

// immOf makes an immediate of type t from bits of type from.
func immOf(t, from visa.Type, bits uint64) visa.Operand {
	if t == from || t.Size() == from.Size() {
		return visa.Imm(t, bits)
	}
	// A narrower or wider view of an integer constant: sign- or
	// zero-extend to the view's width.
	if from.IsSigned() {
		sh := 64 - 8*uint(from.Size())
		bits = uint64(int64(bits<<sh) >> sh)
	}
	return visa.ImmInt(t, int64(bits))
}

// signed returns the signed integer type of the same size as t.
func signed(t visa.Type) visa.Type {
	switch t {
	case visa.UB:
		return visa.B
	case visa.UW:
		return visa.W
	case visa.UD:
		return visa.D
	case visa.UQ:
		return visa.Q
	}
	return t
}

func f32bits(x float32) uint64 { return uint64(math.Float32bits(x)) }

// nat asks the operand helpers for a value's storage type (vISA's UD is
// 0, so 0 cannot mean "none").
const nat visa.Type = 0xff

// sameSize checks that viewing x as type t reinterprets each element
// rather than regrouping lanes' bytes: operand helpers address element
// i of a lane by its index, which only holds for a type of the same
// size. A conversion is the instruction's job (its operands' types).
func (s *sel) sameSize(x *visa.Var, t visa.Type) {
	if t.Size() != x.Type.Size() {
		s.fail("internal error: %s elements of %s read as %s", x.Type, x.Name, t)
	}
}
