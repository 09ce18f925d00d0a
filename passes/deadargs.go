package passes

import (
	"fmt"
	"strings"

	"spv2visa/ir"
)

// UnusedParams reports, for each parameter of f, whether f never uses
// it. For a kernel the backend and ze_info can skip loading such
// arguments (the parameter stays in the signature the runtime sees).
func UnusedParams(f *ir.Func) []bool {
	unused := make([]bool, len(f.Params))
	for i := range unused {
		unused[i] = true
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == ir.OpParam && v.Uses > 0 && int(v.AuxInt) < len(unused) {
				unused[v.AuxInt] = false
			}
		}
	}
	return unused
}

// deadArgs removes the unused parameters of helper functions (those not
// inlined) and the matching arguments of every call. Kernels keep their
// signature. Run after inlining and dead code removal, when the uses are
// final; calls from other modules are not expected (functions no kernel
// reaches were dropped by inline).
func deadArgs(m *ir.Module, _ *Config) error {
	// The calls of every function, found in one walk of the module (not
	// one walk per function, which made the pass quadratic in the number
	// of functions).
	calls := map[*ir.Func][]*ir.Value{}
	for _, g := range m.Funcs {
		for _, b := range g.Blocks {
			for _, v := range b.Values {
				if v.Op != ir.OpCall {
					continue
				}
				if f, ok := v.Aux.(*ir.Func); ok {
					calls[f] = append(calls[f], v)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		if f.Kernel || len(f.Blocks) == 0 {
			continue
		}
		unused := UnusedParams(f)
		any := false
		for _, u := range unused {
			any = any || u
		}
		if !any {
			continue
		}
		// New numbering of the kept parameters.
		renum := make([]int, len(unused))
		var params []*ir.Type
		var names []string
		var attrs []ir.ParamAttr
		for i, u := range unused {
			renum[i] = -1
			if u {
				continue
			}
			renum[i] = len(params)
			params = append(params, f.Params[i])
			if i < len(f.ParamNames) {
				names = append(names, f.ParamNames[i])
			}
			if i < len(f.ParamAttrs) {
				attrs = append(attrs, f.ParamAttrs[i])
			}
		}
		f.Params = params
		if f.ParamNames != nil {
			f.ParamNames = names
		}
		if f.ParamAttrs != nil {
			f.ParamAttrs = attrs
		}
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				if v.Op == ir.OpParam {
					v.AuxInt = int64(renum[v.AuxInt])
				}
			}
		}
		sweep(f, func(v *ir.Value) bool { return v.Op == ir.OpParam && v.AuxInt < 0 })
		for _, v := range calls[f] {
			old := append([]*ir.Value(nil), v.Args...)
			v.ResetArgs()
			for i, a := range old {
				if !unused[i] {
					v.AddArg(a)
				}
			}
		}
	}
	return nil
}

func printUnusedParams(m *ir.Module) string {
	var sb strings.Builder
	for _, f := range m.Funcs {
		var idx []string
		for i, u := range UnusedParams(f) {
			if u {
				idx = append(idx, fmt.Sprint(i))
			}
		}
		if len(idx) == 0 {
			idx = []string{"none"}
		}
		fmt.Fprintf(&sb, "@%s: unused parameters: %s\n", f.Name, strings.Join(idx, " "))
	}
	return sb.String()
}
