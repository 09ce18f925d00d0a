package validate

import (
	"sort"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/internal/reuse"
)

// Recursion (Level Zero SPIR-V environment, Validation Rules: "The static
// function call graph for an entry point must not contain cycles").

func init() {
	register("env.callgraph", PhaseEnvironment, checkEnvCallGraph,
		Rule{ID: "env.recursion", Summary: "the static call graph of every entry point has no cycle (no recursion)"},
	)
}

var envCallSet = envWatch(grammar.OpFunctionCall)

// envCall is a call of the call graph: the callee and the call's index.
type envCall struct{ to, inst int32 }

// envFrame is a function on the path of the search of checkEnvCallGraph,
// with the next of its calls to follow.
type envFrame struct{ f, next int32 }

func checkEnvCallGraph(c *checker) {
	m := c.m
	nf := len(m.Functions)
	if nf == 0 {
		return
	}
	// callee returns the index in m.Functions of the function whose
	// result is id, or -1. Functions are in binary order.
	callee := func(id spirv.ID) int {
		def := m.DefIndex(id)
		fi := sort.Search(nf, func(k int) bool { return m.Functions[k].Def >= def })
		if def >= 0 && fi < nf && m.Functions[fi].Def == def {
			return fi
		}
		return -1
	}
	// The call graph in compressed rows: the calls of function f are
	// calls[start[f]:start[f+1]], each the callee and the call's index.
	var start []int32
	var calls []envCall
	var color []uint8
	var path []envFrame
	if r := c.r; r != nil {
		start, calls = reuse.Zeroed(r.callStart, nf+1), r.calls[:0]
		color, path = reuse.Zeroed(r.color, nf), r.path[:0]
		defer func() { r.callStart, r.calls, r.color, r.path = start, calls, color, path }()
	} else {
		start, color = make([]int32, nf+1), make([]uint8, nf)
	}
	fi := 0
	for _, i32 := range envOf(c).lists[envCallSet] {
		i := int(i32)
		for fi < nf && m.Functions[fi].End < i {
			fi++
			start[fi] = int32(len(calls))
		}
		if fi == nf || i < m.Functions[fi].Def {
			continue // not in a function: malformed
		}
		if to := callee(envOpID(c.m, &m.Insts[i], 2)); to >= 0 {
			calls = append(calls, envCall{int32(to), int32(i)})
		}
	}
	for fi < nf {
		fi++
		start[fi] = int32(len(calls))
	}

	// Depth-first search from each entry point; an edge to a function on
	// the current path closes a cycle.
	const (
		white = iota
		onPath
		done
	)
	for _, i32 := range envOf(c).lists[envEntrySet] {
		in := &m.Insts[i32]
		root := callee(envOpID(c.m, in, 1))
		if root < 0 || color[root] != white {
			continue
		}
		color[root] = onPath
		path = append(path[:0], envFrame{int32(root), start[root]})
		for len(path) > 0 {
			top := &path[len(path)-1]
			if top.next == start[top.f+1] {
				color[top.f] = done
				path = path[:len(path)-1]
				continue
			}
			cl := calls[top.next]
			top.next++
			switch color[cl.to] {
			case white:
				color[cl.to] = onPath
				path = append(path, envFrame{cl.to, start[cl.to]})
			case onPath:
				var names []string
				inCycle := false
				for _, fr := range path {
					if fr.f == cl.to {
						inCycle = true
					}
					if inCycle {
						names = append(names, envName(m, m.Insts[m.Functions[fr.f].Def].Result))
					}
				}
				names = append(names, envName(m, m.Insts[m.Functions[cl.to].Def].Result))
				entryName := ""
				if len(in.Ops(c.m)) > 2 {
					entryName = in.String(c.m, 2)
				}
				c.errorf(int(cl.inst), "env.recursion", "recursion is not supported: the call graph of entry point %q has the cycle %s", entryName, strings.Join(names, " -> "))
			}
		}
	}
}
