package spirv

import "spv2visa/grammar"

// opFact is what the reader needs to know of an opcode, derived from
// the grammar. The facts of every opcode sit in one table (opFacts), so
// that reading an instruction looks at one place, and the table is
// filled in one pass over the grammar at start-up, without allocation.
type opFact struct {
	// prefix is the number of operands, from the first, that are always
	// present and take one word with no parameters (<id>s and literal
	// integers): decode reads them without the general machinery.
	prefix uint8
	// sel is the word position of the first enumerant operand when
	// every operand before it is such a one (0 otherwise): the word
	// whose value, with the word count, decides the instruction's
	// layout. selNumber for constants, 3 for OpExtInst (see key).
	sel uint8
	// sel2 tells whether another word may be an enumerant as well,
	// which then decides the layout too (see selPos2): the word after
	// sel always (the next operand is one: OpMemoryModel), or when sel's
	// enumerant has one as its first parameter (OpDecorate BuiltIn,
	// FuncParamAttr), or the last word when sel's enumerant has one as
	// its last parameter after others (OpDecorate LinkageAttributes,
	// whose name precedes it); sel2Str: the key holds instead the words
	// taken by the literal string at word mid, which other operands
	// follow (OpEntryPoint's name), so that the instructions of one
	// layout have their operands at the same words.
	sel2 uint8
	mid  uint8
	// selKind is the kind of the operand at sel.
	selKind grammar.Kind
	// split is the opcode's class for funcSplitter.
	split uint8
	// section is 1 + the layout section of the opcode (see SectionOf),
	// 0 for OpExtInst and the opcodes the grammar does not know.
	section Section
}

// opFacts (optable_gen.go) holds the facts of every 16-bit opcode, so
// that a look-up needs no bounds check; those the grammar does not know
// are zero. It is generated from opFactOf rather than filled at start-up,
// which took a tenth of a small compile's start; TestOpFactsFresh fails
// when it is stale (go test ./frontend/spirv -run OpFactsFresh -update).

func opFactOf(in *grammar.Inst) opFact {
	var f opFact
	// oneWord reports whether an operand always takes one word of its
	// own: an <id> or a literal integer, neither optional nor repeated.
	oneWord := func(o grammar.Operand) bool {
		return o.Quant == grammar.One && (o.Kind.Category() == grammar.ID || o.Kind == grammar.KindLiteralInteger)
	}
	for _, o := range in.Operands {
		if !oneWord(o) || f.prefix == 255 {
			break
		}
		f.prefix++
	}
	// OpSwitch's literals depend on the selector; keep it general.
	if in.Opcode == grammar.OpSwitch {
		f.prefix = 0
	}

	pos := 1
	for j, o := range in.Operands {
		c := o.Kind.Category()
		if c == grammar.ValueEnum || c == grammar.BitEnum {
			f.sel, f.selKind = uint8(pos), o.Kind
			switch {
			case j+1 < len(in.Operands) && isEnum(in.Operands[j+1].Kind):
				f.sel2 = sel2Always
			default:
				if first, last := enumParamEnums(o.Kind); len(first)+len(last) > 0 {
					f.sel2 = sel2Param
				}
			}
			break
		}
		if !oneWord(o) || pos >= 255 {
			break
		}
		pos++
	}
	if f.sel2 == 0 {
		pos := 1
		for j, o := range in.Operands {
			if o.Kind == grammar.KindLiteralString && o.Quant == grammar.One && j < len(in.Operands)-1 && pos < 64 {
				f.sel2, f.mid = sel2Str, uint8(pos)
				break
			}
			if !oneWord(o) && pos != int(f.sel) {
				break
			}
			pos++
		}
	}
	switch in.Opcode {
	case grammar.OpExtInst:
		// Keyed by its set (word 3, see extCode) and instruction (word 4).
		f.sel, f.sel2 = 3, 0
	case grammar.OpConstant, grammar.OpSpecConstant:
		// By how its type reads literals (see key).
		f.sel, f.sel2 = selNumber, 0
	}

	f.split = splitClassOf(in.Opcode)
	if in.Opcode != grammar.OpExtInst {
		f.section = 1 + sectionOf(in.Opcode)
	}
	return f
}

func isEnum(k grammar.Kind) bool {
	c := k.Category()
	return c == grammar.ValueEnum || c == grammar.BitEnum
}

// Values of opFact.sel2.
const (
	sel2Always = 1 + iota
	sel2Param
	sel2Str
)

// paramEnums (optable_gen.go) holds, per operand kind, the values of
// the enumerants whose first parameter is an enumerant; lastParamEnums
// those whose last parameter, after others, is an enumerant without
// parameters. paramLow and lastParamLow hold those below 64 as bit masks
// (the common decorations: OpDecorate asks at every instruction).
// Generated with opFacts, from enumParamEnums.

// enumParamEnums returns what paramEnums and lastParamEnums hold for
// kind k.
func enumParamEnums(k grammar.Kind) (first, last []uint32) {
	for _, e := range k.Info().Enumerants {
		n := len(e.Params)
		switch {
		case n > 0 && isEnum(e.Params[0].Kind):
			first = append(first, e.Value)
		case n > 1 && isEnum(e.Params[n-1].Kind) && e.Params[n-1].Quant == grammar.One:
			last = append(last, e.Value)
		}
	}
	return first, last
}

// lowMask returns the values of vs below 64 as a bit mask.
func lowMask(vs []uint32) uint64 {
	var m uint64
	for _, v := range vs {
		if v < 64 {
			m |= 1 << v
		}
	}
	return m
}

// selWord2 returns the second word of the layout key of an instruction
// of opcode op whose first selector word is ws[p] (see opFact.sel2), 0
// when there is none.
func selWord2(op grammar.Opcode, ws []uint32, p int) uint32 {
	if f := &opFacts[op]; f.sel2 == sel2Str {
		if int(f.mid) < len(ws) {
			return uint32(stringWords(ws[f.mid:]))
		}
		return 0
	}
	if q := selPos2(op, ws, p); q > 0 {
		return ws[q]
	}
	return 0
}

// selPos2 returns the position of that word, 0 when there is none.
func selPos2(op grammar.Opcode, ws []uint32, p int) int {
	f := &opFacts[op]
	if f.sel2 == 0 || f.sel2 == sel2Str || p+1 >= len(ws) {
		return 0
	}
	if f.sel2 == sel2Param {
		if v := ws[p]; v < 64 {
			switch {
			case paramLow[f.selKind]>>v&1 != 0:
				return p + 1
			case lastParamLow[f.selKind]>>v&1 != 0:
				return len(ws) - 1
			}
			return 0
		}
		for _, v := range paramEnums[f.selKind] {
			if v == ws[p] {
				return p + 1
			}
		}
		for _, v := range lastParamEnums[f.selKind] {
			if v == ws[p] {
				return len(ws) - 1
			}
		}
		return 0
	}
	return p + 1
}
