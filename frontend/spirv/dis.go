package spirv

import (
	"io"
	"strconv"

	"spv2visa/grammar"
)

// The disassembler prints a module in the assembly syntax of SPIRV-Tools'
// spirv-dis, byte for byte as spirv-dis v2023.1 prints it with the same
// options (see dis_compat.go for the names that changed since):
//
//	; SPIR-V
//	; Version: 1.2
//	; Generator: Khronos LLVM/SPIR-V Translator; 14
//	; Bound: 68
//	; Schema: 0
//	               OpCapability Kernel
//	%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
//	        %add = OpIAdd %uint %a %b
//
// <id>s print by their friendly names (see dis_names.go) or, with RawIDs,
// their numbers. Instructions are indented so that the '=' of results
// with short names lines up in column 14; literals are formatted as in
// dis_num.go.
//
// Known differences from spirv-dis v2023.1, all outside what OpenCL
// kernels from llvm-spirv use: the instructions of the NonSemantic sets
// spirv-dis knows by grammar (NonSemantic.Shader.DebugInfo.100,
// NonSemantic.ClspvReflection) print as numbers, as those of any other
// NonSemantic set do; and modules using grammar newer than v2023.1 (which
// spirv-dis rejects) print with the current grammar's names.

// DisOptions select the output format of Disassemble; the zero value is
// spirv-dis's default.
type DisOptions struct {
	RawIDs   bool // <id>s as numbers, like spirv-dis --raw-id
	NoHeader bool // no header comment lines, like --no-header
	NoIndent bool // no alignment of instructions, like --no-indent
	Comment  bool // section and <id> comments, like --comment
	Offsets  bool // each instruction's byte offset as a comment, like --offsets
}

// indent is the number of columns before the opcode of an aligned
// instruction.
const indent = 15

