package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// Rounding is a floating-point rounding mode of a conversion.
type Rounding uint8

const (
	RoundDefault Rounding = iota // the op's default: to nearest even for float results, toward zero for int results
	RoundRTE
	RoundRTZ
	RoundRTP
	RoundRTN
)

var roundingNames = [...]string{"", "rte", "rtz", "rtp", "rtn"}

// ConvFlags are a conversion's rounding mode and saturation.
type ConvFlags int64

const convSat ConvFlags = 1 << 3

// MakeConv builds conversion flags.
func MakeConv(r Rounding, sat bool) ConvFlags {
	f := ConvFlags(r)
	if sat {
		f |= convSat
	}
	return f
}

// Rounding returns the rounding mode.
func (f ConvFlags) Rounding() Rounding { return Rounding(f & 7) }

// Sat reports whether out-of-range results saturate.
func (f ConvFlags) Sat() bool { return f&convSat != 0 }

func (f ConvFlags) words() []string {
	var ws []string
	if r := f.Rounding(); r != RoundDefault {
		ws = append(ws, roundingNames[r])
	}
	if f.Sat() {
		ws = append(ws, "sat")
	}
	return ws
}

// MemFlags are a memory access's alignment and volatility.
type MemFlags int64

const memVolatile MemFlags = 1 << 32

// MakeMem builds memory flags; align 0 means the type's natural alignment.
func MakeMem(align int, volatile bool) MemFlags {
	f := MemFlags(uint32(align))
	if volatile {
		f |= memVolatile
	}
	return f
}

// Align returns the alignment in bytes (0: natural).
func (f MemFlags) Align() int { return int(uint32(f)) }

// Volatile reports a volatile access.
func (f MemFlags) Volatile() bool { return f&memVolatile != 0 }

func (f MemFlags) words() []string {
	var ws []string
	if a := f.Align(); a != 0 {
		ws = append(ws, "align", strconv.Itoa(a))
	}
	if f.Volatile() {
		ws = append(ws, "volatile")
	}
	return ws
}

// Scope is a synchronisation scope.
type Scope uint8

const (
	ScopeInvocation Scope = iota
	ScopeSubgroup
	ScopeWorkgroup
	ScopeDevice
	ScopeCrossDevice
)

var scopeNames = [...]string{"invocation", "subgroup", "workgroup", "device", "crossdevice"}

func (s Scope) String() string { return scopeNames[s] }

// Semantics are memory-order and memory-kind bits of atomics and fences.
type Semantics uint16

const (
	SemAcquire Semantics = 1 << iota
	SemRelease
	SemSeqCst
	SemLocalMem  // work-group (local) memory
	SemGlobalMem // cross-work-group (global) memory
	SemImageMem
)

var semanticsNames = [...]string{"acquire", "release", "seqcst", "localmem", "globalmem", "imagemem"}

func (s Semantics) words() []string {
	var ws []string
	for i, n := range semanticsNames {
		if s&(1<<i) != 0 {
			ws = append(ws, n)
		}
	}
	return ws
}

// AtomicOp is the operation of an atomic read-modify-write.
type AtomicOp uint8

const (
	AtomicAdd AtomicOp = iota
	AtomicSub
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicSMin
	AtomicSMax
	AtomicUMin
	AtomicUMax
	AtomicXchg
	AtomicInc // arg ignored: +1
	AtomicDec // arg ignored: -1
	AtomicFAdd
	AtomicFMin
	AtomicFMax
)

var atomicOpNames = [...]string{"add", "sub", "and", "or", "xor", "smin", "smax", "umin", "umax", "xchg", "inc", "dec", "fadd", "fmin", "fmax"}

func (o AtomicOp) String() string { return atomicOpNames[o] }

// AtomicFlags are an atomic's operation, scope and semantics (for
// compare-exchange, the semantics on success; on failure in FailSem).
type AtomicFlags int64

// MakeAtomic builds atomic flags.
func MakeAtomic(op AtomicOp, scope Scope, sem, failSem Semantics) AtomicFlags {
	return AtomicFlags(op) | AtomicFlags(scope)<<8 | AtomicFlags(sem)<<16 | AtomicFlags(failSem)<<32
}

