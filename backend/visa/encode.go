package visa

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The binary object format (the vISA object file): a header naming the
// kernels and functions, then each kernel's object (string pool,
// symbol tables, inputs, attributes, instruction stream), each followed
// by its optional Gen binaries. Every name is an index into the
// kernel's string pool, which holds the names in the order GenX_IR's
// assembler creates them: the kernel name, the pre-defined variables,
// each declared variable (with its attribute names), the kernel
// attribute names, then labels and symbols as the instructions first
// mention them.

// GenBinary is finalized Gen code embedded in a vISA object (the
// object format's gen_binary_info, as GenX_IR -binary writes it).
type GenBinary struct {
	// Platform is GenX_IR's platform code (GenTGLLP, ...).
	Platform uint8
	Code     []byte
}

// GenX_IR's gen_platform codes of the platforms spv2visa targets.
const (
	GenXeHP  = 11
	GenTGLLP = 12
	GenDG2   = 13 // also MTL
	GenPVC   = 14
)

// EncodeOptions controls the binary writer.
type EncodeOptions struct {
	// GRFSize is the platform's register size in bytes (32, or 64 on
	// PVC); the binary stores an address-of operand's byte offset as a
	// register row and column. 0 means 32.
	GRFSize int
	// Gen holds each kernel's embedded Gen binary (by index in
	// Module.Kernels; a zero GenBinary embeds none).
	Gen []GenBinary
	// GenXIR reproduces GenX_IR's own -binary output for the text of
	// the same module, byte for byte. That writer (in the GenX_IR this
	// project tests with) stops each instruction after as many fields
	// as the instruction has operands, counting the execution size and
	// predicate fields among them, so each instruction loses its last
	// one or two operand fields; it still counts their size, and the
	// instruction stream ends in that many zero bytes. GenX_IR cannot
	// read such a file back; the default output is complete and
	// GenX_IR reads it.
	GenXIR bool

	// starts receives the file offset of each instruction of the first
	// kernel (for tests' diagnostics).
	starts *[]int
}

// Encode returns k as a vISA object file with one kernel.
func (k *Kernel) Encode() ([]byte, error) {
	return k.EncodeWith(EncodeOptions{})
}

// EncodeWith returns k as a vISA object file with one kernel.
func (k *Kernel) EncodeWith(opt EncodeOptions) ([]byte, error) {
	m := &Module{Major: VersionMajor, Minor: VersionMinor, Kernels: []*Kernel{k}}
	return m.Encode(opt)
}

// Encode returns m as a vISA object file: its kernels, each followed by
// its Gen binary, then its functions.
func (m *Module) Encode(opt EncodeOptions) ([]byte, error) {
	if opt.GRFSize == 0 {
		opt.GRFSize = 32
	}
	type obj struct {
		k      *Kernel
		body   []byte
		input  int // offset of num_inputs in body
		starts []int
		gen    GenBinary
	}
	var kernels, funcs []obj
	for i, k := range m.Kernels {
		body, input, starts, err := encodeKernel(k, &opt)
		if err != nil {
			return nil, err
		}
		o := obj{k: k, body: body, input: input, starts: starts}
		if i < len(opt.Gen) {
			o.gen = opt.Gen[i]
		}
		if k.Function {
			funcs = append(funcs, o)
		} else {
			kernels = append(kernels, o)
		}
	}
	if len(kernels) > 512 || len(funcs) > 0xffff {
		return nil, fmt.Errorf("visa: too many kernels or functions")
	}
	// Header size first: the offsets it holds depend on it.
	hdr := 4 + 2 + 2 + 2 + 2
	for _, o := range kernels {
		hdr += 2 + len(o.k.Name) + 12 + 2 + 2 + 1
		if o.gen.Code != nil {
			hdr += 9
		}
	}
	for _, o := range funcs {
		hdr += 1 + 2 + len(o.k.Name) + 8 + 2 + 2
	}
	w := &writer{}
	w.u32(0x41534943) // "CISA"
	w.u8(uint8(VersionMajor))
	w.u8(uint8(VersionMinor))
	w.u16(uint16(len(kernels)))
	off := hdr
	for _, o := range kernels {
		if len(o.k.Name) > 0xffff {
			return nil, fmt.Errorf("visa: kernel name too long")
		}
		w.u16(uint16(len(o.k.Name)))
		w.str(o.k.Name)
		w.u32(uint32(off))
		w.u32(uint32(len(o.body)))
		w.u32(uint32(off + o.input))
		w.u16(0) // file-scope variable relocations
		w.u16(0) // function relocations
		off += len(o.body)
		if o.gen.Code == nil {
			w.u8(0)
			continue
		}
		w.u8(1)
		w.u8(o.gen.Platform)
		w.u32(uint32(off))
		w.u32(uint32(len(o.gen.Code)))
		off += len(o.gen.Code)
	}
	w.u16(0) // file-scope variables
	w.u16(uint16(len(funcs)))
	for _, o := range funcs {
		w.u8(0) // linkage, as GenX_IR writes it
		w.u16(uint16(len(o.k.Name)))
		w.str(o.k.Name)
		w.u32(uint32(off))
		w.u32(uint32(len(o.body)))
		w.u16(0)
		w.u16(0)
		off += len(o.body)
	}
	if len(w.b) != hdr {
		panic("visa: header size mismatch")
	}
	for i, o := range kernels {
		if i == 0 && opt.starts != nil {
			for _, s := range o.starts {
				*opt.starts = append(*opt.starts, len(w.b)+s)
			}
		}
		w.b = append(w.b, o.body...)
		w.b = append(w.b, o.gen.Code...)
	}
	for _, o := range funcs {
		w.b = append(w.b, o.body...)
	}
	return w.b, nil
}

