package visa

// Memory messages of the legacy data port (TGLLP, DG2): block and
// scattered surface messages (SLM through %slm, buffers and images
// through binding-table surfaces) and stateless shared virtual memory
// (svm_*, 64-bit addresses).
var (
	// oword_ld, oword_ld_unaligned, oword_st: Lits block size in owords
	// (1, 2, 4, 8, 16); Args surface, offset (scalar, in owords for
	// oword_ld and bytes for the others), data (raw).
	OpOwordLd          = def("oword_ld", 0x35, -1, "oword_ld ({l0:owords}) {o0} {o1} {o2}", "l0 #0 s0 v1 r2")
	OpOwordSt          = def("oword_st", 0x36, -1, "oword_st ({l0:owords}) {o0} {o1} {o2}", "l0 s0 v1 r2")
	OpOwordLdUnaligned = def("oword_ld_unaligned", 0x3c, -1, "oword_ld_unaligned ({l0:owords}) {o0} {o1} {o2}", "l0 #0 s0 v1 r2")
	// media_ld, media_st: Lits modifier, block width in bytes and height
	// in rows, plane; Args surface, x and y offsets (scalars), data (raw).
	OpMediaLd = def("media_ld", 0x37, -1, "media_ld.{l0:mediamod} ({l1},{l2}) {o0} {l3} {o1} {o2} {o3}", "l0 s0 l3 l1 l2 v1 v2 r3")
	OpMediaSt = def("media_st", 0x38, -1, "media_st.{l0:mediamod} ({l1},{l2}) {o0} {l3} {o1} {o2} {o3}", "l0 s0 l3 l1 l2 v1 v2 r3")

	// gather4_typed, scatter4_typed: Lits channel mask; Args surface, u,
	// v, r, lod (raw or %null), data (raw).
	OpGather4Typed  = def("gather4_typed", 0x4b, -1, "{pred}gather4_typed.{l0:chmask} {exec} {o0} {o1} {o2} {o3} {o4} {o5}", "exec pred l0 s0 r1 r2 r3 r4 r5")
	OpScatter4Typed = def("scatter4_typed", 0x4c, -1, "{pred}scatter4_typed.{l0:chmask} {exec} {o0} {o1} {o2} {o3} {o4} {o5}", "exec pred l0 s0 r1 r2 r3 r4 r5")

	// gather_scaled/scatter_scaled: Lits number of 1-byte blocks (1, 2,
	// 4); Args surface, global offset (scalar), element offsets (raw),
	// data (raw).
	OpGatherScaled  = def("gather_scaled", 0x78, -1, "{pred}gather_scaled.{l0:scaledblocks} {exec} {o0} {o1} {o2} {o3}", "exec pred #0 l0 #0:2 s0 v1 r2 r3")
	OpScatterScaled = def("scatter_scaled", 0x79, -1, "{pred}scatter_scaled.{l0:scaledblocks} {exec} {o0} {o1} {o2} {o3}", "exec pred #0 l0 #0:2 s0 v1 r2 r3")
	// gather4_scaled/scatter4_scaled: Lits channel mask; Args as above.
	OpGather4Scaled  = def("gather4_scaled", 0x74, -1, "{pred}gather4_scaled.{l0:chmask} {exec} {o0} {o1} {o2} {o3}", "exec pred l0 #0:2 s0 v1 r2 r3")
	OpScatter4Scaled = def("scatter4_scaled", 0x75, -1, "{pred}scatter4_scaled.{l0:chmask} {exec} {o0} {o1} {o2} {o3}", "exec pred l0 #0:2 s0 v1 r2 r3")
	// dword_atomic: Lits operation and width (16, 32); Args surface,
	// element offsets, src0, src1, destination (raw or %null).
	OpDwordAtomic = def("dword_atomic", 0x7d, -1, "{pred}dword_atomic.{l0:atomic}{l1:width} {exec} {o0} {o1} {o2} {o3} {o4}", "atom0.1 exec pred s0 r1 r2 r3 r4")

	// svm_block_ld/svm_block_st: Lits size in owords; Args address
	// (scalar uq), data (raw).
	OpSvmBlockLd = def("svm_block_ld", 0x4e, 0x01, "svm_block_ld ({l0:owords}) {o0} {o1}", "sub l0 v0 r1")
	OpSvmBlockSt = def("svm_block_st", 0x4e, 0x02, "svm_block_st ({l0:owords}) {o0} {o1}", "sub l0 v0 r1")
	// svm_gather/svm_scatter: Lits block size in bytes (1, 4, 8) and
	// number of blocks (1, 2, 4, 8); Args addresses (raw, uq) and data
	// (raw).
	OpSvmGather  = def("svm_gather", 0x4e, 0x03, "{pred}svm_gather.{l0:svmblock}.{l1:svmnblocks} {exec} {o0} {o1}", "sub exec pred l0 l1 r0 r1")
	OpSvmScatter = def("svm_scatter", 0x4e, 0x04, "{pred}svm_scatter.{l0:svmblock}.{l1:svmnblocks} {exec} {o0} {o1}", "sub exec pred l0 l1 r0 r1")
	// svm_atomic: Lits operation and width (16, 32, 64); Args
	// addresses, destination (or %null), src0, src1 (raw or %null).
	OpSvmAtomic = def("svm_atomic", 0x4e, 0x05, "{pred}svm_atomic.{l0:atomic}{l1:width} {exec} {o0} {o1} {o2} {o3}", "sub exec pred atom0.1 r0 r2 r3 r1")
	// svm_gather4scaled/svm_scatter4scaled: Lits channel mask; Args
	// global offset (scalar uq), addresses (raw), data (raw).
	OpSvmGather4Scaled  = def("svm_gather4scaled", 0x4e, 0x06, "{pred}svm_gather4scaled.{l0:chmask} {exec} {o0} {o1} {o2}", "sub exec pred l0 #0:2 v0 r1 r2")
	OpSvmScatter4Scaled = def("svm_scatter4scaled", 0x4e, 0x07, "{pred}svm_scatter4scaled.{l0:chmask} {exec} {o0} {o1} {o2}", "sub exec pred l0 #0:2 v0 r1 r2")
)

