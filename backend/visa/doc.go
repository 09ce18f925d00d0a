// Package visa models Intel's virtual ISA (vISA): kernels and functions,
// variables of every class, operands with regions, and instructions
// described by one table (ops_*.go) that gives each instruction form's
// binary opcode, text template and binary layout. From the table:
//
//   - print.go writes the .visaasm text GenX_IR (Intel's finalizer) reads;
//   - parse.go reads that text back, IGC's own dumps included (Parse);
//   - encode.go writes the binary vISA object file (Kernel.Encode,
//     Module.Encode), and with EncodeOptions.GenXIR reproduces GenX_IR's
//     own -binary output byte for byte.
//
// Operands and literal fields of an instruction are kept in the order
// they appear in the text; the layout maps them to the binary, whose
// field order may differ.
//
// # Adding an instruction form
//
// Add one def line to the ops_*.go file of its family:
//
//	OpFoo = def("foo", 0x99, -1, "{pred}foo.{l0:chmask} {exec} {o0} {o1}", "exec pred l0 v0 r1")
//
// giving the mnemonic, the opcode (the vISA reference,
// instructions/*.md), the sub-opcode (-1 when none), the text template
// (OpInfo.Syntax lists its fields) and the binary layout after the
// opcode byte (OpInfo.Layout lists its tokens; the reference's Format
// table gives the order, IsaDescription.cpp the widths). A literal field
// named by an enumeration takes its text names and binary codes from
// enums.go; add the enumeration there when it is new. Then add a small
// kernel using the form to testdata/forms.txtar, with the platforms the
// form is valid on: TestForms fails for a form without one, and checks
// the text round trip and both binary encodings against GenX_IR.
package visa
