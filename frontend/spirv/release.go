package spirv

import "sync"

// moduleMem is the memory of a released module's largest tables, kept
// for the next read. A read's instruction table is larger than its
// input (24 bytes an instruction against 18 of words on average), and
// fresh memory costs more than the decoding that fills it: the
// collector runs once every few modules, and each new table is faulted
// in and missed in the cache. A caller that reads module after module
// and keeps none (spv2visa validate) gives each back with Release.
type moduleMem struct {
	insts  []Inst
	defs   []Def
	ops    []Operand
	funcs  []Function
	blocks []Block
	params []int
	decIDs []ID
	decs   []Decoration
}

var moduleMems sync.Pool // of *moduleMem

// Release gives the module's memory back for later reads. Neither m nor
// anything obtained from it (instructions, operands, definitions) may
// be used afterwards: its tables are emptied, so a use that slips
// through fails loudly rather than reading another module's data.
// Strings and diagnostics obtained from m stay valid. Release of a nil
// or already released module does nothing.
func (m *Module) Release() {
	if m == nil || m.Insts == nil {
		return
	}
	mem := m.mem
	if mem == nil {
		mem = new(moduleMem)
	}
	*mem = moduleMem{
		insts:  m.Insts[:0],
		defs:   m.defs.dense[:0],
		ops:    m.ops[:0],
		funcs:  m.Functions[:0],
		blocks: m.blocks[:0],
		params: m.params[:0],
		decIDs: m.decorations.ids[:0],
		decs:   m.decorations.decs[:0],
	}
	moduleMems.Put(mem)
	*m = Module{Header: m.Header, BigEndian: m.BigEndian}
}
