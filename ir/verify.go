package ir

import (
	"errors"
	"fmt"
	"strings"
)

// Verify checks the module's invariants: block structure and edges,
// phis, use counts, the type rule of every op, calls, and that every
// definition dominates its uses. It returns all problems found (at most
// a few dozen) joined in one error, or nil.
func (m *Module) Verify() error {
	var errs []error
	for _, f := range m.Funcs {
		if err := f.Verify(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Verify checks one function (see Module.Verify).
func (f *Func) Verify() error {
	vf := &verifier{f: f}
	vf.run()
	if len(vf.errs) == 0 {
		return nil
	}
	return fmt.Errorf("function @%s:\n  %s", f.Name, strings.Join(vf.errs, "\n  "))
}

type verifier struct {
	f    *Func
	errs []string
}

func (vf *verifier) errorf(format string, args ...any) {
	if len(vf.errs) < 40 {
		vf.errs = append(vf.errs, fmt.Sprintf(format, args...))
	}
}

func (vf *verifier) bad(v *Value, format string, args ...any) {
	where := "?"
	if v.Block != nil {
		where = fmt.Sprintf("b%d", v.Block.ID)
	}
	vf.errorf("%s: %s: %s", where, v.LongString(), fmt.Sprintf(format, args...))
}

func (vf *verifier) run() {
	f := vf.f
	if len(f.Blocks) == 0 {
		vf.errorf("no blocks")
		return
	}
	if len(f.Entry().Preds) != 0 {
		vf.errorf("the entry block b%d has predecessors", f.Entry().ID)
	}
	blockSeen := make(map[int]*Block, len(f.Blocks))
	valSeen := map[int]*Value{}
	uses := map[*Value]int32{}
	for _, b := range f.Blocks {
		if b.Func != f {
			vf.errorf("b%d belongs to another function", b.ID)
		}
		if b.ID < 0 || b.ID >= f.nextBlock {
			vf.errorf("b%d: id out of range (next is %d)", b.ID, f.nextBlock)
		}
		if o, dup := blockSeen[b.ID]; dup && o != b {
			vf.errorf("two blocks numbered b%d", b.ID)
		}
		blockSeen[b.ID] = b
		for _, v := range b.Values {
			if v.ID < 0 || v.ID >= f.nextValue {
				vf.bad(v, "id out of range (next is %d)", f.nextValue)
			}
			if o, dup := valSeen[v.ID]; dup && o != v {
				vf.bad(v, "two values numbered v%d", v.ID)
			}
			valSeen[v.ID] = v
			if v.Block != b {
				vf.bad(v, "Block field does not point to b%d", b.ID)
			}
			for _, a := range v.Args {
				uses[a]++
			}
		}
		if b.Control != nil {
			uses[b.Control]++
		}
	}
	vf.edges(blockSeen)
	for _, b := range f.Blocks {
		for i, v := range b.Values {
			if v.Type == nil {
				vf.bad(v, "no type")
				continue
			}
			if v.Op == OpPhi && i > 0 && b.Values[i-1].Op != OpPhi {
				vf.bad(v, "phi after a non-phi value")
			}
			for _, a := range v.Args {
				if a == nil {
					vf.bad(v, "nil argument")
				} else if valSeen[a.ID] != a {
					vf.bad(v, "argument v%d is not a value of this function", a.ID)
				}
			}
			if v.Uses != uses[v] {
				vf.bad(v, "use count %d, but %d uses found", v.Uses, uses[v])
			}
			vf.types(v)
		}
	}
	if len(vf.errs) == 0 {
		vf.dominance()
	}
}

var succCount = [...]int{BlockPlain: 1, BlockIf: 2, BlockRet: 0, BlockUnreachable: 0}

func (vf *verifier) edges(blocks map[int]*Block) {
	f := vf.f
	type edge struct{ from, to *Block }
	count := map[edge]int{}
	for _, b := range f.Blocks {
		want := len(b.Cases) + 1
		if b.Kind != BlockSwitch {
			want = succCount[b.Kind]
		}
		if len(b.Succs) != want {
			vf.errorf("b%d: a %s block has %d successors, want %d", b.ID, b.Kind, len(b.Succs), want)
		}
		for _, s := range b.Succs {
			if blocks[s.ID] != s {
				vf.errorf("b%d: successor b%d is not a block of this function", b.ID, s.ID)
			}
			count[edge{b, s}]++
		}
		for _, p := range b.Preds {
			count[edge{p, b}]--
		}
		switch c := b.Control; b.Kind {
		case BlockIf:
			if c == nil || c.Type != Bool {
				vf.errorf("b%d: if needs an i1 control", b.ID)
			}
		case BlockSwitch:
			if c == nil || c.Type.Kind != KInt {
				vf.errorf("b%d: switch needs an integer control", b.ID)
			}
			seen := map[int64]bool{}
			for _, k := range b.Cases {
				if c != nil && c.Type.Kind == KInt && Mask(uint64(k), c.Type.Bits) != uint64(k) && SignExtend(uint64(k), c.Type.Bits) != k {
					vf.errorf("b%d: case %d does not fit in %s", b.ID, k, c.Type)
				}
				if seen[k] {
					vf.errorf("b%d: case %d twice", b.ID, k)
				}
				seen[k] = true
			}
		case BlockRet:
			if f.Result == Void {
				if c != nil {
					vf.errorf("b%d: void function returns a value", b.ID)
				}
			} else if c == nil || c.Type != f.Result {
				vf.errorf("b%d: must return a %s", b.ID, f.Result)
			}
		default:
			if c != nil {
				vf.errorf("b%d: a %s block has a control value", b.ID, b.Kind)
			}
		}
	}
	for e, n := range count {
		if n != 0 {
			vf.errorf("edge b%d -> b%d: successor and predecessor lists disagree", e.from.ID, e.to.ID)
		}
	}
}

func (vf *verifier) dominance() {
	f := vf.f
	dom := Dominators(f)
	pos := map[*Value]int{}
	for _, b := range f.Blocks {
		for i, v := range b.Values {
			pos[v] = i
		}
	}
	defDominates := func(d *Value, b *Block, at int) bool {
		if d.Block == b {
			return pos[d] < at
		}
		return dom.Dominates(d.Block, b)
	}
	for _, b := range f.Blocks {
		if !dom.Reachable(b) {
			continue
		}
		for i, v := range b.Values {
			for k, a := range v.Args {
				if v.Op == OpPhi {
					if k < len(b.Preds) {
						p := b.Preds[k]
						if dom.Reachable(p) && !defDominates(a, p, len(p.Values)) {
							vf.bad(v, "argument %d (v%d) does not dominate the end of predecessor b%d", k, a.ID, p.ID)
						}
					}
					continue
				}
				if !defDominates(a, b, i) {
					vf.bad(v, "argument v%d does not dominate its use", a.ID)
				}
			}
		}
		if c := b.Control; c != nil && !defDominates(c, b, len(b.Values)) {
			vf.errorf("b%d: control v%d does not dominate the block's end", b.ID, c.ID)
		}
	}
}

// types applies v's op type rule.
func (vf *verifier) types(v *Value) {
	info := v.Op.Info()
	if v.Op == OpInvalid || v.Op >= opCount {
		vf.bad(v, "invalid op")
		return
	}
	if info.Args >= 0 && len(v.Args) != info.Args {
		vf.bad(v, "%s takes %d arguments, has %d", v.Op, info.Args, len(v.Args))
		return
	}
	for _, a := range v.Args {
		if a == nil || a.Type == nil {
			return
		}
	}
	t := v.Type
	arg := func(i int) *Type { return v.Args[i].Type }
	sameArgs := func() bool {
		for i := range v.Args {
			if arg(i) != t {
				vf.bad(v, "argument %d has type %s, want %s", i, arg(i), t)
				return false
			}
		}
		return true
	}
	boolOf := func(s *Type) *Type { return s.WithScalar(Bool) }
	switch info.Class {
	case ClassIntBin, ClassIntUn:
		if t.Scalar().Kind != KInt {
			vf.bad(v, "needs an integer type")
		}
		sameArgs()
		return
	case ClassFloatBin, ClassFloatUn:
		if t.Scalar().Kind != KFloat {
			vf.bad(v, "needs a float type")
		}
		sameArgs()
		return
	case ClassLogic:
		if k := t.Scalar().Kind; k != KInt && k != KBool {
			vf.bad(v, "needs an integer or i1 type")
		}
		sameArgs()
		return
	case ClassShift:
		if t.Scalar().Kind != KInt || arg(0) != t || arg(1).Scalar().Kind != KInt || arg(1).Lanes() != t.Lanes() {
			vf.bad(v, "shift of %s by %s", arg(0), arg(1))
		}
		return
	case ClassICmp:
		k := arg(0).Scalar().Kind
		if arg(0) != arg(1) || (k != KInt && k != KBool && k != KPtr) || t != boolOf(arg(0)) {
			vf.bad(v, "integer comparison of %s and %s giving %s", arg(0), arg(1), t)
		}
		return
	case ClassFCmp:
		if arg(0) != arg(1) || arg(0).Scalar().Kind != KFloat || t != boolOf(arg(0)) {
			vf.bad(v, "float comparison of %s and %s giving %s", arg(0), arg(1), t)
		}
		return
	case ClassFTest:
		if arg(0).Scalar().Kind != KFloat || t != boolOf(arg(0)) {
			vf.bad(v, "float test of %s giving %s", arg(0), t)
		}
		return
	case ClassIntConv, ClassFloatConv, ClassFToI, ClassIToF:
		from, to := KInt, KInt
		switch info.Class {
		case ClassFloatConv:
			from, to = KFloat, KFloat
		case ClassFToI:
			from = KFloat
		case ClassIToF:
			to = KFloat
		}
		if arg(0).Scalar().Kind != from || t.Scalar().Kind != to || arg(0).Lanes() != t.Lanes() {
			vf.bad(v, "cannot convert %s to %s", arg(0), t)
		}
		return
	}
	switch v.Op {
	case OpConst:
		if k := t.Kind; k != KBool && k != KInt && k != KFloat {
			vf.bad(v, "constants are scalars")
		} else if k != KFloat && Mask(uint64(v.AuxInt), t.Bits) != uint64(v.AuxInt) {
			vf.bad(v, "bits %#x do not fit in %s", uint64(v.AuxInt), t)
		}
	case OpZero, OpUndef:
		if t == Void {
			vf.bad(v, "needs a type")
		}
	case OpParam:
		if v.AuxInt < 0 || int(v.AuxInt) >= len(vf.f.Params) {
			vf.bad(v, "no parameter %d", v.AuxInt)
		} else if vf.f.Params[v.AuxInt] != t {
			vf.bad(v, "parameter %d has type %s", v.AuxInt, vf.f.Params[v.AuxInt])
		}
	case OpGlobalAddr:
		g, ok := v.Aux.(*Global)
		if !ok {
			vf.bad(v, "no global")
		} else if t != Ptr(g.Space, g.Type) {
			vf.bad(v, "the address of @%s has type %s", g.Name, Ptr(g.Space, g.Type))
		}
	case OpPhi:
		if len(v.Args) != len(v.Block.Preds) {
			vf.bad(v, "%d arguments for %d predecessors", len(v.Args), len(v.Block.Preds))
		}
		sameArgs()
	case OpCopy:
		sameArgs()
	case OpSelect:
		c := arg(0)
		if c != Bool && c != boolOf(t) || arg(1) != t || arg(2) != t {
			vf.bad(v, "select needs an i1 (or i1 vector of the result's shape) and two %s", t)
		}
	case OpAny, OpAll:
		if arg(0).Scalar() != Bool || t != Bool {
			vf.bad(v, "needs an i1 vector and gives i1")
		}
	case OpBitcast:
		a := arg(0)
		switch {
		case a.Kind == KPtr && t.Kind == KPtr:
			if a.Space != t.Space {
				vf.bad(v, "pointer bitcast changes the address space (use spacecast)")
			}
		case a.Kind == KPtr || t.Kind == KPtr:
			vf.bad(v, "bitcast between a pointer and a non-pointer (use ptrtoint/inttoptr)")
		case a.Size() != t.Size() || a.Kind == KStruct || t.Kind == KStruct || a.Kind == KArray || t.Kind == KArray:
			vf.bad(v, "bitcast from %s to %s of a different size", a, t)
		}
	case OpPtrToInt:
		if arg(0).Kind != KPtr || t.Kind != KInt {
			vf.bad(v, "needs a pointer and gives an integer")
		}
	case OpIntToPtr:
		if arg(0).Kind != KInt || t.Kind != KPtr {
			vf.bad(v, "needs an integer and gives a pointer")
		}
	case OpSpaceCast:
		a := arg(0)
		if a.Kind != KPtr || t.Kind != KPtr || (a.Space != SpaceGeneric) == (t.Space != SpaceGeneric) && a.Space != t.Space {
			vf.bad(v, "casts a pointer to or from the generic space")
		}
	case OpExtract:
		if et, err := elemType(arg(0), int(v.AuxInt)); err != nil || v.AuxInt < 0 {
			vf.bad(v, "no element %d in %s", v.AuxInt, arg(0))
		} else if et != t {
			vf.bad(v, "element %d of %s has type %s", v.AuxInt, arg(0), et)
		}
	case OpInsert:
		if et, err := elemType(t, int(v.AuxInt)); err != nil || v.AuxInt < 0 || arg(0) != t {
			vf.bad(v, "no element %d in %s", v.AuxInt, t)
		} else if et != arg(1) {
			vf.bad(v, "element %d of %s has type %s", v.AuxInt, t, et)
		}
	case OpExtractDyn:
		if arg(0).Kind != KVector || arg(0).Elem != t || arg(1).Kind != KInt {
			vf.bad(v, "needs a vector of %s and an integer index", t)
		}
	case OpInsertDyn:
		if t.Kind != KVector || arg(0) != t || arg(1) != t.Elem || arg(2).Kind != KInt {
			vf.bad(v, "needs a %s, an element and an integer index", t)
		}
	case OpShuffle:
		lanes, _ := v.Aux.([]int32)
		a, b := arg(0), arg(1)
		if a.Kind != KVector || b.Kind != KVector || a.Elem != b.Elem || t.Kind != KVector || t.Elem != a.Elem || len(lanes) != t.Len {
			vf.bad(v, "shuffle of %s and %s into %s", a, b, t)
			break
		}
		for _, l := range lanes {
			if l < -1 || int(l) >= a.Len+b.Len {
				vf.bad(v, "lane %d out of range", l)
			}
		}
	case OpConstruct:
		vf.construct(v)
	case OpAlloca:
		if t.Kind != KPtr || t.Space != SpacePrivate {
			vf.bad(v, "alloca gives a private pointer")
		}
	case OpLoad, OpAtomicLoad:
		if arg(0).Kind != KPtr || arg(0).Elem != t {
			vf.bad(v, "loads a %s through %s", t, arg(0))
		}
	case OpStore, OpAtomicStore:
		if arg(0).Kind != KPtr || arg(0).Elem != arg(1) {
			vf.bad(v, "stores a %s through %s", arg(1), arg(0))
		}
	case OpPtrAdd:
		if arg(0).Kind != KPtr || arg(1).Kind != KInt || t.Kind != KPtr || t.Space != arg(0).Space {
			vf.bad(v, "needs a pointer and an integer byte offset and gives a pointer in the same space")
		}
	case OpMemcpy:
		if arg(0).Kind != KPtr || arg(1).Kind != KPtr || arg(2).Kind != KInt {
			vf.bad(v, "needs two pointers and a size")
		}
	case OpPrefetch:
		if arg(0).Kind != KPtr || arg(1).Kind != KInt {
			vf.bad(v, "needs a pointer and an element count")
		}
	case OpAtomicRMW:
		if arg(0).Kind != KPtr || arg(0).Elem != t || arg(1) != t {
			vf.bad(v, "atomic on %s with a %s giving %s", arg(0), arg(1), t)
		}
	case OpAtomicCmpXchg:
		if arg(0).Kind != KPtr || arg(0).Elem != t || arg(1) != t || arg(2) != t {
			vf.bad(v, "compare-exchange on %s with %s, %s giving %s", arg(0), arg(1), arg(2), t)
		}
	case OpCall:
		callee, ok := v.Aux.(*Func)
		if !ok {
			vf.bad(v, "no callee")
			break
		}
		if callee.Result != t || len(callee.Params) != len(v.Args) {
			vf.bad(v, "@%s takes %d arguments and returns %s", callee.Name, len(callee.Params), callee.Result)
			break
		}
		for i, p := range callee.Params {
			if arg(i) != p {
				vf.bad(v, "argument %d of @%s has type %s, want %s", i, callee.Name, arg(i), p)
			}
		}
	case OpGlobalID, OpLocalID, OpGroupID, OpGlobalSize, OpLocalSize, OpEnqueuedLocalSize, OpNumGroups, OpGlobalOffset:
		if t.Kind != KInt || v.AuxInt < 0 || v.AuxInt > 2 {
			vf.bad(v, "needs a dimension 0..2 and an integer type")
		}
	case OpGlobalLinearID, OpLocalLinearID, OpWorkDim, OpSubgroupSize, OpSubgroupMaxSize, OpNumSubgroups,
		OpNumEnqueuedSubgroups, OpSubgroupID, OpSubgroupLocalID:
		if t.Kind != KInt {
			vf.bad(v, "gives an integer")
		}
	case OpGroupReduce, OpShuffle1, OpShuffleXor:
		if arg(0) != t {
			vf.bad(v, "the result has the type of the first argument")
		}
	case OpShuffleDown, OpShuffleUp:
		if arg(0) != t || arg(1) != t || arg(2).Kind != KInt {
			vf.bad(v, "needs two %s and an integer delta", t)
		}
	case OpGroupBroadcast:
		if len(v.Args) < 2 || len(v.Args) > 4 || arg(0) != t {
			vf.bad(v, "needs a value and 1 to 3 ids")
		}
	case OpGroupAll, OpGroupAny:
		if arg(0) != Bool || t != Bool {
			vf.bad(v, "needs and gives i1")
		}
	case OpBlockRead:
		if arg(0).Kind != KPtr {
			vf.bad(v, "reads through a pointer")
		}
	case OpBlockWrite:
		if arg(0).Kind != KPtr {
			vf.bad(v, "writes through a pointer")
		}
	case OpImageRead, OpImageBlockRead, OpImageWrite, OpImageBlockWrite, OpImageQuery:
		if arg(0).Kind != KImage {
			vf.bad(v, "needs an image")
		}
	case OpImageSample:
		if arg(0).Kind != KImage || arg(1).Kind != KSampler {
			vf.bad(v, "needs an image and a sampler")
		}
	case OpSamplerConst:
		if t != Sampler {
			vf.bad(v, "gives a sampler")
		}
	case OpPrintf:
		if len(v.Args) == 0 || arg(0).Kind != KPtr || t != I32 {
			vf.bad(v, "needs a format pointer and gives i32")
		}
	case OpMath:
		if len(v.Args) == 0 || t == Void {
			vf.bad(v, "needs arguments and a result")
		}
	}
}

func (vf *verifier) construct(v *Value) {
	t := v.Type
	switch t.Kind {
	case KVector:
		n := 0
		for _, a := range v.Args {
			if a.Type.Scalar() != t.Elem {
				vf.bad(v, "element of type %s in a %s", a.Type, t)
				return
			}
			n += a.Type.Lanes()
		}
		if n != t.Len {
			vf.bad(v, "%d lanes for a %s", n, t)
		}
	case KArray, KStruct:
		if len(v.Args) != numElems(t) {
			vf.bad(v, "%d elements for a %s", len(v.Args), t)
			return
		}
		for i, a := range v.Args {
			if et, _ := elemType(t, i); et != a.Type {
				vf.bad(v, "element %d has type %s, want %s", i, a.Type, et)
			}
		}
	default:
		vf.bad(v, "constructs a vector, array or struct")
	}
}