type writer struct{ b []byte }

func (w *writer) u8(v uint8)   { w.b = append(w.b, v) }
func (w *writer) u16(v uint16) { w.b = binary.LittleEndian.AppendUint16(w.b, v) }
func (w *writer) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *writer) str(s string) { w.b = append(w.b, s...) }
func (w *writer) uint(v int64, size int) {
	for i := 0; i < size; i++ {
		w.b = append(w.b, byte(v>>(8*i)))
	}
}

// kenc encodes one kernel or function object.
type kenc struct {
	k   *Kernel
	opt *EncodeOptions
	w   writer
	// strs is the string pool; GenX_IR keeps every name it creates,
	// duplicates included.
	strs   []string
	ids    map[*Var]int
	names  map[*Var]int // string index of each variable and label
	labels []*Var
	syms   map[*Inst]int // string index of each faddr symbol
}

func (e *kenc) addStr(s string) int {
	e.strs = append(e.strs, s)
	return len(e.strs) - 1
}

func encodeKernel(k *Kernel, opt *EncodeOptions) (body []byte, inputOff int, starts []int, err error) {
	// Every variable has an id and a name, every label a name: sized
	// once, the maps do not grow.
	n := len(k.Vars) + len(predefGen) + len(predefSurf) + 2
	e := &kenc{k: k, opt: opt, ids: make(map[*Var]int, n), names: make(map[*Var]int, n+k.seq[Label]), syms: map[*Inst]int{}}
	if err := e.number(); err != nil {
		return nil, 0, nil, err
	}
	attrs, err := e.kernelAttrs()
	if err != nil {
		return nil, 0, nil, err
	}
	if err := e.scanBody(); err != nil {
		return nil, 0, nil, err
	}
	if !hasAttr(k.Attrs, "Target") {
		// GenX_IR gives every kernel a target; without one it adds
		// Target=3d after everything else.
		attrs = append(attrs, kattr{name: e.addStr("Target"), size: 1, val: 1})
	}
	w := &e.w
	w.u32(uint32(len(e.strs)))
	for _, s := range e.strs {
		w.str(s)
		w.u8(0)
	}
	w.u32(0) // the kernel's name
	var gens, addrs, preds, samps, surfs []*Var
	for _, v := range k.Vars {
		switch v.Class {
		case General:
			gens = append(gens, v)
		case Address:
			addrs = append(addrs, v)
		case Predicate:
			preds = append(preds, v)
		case Sampler:
			samps = append(samps, v)
		case Surface:
			surfs = append(surfs, v)
		}
	}
	if len(addrs) > 0xffff || len(preds) > 0xffff || len(e.labels) > 0xffff || len(samps) > 0xff || len(surfs) > 0xff {
		return nil, 0, nil, fmt.Errorf("visa: kernel %s: too many variables of one class", k.Name)
	}
	w.u32(uint32(len(gens)))
	for _, v := range gens {
		w.u32(uint32(e.names[v]))
		w.u8(uint8(v.Type) | uint8(v.Align)<<4)
		w.u16(uint16(v.Elems))
		if v.Alias != nil {
			id, ok := e.ids[v.Alias]
			if !ok || v.Alias.Class != General {
				return nil, 0, nil, fmt.Errorf("visa: kernel %s: %s aliases %s, which is not a general variable of the kernel", k.Name, v.Name, v.Alias.Name)
			}
			w.u32(uint32(id))
			w.u16(uint16(v.AliasOff))
		} else {
			w.u32(0)
			w.u16(0)
		}
		w.u8(0) // alias scope: local
		if err := e.varAttrs(v); err != nil {
			return nil, 0, nil, err
		}
	}
	for _, vars := range [][]*Var{addrs, preds} {
		w.u16(uint16(len(vars)))
		for _, v := range vars {
			w.u32(uint32(e.names[v]))
			w.u16(uint16(v.Elems))
			if err := e.varAttrs(v); err != nil {
				return nil, 0, nil, err
			}
		}
	}
	w.u16(uint16(len(e.labels)))
	for _, l := range e.labels {
		w.u32(uint32(e.names[l]))
		if l.Subroutine {
			w.u8(1)
		} else {
			w.u8(0)
		}
		w.u8(0)
	}
	for _, vars := range [][]*Var{samps, surfs} {
		w.u8(uint8(len(vars)))
		for _, v := range vars {
			w.u32(uint32(e.names[v]))
			w.u16(uint16(max(v.Elems, 1)))
			if err := e.varAttrs(v); err != nil {
				return nil, 0, nil, err
			}
		}
	}
	w.u8(0) // VME variables
	if !k.Function {
		inputOff = len(w.b)
		w.u32(uint32(len(k.Inputs)))
		for _, in := range k.Inputs {
			if in.Var == nil {
				return nil, 0, nil, fmt.Errorf("visa: kernel %s: input without a variable", k.Name)
			}
			cat, ok := inputCategory(in.Var.Class)
			id, known := e.ids[in.Var]
			if !ok || !known {
				return nil, 0, nil, fmt.Errorf("visa: kernel %s: input %s is not a general, sampler or surface variable of the kernel", k.Name, in.Var.Name)
			}
			w.u8(cat | uint8(in.Kind)<<3)
			w.u32(uint32(id))
			w.u16(uint16(int16(in.Offset)))
			w.u16(uint16(in.Size))
		}
	}
	code, full, starts, err := e.instructions()
	if err != nil {
		return nil, 0, nil, err
	}
	w.u32(uint32(full))
	entry := len(w.b) + 4 + 2
	if k.Function {
		entry += 2
	}
	for _, a := range attrs {
		entry += 5 + len(a.bytes())
	}
	w.u32(uint32(entry))
	if k.Function {
		// Input and return value sizes: GenX_IR leaves them 0 and
		// takes the sizes from the ArgSize and RetValSize attributes.
		w.u8(0)
		w.u8(0)
	}
	w.u16(uint16(len(attrs)))
	for _, a := range attrs {
		w.u32(uint32(a.name))
		b := a.bytes()
		w.u8(uint8(len(b)))
		w.b = append(w.b, b...)
	}
	if len(w.b) != entry {
		panic("visa: entry offset mismatch")
	}
	for i := range starts {
		starts[i] += len(w.b)
	}
	w.b = append(w.b, code...)
	// GenX_IR's short instructions leave the rest of the counted size
	// as zeros.
	w.b = append(w.b, make([]byte, full-len(code))...)
	return w.b, inputOff, starts, nil
}

