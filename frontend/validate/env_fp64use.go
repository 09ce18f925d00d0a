package validate

import (
	"sort"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Float64 on a device without fp64 (env.capability-device): clang
// compiles every cl_khr_fp64 helper of an included header (it defines
// cl_khr_fp64 for spir64), so modules often declare Float64 for
// functions no kernel calls. Intel's compiler builds such modules and
// fails only when a kernel reaches double-precision code ("Double type
// is not supported on this platform"), so a device without fp64
// rejects the module only when an entry point reaches a use.

// envFloat64Use returns the index of the first instruction of a function
// that an entry point reaches (through OpFunctionCall) whose result or
// operands have a type containing a 64-bit float, or -1 when there is
// none.
func envFloat64Use(m *spirv.Module) int {
	n := m.IDs()
	if n == 0 || len(m.Functions) == 0 {
		return -1
	}
	// f64[id]: the type id contains a 64-bit float. Types precede the
	// functions; a forward-declared pointer is seen as its OpTypePointer.
	f64 := make([]bool, n)
	typeHas := func(id spirv.ID) bool { return int(id) < n && f64[id] }
	first := m.Functions[0].Def
	for i := 0; i < first; i++ {
		in := &m.Insts[i]
		if in.Result == 0 || int(in.Result) >= n {
			continue
		}
		switch in.Opcode {
		case grammar.OpTypeFloat:
			f64[in.Result] = envOpID(m, in, 1) == 64
		case grammar.OpTypeVector, grammar.OpTypeMatrix, grammar.OpTypeArray, grammar.OpTypeRuntimeArray:
			f64[in.Result] = typeHas(envOpID(m, in, 1))
		case grammar.OpTypePointer:
			f64[in.Result] = typeHas(envOpID(m, in, 2))
		case grammar.OpTypeStruct, grammar.OpTypeFunction:
			for k := 1; k < in.NumOps(); k++ {
				if typeHas(envOpID(m, in, k)) {
					f64[in.Result] = true
					break
				}
			}
		}
	}
	valueHas := func(id spirv.ID) bool {
		if int(id) >= n || id == 0 {
			return false
		}
		if f64[id] {
			return true // a type operand
		}
		def := m.Def(id)
		return def != nil && typeHas(def.Type)
	}

	nf := len(m.Functions)
	fnOf := func(id spirv.ID) int {
		def := m.DefIndex(id)
		k := sort.Search(nf, func(k int) bool { return m.Functions[k].Def >= def })
		if def >= 0 && k < nf && m.Functions[k].Def == def {
			return k
		}
		return -1
	}
	seen := make([]bool, nf)
	var work []int
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode == grammar.OpFunction {
			break
		}
		if in.Opcode == grammar.OpEntryPoint {
			if f := fnOf(envOpID(m, in, 1)); f >= 0 && !seen[f] {
				seen[f] = true
				work = append(work, f)
			}
		}
	}
	use := -1
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		fn := &m.Functions[f]
		for i := fn.Def; i <= fn.End; i++ {
			in := &m.Insts[i]
			if in.Opcode == grammar.OpFunctionCall {
				if g := fnOf(envOpID(m, in, 2)); g >= 0 && !seen[g] {
					seen[g] = true
					work = append(work, g)
				}
			}
			if use >= 0 && i >= use {
				continue
			}
			hit := typeHas(in.Type)
			for k, o := range in.Ops(m) {
				if hit {
					break
				}
				switch o.Kind {
				case grammar.KindIdRef, grammar.KindIdMemorySemantics, grammar.KindIdScope:
					hit = valueHas(envOpID(m, in, k))
				}
			}
			if hit {
				use = i
			}
		}
	}
	return use
}