// Sampler messages (images), by operation. Lits channel mask; Args
// the texel offsets (aoffimmi, a uw immediate or scalar), the sampler
// (sample forms only), the surface, the destination (raw) and the
// operation's parameters (raw: u, v, r, ai, or lod/bias/ref first; see
// the vISA 3D_SAMPLE and 3D_LOAD references).
var (
	OpSample3D  = defSample("sample_3d", 0x00)
	OpSampleB   = defSample("sample_b", 0x01)
	OpSampleL   = defSample("sample_l", 0x02)
	OpSampleC   = defSample("sample_c", 0x03)
	OpSampleD   = defSample("sample_d", 0x04)
	OpSampleBC  = defSample("sample_b_c", 0x05)
	OpSampleLC  = defSample("sample_l_c", 0x06)
	OpSampleDC  = defSample("sample_d_c", 0x14)
	OpSampleLz  = defSample("sample_lz", 0x18)
	OpSampleCLz = defSample("sample_c_lz", 0x19)
	OpLoad3D    = defLoad("load_3d", 0x07)
	OpLoadLz    = defLoad("load_lz", 0x1a)
	OpLoad2dmsW = defLoad("load_2dms_w", 0x1c)
	OpLoadMcs   = defLoad("load_mcs", 0x1d)
)

// resinfo (INFO): the size of an image per channel (R width, G height
// or 1D array layers, B depth or 2D array layers, A mip count). Lits
// channel mask; Args surface, lod (raw ud), destination (raw ud).
var OpResinfo = def("resinfo", 0x70, 0x0a, "resinfo.{l0:chmask} {exec} {o0} {o1} {o2}", "sub exec l0 s0 r1 r2")

func defSample(name string, sub int) Op {
	return def(name, 0x6d, sub, "{pred}"+name+".{l0:chmask} {exec} {o0} {o1} {o2} {o3} {o4*}", "sub2 exec pred l0 v0 s1 s2 r3 n4 r4*")
}

func defLoad(name string, sub int) Op {
	return def(name, 0x6e, sub, "{pred}"+name+".{l0:chmask} {exec} {o0} {o1} {o2} {o3*}", "sub2 exec pred l0 v0 s1 r2 n3 r3*")
}

// LSC messages (DG2, PVC). Literals: 0 SFID, 1 and 2 L1 and L3
// caching, 3 the data shape (see LSCShape), 4 the address type, 5 an
// immediate offset, 6 the address size, 7 an address scale (0 or 1:
// none). Operands in text order; the surface (a surface-state offset,
// binding-table index or base, 0:ud when absent) comes last.
const lscHead = "sub exec pred l0 l1 l2 l4 l7:2 l5:4 l6 shape3 "

