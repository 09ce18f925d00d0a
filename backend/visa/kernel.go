package visa

import (
	"fmt"
	"strconv"
)

// Kernel is a vISA kernel or function: its declarations, inputs,
// attributes and instructions.
type Kernel struct {
	Name string
	// Function marks a function object (.global_function) rather than a
	// kernel.
	Function bool
	// Vars are the declared variables of every class, in declaration
	// order.
	Vars   []*Var
	Inputs []Input
	Attrs  []Attr
	Body   []*Inst

	// names holds the variables declared with a name, auto those that
	// declare named, by class and number: most variables are of the
	// latter, and need neither a name hashed nor a map grown.
	names map[string]*Var
	auto  [Label + 1][]*Var
	seq   [Label + 1]int
}

// Input places a general, sampler or surface variable in the thread
// payload at a byte offset of the register file.
type Input struct {
	Var    *Var
	Offset int
	Size   int
	// Kind is the provenance field (0 for a user argument; the CM
	// runtime's implicit arguments otherwise).
	Kind int
}

// NewKernel returns an empty kernel.
func NewKernel(name string) *Kernel {
	return &Kernel{Name: name, names: map[string]*Var{}}
}

// Lookup returns the declared or pre-defined variable named name.
func (k *Kernel) Lookup(name string) *Var {
	if v := k.names[name]; v != nil {
		return v
	}
	if v := k.autoVar(name); v != nil {
		return v
	}
	return Predefined(name)
}

// autoClass maps the first letter of autoName's names to their class.
var autoClass = [256]Class{'V': General, 'A': Address, 'P': Predicate, 'S': Sampler, 'T': Surface, 'L': Label}

// autoVar returns the variable that declare named name, if any.
func (k *Kernel) autoVar(name string) *Var {
	if c, i, ok := k.autoSlot(name); ok {
		return k.auto[c][i]
	}
	return nil
}

