package passes

// idoms computes the immediate dominators of a graph of n nodes from
// root with Lengauer and Tarjan's algorithm (path compression, simple
// linking): O(m log n) whatever the shape of the graph, where the
// iterative algorithm can take quadratic time (a long chain of blocks
// that all branch to one exit, for instance). succs and preds call fn for
// each successor or predecessor of a node. The result is by node: the
// immediate dominator, -1 for the root and for nodes the root does not
// reach.
func idoms(n, root int, succs, preds func(x int, fn func(y int))) []int32 {
	idom := make([]int32, n)
	for i := range idom {
		idom[i] = -1
	}
	// Depth-first numbering from 1; num[x] == 0: not reached.
	num := make([]int32, n)
	vertex := make([]int32, 1, n+1) // by number
	parent := make([]int32, n+1)    // by number: the tree parent's number
	// Successor lists in one array (CSR), walked by index.
	off := make([]int32, n+1)
	var flat []int32
	for x := range n {
		succs(x, func(y int) { flat = append(flat, int32(y)) })
		off[x+1] = int32(len(flat))
	}
	type frame struct{ x, i int32 }
	num[root] = 1
	vertex = append(vertex, int32(root))
	stack := []frame{{int32(root), off[root]}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i == off[top.x+1] {
			stack = stack[:len(stack)-1]
			continue
		}
		y := flat[top.i]
		top.i++
		if num[y] != 0 {
			continue
		}
		num[y] = int32(len(vertex))
		parent[num[y]] = num[top.x]
		vertex = append(vertex, y)
		stack = append(stack, frame{y, off[y]})
	}
	cnt := int32(len(vertex) - 1)
	semi := make([]int32, cnt+1)
	label := make([]int32, cnt+1)
	ancestor := make([]int32, cnt+1) // 0: none
	dom := make([]int32, cnt+1)
	bucketHead := make([]int32, cnt+1) // linked lists of numbers, 0-terminated
	bucketNext := make([]int32, cnt+1)
	for i := int32(1); i <= cnt; i++ {
		semi[i], label[i] = i, i
	}
	var path []int32
	eval := func(v int32) int32 {
		if ancestor[v] == 0 {
			return v
		}
		// Compress the path from v to the root of its linked tree.
		path = path[:0]
		for x := v; ancestor[ancestor[x]] != 0; x = ancestor[x] {
			path = append(path, x)
		}
		for i := len(path) - 1; i >= 0; i-- {
			x := path[i]
			a := ancestor[x]
			if semi[label[a]] < semi[label[x]] {
				label[x] = label[a]
			}
			ancestor[x] = ancestor[a]
		}
		return label[v]
	}
	for w := cnt; w >= 2; w-- {
		preds(int(vertex[w]), func(y int) {
			v := num[y]
			if v == 0 {
				return
			}
			if u := eval(v); semi[u] < semi[w] {
				semi[w] = semi[u]
			}
		})
		s := semi[w]
		bucketNext[w], bucketHead[s] = bucketHead[s], w
		p := parent[w]
		ancestor[w] = p
		for v := bucketHead[p]; v != 0; v = bucketNext[v] {
			if u := eval(v); semi[u] < semi[v] {
				dom[v] = u
			} else {
				dom[v] = p
			}
		}
		bucketHead[p] = 0
	}
	for w := int32(2); w <= cnt; w++ {
		if dom[w] != semi[w] {
			dom[w] = dom[dom[w]]
		}
		idom[vertex[w]] = vertex[dom[w]]
	}
	return idom
}
