package passes

import "spv2visa/ir"

// sccp is Wegman and Zadeck's sparse conditional constant propagation:
// values start unknown and blocks unreached; the entry is reached, a
// reached block evaluates its values (folding constants with fold), and
// a branch whose control is constant reaches only the taken successor.
// Phis meet only the arguments of reached edges, and an undef argument
// does not count. At the fixpoint, constant values are replaced by
// constants, decided branches become jumps and unreached blocks go.
func sccp(f *ir.Func, c *Config) {
	s := &sccpState{
		f:      f,
		c:      c,
		lat:    make([]lattice, f.NumValues()),
		exec:   make([]bool, f.NumBlocks()),
		edges:  make([][]bool, f.NumBlocks()),
		users:  users(f),
		ctls:   controlUsers(f),
		queued: make([]bool, f.NumValues()),
	}
	s.run()
	s.rewrite()
}

type latKind uint8

const (
	latTop latKind = iota // not known yet
	latConst
	latBottom // not a constant
)

type lattice struct {
	kind latKind
	k    konst
}

type sccpState struct {
	f      *ir.Func
	c      *Config
	lat    []lattice
	exec   []bool
	edges  [][]bool // by block ID, by predecessor index: the edge is executable
	users  *useLists
	ctls   [][]*ir.Block
	vwork  []*ir.Value
	queued []bool
	bwork  []*ir.Block // blocks whose terminators need a look
	args   []konst     // scratch for eval
}

func (s *sccpState) run() {
	s.reach(nil, s.f.Entry())
	for len(s.vwork) > 0 || len(s.bwork) > 0 {
		for len(s.vwork) > 0 {
			v := s.vwork[len(s.vwork)-1]
			s.vwork = s.vwork[:len(s.vwork)-1]
			s.queued[v.ID] = false
			s.visit(v)
		}
		if len(s.bwork) > 0 {
			b := s.bwork[len(s.bwork)-1]
			s.bwork = s.bwork[:len(s.bwork)-1]
			s.branch(b)
		}
	}
}

// reach marks the edge p->b executable (p nil for the entry).
func (s *sccpState) reach(p, b *ir.Block) {
	if p != nil {
		es := s.edges[b.ID]
		if es == nil {
			es = make([]bool, len(b.Preds))
			s.edges[b.ID] = es
		}
		added := false
		for i, q := range b.Preds {
			if q == p && !es[i] {
				es[i] = true
				added = true
			}
		}
		if !added {
			return
		}
	}
	if s.exec[b.ID] {
		// A new edge into a reached block: only its phis change.
		for _, v := range b.Values {
			if v.Op != ir.OpPhi {
				break
			}
			s.queue(v)
		}
		return
	}
	s.exec[b.ID] = true
	for _, v := range b.Values {
		s.queue(v)
	}
	s.bwork = append(s.bwork, b)
}

func (s *sccpState) queue(v *ir.Value) {
	if !s.queued[v.ID] {
		s.queued[v.ID] = true
		s.vwork = append(s.vwork, v)
	}
}

func (s *sccpState) visit(v *ir.Value) {
	if v.Block == nil || !s.exec[v.Block.ID] {
		return
	}
	old := s.lat[v.ID]
	if old.kind == latBottom {
		return
	}
	nl := s.eval(v)
	if nl.kind == old.kind && (nl.kind != latConst || nl.k.equal(old.k)) {
		return
	}
	if old.kind == latConst && nl.kind == latConst {
		nl = lattice{kind: latBottom} // never go back down to another constant
	}
	s.lat[v.ID] = nl
	for _, u := range s.users.of(v.ID) {
		s.queue(u)
	}
	s.bwork = append(s.bwork, s.ctls[v.ID]...)
}

