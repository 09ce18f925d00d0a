package regalloc

import "spv2visa/ir"

// attempt is the allocation of a function at one SIMD width.
type attempt struct {
	p    *prog
	t    *Target
	simd int
	st   []Storage // by value ID
	// kind is by value ID: the index of its Storage among the distinct
	// ones, so that equal storage is an integer compare.
	kind []int32
	// Webs: values that share storage, a union-find by value ID (-1:
	// no web). The root holds the web's pieces and hull.
	parent []int32
	pieces [][]piece // by root
	wlo    []int32   // by root: first point
	whi    []int32   // by root: last point
	out    []uint8   // by root: kept, remat or spilled
	remat  []bool    // by value ID: Target.Remat allows it
	score  []float64 // by root: eviction score, -1 until computed

	live, pressure, flags int
	nremat, nspill        int
	nslotted              int
}

const (
	kept uint8 = iota
	rematted
	spilled
)

// piece is a part of a web: a value's live interval, or the point where
// a copy into phi v on its predecessor edge is written.
type piece struct {
	lo, hi int32
	v      int32
	edge   int32 // -1: v's interval
}

// maxPieces bounds a web's pieces so that coalescing stays linear; a phi
// whose web is full keeps its copies.
const maxPieces = 32

func newAttempt(p *prog, t *Target, simd int) *attempt {
	nv := p.f.NumValues()
	a := &attempt{p: p, t: t, simd: simd, st: make([]Storage, nv), kind: make([]int32, nv), parent: make([]int32, nv),
		pieces: make([][]piece, nv), wlo: make([]int32, nv), whi: make([]int32, nv), out: make([]uint8, nv), remat: make([]bool, nv), score: make([]float64, nv)}
	remat := t.Remat
	if remat == nil {
		remat = CanRemat
	}
	for i := range a.parent {
		a.parent[i], a.score[i] = -1, -1
	}
	// One backing array for the first pieces of all webs; each web's
	// slice is capped, so a merge copies instead of overwriting.
	backing := make([]piece, 0, nv+len(p.uses))
	kinds := map[Storage]int32{}
	for _, b := range p.order {
		for _, v := range b.Values {
			if p.lo[v.ID] < 0 {
				continue
			}
			s := t.Storage(v, simd)
			if s.Class == GRF && s.Bytes <= 0 || s.Class > Flag {
				s = Storage{}
			}
			a.st[v.ID] = s
			k, ok := kinds[s]
			if !ok {
				k = int32(len(kinds))
				kinds[s] = k
			}
			a.kind[v.ID] = k
			if s.Class == None {
				continue
			}
			a.remat[v.ID] = v.Op != ir.OpPhi && remat(v)
			a.parent[v.ID] = int32(v.ID)
			first := len(backing)
			backing = append(backing, piece{lo: p.lo[v.ID], hi: p.hi[v.ID], v: int32(v.ID), edge: -1})
			if v.Op == ir.OpPhi {
				for j, q := range b.Preds {
					if p.idx[q.ID] >= 0 && j < len(v.Args) {
						lo, hi := p.copyAt[q.ID], p.copyAt[q.ID]
						if shared := a.sharesExit(v, j); shared && v == p.exits[v.ID].Exit {
							continue // made in the header phi's variable, which holds it there
						} else if p.partial[q.ID] && !shared {
							lo, hi = p.around(lo)
						}
						backing = append(backing, piece{lo: lo, hi: hi, v: int32(v.ID), edge: int32(j)})
					}
				}
			}
			a.setPieces(int32(v.ID), backing[first:len(backing):len(backing)])
		}
	}
	a.coalesce()
	return a
}

// sharesExit reports whether the copy into phi v on the edge from its
// predecessor j is the one copy for all lanes that an exit phi sharing
// its header phi's variable makes of both (see ExitShare), v being
// either: the backend shares when both phis take the same storage.
func (a *attempt) sharesExit(v *ir.Value, j int) bool {
	e, ok := a.p.exits[v.ID]
	if !ok || e.Edge != j {
		if e, ok = a.p.headers[v.ID]; !ok || e.HeaderEdge != j {
			return false
		}
	}
	s, h := a.t.Storage(e.Exit, a.simd), a.t.Storage(e.Header, a.simd)
	return s == h && s.Class == GRF
}

