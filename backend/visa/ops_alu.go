package visa

// Arithmetic, logic, move and comparison instructions: a destination
// and one to four sources, each a vector operand in the binary. Logic
// operations on predicates take no predicate (predv: GenX_IR drops it).
var (
	OpAdd   = def("add", 0x01, -1, "{pred}add{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpAvg   = def("avg", 0x02, -1, "{pred}avg{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpDiv   = def("div", 0x03, -1, "{pred}div{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpExp   = def("exp", 0x08, -1, "{pred}exp{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpFrc   = def("frc", 0x09, -1, "{pred}frc{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpLog   = def("log", 0x0b, -1, "{pred}log{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpMad   = def("mad", 0x0c, -1, "{pred}mad{sat} {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3")
	OpMulh  = def("mulh", 0x0d, -1, "{pred}mulh {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpMod   = def("mod", 0x0f, -1, "{pred}mod {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpMul   = def("mul", 0x10, -1, "{pred}mul{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpPow   = def("pow", 0x11, -1, "{pred}pow{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpRndd  = def("rndd", 0x12, -1, "{pred}rndd{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpRndu  = def("rndu", 0x13, -1, "{pred}rndu{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpRnde  = def("rnde", 0x14, -1, "{pred}rnde{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpRndz  = def("rndz", 0x15, -1, "{pred}rndz{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpSin   = def("sin", 0x17, -1, "{pred}sin{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpCos   = def("cos", 0x18, -1, "{pred}cos{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpSqrt  = def("sqrt", 0x19, -1, "{pred}sqrt{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpRsqrt = def("rsqrt", 0x1a, -1, "{pred}rsqrt{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpInv   = def("inv", 0x1b, -1, "{pred}inv{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpLzd   = def("lzd", 0x1f, -1, "{pred}lzd {exec} {o0} {o1}", "exec pred v0 v1")
	OpAnd   = def("and", 0x20, -1, "{pred}and {exec} {o0} {o1} {o2}", "exec predv v0 v1 v2")
	OpOr    = def("or", 0x21, -1, "{pred}or {exec} {o0} {o1} {o2}", "exec predv v0 v1 v2")
	OpXor   = def("xor", 0x22, -1, "{pred}xor {exec} {o0} {o1} {o2}", "exec predv v0 v1 v2")
	OpNot   = def("not", 0x23, -1, "{pred}not {exec} {o0} {o1}", "exec predv v0 v1")
	OpShl   = def("shl", 0x24, -1, "{pred}shl{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpShr   = def("shr", 0x25, -1, "{pred}shr{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpAsr   = def("asr", 0x26, -1, "{pred}asr{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpCbit  = def("cbit", 0x27, -1, "{pred}cbit {exec} {o0} {o1}", "exec pred v0 v1")
	// addr_add: address destination, &var or address source, offset.
	OpAddrAdd = def("addr_add", 0x28, -1, "addr_add {exec} {o0} {o1} {o2}", "exec v0 v1 v2")
	OpMov     = def("mov", 0x29, -1, "{pred}mov{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpSel     = def("sel", 0x2a, -1, "{pred}sel{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	// setp: predicate destination, integer source (one bit per channel).
	OpSetp = def("setp", 0x2b, -1, "setp {exec} {o0} {o1}", "exec v0 v1")
	// cmp: predicate (or general) destination, two sources.
	OpCmp = def("cmp", 0x2c, -1, "cmp{cond} {exec} {o0} {o1} {o2}", "exec cond v0 v1 v2")
	// movs: surface/sampler moves and reads of state.
	OpMovs = def("movs", 0x2d, -1, "movs {exec} {o0:st} {o1:st}", "exec v0 v1")
	OpFbl  = def("fbl", 0x2e, -1, "{pred}fbl {exec} {o0} {o1}", "exec pred v0 v1")
	OpFbh  = def("fbh", 0x2f, -1, "{pred}fbh {exec} {o0} {o1}", "exec pred v0 v1")
	// min and max share fminmax, which has no predicate field: GenX_IR
	// ignores one written in the text, and the binary writer rejects it.
	OpMin   = def("min", 0x45, 0, "{pred}min{sat} {exec} {o0} {o1} {o2}", "exec sub v0 v1 v2")
	OpMax   = def("max", 0x45, 1, "{pred}max{sat} {exec} {o0} {o1} {o2}", "exec sub v0 v1 v2")
	OpBfe   = def("bfe", 0x46, -1, "{pred}bfe {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3")
	OpBfi   = def("bfi", 0x47, -1, "{pred}bfi {exec} {o0} {o1} {o2} {o3} {o4}", "exec pred v0 v1 v2 v3 v4")
	OpBfrev = def("bfrev", 0x48, -1, "{pred}bfrev {exec} {o0} {o1}", "exec pred v0 v1")
	// addc/subb: result, carry/borrow, two sources.
	OpAddc  = def("addc", 0x49, -1, "{pred}addc {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3")
	OpSubb  = def("subb", 0x4a, -1, "{pred}subb {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3")
	OpSqrtm = def("sqrtm", 0x7e, -1, "{pred}sqrtm{sat} {exec} {o0} {o1}", "exec pred v0 v1")
	OpDivm  = def("divm", 0x7f, -1, "{pred}divm{sat} {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpRol   = def("rol", 0x80, -1, "{pred}rol {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpRor   = def("ror", 0x81, -1, "{pred}ror {exec} {o0} {o1} {o2}", "exec pred v0 v1 v2")
	OpDp4a  = def("dp4a", 0x82, -1, "{pred}dp4a{sat} {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3")
	OpAdd3  = def("add3", 0x84, -1, "{pred}add3{sat} {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3")
	// bfn: Lits[0] is the boolean function's 8-bit truth table.
	OpBfn = def("bfn", 0x85, -1, "{pred}bfn.{l0:hex8} {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3 l0")
	// madw: the destination holds the low halves then the high halves.
	OpMadw = def("madw", 0x91, -1, "{pred}madw {exec} {o0} {o1} {o2} {o3}", "exec pred v0 v1 v2 v3")
)

// Control flow. A subroutine label (a call target) is written as a
// .function directive before the label.
var (
	OpSubroutine = def("subroutine", 0x30, -1, ".function \"{o0:label}\"\n\n{o0:label}:", "L0")
	OpLabel      = def("label", 0x31, -1, "{o0:label}:", "L0")
	OpJmp        = def("jmp", 0x32, -1, "{pred}jmp {exec} {o0:label}", "exec pred L0")
	OpCall       = def("call", 0x33, -1, "{pred}call {exec} {o0:label}", "exec pred L0")
	OpRet        = def("ret", 0x34, -1, "{pred}ret {exec}", "exec pred")
	OpGoto       = def("goto", 0x6c, -1, "{pred}goto {exec} {o0:label}", "exec pred L0")
	OpFret       = def("fret", 0x68, -1, "{pred}fret {exec}", "exec pred")
	// faddr: the address of a symbol (a function or global) into a
	// general destination.
	OpFaddr = def("faddr", 0x50, -1, "faddr {o0:sym} {o1}", "y0 v1")
)

// Synchronization and hints. Fences: Lits[0] is the flag mask of the
// binary encoding without the "local" bit (0x20), which the form gives.
var (
	OpBarrier     = def("barrier", 0x59, -1, "barrier", "")
	OpWait        = def("wait", 0x5b, -1, "wait {o0}", "v0")
	OpFenceGlobal = def("fence_global", 0x5c, 0, "fence_global{l0:fence}", "l0")
	OpFenceLocal  = def("fence_local", 0x5c, 1, "fence_local{l0:fence}", "l0|0x20")
	OpYield       = def("yield", 0x5f, -1, "yield", "")
	// sbarrier: Lits[0] is 1 to signal, 0 to wait.
	OpSbarrier = def("sbarrier", 0x7c, -1, "sbarrier.{l0:sbarrier}", "l0")
	// lifetime: Lits[0] is 0 at the start of a variable's live range and
	// 1 at its end; Args[0] the variable (general, address or predicate)
	// as a raw operand.
	OpLifetime = def("lifetime", 0x7b, -1, "lifetime.{l0:lifetime} {o0:bare}", "life0 i0")
)
