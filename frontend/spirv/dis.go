package spirv

// InstString renders instruction i for diagnostics.
// TODO(dis): replace with the spirv-dis syntax disassembler.
func (m *Module) InstString(i int) string { return rawInst(m.Insts[i].Words) }