// autoSlot finds name among the names declare gave: k.auto[c][i] is the
// variable.
func (k *Kernel) autoSlot(name string) (c Class, i int, ok bool) {
	if len(name) < 2 || name[1] < '0' || name[1] > '9' {
		return 0, 0, false
	}
	c = autoClass[name[0]]
	if c == 0 && name[0] != 'V' {
		return 0, 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil {
		return 0, 0, false
	}
	// The inverse of autoName's numbering.
	seq := n
	switch c {
	case General:
		seq = n - (NumPredefGeneral - 1)
	case Address, Sampler:
		seq = n + 1
	case Surface:
		seq = n - (NumPredefSurface - 1)
	}
	if seq < 1 || seq > len(k.auto[c]) {
		return 0, 0, false
	}
	if v := k.auto[c][seq-1]; v == nil || v.Name != name {
		return 0, 0, false // another spelling of the number, or forgotten
	}
	return c, seq - 1, true
}

// declare adds v, naming it by its class when it has no name.
func (k *Kernel) declare(v *Var) *Var {
	v.Predef = -1
	if k.names == nil {
		k.names = map[string]*Var{}
	}
	c := v.Class
	if v.Name == "" {
		for {
			k.seq[c]++
			v.Name = k.autoName(c, k.seq[c])
			if k.names[v.Name] == nil && Predefined(v.Name) == nil {
				break
			}
		}
		for len(k.auto[c]) < k.seq[c]-1 {
			k.auto[c] = append(k.auto[c], nil) // numbers an explicit name took
		}
		k.auto[c] = append(k.auto[c], v)
	} else if k.Lookup(v.Name) != nil {
		panic(fmt.Sprintf("visa: %s declared twice in %s", v.Name, k.Name))
	} else {
		k.names[v.Name] = v
	}
	if c != Label {
		k.Vars = append(k.Vars, v)
	}
	return v
}

// Forget removes v's name, for a variable dropped from Vars (its name
// may then be declared again).
func (k *Kernel) Forget(v *Var) {
	if k.names[v.Name] == v {
		delete(k.names, v.Name)
		return
	}
	if c, i, ok := k.autoSlot(v.Name); ok && k.auto[c][i] == v {
		k.auto[c][i] = nil
	}
}

// autoName numbers variables as IGC's dumps do: V0032.. for general
// variables (ids after the pre-defined ones), P1.., A0.., S0.., T6..,
// and labels L1...
func (k *Kernel) autoName(c Class, n int) string {
	var b [24]byte
	switch c {
	case General:
		n += NumPredefGeneral - 1
		s := append(b[:0], 'V')
		for d := 1000; d > 1 && n < d; d /= 10 {
			s = append(s, '0') // at least four digits
		}
		return string(strconv.AppendInt(s, int64(n), 10))
	case Address:
		return string(strconv.AppendInt(append(b[:0], 'A'), int64(n-1), 10))
	case Predicate:
		return string(strconv.AppendInt(append(b[:0], 'P'), int64(n), 10))
	case Sampler:
		return string(strconv.AppendInt(append(b[:0], 'S'), int64(n-1), 10))
	case Surface:
		return string(strconv.AppendInt(append(b[:0], 'T'), int64(NumPredefSurface-1+n), 10))
	}
	return string(strconv.AppendInt(append(b[:0], 'L'), int64(n), 10))
}

// Decl declares a general variable of elems elements of type t ("" names
// it automatically).
func (k *Kernel) Decl(name string, t Type, elems int, align Align) *Var {
	return k.declare(&Var{Class: General, Name: name, Type: t, Elems: elems, Align: align})
}

// DeclAlias declares a general variable that views base from byte off
// with type t.
//
// vISA requires the variable at the root of an alias chain to be at
// least as aligned as each alias's type ("base variable must be at least
// type-aligned to this variable": a qword for uq, q and df): a root
// declared with a narrower alignment (a ud constant table read as uq,
// say) gets its alignment raised here, for every alias declared through
// this helper.
func (k *Kernel) DeclAlias(name string, t Type, elems int, base *Var, off int) *Var {
	root := base
	for root.Alias != nil {
		root = root.Alias
	}
	if need := AlignFor(t.Size()); !root.IsPredef() && root.Align < need {
		root.Align = need
	}
	a := base.Align
	if base.Alias != nil || base.IsPredef() {
		a = AlignFor(t.Size())
	}
	return k.declare(&Var{Class: General, Name: name, Type: t, Elems: elems, Align: a, Alias: base, AliasOff: off})
}

// DeclPred declares a predicate of n channels.
func (k *Kernel) DeclPred(name string, n int) *Var {
	return k.declare(&Var{Class: Predicate, Name: name, Type: Bool, Elems: n})
}

// DeclAddr declares an address variable of n elements.
func (k *Kernel) DeclAddr(name string, n int) *Var {
	return k.declare(&Var{Class: Address, Name: name, Type: UW, Elems: n})
}

// DeclSurface declares a surface variable.
func (k *Kernel) DeclSurface(name string) *Var {
	return k.declare(&Var{Class: Surface, Name: name, Type: UD, Elems: 1})
}

// DeclSampler declares a sampler variable.
func (k *Kernel) DeclSampler(name string) *Var {
	return k.declare(&Var{Class: Sampler, Name: name, Type: UD, Elems: 1})
}

// NewLabel declares a label ("" names it automatically).
func (k *Kernel) NewLabel(name string) *Var {
	return k.declare(&Var{Class: Label, Name: name})
}

// AddInput places v in the payload at offset.
func (k *Kernel) AddInput(v *Var, offset int) {
	size := v.Bytes()
	if v.Class == Sampler || v.Class == Surface {
		size = 4
	}
	k.Inputs = append(k.Inputs, Input{Var: v, Offset: offset, Size: size})
}

// SetAttr sets an integer kernel attribute.
func (k *Kernel) SetAttr(name string, value int64) {
	k.setAttr(Attr{Name: name, Int: value, Size: 4})
}

// SetStrAttr sets a string kernel attribute.
func (k *Kernel) SetStrAttr(name, value string) {
	k.setAttr(Attr{Name: name, IsString: true, Str: value, Size: len(value)})
}

func (k *Kernel) setAttr(a Attr) {
	for i := range k.Attrs {
		if k.Attrs[i].Name == a.Name {
			k.Attrs[i] = a
			return
		}
	}
	k.Attrs = append(k.Attrs, a)
}

// Emit appends an instruction.
func (k *Kernel) Emit(in *Inst) *Inst {
	k.Body = append(k.Body, in)
	return in
}

// Place appends the label l.
func (k *Kernel) Place(l *Var) {
	op := OpLabel
	if l.Subroutine {
		op = OpSubroutine
	}
	k.Emit(&Inst{Op: op, Args: []Operand{LabelOpnd(l)}})
}

// Module is a vISA object: kernels and functions.
type Module struct {
	Major, Minor int
	Kernels      []*Kernel
}

// Version is the vISA version spv2visa writes (that of this GenX_IR and
// IGC's dumps).
const VersionMajor, VersionMinor = 4, 1

// appendVarDecl appends v's .decl line (without the newline).
func appendVarDecl(b []byte, v *Var) []byte {
	b = append(b, ".decl "...)
	b = append(b, v.Name...)
	b = append(b, " v_type="...)
	b = append(b, v.Class.String()...)
	switch v.Class {
	case General:
		b = append(b, " type="...)
		b = append(b, v.Type.String()...)
		b = append(b, " num_elts="...)
		b = strconv.AppendInt(b, int64(v.Elems), 10)
		b = append(b, " align="...)
		b = append(b, v.Align.String()...)
		if v.Alias != nil {
			b = append(b, " alias=<"...)
			b = append(b, v.Alias.Name...)
			b = append(b, ", "...)
			b = strconv.AppendInt(b, int64(v.AliasOff), 10)
			b = append(b, '>')
		}
	case Address, Predicate, Sampler, Surface:
		b = append(b, " num_elts="...)
		b = strconv.AppendInt(b, int64(v.Elems), 10)
	}
	if len(v.Attrs) > 0 {
		b = append(b, " attrs={"...)
		for i, a := range v.Attrs {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendAttr(b, a)
		}
		b = append(b, '}')
	}
	return b
}

// appendAttr appends an attribute as name=value, or the name of a flag.
func appendAttr(b []byte, a Attr) []byte {
	b = append(b, a.Name...)
	switch {
	case a.IsString:
		b = append(b, '=')
		b = strconv.AppendQuote(b, a.Str)
	case a.Size != 0:
		b = append(b, '=')
		b = strconv.AppendInt(b, a.Int, 10)
	}
	return b
}