func (f AtomicFlags) Op() AtomicOp         { return AtomicOp(f & 0xff) }
func (f AtomicFlags) Scope() Scope         { return Scope(f >> 8 & 0xff) }
func (f AtomicFlags) Semantics() Semantics { return Semantics(f >> 16 & 0xffff) }
func (f AtomicFlags) FailSem() Semantics   { return Semantics(f >> 32 & 0xffff) }

// SyncFlags are a barrier's or fence's scopes and semantics.
type SyncFlags int64

// MakeSync builds barrier/fence flags; exec is ignored for fences.
func MakeSync(exec, mem Scope, sem Semantics) SyncFlags {
	return SyncFlags(exec) | SyncFlags(mem)<<8 | SyncFlags(sem)<<16
}

func (f SyncFlags) Exec() Scope          { return Scope(f & 0xff) }
func (f SyncFlags) Mem() Scope           { return Scope(f >> 8 & 0xff) }
func (f SyncFlags) Semantics() Semantics { return Semantics(f >> 16 & 0xffff) }

// GroupOp is the operation of a collective reduction or scan.
type GroupOp uint8

const (
	GroupIAdd GroupOp = iota
	GroupFAdd
	GroupSMin
	GroupUMin
	GroupFMin
	GroupSMax
	GroupUMax
	GroupFMax
	GroupIMul
	GroupFMul
	GroupAnd
	GroupOr
	GroupXor
	GroupLAnd
	GroupLOr
	GroupLXor
)

var groupOpNames = [...]string{"iadd", "fadd", "smin", "umin", "fmin", "smax", "umax", "fmax", "imul", "fmul", "and", "or", "xor", "land", "lor", "lxor"}

// GroupKind is reduce, inclusive scan or exclusive scan.
type GroupKind uint8

const (
	GroupReduce GroupKind = iota
	GroupInclusive
	GroupExclusive
)

var groupKindNames = [...]string{"reduce", "inclusive", "exclusive"}

// GroupFlags are a collective's scope, operation and kind.
type GroupFlags int64

// MakeGroup builds collective flags.
func MakeGroup(scope Scope, op GroupOp, kind GroupKind) GroupFlags {
	return GroupFlags(scope) | GroupFlags(op)<<8 | GroupFlags(kind)<<16
}

func (f GroupFlags) Scope() Scope    { return Scope(f & 0xff) }
func (f GroupFlags) Op() GroupOp     { return GroupOp(f >> 8 & 0xff) }
func (f GroupFlags) Kind() GroupKind { return GroupKind(f >> 16 & 0xff) }

// SamplerBits describe a literal sampler: addressing mode, normalized
// coordinates, filter, in OpConstantSampler's terms.
type SamplerBits int64

// Sampler addressing modes.
const (
	AddrNone uint8 = iota
	AddrClampToEdge
	AddrClamp
	AddrRepeat
	AddrRepeatMirrored
)

var addrNames = [...]string{"none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat"}

// MakeSampler builds sampler bits; linear selects the linear filter.
func MakeSampler(addressing uint8, normalized, linear bool) SamplerBits {
	b := SamplerBits(addressing)
	if normalized {
		b |= 1 << 8
	}
	if linear {
		b |= 1 << 9
	}
	return b
}

func (b SamplerBits) Addressing() uint8 { return uint8(b & 0xff) }
func (b SamplerBits) Normalized() bool  { return b&(1<<8) != 0 }
func (b SamplerBits) Linear() bool      { return b&(1<<9) != 0 }

// ImageQuery is what OpImageQuery asks of an image.
type ImageQuery uint8

const (
	QuerySize ImageQuery = iota // width[, height[, depth]][, array size] as an int vector (or scalar)
	QueryOrder
	QueryFormat
	QueryLevels
	QuerySamples
)

var queryNames = [...]string{"size", "order", "format", "levels", "samples"}