var (
	// lsc_load, lsc_load_quad: Args destination (raw, written bare),
	// addresses, surface.
	OpLscLoad     = def("lsc_load", 0x89, 0x00, "{pred}lsc_load.{l0:usfid}{l1:cache}{l2:cache} {exec}  {o0:bare}:{l3:lscshape}  {lscaddr:1:2}", lscHead+"v2=0 r0 r1 null null")
	OpLscLoadQuad = def("lsc_load_quad", 0x89, 0x02, "{pred}lsc_load_quad.{l0:usfid}{l1:cache}{l2:cache} {exec}  {o0:bare}:{l3:quadshape}  {lscaddr:1:2}", lscHead+"v2=0 r0 r1 null null")
	// lsc_store, lsc_store_quad: Args addresses, data, surface.
	OpLscStore     = def("lsc_store", 0x89, 0x04, "{pred}lsc_store.{l0:usfid}{l1:cache}{l2:cache} {exec}  {lscaddr:0:2}  {o1:bare}:{l3:lscshape}", lscHead+"v2=0 null r0 r1 null")
	OpLscStoreQuad = def("lsc_store_quad", 0x89, 0x06, "{pred}lsc_store_quad.{l0:usfid}{l1:cache}{l2:cache} {exec}  {lscaddr:0:2}  {o1:bare}:{l3:quadshape}", lscHead+"v2=0 null r0 r1 null")
	// lsc_fence: Lits SFID, fence operation, scope.
	OpLscFence = def("lsc_fence", 0x8b, -1, "lsc_fence.{l0:sfid}.{l1:fenceop}.{l2:scope}", "exec=0x80 pred l0 l1 l2")
)

// Typed LSC messages (images on DG2 and PVC): the same literals (0
// unused); Args data, u, v, r, lod (raw, %null when absent), surface.
const tgmHead = "sub exec pred l1 l2 l4 l6 shape3 v5=0 "

var (
	OpLscLoadQuadTyped  = def("lsc_load_quad.tgm", 0x8a, 0x02, "{pred}lsc_load_quad.tgm{l1:cache}{l2:cache} {exec}  {o0:bare}:{l3:quadshape}  {tgmaddr}", tgmHead+"r0 r1 r2 r3 r4 null null")
	OpLscStoreQuadTyped = def("lsc_store_quad.tgm", 0x8a, 0x06, "{pred}lsc_store_quad.tgm{l1:cache}{l2:cache} {exec}  {tgmaddr}  {o0:bare}:{l3:quadshape}", tgmHead+"null r1 r2 r3 r4 r0 null")
)

// LSC atomics by sub-opcode.
var lscAtomicNames = []struct {
	sub  int
	name string
}{
	{0x08, "iinc"}, {0x09, "idec"}, {0x0a, "load"}, {0x0b, "store"}, {0x0c, "iadd"},
	{0x0d, "isub"}, {0x0e, "smin"}, {0x0f, "smax"}, {0x10, "umin"}, {0x11, "umax"},
	{0x12, "icas"}, {0x13, "fadd"}, {0x14, "fsub"}, {0x15, "fmin"}, {0x16, "fmax"},
	{0x17, "fcas"}, {0x18, "and"}, {0x19, "or"}, {0x1a, "xor"},
}

// LscAtomic maps an LSC atomic operation name ("iadd", "icas", ...) to
// its untyped form: Args destination (or %null), addresses, src1 and
// src2 (raw or %null), surface.
var LscAtomic = map[string]Op{}

// LscAtomicTyped maps an LSC atomic operation name to its typed form
// (tgm): Args destination, u, v, r, lod, surface, src1, src2.
var LscAtomicTyped = map[string]Op{}

var _ = func() int {
	for _, a := range lscAtomicNames {
		name := "lsc_atomic_" + a.name
		LscAtomic[a.name] = def(name, 0x89, a.sub,
			"{pred}"+name+".{l0:usfid}{l1:cache}{l2:cache} {exec}  {o0:bare}:{l3:lscshape}  {lscaddr:1:4}  {o2:bare}  {o3:bare}",
			lscHead+"v4=0 r0 r1 r2 r3")
	}
	for _, a := range lscAtomicNames {
		if a.name == "fadd" || a.name == "fsub" {
			continue // untyped only
		}
		name := "lsc_atomic_" + a.name
		LscAtomicTyped[a.name] = def(name+".tgm", 0x8a, a.sub,
			"{pred}"+name+".tgm{l1:cache}{l2:cache} {exec}  {o0:bare}:{l3:lscshape}  {tgmaddr}  {o6:bare}  {o7:bare}",
			tgmHead+"r0 r1 r2 r3 r4 r6 r7")
	}
	return 0
}()