// Disassemble writes the module as SPIR-V assembly text.
func (m *Module) Disassemble(w io.Writer, opts DisOptions) error {
	d := disassembler{m: m, opts: opts}
	if !opts.RawIDs {
		d.names = m.idNames()
		d.names.all(m)
	}
	if !opts.NoIndent {
		d.indent = indent
	}
	buf := make([]byte, 0, 64<<10)
	if !opts.NoHeader {
		buf = d.header(buf)
	}
	for i := range m.Insts {
		in := &m.Insts[i]
		if opts.Comment {
			buf = d.sectionComment(buf, in)
		}
		buf = d.inst(buf, in)
		buf = append(buf, '\n')
		if len(buf) >= 60<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// InstString renders instruction i in spirv-dis syntax with friendly names
// and without indentation, e.g. "%add = OpIAdd %uint %a %b". It is meant
// for diagnostics and accepts any module the reader returns (or is still
// building), valid or not.
func (m *Module) InstString(i int) (s string) {
	if i < 0 || i >= len(m.Insts) {
		return ""
	}
	in := &m.Insts[i]
	defer func() {
		// Diagnostics must not fail: fall back to the raw words should
		// the module be in a shape the disassembler did not foresee.
		if recover() != nil {
			s = rawInst(in.Words(m))
		}
	}()
	d := disassembler{m: m, names: m.idNames()}
	return string(d.inst(make([]byte, 0, 128), in))
}

type disassembler struct {
	m      *Module
	opts   DisOptions
	names  *cachedNames // nil for raw <id>s
	indent int
	// Section comments already written.
	annotations, debug, types bool
}

// IDName returns the name the disassembly gives id where an instruction
// defines it: "%" and its friendly name, or its number. (What
// InstString of the definition shows before " = ", without rendering
// the rest.)
func (m *Module) IDName(id ID) (s string) {
	defer func() {
		if recover() != nil {
			s = "%" + strconv.FormatUint(uint64(id), 10)
		}
	}()
	return string(m.idNames().appendName(m, append(make([]byte, 0, 24), '%'), id))
}

func (d *disassembler) header(b []byte) []byte {
	h := d.m.Header
	b = append(b, "; SPIR-V\n; Version: "...)
	b = strconv.AppendUint(b, uint64(h.Version>>16&0xff), 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, uint64(h.Version>>8&0xff), 10)
	b = append(b, "\n; Generator: "...)
	b = append(b, generatorName(h.Generator>>16)...)
	b = append(b, "; "...)
	b = strconv.AppendUint(b, uint64(h.Generator&0xffff), 10)
	b = append(b, "\n; Bound: "...)
	b = strconv.AppendUint(b, uint64(h.Bound), 10)
	b = append(b, "\n; Schema: "...)
	b = strconv.AppendUint(b, uint64(h.Schema), 10)
	return append(b, '\n')
}

func (d *disassembler) appendID(b []byte, id ID) []byte {
	if d.names != nil {
		return d.names.appendName(d.m, b, id)
	}
	return strconv.AppendUint(b, uint64(id), 10)
}

// idLen returns the length of the printed name of id.
func (d *disassembler) idLen(id ID) int {
	if d.names != nil {
		if s := d.names.get(d.m, id); s != "" && s != numericName {
			return len(s)
		}
	}
	n := 1
	for v := id; v >= 10; v /= 10 {
		n++
	}
	return n
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// sectionComment writes the blank line and comment --comment puts before
// the first annotation, the first debug instruction, the first type and
// every function.
func (d *disassembler) sectionComment(b []byte, in *Inst) []byte {
	comment := func(b []byte, text string) []byte {
		b = append(b, '\n')
		b = appendSpaces(b, d.indent)
		b = append(b, "; "...)
		return append(b, text...)
	}
	if in.Opcode == grammar.OpFunction {
		b = comment(b, "Function ")
		b = d.appendID(b, in.Result)
		b = append(b, '\n')
	}
	if !d.annotations && isDecorationOp(in.Opcode) {
		d.annotations = true
		b = append(comment(b, "Annotations"), '\n')
	}
	if !d.debug && isDebugOp(in.Opcode) {
		d.debug = true
		b = append(comment(b, "Debug Information"), '\n')
	}
	if !d.types && generatesType(in.Opcode) {
		d.types = true
		b = append(comment(b, "Types, variables and constants"), '\n')
	}
	return b
}

// The opcode classes of SPIRV-Tools v2023.1 behind the section comments.

func isDecorationOp(op grammar.Opcode) bool {
	switch op {
	case grammar.OpDecorate, grammar.OpDecorateId, grammar.OpMemberDecorate, grammar.OpGroupDecorate,
		grammar.OpGroupMemberDecorate, grammar.OpDecorateString, grammar.OpMemberDecorateString:
		return true
	}
	return false
}

func isDebugOp(op grammar.Opcode) bool {
	switch op {
	case grammar.OpName, grammar.OpMemberName, grammar.OpSource, grammar.OpSourceContinued,
		grammar.OpSourceExtension, grammar.OpString, grammar.OpLine, grammar.OpNoLine,
		grammar.OpModuleProcessed:
		return true
	}
	return false
}

func generatesType(op grammar.Opcode) bool {
	switch op {
	case grammar.OpTypeVoid, grammar.OpTypeBool, grammar.OpTypeInt, grammar.OpTypeFloat,
		grammar.OpTypeVector, grammar.OpTypeMatrix, grammar.OpTypeImage, grammar.OpTypeSampler,
		grammar.OpTypeSampledImage, grammar.OpTypeArray, grammar.OpTypeRuntimeArray,
		grammar.OpTypeStruct, grammar.OpTypeOpaque, grammar.OpTypePointer, grammar.OpTypeFunction,
		grammar.OpTypeEvent, grammar.OpTypeDeviceEvent, grammar.OpTypeReserveId, grammar.OpTypeQueue,
		grammar.OpTypePipe, grammar.OpTypePipeStorage, grammar.OpTypeNamedBarrier,
		grammar.OpTypeAccelerationStructureKHR, grammar.OpTypeCooperativeMatrixNV,
		grammar.OpTypeRayQueryKHR, grammar.OpTypeHitObjectNV:
		return true
	}
	return false
}

// inst appends one instruction, without the newline.
func (d *disassembler) inst(b []byte, in *Inst) []byte {
	if in.Result != 0 {
		if d.indent > 0 {
			// spirv-dis right-aligns "%name" in a field of indent-3
			// columns: " = " then ends where the opcodes start.
			b = appendSpaces(b, d.indent-3-d.idLen(in.Result)-1)
		}
		b = append(b, '%')
		b = d.appendID(b, in.Result)
		b = append(b, " = "...)
	} else {
		b = appendSpaces(b, d.indent)
	}
	b = append(b, "Op"...)
	if name := disOpName(in.Opcode); name != "" {
		b = append(b, name...)
	} else {
		b = strconv.AppendUint(b, uint64(in.Opcode), 10)
	}
	covered := 1 // words shown
	for _, op := range in.Ops(d.m) {
		end := int(op.Off) + int(op.Len)
		if op.Off == 0 || op.Len == 0 || end > len(in.Words(d.m)) {
			break
		}
		if end > covered {
			covered = end
		}
		if op.Kind == grammar.KindIdResult {
			continue
		}
		b = append(b, ' ')
		b = d.operand(b, in, op)
	}
	// Words the operands do not account for (only in a module still being
	// decoded) are shown raw.
	for _, w := range in.Words(d.m)[min(covered, len(in.Words(d.m))):] {
		b = append(b, " 0x"...)
		b = strconv.AppendUint(b, uint64(w), 16)
	}
	if d.opts.Comment && in.Opcode == grammar.OpName && len(in.Words(d.m)) > 1 {
		b = append(b, "  ; id %"...)
		b = strconv.AppendUint(b, uint64(in.Words(d.m)[1]), 10)
	}
	if d.opts.Offsets {
		b = append(b, " ; 0x"...)
		off := strconv.AppendUint(make([]byte, 0, 16), uint64(in.Offset)*4, 16)
		b = append(b, "00000000"[min(len(off), 8):]...)
		b = append(b, off...)
	}
	return b
}

// operand appends one operand.
func (d *disassembler) operand(b []byte, in *Inst, op Operand) []byte {
	if op.Num != NumNone {
		// Context-dependent numbers: OpConstant's value, OpSwitch's cases.
		return d.m.appendNumber(b, in, op)
	}
	w := in.Words(d.m)[op.Off]
	k := op.Kind
	switch k.Category() {
	case grammar.ID:
		b = append(b, '%')
		return d.appendID(b, ID(w))
	case grammar.ValueEnum:
		if name := disEnumName(k, w); name != "" {
			return append(b, name...)
		}
		return strconv.AppendUint(b, uint64(w), 10)
	case grammar.BitEnum:
		return appendMask(b, k, w)
	}
	switch k {
	case grammar.KindLiteralString:
		return appendQuotedWords(b, in.Words(d.m)[op.Off:int(op.Off)+int(op.Len)])
	case grammar.KindLiteralExtInstInteger:
		if in.ExtSet() != nil {
			if ei := in.ExtSet().Lookup(w); ei != nil {
				return append(b, ei.Name...)
			}
		}
	case grammar.KindLiteralSpecConstantOpInteger:
		if name := disOpName(grammar.Opcode(w)); name != "" && w <= 0xffff {
			return append(b, name...)
		}
	case grammar.KindLiteralFloat:
		return appendFloat32(b, w)
	}
	if op.Len == 2 {
		return strconv.AppendUint(b, uint64(w)|uint64(in.Words(d.m)[op.Off+1])<<32, 10)
	}
	return strconv.AppendUint(b, uint64(w), 10)
}

// appendMask appends a mask as the names of its bits, lowest first,
// separated by '|'; zero is the name of the zero value (None), if any.
func appendMask(b []byte, k grammar.Kind, w uint32) []byte {
	if w == 0 {
		return append(b, disEnumName(k, 0)...)
	}
	first := true
	for bit := uint32(1); w != 0 && bit != 0; bit <<= 1 {
		if w&bit == 0 {
			continue
		}
		w &^= bit
		if !first {
			b = append(b, '|')
		}
		first = false
		if name := disEnumName(k, bit); name != "" {
			b = append(b, name...)
		} else {
			b = append(b, "0x"...)
			b = strconv.AppendUint(b, uint64(bit), 16)
		}
	}
	return b
}

// appendQuotedWords appends the NUL-terminated literal string packed in ws
// like appendQuoted.
func appendQuotedWords(b []byte, ws []uint32) []byte {
	b = append(b, '"')
	for _, w := range ws {
		for i := 0; i < 4; i++ {
			c := byte(w >> (8 * i))
			if c == 0 {
				return append(b, '"')
			}
			if c == '"' || c == '\\' {
				b = append(b, '\\')
			}
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendNumber appends a context-dependent number operand (the value of
// OpConstant or OpSpecConstant, an OpSwitch case) as its type reads it.
func (m *Module) appendNumber(b []byte, in *Inst, op Operand) []byte {
	end := int(op.Off) + int(op.Len)
	if op.Len == 0 || op.Len > 2 || end > len(in.Words(m)) {
		return b
	}
	lo := in.Words(m)[op.Off]
	var v uint64 = uint64(lo)
	if op.Len == 2 {
		v |= uint64(in.Words(m)[op.Off+1]) << 32
	}
	switch op.Num {
	case NumSint:
		if op.Len == 1 {
			return strconv.AppendInt(b, int64(int32(lo)), 10)
		}
		return strconv.AppendInt(b, int64(v), 10)
	case NumFloat:
		if op.Len == 2 {
			return appendFloat64(b, v)
		}
		if m.literalWidth(in) == 16 {
			return appendFloat16(b, uint16(lo))
		}
		return appendFloat32(b, lo)
	}
	return strconv.AppendUint(b, v, 10)
}

// literalWidth returns the bit width of the type of in's context-dependent
// literals: the selector's type for OpSwitch, the result type otherwise;
// 0 when unknown.
func (m *Module) literalWidth(in *Inst) uint32 {
	t := in.Type
	if in.Opcode == grammar.OpSwitch && len(in.Words(m)) > 1 {
		t = m.TypeOf(ID(in.Words(m)[1]))
	}
	if def := m.defOf(t); def != nil && (def.Opcode == grammar.OpTypeFloat || def.Opcode == grammar.OpTypeInt) && len(def.Words(m)) > 2 {
		return def.Words(m)[2]
	}
	return 0
}
