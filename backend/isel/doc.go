// Package isel selects vISA instructions for the IR of a kernel: it lays
// out the thread payload (r0, per-thread local ids, cross-thread data),
// gives every IR value a vISA variable (one element per SIMD lane for
// values that differ between work-items, one element for uniform
// values, predicates for booleans), and turns each IR operation, branch
// and phi into vISA instructions for the chosen platform and SIMD width.
//
// Divergent control flow uses SIMD gotos, as Intel's compiler does: the
// finalizer computes the join points. Critical edges are split before
// selection so that the copies of phi operands run under the mask of
// exactly the lanes that take their edge.
package isel
