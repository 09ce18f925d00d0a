package zebin

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// faddrPlaceholder is the immediate the finalizer writes where the
// address of a symbol (vISA faddr) goes: the runtime patches it through
// a relocation.
const faddrPlaceholder = 0x6E10CA2E

// Placeholder is one dword of a symbol address in the code: the byte
// offset of the immediate, the 1-based index of the vISA instruction
// (labels not counted, as the listing's "// $N" numbers them) and
// whether it is the high dword.
type Placeholder struct {
	Offset uint64
	Inst   int
	High   bool
}

// Placeholders finds the symbol address immediates of the code. The
// listing says which vISA instruction each belongs to and which dword
// of the address it holds (the finalizer writes the low dword to an even
// sub-register, the high one to the next); the code says where they are.
func Placeholders(asm string, code []byte) ([]Placeholder, error) {
	var ps []Placeholder
	for _, line := range strings.Split(asm, "\n") {
		if !strings.Contains(line, "0x6E10CA2E") || strings.HasPrefix(strings.TrimSpace(line), "//") {
			continue
		}
		_, at, ok := strings.Cut(line, "// $")
		if !ok {
			return nil, fmt.Errorf("listing: symbol address without its vISA instruction: %q", strings.TrimSpace(line))
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.Fields(at)[0]))
		if err != nil {
			return nil, fmt.Errorf("listing: bad instruction number in %q", strings.TrimSpace(line))
		}
		f := strings.Fields(line)
		dst := ""
		for i, w := range f {
			if strings.HasPrefix(w, "mov") && i+2 < len(f) {
				dst = f[i+2]
				break
			}
		}
		_, sub, ok := strings.Cut(strings.SplitN(dst, "<", 2)[0], ".")
		k, err := strconv.Atoi(sub)
		if !ok || err != nil {
			return nil, fmt.Errorf("listing: cannot read the destination of %q", strings.TrimSpace(line))
		}
		ps = append(ps, Placeholder{Inst: n, High: k%2 == 1})
	}
	// The immediates in the code, in the same order.
	var offs []uint64
	for _, pc := range instOffsets(code) {
		if pc+16 <= len(code) && binary.LittleEndian.Uint32(code[pc:])&(1<<29) == 0 &&
			binary.LittleEndian.Uint32(code[pc+12:]) == faddrPlaceholder {
			offs = append(offs, uint64(pc+12))
		}
	}
	if len(offs) != len(ps) {
		return nil, errors.New("listing and code disagree on the symbol address placeholders")
	}
	for i := range ps {
		ps[i].Offset = offs[i]
	}
	return ps, nil
}
