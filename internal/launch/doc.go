// Package launch reads kernel launch specifications, generates their
// inputs deterministically, loads reference outputs and compares a run's
// outputs with them.
//
// The launch files, testdata/kernels/launch/<name>.launch, describe how to
// run the kernels of testdata/kernels/<name>.cl. The same inputs go to
// PoCL (testdata/kernels/reference.py, which writes the reference files
// under testdata/kernels/ref) and to our interpreter and emulator, which
// compare their outputs with the references through this package.
//
// # Launch files
//
// A launch file is text; # starts a comment. It holds one or more
// launches, each started by a launch line and followed by its settings and
// one arg line per kernel argument, in order:
//
//	launch <kernel> [label]       label: letters, digits, _ and -; needed when a kernel has several launches
//	global X [Y [Z]]              global size, 1 to 3 dimensions
//	local X [Y [Z]] | local none  local size (must divide the global size); none lets the runtime choose
//	offset X [Y [Z]]              global offset (optional)
//	build <options>               OpenCL C compiler options, e.g. the -D defines of the .cl's build-flags
//	reference pocl | numpy        how reference.py computes the outputs (default pocl)
//	subgroup N                    the sub-group size the kernel requires (recorded in the reference)
//	printf                        the kernel prints: its output is compared as text
//	arg ...                       one per kernel argument
//
// A launch is named <name>.<kernel>[.<label>] (Launch.ID); its reference
// is ref/<id>.ref. The launches of a file run in file order on one program
// per set of build options, so program-scope variables keep their values
// from one launch to the next; buffers never carry over.
//
// # Arguments
//
//	arg global <type> <count> <dir> [<generator>] [<rule>...]    __global pointer to count elements
//	arg constant <type> <count> in <generator>                   __constant pointer
//	arg local <bytes>                                            __local pointer of that size
//	arg <type> <value>...                                        by value: one literal per lane, in memory order
//	arg bytes <hex>                                              by value: raw bytes
//	arg image <dim> <order> <channel> <size> <dir> [<generator>] [<rule>...]
//	arg sampler normalized|unnormalized <addressing> nearest|linear
//
// Types are i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, vectors
// of 2, 3, 4, 8 or 16 lanes (f32x4, u8x16) and structs of these,
// struct{f32, i32} (nested structs allowed). Layout follows OpenCL C: a
// scalar or vector is aligned to its size (a 3-vector is stored and
// aligned like a 4-vector), a struct to its most aligned member; members
// are placed at the next aligned offset and the struct's size is rounded
// up to its alignment. So
//
//	arg struct{struct{f32, i32}, u32, i16} -12.75 70000 5 300
//
// passes 16 bytes (members at 0, 4, 8 and 12, two bytes of tail padding),
// and arg f32x3 1 2 3 passes 16 bytes. Padding bytes are zero.
//
// Directions: in buffers are only read; out and inout buffers are
// compared with the reference after the launch. Every buffer starts with
// its generator's contents; an out buffer without generator starts as
// zero bytes (give a generator such as const(-1) to see which elements a
// kernel leaves alone).
//
// Images: dim is 1d, 1dbuffer, 1darray, 2d, 2darray or 3d; order r, rg,
// rgba or bgra; channel unorm8, unorm16, snorm8, snorm16, uint8, uint16,
// uint32, sint8, sint16, sint32, half or float; size W, WxH or WxHxD (a
// 1darray is W x layers, a 2darray W x H x layers). The contents are the
// stored channel values (one lane per channel, element type from the
// channel type: unorm8 is u8, float is f32), pixels tightly packed row by
// row. Access follows the direction: in for read_only, out for
// write_only, inout for read_write. Sampler addressing is none,
// clamp_to_edge, clamp, repeat or mirrored_repeat (SamplerDesc.Bits gives
// the CLK_* value).
//
// # Literals
//
// Integers are decimal or 0x hex, with a sign, and must fit the type
// (write 0xffffffff, not -1, for a u32). Floats are decimal (2.5, -1e-40,
// -0), C99 hex floats (0x1.8p3), inf, -inf or nan. A float literal is
// rounded to the nearest float64, then to nearest-even in f32 or f16 (so
// 1e-40 is an f32 denormal, 65520 an f16 infinity); nan is the quiet NaN
// without payload.
//
// # Generators
//
// A generator yields one value per scalar lane of the buffer: lane k
// counts real lanes in memory order (element by element, lane by lane; the
// fourth lane of a 3-vector is padding and not counted).
//
//	seq(start, step)          start + k*step; integers wrap around in the type; floats: start + float64(k)*step in float64, then rounded to the type
//	rand(seed, lo, hi)        uniform in [lo, hi]: integers lo + x mod (hi-lo+1) (x itself when that span is 2^64); floats lo + (hi-lo)*u in float64 then rounded to the type
//	grid(seed, lo, hi, step)  floats only: lo + j*step with j = x mod (floor((hi-lo)/step) + 1); with a power-of-two step the values have few significant bits, so sums and products of them stay exact
//	const(v)                  every lane v
//	list(v1, v2, ...)         lane k gets v[k mod n]
//	bytes(hex)                the buffer's raw bytes, the pattern repeated
//	fields(g1, g2, ...)       struct elements: one generator per field (nested struct fields flattened), each counting its own lanes
//
// x is the k-th output of splitmix64 seeded with seed (Splitmix64): the
// state before output k is seed + (k+1)*0x9E3779B97F4A7C15 mod 2^64, mixed
// by z = (z ^ z>>30) * 0xBF58476D1CE4E5B9, z = (z ^ z>>27) *
// 0x94D049BB133111EB, z ^ z>>31. u is (x >> 11) * 2^-53, in [0, 1). Every
// float64 operation is a single correctly rounded IEEE operation (no fused
// multiply-add); rounding to f32 and f16 is to nearest even (f16 as numpy
// converts float64 to float16). reference.py implements the same rules
// with numpy and records the SHA-256 of every input; a test recomputes
// them here.
//
// # Comparison rules
//
// After the direction and generator of an out or inout buffer or image:
//
//	exact         bitwise (the default for integers)
//	ulp N         floats within N units in the last place
//	abs X         |got - want| <= X (integers too)
//	rel X         |got - want| <= X * |want|
//	ftz           denormals count as zeros of the same sign
//	outliers N    up to N elements may break the rule (rare legitimate discrete flips)
//	ignore        not compared (the value is unspecified)
//
// ulp, abs, rel and ftz combine: a lane passes when any holds. Without a
// rule floats must be equal as values: +0 equals -0 and any NaN equals any
// NaN (Rule documents the ULP distance). The launch files say in comments
// why each tolerance is what it is: the OpenCL full-profile bound of the
// builtins involved (sqrt 3 ulp, exp and log 3, sin and cos 4, pow 16,
// division 2.5; native_* and half_* implementation-defined), fused or
// unfused multiply-adds (clang contracts a*b+c into mad, which may be
// either), and the rounding of sums. Where inputs can make every
// intermediate result exact (grid), the rule stays exact.
//
// # Reference files
//
// Ref describes the format written by reference.py: a header of
// "key: value" lines (source: pocl <version> or numpy-model, the
// sub-group size, the size and SHA-256 of every input and output, notes),
// an empty line, then the outputs' raw bytes in argument order followed by
// the printf text.
//
// # Use
//
//	f, err := launch.Parse(path, src)           // errors name file:line
//	for _, l := range f.Launches {
//		in, _ := l.Inputs()                      // argument bytes, images, sizes
//		ref, _ := launch.LoadRef(refDir, l)
//		// ... run l.Kernel on in, collect outputs[argIndex] and printf text ...
//		err := l.Check(ref, outputs, printed)    // first mismatches: index, got, want, ulp
//	}
package launch