func (a *attempt) find(id int32) int32 {
	for a.parent[id] != id {
		a.parent[id] = a.parent[a.parent[id]]
		id = a.parent[id]
	}
	return id
}

func (a *attempt) setPieces(root int32, ps []piece) {
	a.pieces[root] = ps
	lo, hi := ps[0].lo, ps[0].hi
	for _, q := range ps[1:] {
		lo, hi = min(lo, q.lo), max(hi, q.hi)
	}
	a.wlo[root], a.whi[root] = lo, hi
}

// coalesce puts each phi in one web with those of its arguments that
// have its Storage and do not interfere with it, deepest loops first, so
// that those phi copies vanish.
func (a *attempt) coalesce() {
	type pair struct {
		phi  *ir.Value
		edge int
	}
	// Pairs by the loop depth of their edge, deepest first (a counting
	// sort: depths are small).
	var byDepth [][]pair
	for _, b := range a.p.order {
		for _, v := range b.Values {
			if v.Op != ir.OpPhi {
				break
			}
			if a.parent[v.ID] < 0 {
				continue
			}
			for j, q := range b.Preds {
				if j < len(v.Args) && a.p.idx[q.ID] >= 0 {
					d := int(a.p.depth[q.ID])
					for len(byDepth) <= d {
						byDepth = append(byDepth, nil)
					}
					byDepth[d] = append(byDepth[d], pair{v, j})
				}
			}
		}
	}
	var pairs []pair
	for d := len(byDepth) - 1; d >= 0; d-- {
		pairs = append(pairs, byDepth[d]...)
	}
	for _, pr := range pairs {
		arg := pr.phi.Args[pr.edge]
		if a.parent[arg.ID] < 0 || a.kind[arg.ID] != a.kind[pr.phi.ID] {
			continue
		}
		x, y := a.find(int32(pr.phi.ID)), a.find(int32(arg.ID))
		if x == y {
			a.dropCopies(x)
			continue
		}
		if len(a.pieces[x])+len(a.pieces[y]) > maxPieces || a.interfere(x, y) {
			continue
		}
		if len(a.pieces[x]) < len(a.pieces[y]) {
			x, y = y, x
		}
		a.parent[y] = x
		a.setPieces(x, append(a.pieces[x], a.pieces[y]...))
		a.pieces[y] = nil
		a.dropCopies(x)
	}
}

// dropCopies removes from web x the copy points whose argument is in x:
// the argument's own interval reaches the copy point, and no copy runs.
func (a *attempt) dropCopies(x int32) {
	ps := a.pieces[x]
	keep := ps[:0]
	for _, q := range ps {
		if q.edge >= 0 {
			if arg := a.p.vals[q.v].Args[q.edge]; a.parent[arg.ID] >= 0 && a.find(int32(arg.ID)) == x {
				continue
			}
		}
		keep = append(keep, q)
	}
	a.setPieces(x, keep)
}

// interfere reports whether webs x and y overlap. A copy point into a
// phi does not interfere with the interval of the argument it copies: if
// they share storage, the copy is not needed.
func (a *attempt) interfere(x, y int32) bool {
	if a.whi[x] < a.wlo[y] || a.whi[y] < a.wlo[x] {
		return false
	}
	for _, q := range a.pieces[x] {
		for _, r := range a.pieces[y] {
			if q.hi < r.lo || r.hi < q.lo || a.copies(q, r) || a.copies(r, q) {
				continue
			}
			return true
		}
	}
	return false
}

// copies reports whether q is the copy point of the argument whose
// interval is r. A predicated copy that keeps its phi live around a
// loop (prog.around) interferes with the argument over the loop.
func (a *attempt) copies(q, r piece) bool {
	return q.edge >= 0 && q.lo == q.hi && r.edge < 0 && a.p.vals[q.v].Args[q.edge].ID == int(r.v)
}
