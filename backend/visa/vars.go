package visa

// Class is the storage class of a variable.
type Class uint8

const (
	General   Class = iota // v_type=G
	Address                // v_type=A
	Predicate              // v_type=P
	Sampler                // v_type=S
	Surface                // v_type=T
	Label                  // a label or subroutine
)

var classNames = [...]string{General: "G", Address: "A", Predicate: "P", Sampler: "S", Surface: "T", Label: "L"}

func (c Class) String() string { return classNames[c] }

// Var is a variable of any class. Pre-defined variables (Predef >= 0)
// are shared singletons and never declared.
type Var struct {
	Class Class
	Name  string
	// General: element type, count and alignment; Alias/AliasOff make
	// the variable a view of another at a byte offset.
	Type     Type
	Elems    int
	Align    Align
	Alias    *Var
	AliasOff int
	// Predef is the index of a pre-defined variable in its class
	// (V0..V31, T0..T5, S31, P0), or -1 for a declared one.
	Predef int
	// Subroutine marks a label that starts a subroutine (a call target).
	Subroutine bool
	// Attrs are the variable's attributes (attrs={...} in the text).
	Attrs []Attr
}

// Bytes returns the size of a general variable in bytes.
func (v *Var) Bytes() int { return v.Elems * v.Type.Size() }

// IsPredef reports whether v is a pre-defined variable.
func (v *Var) IsPredef() bool { return v.Predef >= 0 }

// Attr is an attribute of a kernel or variable: an integer (Int, with
// Size bytes, 0 for a boolean flag) or a string (IsString).
type Attr struct {
	Name     string
	IsString bool
	Str      string
	Int      int64
	Size     int
}

func predef(c Class, i int, name string, t Type, elems int) *Var {
	return &Var{Class: c, Name: name, Predef: i, Type: t, Elems: elems, Align: AlignDword}
}

// The pre-defined general variables (V0-V20); their names are the text
// syntax's. V21-V31 are reserved.
var (
	Null      = predef(General, 0, "%null", UD, 1)
	ThreadX   = predef(General, 1, "%thread_x", UW, 1)
	ThreadY   = predef(General, 2, "%thread_y", UW, 1)
	GroupIDX  = predef(General, 3, "%group_id_x", UD, 1)
	GroupIDY  = predef(General, 4, "%group_id_y", UD, 1)
	GroupIDZ  = predef(General, 5, "%group_id_z", UD, 1)
	TSC       = predef(General, 6, "%tsc", UD, 5)
	R0        = predef(General, 7, "%r0", UD, 8)
	Arg       = predef(General, 8, "%arg", UD, 256)
	Retval    = predef(General, 9, "%retval", UD, 96)
	SP        = predef(General, 10, "%sp", UD, 1)
	FP        = predef(General, 11, "%fp", UD, 1)
	HWID      = predef(General, 12, "%hw_id", UD, 1)
	SR0       = predef(General, 13, "%sr0", UD, 4)
	CR0       = predef(General, 14, "%cr0", UD, 1)
	CE0       = predef(General, 15, "%ce0", UD, 1)
	DBG0      = predef(General, 16, "%dbg0", UD, 2)
	Color     = predef(General, 17, "%color", UW, 1)
	ImplArgs  = predef(General, 18, "%impl_arg_buf_ptr", UQ, 1)
	LocalIDs  = predef(General, 19, "%local_id_buf_ptr", UQ, 1)
	Msg0      = predef(General, 20, "%msg0", UD, 8)
	predefGen = []*Var{Null, ThreadX, ThreadY, GroupIDX, GroupIDY, GroupIDZ, TSC, R0, Arg, Retval,
		SP, FP, HWID, SR0, CR0, CE0, DBG0, Color, ImplArgs, LocalIDs, Msg0}
)

// NumPredefGeneral is the number of ids reserved for pre-defined general
// variables: declared general variables are numbered from it.
const NumPredefGeneral = 32

// The pre-defined surfaces (T0-T5) and the bindless sampler (S31).
var (
	SLM         = predef(Surface, 0, "%slm", UD, 1)
	T1          = predef(Surface, 1, "T1", UD, 1)
	T2          = predef(Surface, 2, "T2", UD, 1)
	TSS         = predef(Surface, 3, "TSS", UD, 1)
	BSS         = predef(Surface, 4, "%bss", UD, 1)
	Scratch     = predef(Surface, 5, "%scratch", UD, 1)
	predefSurf  = []*Var{SLM, T1, T2, TSS, BSS, Scratch}
	BindlessS31 = predef(Sampler, 31, "S31", UD, 1)
)

// NumPredefSurface is the number of pre-defined surfaces: declared
// surfaces are numbered from it.
const NumPredefSurface = 6

// P0 is the pre-defined "no predicate" predicate.
var P0 = predef(Predicate, 0, "P0", Bool, 1)

// Predefined returns the pre-defined variable named name ("%r0", "T1",
// ...), or nil.
func Predefined(name string) *Var {
	for _, v := range predefGen {
		if v.Name == name {
			return v
		}
	}
	for _, v := range predefSurf {
		if v.Name == name {
			return v
		}
	}
	switch name {
	case "T0":
		return SLM
	case "T3":
		return TSS
	case "T4":
		return BSS
	case "T5":
		return Scratch
	case "S31":
		return BindlessS31
	case "P0":
		return P0
	}
	return nil
}