// number builds the string pool's fixed part and gives every declared
// variable its id: general variables after the pre-defined ones,
// surfaces after T0-T5, predicates from 1, the others from 0.
func (e *kenc) number() error {
	e.addStr(e.k.Name)
	for _, v := range predefGen {
		e.names[v] = e.addStr(v.Name)
		e.ids[v] = v.Predef
	}
	for _, v := range predefSurf {
		e.names[v] = e.addStr(v.Name)
		e.ids[v] = v.Predef
	}
	e.names[BindlessS31] = e.addStr(BindlessS31.Name)
	e.ids[BindlessS31] = BindlessS31.Predef
	e.ids[P0] = 0
	next := [Label + 1]int{General: NumPredefGeneral, Predicate: 1, Surface: NumPredefSurface}
	for _, v := range e.k.Vars {
		if v.Class == Label {
			continue
		}
		if v.Elems < 1 || v.Elems > 0xffff {
			return fmt.Errorf("visa: kernel %s: %s has %d elements", e.k.Name, v.Name, v.Elems)
		}
		e.ids[v] = next[v.Class]
		next[v.Class]++
		e.names[v] = e.addStr(v.Name)
		for _, a := range v.Attrs {
			e.addStr(a.Name)
		}
	}
	limits := [Label + 1]int{General: 0x10000 + NumPredefGeneral, Address: 4096, Predicate: 4097, Sampler: 32, Surface: 256}
	for c := General; c < Label; c++ {
		if next[c] > limits[c] {
			return fmt.Errorf("visa: kernel %s declares too many %s variables", e.k.Name, c)
		}
	}
	return nil
}

