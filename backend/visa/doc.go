// Package visa models Intel's virtual ISA (vISA): kernels and functions,
// variables of every class, operands with regions, and instructions
// described by one table (ops*.go) that gives each instruction's binary
// opcode, operand layout and text syntax. The text writer (print.go)
// emits the .visaasm syntax Intel's finalizer (GenX_IR) reads.
//
// Operands and literal fields of an instruction are kept in the order
// they appear in the text syntax; the table maps them to the binary
// layout of the vISA object format.
package visa