// auxWords renders v's auxiliary fields as the words the printer puts in
// brackets; parseAux reads them back.
func auxWords(v *Value) []string {
	info := v.Op.Info()
	switch info.Aux {
	case AuxInt:
		return []string{strconv.FormatInt(v.AuxInt, 10)}
	case AuxBits:
		return []string{constWord(v.Type, uint64(v.AuxInt))}
	case AuxConv:
		return ConvFlags(v.AuxInt).words()
	case AuxMem:
		return MemFlags(v.AuxInt).words()
	case AuxAtomic:
		f := AtomicFlags(v.AuxInt)
		ws := []string{f.Op().String(), f.Scope().String()}
		ws = append(ws, f.Semantics().words()...)
		if fs := f.FailSem(); fs != 0 {
			ws = append(ws, "fail")
			ws = append(ws, fs.words()...)
		}
		return ws
	case AuxSync:
		f := SyncFlags(v.AuxInt)
		ws := []string{f.Exec().String(), f.Mem().String()}
		return append(ws, f.Semantics().words()...)
	case AuxGlobal:
		if g, ok := v.Aux.(*Global); ok {
			return []string{"@" + g.Name}
		}
	case AuxFunc:
		if fn, ok := v.Aux.(*Func); ok {
			return []string{"@" + fn.Name}
		}
	case AuxMath:
		return []string{MathFn(v.AuxInt).String()}
	case AuxShuffle:
		if lanes, ok := v.Aux.([]int32); ok {
			ws := make([]string, len(lanes))
			for i, l := range lanes {
				ws[i] = strconv.Itoa(int(l))
			}
			return ws
		}
	case AuxGroup:
		f := GroupFlags(v.AuxInt)
		return []string{f.Scope().String(), groupOpNames[f.Op()], groupKindNames[f.Kind()]}
	case AuxSampler:
		b := SamplerBits(v.AuxInt)
		ws := []string{addrNames[b.Addressing()]}
		if b.Normalized() {
			ws = append(ws, "normalized")
		}
		if b.Linear() {
			ws = append(ws, "linear")
		} else {
			ws = append(ws, "nearest")
		}
		return ws
	case AuxQuery:
		return []string{queryNames[v.AuxInt]}
	}
	return nil
}

func lookupWord(names []string, w string) (int, bool) {
	for i, n := range names {
		if n == w {
			return i, true
		}
	}
	return 0, false
}

func parseSemantics(ws []string) (Semantics, error) {
	var s Semantics
	for _, w := range ws {
		i, ok := lookupWord(semanticsNames[:], w)
		if !ok {
			return 0, fmt.Errorf("unknown memory semantics %q", w)
		}
		s |= 1 << i
	}
	return s, nil
}