// The kernel attributes GenX_IR knows, with the binary form of their
// values.
var kernelAttrKinds = map[string]attrKind{
	"Extern": attrBool, "NoBarrier": attrBool, "Callable": attrBool, "Caller": attrBool,
	"Composable": attrBool, "Entry": attrBool,
	"Target": attrTarget, "SLMSize": attrInt32, "SpillMemOffset": attrInt32, "ArgSize": attrInt32,
	"RetValSize": attrInt32, "PerThreadInputSize": attrInt32, "SimdSize": attrInt32,
	"OutputAsmPath": attrString,
}

// The variable attributes GenX_IR knows.
var varAttrKinds = map[string]attrKind{
	"Input": attrBool, "Output": attrBool, "Input_Output": attrBool, "NoWidening": attrBool,
	"Scope": attrInt32, "SurfaceUsage": attrInt32,
}

type attrKind uint8

const (
	attrBool attrKind = iota
	attrInt32
	attrString
	attrTarget // "cm", "3d" or "cs" in one byte (an integer: four bytes)
)

// targetCodes are the values of the Target attribute.
var targetCodes = map[string]int64{"cm": 0, "3d": 1, "cs": 2}

type kattr struct {
	name int
	size int
	val  int64
	str  string
	isS  bool
}

func (a kattr) bytes() []byte {
	if a.isS {
		return []byte(a.str)
	}
	b := make([]byte, a.size)
	for i := range b {
		b[i] = byte(a.val >> (8 * i))
	}
	return b
}

