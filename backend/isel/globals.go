package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// Program-scope variables of the global and constant spaces (other
// than small constant tables, which live in registers) are data in the
// native binary; a kernel takes their address with faddr, which the
// finalizer leaves as a placeholder the runtime patches through a
// relocation. The symbol is the variable's name.

// globalAddr selects the address of a program-scope variable.
func (s *sel) globalAddr(v *ir.Value, g *ir.Global) {
	st := s.get(v)
	s.useGlobal(g)
	a := s.k.Decl("", visa.UQ, 1, visa.AlignQword)
	s.emit(visa.OpFaddr, visa.Exec{}, visa.Symbol(g.Name), visa.Dst(a, 0, 0, 1))
	s.emit(visa.OpMov, s.exec(st), s.dstOf(st, 0, nat), visa.Scalar(a, 0))
}

// useGlobal records that the kernel addresses g.
func (s *sel) useGlobal(g *ir.Global) {
	for _, h := range s.globals {
		if h == g {
			return
		}
	}
	s.globals = append(s.globals, g)
}