// parseAux sets v's auxiliary fields from the bracketed words. Globals
// and functions are resolved by the caller through lookup.
func parseAux(v *Value, ws []string, lookup func(name string) (any, error)) error {
	info := v.Op.Info()
	need := func(n int) error {
		if len(ws) < n {
			return fmt.Errorf("%s needs at least %d aux words, got %q", v.Op, n, strings.Join(ws, " "))
		}
		return nil
	}
	switch info.Aux {
	case AuxNone:
		if len(ws) > 0 {
			return fmt.Errorf("%s takes no aux, got %q", v.Op, strings.Join(ws, " "))
		}
	case AuxInt:
		if err := need(1); err != nil {
			return err
		}
		n, err := strconv.ParseInt(ws[0], 10, 64)
		if err != nil {
			return err
		}
		v.AuxInt = n
	case AuxBits:
		if err := need(1); err != nil {
			return err
		}
		bits, err := parseConstWord(v.Type, ws[0])
		if err != nil {
			return err
		}
		v.AuxInt = int64(bits)
	case AuxConv:
		var f ConvFlags
		for _, w := range ws {
			if w == "sat" {
				f |= convSat
			} else if r, ok := lookupWord(roundingNames[1:], w); ok {
				f = f&^7 | ConvFlags(r+1)
			} else {
				return fmt.Errorf("unknown conversion flag %q", w)
			}
		}
		v.AuxInt = int64(f)
	case AuxMem:
		align, vol := 0, false
		for i := 0; i < len(ws); i++ {
			switch ws[i] {
			case "align":
				if i+1 >= len(ws) {
					return fmt.Errorf("align needs a value")
				}
				n, err := strconv.Atoi(ws[i+1])
				if err != nil {
					return err
				}
				align = n
				i++
			case "volatile":
				vol = true
			default:
				return fmt.Errorf("unknown memory flag %q", ws[i])
			}
		}
		v.AuxInt = int64(MakeMem(align, vol))
	case AuxAtomic:
		if err := need(2); err != nil {
			return err
		}
		op, ok := lookupWord(atomicOpNames[:], ws[0])
		if !ok {
			return fmt.Errorf("unknown atomic operation %q", ws[0])
		}
		sc, ok := lookupWord(scopeNames[:], ws[1])
		if !ok {
			return fmt.Errorf("unknown scope %q", ws[1])
		}
		rest := ws[2:]
		var failWs []string
		for i, w := range rest {
			if w == "fail" {
				rest, failWs = rest[:i], rest[i+1:]
				break
			}
		}
		sem, err := parseSemantics(rest)
		if err != nil {
			return err
		}
		fail, err := parseSemantics(failWs)
		if err != nil {
			return err
		}
		v.AuxInt = int64(MakeAtomic(AtomicOp(op), Scope(sc), sem, fail))
	case AuxSync:
		if err := need(2); err != nil {
			return err
		}
		ex, ok1 := lookupWord(scopeNames[:], ws[0])
		mem, ok2 := lookupWord(scopeNames[:], ws[1])
		if !ok1 || !ok2 {
			return fmt.Errorf("unknown scope in %q", strings.Join(ws[:2], " "))
		}
		sem, err := parseSemantics(ws[2:])
		if err != nil {
			return err
		}
		v.AuxInt = int64(MakeSync(Scope(ex), Scope(mem), sem))
	case AuxGlobal, AuxFunc:
		if err := need(1); err != nil {
			return err
		}
		if !strings.HasPrefix(ws[0], "@") {
			return fmt.Errorf("want @name, got %q", ws[0])
		}
		x, err := lookup(ws[0][1:])
		if err != nil {
			return err
		}
		v.Aux = x
	case AuxMath:
		if err := need(1); err != nil {
			return err
		}
		fn, ok := MathByName(ws[0])
		if !ok {
			return fmt.Errorf("unknown built-in %q", ws[0])
		}
		v.AuxInt = int64(fn)
	case AuxShuffle:
		lanes := make([]int32, len(ws))
		for i, w := range ws {
			n, err := strconv.Atoi(w)
			if err != nil {
				return err
			}
			lanes[i] = int32(n)
		}
		v.Aux = lanes
	case AuxGroup:
		if err := need(3); err != nil {
			return err
		}
		sc, ok1 := lookupWord(scopeNames[:], ws[0])
		op, ok2 := lookupWord(groupOpNames[:], ws[1])
		k, ok3 := lookupWord(groupKindNames[:], ws[2])
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("bad group flags %q", strings.Join(ws, " "))
		}
		v.AuxInt = int64(MakeGroup(Scope(sc), GroupOp(op), GroupKind(k)))
	case AuxSampler:
		if err := need(1); err != nil {
			return err
		}
		a, ok := lookupWord(addrNames[:], ws[0])
		if !ok {
			return fmt.Errorf("unknown addressing mode %q", ws[0])
		}
		norm, lin := false, false
		for _, w := range ws[1:] {
			switch w {
			case "normalized":
				norm = true
			case "linear":
				lin = true
			case "nearest":
			default:
				return fmt.Errorf("unknown sampler flag %q", w)
			}
		}
		v.AuxInt = int64(MakeSampler(uint8(a), norm, lin))
	case AuxQuery:
		if err := need(1); err != nil {
			return err
		}
		q, ok := lookupWord(queryNames[:], ws[0])
		if !ok {
			return fmt.Errorf("unknown image query %q", ws[0])
		}
		v.AuxInt = int64(q)
	}
	return nil
}
