package spvgen

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Replicate returns a module (little-endian bytes) holding n copies of
// every function and entry point of module, for measuring how compile
// time grows with module size on real kernels.
//
// Copy 0 is the module itself, ids unchanged. Copies 1 to n-1 get fresh
// result ids for everything defined inside a function body, for every
// module-scope OpVariable (so each copy of a kernel has its own
// program-scope and __local variables, as separate programs would) and
// for the module-scope instructions that refer to
// those (such as debug-info records of a function). Types, constants,
// built-in variables, imported variables and functions (bodiless
// declarations), strings and decoration groups are shared. Every name, decoration, execution mode and
// entry point of a copied id is copied for the copy. Entry point names
// get a suffix (_1, _2, ...), and so do export linkage names and the
// kernel names inside llvm-spirv's "kernel_arg_type.<kernel>." strings
// (with fresh string ids). The header's bound covers the new ids.
//
// The input must be a well-formed module (it is read, not validated);
// Replicate(m, 1) gives m back (in little-endian order).
func Replicate(module []byte, n int) ([]byte, error) {
	if n < 1 {
		return nil, fmt.Errorf("replicate: %d copies", n)
	}
	m, err := spirv.Read(module)
	if err != nil {
		return nil, err
	}
	r := &replicator{m: m, n: n, bound: m.Header.Bound}
	if err := r.plan(); err != nil {
		return nil, err
	}
	return r.emit()
}

type replicator struct {
	m     *spirv.Module
	n     int
	bound uint32
	// dup maps an id copied per copy to its index among the copied ids
	// (1-based; 0 for a shared id).
	dup  []uint32
	nDup uint32
	// entries are the entry point names; strs the OpStrings naming a
	// kernel (by instruction index) with the text before and after the
	// kernel name.
	entries map[string]bool
	strs    []kernelString
	// firstFunc is the index of the first instruction of the function
	// section.
	firstFunc int
	out       []uint32
}

type kernelString struct {
	inst         int
	prefix, rest string // text = prefix + kernel + rest
	kernel       string
}

// plan finds the copied ids and the kernel strings.
func (r *replicator) plan() error {
	m := r.m
	r.dup = make([]uint32, r.bound)
	mark := func(id spirv.ID) {
		if uint32(id) < r.bound && r.dup[id] == 0 {
			r.nDup++
			r.dup[id] = r.nDup
		}
	}
	r.firstFunc = len(m.Insts)
	if len(m.Functions) > 0 {
		r.firstFunc = m.Functions[0].Def
	}
	for _, f := range m.Functions {
		if len(f.Blocks) == 0 {
			continue // a declaration: shared
		}
		for i := f.Def; i <= f.End; i++ {
			if id := m.Insts[i].Result; id != 0 {
				mark(id)
			}
		}
	}
	// Module-scope variables, and module-scope values that refer to a
	// copied id (in binary order, so chains are followed).
	for i := 0; i < r.firstFunc; i++ {
		in := &m.Insts[i]
		if in.Result == 0 || spirv.SectionOf(in) != spirv.SecGlobal && spirv.SectionOf(in) != spirv.SecAny {
			continue
		}
		if in.Opcode == grammar.OpVariable && !r.sharedVar(in.Result) || r.refersToDup(in) {
			mark(in.Result)
		}
	}
	r.entries = map[string]bool{}
	for i := 0; i < r.firstFunc; i++ {
		if in := &m.Insts[i]; in.Opcode == grammar.OpEntryPoint {
			r.entries[in.String(r.m, 2)] = true
		}
	}
	for name := range r.entries {
		for k := 1; k < r.n; k++ {
			if r.entries[copyName(name, k)] {
				return fmt.Errorf("replicate: the entry point %q of copy %d would clash with an existing one", copyName(name, k), k)
			}
		}
	}
	for i := 0; i < r.firstFunc; i++ {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpString {
			continue
		}
		if ks, ok := r.kernelString(in.String(r.m, 1)); ok {
			ks.inst = i
			r.strs = append(r.strs, ks)
		}
	}
	return nil
}

// sharedVar reports whether a module-scope variable is shared by the
// copies: a built-in input or an import (what another module defines).
func (r *replicator) sharedVar(id spirv.ID) bool {
	if _, ok := r.m.Decorated(id, grammar.DecorationBuiltIn); ok {
		return true
	}
	if d, ok := r.m.Decorated(id, grammar.DecorationLinkageAttributes); ok {
		in := r.m.DecorationInst(d)
		return d.Arg+2 < in.NumOps() && grammar.LinkageType(in.Word(r.m, d.Arg+2)) == grammar.LinkageTypeImport
	}
	return false
}

// kernelString splits an llvm-spirv kernel argument string,
// "<key>.<kernel>.<list>", around the longest entry point name that fits.
func (r *replicator) kernelString(s string) (kernelString, bool) {
	if !strings.HasPrefix(s, "kernel_arg_") {
		return kernelString{}, false
	}
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		return kernelString{}, false
	}
	best := ""
	for name := range r.entries {
		if len(name) > len(best) && strings.HasPrefix(s[dot+1:], name+".") {
			best = name
		}
	}
	if best == "" {
		return kernelString{}, false
	}
	return kernelString{prefix: s[:dot+1], kernel: best, rest: s[dot+1+len(best):]}, true
}

func copyName(name string, k int) string { return name + "_" + strconv.Itoa(k) }

