package spirv

import "encoding/binary"

// Encode writes the module in its input byte order: the header from
// m.Header, then every instruction's words. For a module as read, the
// result equals the input bytes.
func (m *Module) Encode() []byte {
	n := HeaderWords
	for i := range m.Insts {
		n += len(m.Insts[i].Words(m))
	}
	out := make([]byte, 0, 4*n)
	var order binary.AppendByteOrder = binary.LittleEndian
	if m.BigEndian {
		order = binary.BigEndian
	}
	h := m.Header
	for _, w := range [HeaderWords]uint32{h.Magic, h.Version, h.Generator, h.Bound, h.Schema} {
		out = order.AppendUint32(out, w)
	}
	for i := range m.Insts {
		for _, w := range m.Insts[i].Words(m) {
			out = order.AppendUint32(out, w)
		}
	}
	return out
}