func hasAttr(attrs []Attr, name string) bool {
	for _, a := range attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

func binAttr(a Attr, kinds map[string]attrKind, what string) (kattr, error) {
	kind, ok := kinds[a.Name]
	if !ok {
		return kattr{}, fmt.Errorf("unknown %s attribute %q", what, a.Name)
	}
	switch {
	case kind == attrBool && !a.IsString && a.Size == 0:
		return kattr{}, nil
	case kind == attrTarget && a.IsString:
		v, ok := targetCodes[a.Str]
		if !ok {
			return kattr{}, fmt.Errorf("attribute Target=%q: want \"cm\", \"3d\" or \"cs\"", a.Str)
		}
		return kattr{size: 1, val: v}, nil
	case kind == attrString && a.IsString:
		if len(a.Str) > 255 {
			return kattr{}, fmt.Errorf("attribute %s: value too long", a.Name)
		}
		return kattr{isS: true, str: a.Str}, nil
	case (kind == attrInt32 || kind == attrTarget) && !a.IsString:
		return kattr{size: 4, val: a.Int}, nil
	}
	return kattr{}, fmt.Errorf("attribute %s has a value of the wrong kind", a.Name)
}

func (e *kenc) kernelAttrs() ([]kattr, error) {
	var out []kattr
	for _, a := range e.k.Attrs {
		b, err := binAttr(a, kernelAttrKinds, "kernel")
		if err != nil {
			return nil, fmt.Errorf("visa: kernel %s: %v", e.k.Name, err)
		}
		b.name = e.addStr(a.Name)
		out = append(out, b)
	}
	return out, nil
}

func (e *kenc) varAttrs(v *Var) error {
	if len(v.Attrs) > 0xff {
		return fmt.Errorf("visa: kernel %s: too many attributes on %s", e.k.Name, v.Name)
	}
	e.w.u8(uint8(len(v.Attrs)))
	for i, a := range v.Attrs {
		b, err := binAttr(a, varAttrKinds, "variable")
		if err != nil {
			return fmt.Errorf("visa: kernel %s: %s: %v", e.k.Name, v.Name, err)
		}
		// The attribute names follow the variable's name in the pool.
		e.w.u32(uint32(e.names[v] + 1 + i))
		bs := b.bytes()
		e.w.u8(uint8(len(bs)))
		e.w.b = append(e.w.b, bs...)
	}
	return nil
}

// scanBody numbers the labels and pools the label and symbol names in
// the order the instructions first mention them.
func (e *kenc) scanBody() error {
	seen := map[*Var]bool{}
	for _, in := range e.k.Body {
		for _, o := range in.Args {
			switch o.Kind {
			case OpndLabel:
				if o.Var == nil {
					return fmt.Errorf("visa: kernel %s: %s: label operand without a label", e.k.Name, in.Op)
				}
				if !seen[o.Var] {
					seen[o.Var] = true
					e.ids[o.Var] = len(e.labels)
					e.labels = append(e.labels, o.Var)
					e.names[o.Var] = e.addStr(o.Var.Name)
				}
			case OpndSym:
				e.syms[in] = e.addStr(o.Sym)
			}
		}
	}
	return nil
}

// instructions encodes the body. It returns the bytes to write and the
// size the header states: equal, unless GenXIR shortens instructions.
func (e *kenc) instructions() (code []byte, full int, starts []int, err error) {
	var out writer
	var iw writer
	var ends []int
	for _, in := range e.k.Body {
		iw.b = iw.b[:0]
		ends = ends[:0]
		if err := e.inst(&iw, in, &ends); err != nil {
			return nil, 0, nil, fmt.Errorf("visa: kernel %s: %s: %v", e.k.Name, in.Op, err)
		}
		full += len(iw.b)
		n := len(iw.b)
		if keep := e.genxFields(in.Op.Info(), len(ends)); e.opt.GenXIR && keep < len(ends) {
			n = 1 // the opcode
			if keep > 0 {
				n = ends[keep-1]
			}
		}
		out.b = append(out.b, iw.b[:n]...)
	}
	return out.b, full, starts, nil
}

// genxFields returns how many of an instruction's fields GenX_IR's
// writer emits: one per operand, the execution size and predicate
// fields included, so the count of fields that are neither.
func (e *kenc) genxFields(info *OpInfo, total int) int {
	n := total
	for _, f := range info.fields {
		if f.kind == fExec || f.kind == fPred {
			n--
		}
	}
	return n
}

// inst encodes one instruction; ends receives the end offset of each
// field (operand lists count one field per operand).
func (e *kenc) inst(w *writer, in *Inst, ends *[]int) error {
	if int(in.Op) >= len(opTable) {
		return fmt.Errorf("unknown form %d", in.Op)
	}
	info := in.Op.Info()
	if len(in.Args) < info.minArgs {
		return fmt.Errorf("%d operands, want %d", len(in.Args), info.minArgs)
	}
	hasPred := false
	for _, f := range info.fields {
		hasPred = hasPred || f.kind == fPred
	}
	if in.Pred.Var != nil && (!hasPred || !info.texts(segPred)) {
		return fmt.Errorf("the form takes no predicate")
	}
	w.u8(info.Code)
	for _, f := range info.fields {
		if err := e.field(w, in, f, ends); err != nil {
			return err
		}
		if f.kind != fRaws {
			*ends = append(*ends, len(w.b))
		}
	}
	return nil
}

// texts reports whether the template has a segment of kind k.
func (info *OpInfo) texts(k segKind) bool {
	for _, sg := range info.segs {
		if sg.kind == k {
			return true
		}
	}
	return false
}

func (e *kenc) arg(in *Inst, n int) (Operand, bool) {
	if n < len(in.Args) {
		return in.Args[n], true
	}
	return Operand{}, false
}

func (e *kenc) field(w *writer, in *Inst, f field, ends *[]int) error {
	info := in.Op.Info()
	switch f.kind {
	case fSub:
		w.uint(int64(info.Sub), f.w)
	case fExec:
		if f.def {
			w.u8(uint8(f.val))
			return nil
		}
		b, err := execByte(in.Exec)
		if err != nil {
			return err
		}
		w.u8(b)
	case fPred:
		if f.def && in.Pred.Var != nil {
			for _, o := range in.Args {
				if o.Kind == OpndPred {
					return fmt.Errorf("a logic operation on predicates takes no predicate")
				}
			}
		}
		p, err := e.predWord(in.Pred)
		if err != nil {
			return err
		}
		w.u16(p)
	case fCond:
		if in.Cond > CondLE {
			return fmt.Errorf("bad comparison %d", in.Cond)
		}
		w.u8(uint8(in.Cond))
	case fVec:
		o, ok := e.arg(in, f.n)
		if !ok {
			o = ImmInt(UD, 0)
		}
		if o.Kind == OpndRaw && o.Var == Null {
			// An absent optional operand read as "%null".
			o = ImmInt(UD, 0)
		}
		return e.vec(w, in, o)
	case fRaw:
		o, ok := e.arg(in, f.n)
		if !ok {
			o = Raw(Null, 0)
		}
		return e.raw(w, o, f.n)
	case fNull:
		return e.raw(w, Raw(Null, 0), -1)
	case fRaws:
		for i := f.n; i < len(in.Args); i++ {
			if err := e.raw(w, in.Args[i], i); err != nil {
				return err
			}
			*ends = append(*ends, len(w.b))
		}
	case fCount:
		w.u8(uint8(len(in.Args) - f.n))
	case fState:
		o := in.Args[f.n]
		if o.Kind != OpndState || o.Var == nil || (o.Var.Class != Surface && o.Var.Class != Sampler) {
			return fmt.Errorf("operand %d: want a surface or sampler", f.n)
		}
		id, err := e.id(o.Var)
		if err != nil {
			return err
		}
		w.u8(uint8(id))
	case fLabel:
		o := in.Args[f.n]
		if o.Kind != OpndLabel {
			return fmt.Errorf("operand %d: want a label", f.n)
		}
		w.u16(uint16(e.ids[o.Var]))
	case fSym:
		if in.Args[f.n].Kind != OpndSym {
			return fmt.Errorf("operand %d: want a symbol", f.n)
		}
		w.u16(uint16(e.syms[in]))
	case fVarID:
		o := in.Args[f.n]
		if o.Var == nil {
			return fmt.Errorf("operand %d: want a variable", f.n)
		}
		id, err := e.id(o.Var)
		if err != nil {
			return err
		}
		w.u32(uint32(id))
	case fLife:
		o := in.Args[f.n]
		class, ok := lifetimeClass(classOf(o))
		if !ok {
			return fmt.Errorf("operand %d: want a general, address or predicate variable", f.n)
		}
		w.u8(uint8(in.lit(f.n) | class<<4))
	case fLit:
		v := in.lit(f.n)
		c, ok := info.litEnum(f.n).Code(v)
		if !ok {
			return fmt.Errorf("literal %d: %d has no encoding", f.n, v)
		}
		w.uint(c|f.val, f.w)
	case fConst:
		w.uint(f.val, f.w)
	case fShape:
		size, vec, tr := ShapeParts(in.lit(f.n))
		if lscSizeNames[int64(size)] == "" {
			return fmt.Errorf("bad LSC data size %d", size)
		}
		order := byte(1)
		if tr {
			order = 2
		}
		elems := byte(vec)
		if info.litEnum(f.n) != enums["quadshape"] {
			if elems = lscVecCodes[vec]; elems == 0 {
				return fmt.Errorf("bad LSC vector length %d", vec)
			}
		}
		w.b = append(w.b, byte(size), order, elems, elems)
	case fAtomic:
		op, width := in.lit(f.n), in.lit(f.m)
		wb, ok := atomicWidthBits(width)
		if !ok || op > 0x1f || op < 0 {
			return fmt.Errorf("bad atomic operation %d.%d", op, width)
		}
		w.u8(uint8(op | wb))
	default:
		panic("visa: unknown layout field")
	}
	return nil
}

// inputCategory is an input's class field.
func inputCategory(c Class) (uint8, bool) {
	switch c {
	case General:
		return 0, true
	case Sampler:
		return 1, true
	case Surface:
		return 2, true
	}
	return 0, false
}

// lifetimeClass is the variable class field of a lifetime instruction.
func lifetimeClass(c Class) (int64, bool) {
	switch c {
	case General:
		return 0, true
	case Address:
		return 1, true
	case Predicate:
		return 2, true
	}
	return 0, false
}

// atomicWidthBits are the width bits of an svm/dword atomic operation.
func atomicWidthBits(width int64) (int64, bool) {
	switch width {
	case 16:
		return 0x20, true
	case 32:
		return 0, true
	case 64:
		return 0x40, true
	}
	return 0, false
}

// litEnum returns the enumeration of literal n in the template.
func (info *OpInfo) litEnum(n int) *Enum {
	for _, sg := range info.segs {
		switch {
		case sg.kind == segLit && sg.n == n:
			return sg.enum
		case sg.kind == segLscAddr || sg.kind == segTgmAddr:
			if e, ok := lscAddrEnums[n]; ok {
				return enums[e]
			}
		}
	}
	return nil
}

// lscAddrEnums name the enumerations of the literals an LSC address
// holds.
var lscAddrEnums = map[int]string{lscLitType: "addrtype", lscLitOff: "immoff", lscLitSize: "addrsize", lscLitScale: "scale"}

func classOf(o Operand) Class {
	if o.Var == nil {
		return Label
	}
	return o.Var.Class
}

func (e *kenc) id(v *Var) (int, error) {
	id, ok := e.ids[v]
	if !ok {
		return 0, fmt.Errorf("%s is not declared in the kernel", v.Name)
	}
	return id, nil
}

// execSizes maps an execution size to its encoding.
var execSizes = map[int]uint8{1: 0, 2: 1, 4: 2, 8: 3, 16: 4, 32: 5}

func execByte(x Exec) (uint8, error) {
	c, ok := execSizes[x.Size]
	if !ok || x.Mask > M8 {
		return 0, fmt.Errorf("bad execution size %v", x)
	}
	m := uint8(x.Mask)
	if x.NoMask {
		m += 8
	}
	return c | m<<4, nil
}

func (e *kenc) predWord(p Pred) (uint16, error) {
	if p.Var == nil {
		return 0, nil
	}
	if p.Var.Class != Predicate {
		return 0, fmt.Errorf("%s is not a predicate", p.Var.Name)
	}
	id, err := e.id(p.Var)
	if err != nil {
		return 0, err
	}
	if id >= 1<<12 || p.Ctrl > PredAll {
		return 0, fmt.Errorf("bad predicate %v", p)
	}
	w := uint16(id) | uint16(p.Ctrl)<<13
	if p.Not {
		w |= 1 << 15
	}
	return w, nil
}

// regionCodes maps a region parameter to its encoding.
var regionCodes = map[int]uint16{0: 1, 1: 2, 2: 3, 4: 4, 8: 5, 16: 6, 32: 7}

func region(vs, wd, hs int) (uint16, error) {
	v, ok1 := regionCodes[vs]
	w, ok2 := regionCodes[wd]
	h, ok3 := regionCodes[hs]
	if vs < 0 {
		v, ok1 = 0, true
	}
	if !ok1 || !ok2 || !ok3 {
		return 0, fmt.Errorf("bad region <%d;%d,%d>", vs, wd, hs)
	}
	return v | w<<4 | h<<8, nil
}

func dstRegion(hs int) (uint16, error) {
	h, ok := regionCodes[hs]
	if !ok || hs == 0 {
		return 0, fmt.Errorf("bad destination stride <%d>", hs)
	}
	return h << 8, nil
}

// modCodes maps a source modifier to its encoding.
var modCodes = [...]uint8{ModNone: 0, ModAbs: 1, ModNeg: 2, ModNegAbs: 3, ModSat: 4, ModNot: 5}

// vec encodes a vector operand: a tag (class and modifier), then the
// class's fields.
func (e *kenc) vec(w *writer, in *Inst, o Operand) error {
	if int(o.Mod) >= len(modCodes) {
		return fmt.Errorf("bad modifier %d", o.Mod)
	}
	mod := modCodes[o.Mod]
	isDst := o.Kind == OpndDst || o.Kind == OpndIndirect && o.isDstIndirect()
	if isDst && in.Sat {
		mod = modCodes[ModSat]
	}
	switch o.Kind {
	case OpndSrc, OpndDst:
		id, err := e.generalID(o.Var)
		if err != nil {
			return err
		}
		var r uint16
		if o.Kind == OpndDst {
			r, err = dstRegion(o.HS)
		} else {
			r, err = region(o.VS, o.W, o.HS)
		}
		if err != nil {
			return err
		}
		if o.Row < 0 || o.Row > 255 || o.Col < 0 || o.Col > 255 {
			return fmt.Errorf("bad region origin (%d,%d)", o.Row, o.Col)
		}
		w.u8(0 | mod<<3)
		w.u32(uint32(id))
		w.u8(uint8(o.Row))
		w.u8(uint8(o.Col))
		w.u16(r)
	case OpndAddrOf:
		// &V+off is a general operand: the offset as a row and a column.
		id, err := e.generalID(o.Var)
		if err != nil {
			return err
		}
		size := o.Var.Type.Size()
		if size == 0 {
			size = 1
		}
		g := e.opt.GRFSize
		row := floorDiv(o.Off, g)
		w.u8(0)
		w.u32(uint32(id))
		w.u8(uint8(row))
		w.u8(uint8((o.Off - row*g) / size))
		w.u16(0x0121) // <0;1,0>
	case OpndImm:
		w.u8(5)
		w.u8(uint8(o.Type))
		switch o.Type {
		case DF, Q, UQ:
			w.u64(o.Imm)
		default:
			w.u32(uint32(o.Imm))
		}
	case OpndPred:
		p, err := e.predWord(Pred{Var: o.Var, Not: o.Mod == ModNot})
		if err != nil {
			return err
		}
		w.u8(2)
		w.u16(p)
	case OpndAddr:
		if o.Var == nil || o.Var.Class != Address {
			return fmt.Errorf("want an address variable")
		}
		width := o.W
		if width == 0 {
			width = 1
		}
		c, ok := execSizes[width]
		if !ok || o.Off < 0 || o.Off > 255 {
			return fmt.Errorf("bad address operand %v", o)
		}
		w.u8(1)
		w.u16(uint16(e.ids[o.Var]))
		w.u8(uint8(o.Off))
		w.u8(c)
	case OpndIndirect:
		if o.Var == nil || o.Var.Class != Address {
			return fmt.Errorf("want an address variable")
		}
		var r uint16
		var err error
		if o.isDstIndirect() {
			r, err = dstRegion(o.HS)
		} else {
			r, err = region(o.VS, o.W, o.HS)
		}
		if err != nil {
			return err
		}
		if o.AddrOff < 0 || o.AddrOff > 255 || o.Off < math.MinInt16 || o.Off > math.MaxInt16 {
			return fmt.Errorf("bad indirect operand %v", o)
		}
		w.u8(3 | mod<<3)
		w.u16(uint16(e.ids[o.Var]))
		w.u8(uint8(o.AddrOff))
		w.u16(uint16(int16(o.Off)))
		w.u8(uint8(o.Type))
		w.u16(r)
	case OpndState:
		if o.Var == nil || (o.Var.Class != Surface && o.Var.Class != Sampler) {
			return fmt.Errorf("want a surface or sampler")
		}
		id, err := e.id(o.Var)
		if err != nil {
			return err
		}
		class := uint8(0)
		if o.Var.Class == Sampler {
			class = 1
		}
		w.u8(6)
		w.u8(class)
		w.u16(uint16(id))
		w.u8(uint8(o.Off))
	default:
		return fmt.Errorf("operand %v is not a vector operand", o)
	}
	return nil
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func (e *kenc) generalID(v *Var) (int, error) {
	if v == nil || v.Class != General {
		return 0, fmt.Errorf("want a general variable")
	}
	return e.id(v)
}

// raw encodes a raw operand: the variable's id and a byte offset.
func (e *kenc) raw(w *writer, o Operand, n int) error {
	if o.Kind != OpndRaw {
		return fmt.Errorf("operand %d: want a raw operand (V.off), have %v", n, o)
	}
	id, err := e.generalID(o.Var)
	if err != nil {
		return fmt.Errorf("operand %d: %v", n, err)
	}
	if o.Off < 0 || o.Off > 0xffff {
		return fmt.Errorf("operand %d: bad offset %d", n, o.Off)
	}
	w.u32(uint32(id))
	w.u16(uint16(o.Off))
	return nil
}