// refersToDup reports whether an <id> operand of in (other than its
// result) is a copied id.
func (r *replicator) refersToDup(in *spirv.Inst) bool {
	ws := in.Words(r.m)
	for _, op := range in.Ops(r.m) {
		if isIDKind(op.Kind) && op.Kind != grammar.KindIdResult {
			if id := ws[op.Off]; id < r.bound && r.dup[id] != 0 {
				return true
			}
		}
	}
	return false
}

func isIDKind(k grammar.Kind) bool { return k.Category() == grammar.ID }

// newID is copy k's id for id.
func (r *replicator) newID(id uint32, k int) uint32 {
	if k == 0 || id >= r.bound || r.dup[id] == 0 {
		return id
	}
	return r.bound + uint32(k-1)*r.nDup + r.dup[id] - 1
}

// copyInst appends copy k of instruction in, every copied id renamed.
func (r *replicator) copyInst(in *spirv.Inst, k int) {
	start := len(r.out)
	r.out = append(r.out, in.Words(r.m)...)
	ws := r.out[start:]
	for _, op := range in.Ops(r.m) {
		if isIDKind(op.Kind) {
			ws[op.Off] = r.newID(ws[op.Off], k)
		}
	}
}

// withString appends copy k of in with string operand i replaced by s.
func (r *replicator) withString(in *spirv.Inst, k, i int, s string) {
	start := len(r.out)
	r.copyInst(in, k)
	ws := append([]uint32(nil), r.out[start:]...)
	op := in.Ops(r.m)[i]
	enc := spirv.EncodeString(s)
	r.out = r.out[:start]
	r.out = append(r.out, ws[:op.Off]...)
	r.out = append(r.out, enc...)
	r.out = append(r.out, ws[op.Off+op.Len:]...)
	r.out[start] = uint32(len(r.out)-start)<<16 | uint32(in.Opcode)
}

// moduleCopies appends copies 1..n-1 of the module-scope instructions of
// section sec that define or refer to copied ids.
func (r *replicator) moduleCopies(sec spirv.Section, insts []int) {
	m := r.m
	for k := 1; k < r.n; k++ {
		if sec == spirv.SecDebugSource {
			for j, ks := range r.strs {
				start := len(r.out)
				r.withString(&m.Insts[ks.inst], 0, 1, ks.prefix+copyName(ks.kernel, k)+ks.rest)
				r.out[start+1] = r.stringID(k, j) // OpString's result
			}
			continue
		}
		for _, i := range insts {
			in := &m.Insts[i]
			switch {
			case in.Result != 0:
				if r.dup[in.Result] != 0 {
					r.copyInst(in, k)
				}
			case !r.refersToDup(in):
			case in.Opcode == grammar.OpEntryPoint:
				r.withString(in, k, 2, copyName(in.String(r.m, 2), k))
			case in.Opcode == grammar.OpDecorate && grammar.Decoration(in.Word(r.m, 1)) == grammar.DecorationLinkageAttributes &&
				grammar.LinkageType(in.Word(r.m, 3)) == grammar.LinkageTypeExport:
				r.withString(in, k, 2, copyName(in.String(r.m, 2), k))
			case in.Opcode == grammar.OpGroupDecorate:
				// The copied targets only.
				start := len(r.out)
				r.out = append(r.out, 0, in.Word(r.m, 0))
				for j := 1; j < in.NumOps(); j++ {
					if id := in.Word(r.m, j); id < r.bound && r.dup[id] != 0 {
						r.out = append(r.out, r.newID(id, k))
					}
				}
				r.out[start] = uint32(len(r.out)-start)<<16 | uint32(in.Opcode)
			default:
				r.copyInst(in, k)
			}
		}
	}
}

// stringID is the id of copy k of kernel string j.
func (r *replicator) stringID(k, j int) uint32 {
	return r.bound + uint32(r.n-1)*r.nDup + uint32(k-1)*uint32(len(r.strs)) + uint32(j)
}

func (r *replicator) emit() ([]byte, error) {
	m := r.m
	newBound := uint64(r.bound) + uint64(r.n-1)*(uint64(r.nDup)+uint64(len(r.strs)))
	if newBound > spirv.MaxBound+1 {
		return nil, fmt.Errorf("replicate: %d copies need %d ids, more than SPIR-V's %d", r.n, newBound-1, spirv.MaxBound)
	}
	r.out = make([]uint32, 0, len(m.Words)*r.n+64)
	h := m.Header
	r.out = append(r.out, h.Magic, h.Version, h.Generator, uint32(newBound), h.Schema)
	// Module-scope instructions, section by section; each section's
	// copies follow its originals.
	cur := spirv.SecCapability
	var inSec []int
	for i := 0; i < r.firstFunc; i++ {
		in := &m.Insts[i]
		sec := spirv.SectionOf(in)
		if sec == spirv.SecAny {
			sec = cur
		}
		if sec != cur {
			r.moduleCopies(cur, inSec)
			inSec = inSec[:0]
			cur = sec
		}
		r.out = append(r.out, in.Words(r.m)...)
		inSec = append(inSec, i)
	}
	r.moduleCopies(cur, inSec)
	// Functions: the originals, then each copy of the defined ones.
	for i := r.firstFunc; i < len(m.Insts); i++ {
		r.out = append(r.out, m.Insts[i].Words(r.m)...)
	}
	for k := 1; k < r.n; k++ {
		for _, f := range m.Functions {
			if len(f.Blocks) == 0 {
				continue
			}
			for i := f.Def; i <= f.End; i++ {
				r.copyInst(&m.Insts[i], k)
			}
		}
	}
	b := make([]byte, 4*len(r.out))
	for i, w := range r.out {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b, nil
}