func (s *sccpState) eval(v *ir.Value) lattice {
	bottom := lattice{kind: latBottom}
	if k, ok := constOf(v); ok {
		return lattice{kind: latConst, k: k}
	}
	if v.Op == ir.OpPhi {
		var r lattice
		b := v.Block
		for i, a := range v.Args {
			if es := s.edges[b.ID]; es == nil || !es[i] || a.Op == ir.OpUndef {
				continue
			}
			l := s.lat[a.ID]
			switch {
			case l.kind == latTop:
			case l.kind == latBottom:
				return bottom
			case r.kind == latTop:
				r = l
			case !r.k.equal(l.k):
				return bottom
			}
		}
		return r
	}
	if !isFoldable(v.Type) || v.Op.Info().Effect != ir.Pure || v.Op == ir.OpUndef || len(v.Args) == 0 {
		return bottom
	}
	args := s.args[:0]
	for range v.Args {
		args = append(args, konst{})
	}
	s.args = args
	top := false
	for i, a := range v.Args {
		l := s.lat[a.ID]
		switch l.kind {
		case latTop:
			top = true
		case latBottom:
			if r, ok := s.absorb(v, i); ok {
				return r
			}
			return bottom
		}
		args[i] = l.k
	}
	if top {
		return lattice{}
	}
	if k, ok := fold(v, args, s.c); ok {
		return lattice{kind: latConst, k: k}
	}
	return bottom
}

// absorb handles ops whose result is known although argument i is not:
// a select on a known condition, x&0, x|-1, x*0.
func (s *sccpState) absorb(v *ir.Value, i int) (lattice, bool) {
	top := lattice{}
	if v.Op == ir.OpSelect || v.Op == ir.OpAnd || v.Op == ir.OpMul || v.Op == ir.OpOr {
		j := 0
		if v.Op != ir.OpSelect {
			j = 1 - i
		}
		if i != j && s.lat[v.Args[j].ID].kind == latTop {
			return top, true // wait for the deciding argument
		}
	}
	other := func(j int) (konst, bool) {
		l := s.lat[v.Args[j].ID]
		return l.k, l.kind == latConst
	}
	switch v.Op {
	case ir.OpSelect:
		if i == 0 {
			return lattice{}, false
		}
		c, ok := other(0)
		if !ok || c.t.IsVector() {
			return lattice{}, false
		}
		pickArm := 2
		if c.s&1 != 0 {
			pickArm = 1
		}
		if pickArm == i {
			return lattice{kind: latBottom}, true
		}
		return s.lat[v.Args[pickArm].ID], true
	case ir.OpAnd, ir.OpMul, ir.OpOr:
		k, ok := other(1 - i)
		if !ok {
			return lattice{}, false
		}
		all := ir.Mask(^uint64(0), k.t.Scalar().Bits)
		want := uint64(0)
		if v.Op == ir.OpOr {
			want = all
		}
		if v.Op == ir.OpMul && !v.Type.Scalar().IsInt() {
			return lattice{}, false
		}
		for j := 0; j < k.lanes(); j++ {
			if k.lane(j) != want {
				return lattice{}, false
			}
		}
		return lattice{kind: latConst, k: k}, true
	}
	return lattice{}, false
}

// branch marks the executable successor edges of b.
func (s *sccpState) branch(b *ir.Block) {
	switch b.Kind {
	case ir.BlockPlain:
		s.reach(b, b.Succs[0])
	case ir.BlockIf, ir.BlockSwitch:
		l := s.lat[b.Control.ID]
		switch l.kind {
		case latTop:
		case latConst:
			s.reach(b, b.Succs[takenSucc(b, l.k.s)])
		default:
			for _, t := range b.Succs {
				s.reach(b, t)
			}
		}
	}
}

// takenSucc returns the index of the successor b goes to when its
// control has bits c.
func takenSucc(b *ir.Block, c uint64) int {
	if b.Kind == ir.BlockIf {
		if c&1 != 0 {
			return 0
		}
		return 1
	}
	w := b.Control.Type.Bits
	for i, k := range b.Cases {
		if ir.Mask(uint64(k), w) == ir.Mask(c, w) {
			return i + 1
		}
	}
	return 0
}

func (s *sccpState) rewrite() {
	f := s.f
	pool := newConstPool(f)
	for _, b := range f.Blocks {
		if !s.exec[b.ID] {
			continue
		}
		for _, v := range b.Values {
			l := s.lat[v.ID]
			if l.kind == latConst && !isConstVal(v) && v.Op.Info().Effect == ir.Pure {
				v.ReplaceWith(pool.get(l.k))
			}
		}
	}
	pool.flush()
	// Decided branches become jumps; then the blocks never reached go.
	for _, b := range f.Blocks {
		if !s.exec[b.ID] || b.Kind != ir.BlockIf && b.Kind != ir.BlockSwitch {
			continue
		}
		if l := s.lat[b.Control.ID]; l.kind == latConst {
			makePlain(b, takenSucc(b, l.k.s))
		}
	}
	removeUnreachable(f)
	copyElimFunc(f)
}
