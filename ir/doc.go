// Package ir is spv2visa's SSA intermediate representation, shared by the
// frontend (which lowers SPIR-V into it), the passes, the interpreter and
// the backend.
//
// A Module holds functions and global variables. A Func is a list of
// Blocks; each Block holds Values in execution order and ends as its Kind
// says (jump, if, switch, ret, unreachable). Values are in SSA form: each
// is defined once, by an Op on argument values; phis take one argument
// per predecessor. Types are interned, so they compare with ==. Memory is
// addressed in bytes (OpPtrAdd) through typed pointers in the OpenCL
// address spaces.
//
// The op table (op.go) is the one description of every operation; the
// printer and parser (a text form that round-trips), the verifier and the
// passes read it. Fun/Bloc/Valu build small functions for tests.
package ir
