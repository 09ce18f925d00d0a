package compiler

import (
	"fmt"

	"spv2visa/backend/visa"
	"spv2visa/backend/zebin"
	"spv2visa/ir"
)

// dataSections lays out the program-scope variables that the kernels
// address: read-only ones in .data.const, the others in .data.global,
// each at its alignment, in the module's order of first use.
func dataSections(ks []*Kernel) []zebin.Data {
	var cons, glob zebin.Data
	cons.Name, glob.Name = zebin.DataConst, zebin.DataGlobal
	seen := map[*ir.Global]bool{}
	for _, k := range ks {
		for _, g := range k.Sel.Globals {
			if seen[g] {
				continue
			}
			seen[g] = true
			d := &glob
			if g.Space == ir.SpaceConstant || g.ReadOnly {
				d = &cons
			}
			al := max(g.Align, 1)
			off := (len(d.Bytes) + al - 1) / al * al
			size := g.Type.Size()
			b := make([]byte, off+size)
			copy(b, d.Bytes)
			g.Init.Encode(b[off:])
			d.Bytes = b
			d.Align = max(d.Align, al)
			d.Symbols = append(d.Symbols, zebin.DataSymbol{Name: g.Name, Offset: off, Size: size})
		}
	}
	var out []zebin.Data
	for _, d := range []zebin.Data{cons, glob} {
		if len(d.Symbols) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// relocations turns the finalizer's address placeholders of kernel k
// into relocations of the symbols of its faddr instructions.
func relocations(k *Kernel) ([]zebin.Reloc, error) {
	if k.Final == nil || len(k.Final.Placeholders) == 0 {
		return nil, nil
	}
	// The listing numbers vISA instructions from 1, labels not counted.
	sym := map[int]string{}
	n := 0
	for _, in := range k.Sel.Kernel.Body {
		if in.Op == visa.OpLabel || in.Op == visa.OpSubroutine {
			continue
		}
		n++
		if in.Op == visa.OpFaddr {
			sym[n] = in.Args[0].Sym
		}
	}
	var rs []zebin.Reloc
	for _, p := range k.Final.Placeholders {
		name, ok := sym[p.Inst]
		if !ok {
			return nil, fmt.Errorf("kernel %s: the finalizer placed a symbol address for vISA instruction %d, which is no faddr", k.Name, p.Inst)
		}
		t := uint32(zebin.RelSymAddr32)
		if p.High {
			t = zebin.RelSymAddrHi
		}
		rs = append(rs, zebin.Reloc{Offset: p.Offset, Type: t, Symbol: name})
	}
	return rs, nil
}
