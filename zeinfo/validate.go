package zeinfo

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Options of Validate.
type Options struct {
	// GRFBytes is the size of one GRF of the target (32 or 64); it sizes
	// the local ids. 0 accepts either size.
	GRFBytes int
}

// Validate checks c against the rules in Rules. It never changes c.
// Models built in memory have no positions: their diagnostics carry the
// key path only.
func Validate(c *Container, opt Options) []Diagnostic {
	v := &validator{opt: opt, minor: Minor}
	v.version(c)
	v.keys(reflect.ValueOf(c).Elem(), "", "")
	v.names(c)
	for i := range c.Kernels {
		v.kernel(&c.Kernels[i], fmt.Sprintf("kernels[%d]", i))
	}
	for i := range c.Functions {
		f := &c.Functions[i]
		v.k = f.Name
		if f.ExecutionEnv != nil {
			v.env(f.ExecutionEnv, fmt.Sprintf("functions[%d].execution_env", i))
		}
		v.buffers(f.PerThreadMemoryBuffers, nil, fmt.Sprintf("functions[%d].per_thread_memory_buffers", i))
	}
	Sort(v.diags)
	return v.diags
}

type validator struct {
	opt   Options
	minor int    // the file's minor version
	k     string // the kernel being checked
	diags []Diagnostic
}

func (v *validator) report(rule string, p Pos, path, format string, args ...any) {
	v.diags = append(v.diags, Diagnostic{
		Severity: ruleSeverity(rule), Rule: rule, Line: p.Line, Col: p.Col,
		Path: path, Kernel: v.k, Msg: fmt.Sprintf(format, args...),
	})
}

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+)\.([0-9]+)$`) })

// version sets the file's minor version; an empty version is the one
// Marshal writes.
func (v *validator) version(c *Container) {
	if c.Version == "" {
		return
	}
	m := versionRE().FindStringSubmatch(c.Version)
	if m == nil {
		v.report("zeinfo.version", c.Src.at("version"), "version", "%q is not a version number major.minor", c.Version)
		return
	}
	if m[1] != "1" {
		v.report("zeinfo.version", c.Src.at("version"), "version", "major version %s: this generation of ze_info is 1.x", m[1])
		return
	}
	if n, err := strconv.Atoi(m[2]); err == nil {
		v.minor = n
	} else {
		v.minor = Newer
	}
}

func (v *validator) versionName() string { return fmt.Sprintf("1.%d", v.minor) }

// keys walks the model for what depends on the version: keys the model
// does not know, keys and enumerators newer than the file's version,
// values outside their enumeration.
func (v *validator) keys(rv reflect.Value, path, kernel string) {
	switch rv.Kind() {
	case reflect.Pointer:
		if !rv.IsNil() {
			v.keys(rv.Elem(), path, kernel)
		}
		return
	case reflect.Slice:
		for i := 0; i < rv.Len(); i++ {
			k := kernel
			if e := rv.Index(i); e.Kind() == reflect.Struct {
				if n := e.FieldByName("Name"); n.IsValid() {
					k = n.String()
				}
			}
			v.keys(rv.Index(i), fmt.Sprintf("%s[%d]", path, i), k)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	s := schemaOf(rv.Type())
	if s.src < 0 {
		return
	}
	src := rv.Field(s.src).Interface().(Src)
	v.k = kernel
	if s.extra >= 0 {
		for _, e := range rv.Field(s.extra).Interface().([]Extra) {
			p := join(path, e.Key)
			if v.minor > Minor {
				v.report("zeinfo.newer-key", src.at(e.Key), p, "key %s is not in ze_info %s; kept as is", e.Key, Version)
			} else {
				v.report("zeinfo.unknown-key", src.at(e.Key), p, "key %s is not in ze_info %s", e.Key, v.versionName())
			}
		}
	}
	for _, f := range s.fields {
		fv := rv.Field(f.index)
		p := join(path, f.key)
		_, present := src.Keys[f.key]
		if f.since > v.minor && (present || !isDefault(f, fv)) {
			v.report("zeinfo.key-version", src.at(f.key), p, "key %s is new in ze_info 1.%d; the file declares %s", f.key, f.since, v.versionName())
		}
		if e, ok := fv.Interface().(enum); ok {
			v.enum(e, fv.String(), f.required, src.at(f.key), p)
			continue
		}
		v.keys(fv, p, kernel)
		v.k = kernel
	}
}

func (v *validator) enum(e enum, s string, required bool, at Pos, path string) {
	if s == "" {
		// Absent; Read reports a missing required key, this catches
		// models built in memory.
		if required {
			v.report("zeinfo.enum", at, path, "no <%s> given", e.enumName())
		}
		return
	}
	en, ok := e.lookup()
	switch {
	case !ok:
		v.report("zeinfo.enum", at, path, "%q is not a <%s>", s, e.enumName())
	case en.Since > Minor && v.minor > Minor:
		v.report("zeinfo.newer-value", at, path, "<%s> %s is not in ze_info %s", e.enumName(), s, Version)
	case en.Since > Minor:
		v.report("zeinfo.enum", at, path, "<%s> %s is not in ze_info %s (newer versions have it)", e.enumName(), s, v.versionName())
	case en.Since > v.minor:
		v.report("zeinfo.key-version", at, path, "<%s> %s is new in ze_info 1.%d; the file declares %s", e.enumName(), s, en.Since, v.versionName())
	}
}

func (v *validator) names(c *Container) {
	seen := map[string]string{}
	check := func(name string, src Src, path string) {
		v.k = ""
		switch {
		case name == "":
			v.report("zeinfo.kernel-name", src.at("name"), path+".name", "the name is empty")
		case seen[name] != "":
			v.report("zeinfo.kernel-name", src.at("name"), path+".name", "%q is also the name of %s", name, seen[name])
		default:
			seen[name] = path
		}
	}
	for i, k := range c.Kernels {
		check(k.Name, k.Src, fmt.Sprintf("kernels[%d]", i))
	}
	for i, f := range c.Functions {
		check(f.Name, f.Src, fmt.Sprintf("functions[%d]", i))
	}
}

func (v *validator) kernel(k *Kernel, path string) {
	v.k = k.Name
	e := &k.ExecutionEnv
	v.env(e, path+".execution_env")
	v.perThread(k, path+".per_thread_payload_arguments")
	v.payload(k, path+".payload_arguments")
	v.bindingTable(k, path)
	v.buffers(k.PerThreadMemoryBuffers, k.PayloadArguments, path+".per_thread_memory_buffers")
	if x := k.ExperimentalProperties; x != nil {
		p := path + ".experimental_properties"
		for _, f := range []struct {
			key string
			val int32
		}{
			{"has_non_kernel_arg_load", x.HasNonKernelArgLoad},
			{"has_non_kernel_arg_store", x.HasNonKernelArgStore},
			{"has_non_kernel_arg_atomic", x.HasNonKernelArgAtomic},
		} {
			if f.val < -1 || f.val > 1 {
				v.report("zeinfo.experimental", x.Src.at(f.key), join(p, f.key), "%d is not -1, 0 or 1", f.val)
			}
		}
	}
	if d := k.DebugEnv; d != nil {
		p := path + ".debug_env"
		if d.SIPSurfaceBTI < -1 {
			v.report("zeinfo.debug-env", d.Src.at("sip_surface_bti"), p+".sip_surface_bti", "%d is neither -1 nor a binding table index", d.SIPSurfaceBTI)
		}
		if d.SIPSurfaceOffset < -1 {
			v.report("zeinfo.debug-env", d.Src.at("sip_surface_offset"), p+".sip_surface_offset", "%d is neither -1 nor an offset", d.SIPSurfaceOffset)
		}
	}
}

var (
	simdSizes = []int32{1, 8, 16, 32}
	grfCounts = []int32{32, 64, 96, 128, 160, 192, 256}
	// walkOrders are the orders the specification names (x, xy, xyz,
	// yx, zyx); any other permutation of 0, 1, 2 is accepted too.
	walkOrders = [][3]int32{{0, 0, 0}, {0, 1, 0}, {0, 1, 2}, {1, 0, 0}, {2, 1, 0}}
)

const maxSLM = 64 << 10

func list(xs []int32) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(int(x))
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func (v *validator) env(e *ExecutionEnv, path string) {
	at := func(key string) (Pos, string) { return e.Src.at(key), path + "." + key }
	if !slices.Contains(simdSizes, e.SIMDSize) {
		p, k := at("simd_size")
		v.report("zeinfo.simd-size", p, k, "%d is not %s", e.SIMDSize, list(simdSizes))
	}
	if !slices.Contains(grfCounts, e.GRFCount) {
		p, k := at("grf_count")
		v.report("zeinfo.grf-count", p, k, "%d is not %s", e.GRFCount, list(grfCounts))
	}
	if e.SLMSize < 0 || e.SLMSize > maxSLM {
		p, k := at("slm_size")
		v.report("zeinfo.slm-size", p, k, "%d bytes is outside 0..%d", e.SLMSize, maxSLM)
	}
	if e.BarrierCount < 0 || e.BarrierCount > 32 {
		p, k := at("barrier_count")
		v.report("zeinfo.barrier-count", p, k, "%d is outside 0..32", e.BarrierCount)
	}
	if r := e.RequiredSubGroupSize; r != 0 && r != e.SIMDSize {
		p, k := at("required_sub_group_size")
		v.report("zeinfo.sub-group-size", p, k, "%d differs from simd_size %d: the kernel must be compiled at the required sub-group size", r, e.SIMDSize)
	}
	if w := e.RequiredWorkGroupSize; w != [3]int32{} && (w[0] <= 0 || w[1] <= 0 || w[2] <= 0) {
		p, k := at("required_work_group_size")
		v.report("zeinfo.work-group-size", p, k, "%s: either all three sizes are positive or all are 0 (none required)", x3(w))
	}
	if w := e.WorkGroupWalkOrderDimensions; w != nil && !validWalkOrder(*w) {
		p, k := at("work_group_walk_order_dimensions")
		v.report("zeinfo.walk-order", p, k, "%s is not a walk order (a permutation of 0, 1, 2, or x [0, 0, 0], xy [0, 1, 0], yx [1, 0, 0])", x3(*w))
	}
	if s := e.InlineDataPayloadSize; s != 0 && s != 32 && s != 64 {
		p, k := at("inline_data_payload_size")
		v.report("zeinfo.inline-data", p, k, "%d is not 0, 32 or 64", s)
	}
	for _, o := range []struct {
		key string
		val int32
	}{
		{"offset_to_skip_per_thread_data_load", e.OffsetToSkipPerThreadDataLoad},
		{"offset_to_skip_set_ffid_gp", e.OffsetToSkipSetFFIDGP},
	} {
		if o.val < 0 || o.val%8 != 0 {
			p, k := at(o.key)
			v.report("zeinfo.skip-offset", p, k, "%d is not a non-negative multiple of 8", o.val)
		}
	}
}

func x3(a [3]int32) string { return fmt.Sprintf("[%d, %d, %d]", a[0], a[1], a[2]) }

func validWalkOrder(w [3]int32) bool {
	if slices.Contains(walkOrders, w) {
		return true
	}
	s := w
	slices.Sort(s[:])
	return s == [3]int32{0, 1, 2}
}

// localIDSizes returns the valid local_id sizes for a SIMD width: one to
// three dimensions of simd × 2 bytes, each padded to a GRF.
func localIDSizes(simd int32, grf int) []int32 {
	var gs []int
	if grf != 0 {
		gs = []int{grf}
	} else {
		gs = []int{32, 64}
	}
	var sizes []int32
	for _, g := range gs {
		dim := (int(simd)*2 + g - 1) / g * g
		for n := 1; n <= 3; n++ {
			if s := int32(n * dim); !slices.Contains(sizes, s) {
				sizes = append(sizes, s)
			}
		}
	}
	slices.Sort(sizes)
	return sizes
}

type span struct {
	off, size int32
	i         int
	t         ArgType
}

// overlaps reports, for each span (sorted by offset) that overlaps an
// earlier one, the pair.
func overlaps(ss []span, report func(a, b span)) {
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].off < ss[j].off })
	var last span
	end := int64(-1)
	for _, s := range ss {
		if int64(s.off) < end {
			report(last, s)
		}
		if e := int64(s.off) + int64(s.size); e > end {
			end, last = e, s
		}
	}
}

func (v *validator) perThread(k *Kernel, path string) {
	simd := k.ExecutionEnv.SIMDSize
	seen := map[ArgType]bool{}
	var ss []span
	for i, a := range k.PerThreadPayloadArguments {
		p := fmt.Sprintf("%s[%d]", path, i)
		ti := a.ArgType.Info()
		if ti == nil {
			continue // reported by enum
		}
		if !ti.PerThread {
			v.report("zeinfo.per-thread-arg", a.Src.at("arg_type"), p+".arg_type", "%s is not a per-thread argument", a.ArgType)
			continue
		}
		if seen[a.ArgType] {
			v.report("zeinfo.per-thread-arg", a.Src.at("arg_type"), p+".arg_type", "%s appears again", a.ArgType)
			continue
		}
		seen[a.ArgType] = true
		switch a.ArgType {
		case ArgLocalID:
			if simd == 1 {
				v.report("zeinfo.local-id", a.Src.at("arg_type"), p+".arg_type", "a SIMD1 kernel takes packed_local_ids, not local_id")
				break
			}
			if a.Offset != 0 {
				v.report("zeinfo.local-id", a.Src.at("offset"), p+".offset", "local_id is at offset %d; the runtime writes it at 0", a.Offset)
			}
			if !slices.Contains(simdSizes, simd) {
				break
			}
			if sizes := localIDSizes(simd, v.opt.GRFBytes); !slices.Contains(sizes, a.Size) {
				grf := "32- or 64-byte"
				if v.opt.GRFBytes != 0 {
					grf = fmt.Sprintf("%d-byte", v.opt.GRFBytes)
				}
				v.report("zeinfo.local-id", a.Src.at("size"), p+".size",
					"size %d does not fit SIMD%d: 1 to 3 dimensions of %d × 2 bytes, each padded to a %s GRF, take %s bytes",
					a.Size, simd, simd, grf, list(sizes))
			}
		case ArgPackedLocalIDs:
			if simd != 1 {
				v.report("zeinfo.local-id", a.Src.at("arg_type"), p+".arg_type", "packed_local_ids is for SIMD1 kernels; this one is SIMD%d", simd)
			}
			v.sizeAlign(ti, a.Offset, a.Size, a.Src, p)
		}
		if a.Offset >= 0 && a.Size > 0 {
			ss = append(ss, span{a.Offset, a.Size, i, a.ArgType})
		}
	}
	overlaps(ss, func(a, b span) {
		x := k.PerThreadPayloadArguments[b.i]
		v.report("zeinfo.per-thread-arg", x.Src.at("offset"), fmt.Sprintf("%s[%d].offset", path, b.i),
			"bytes %d..%d overlap %s at %s[%d]", b.off, b.off+b.size, a.t, path, a.i)
	})
}

// sizeAlign checks an argument's size against its type and its offset's
// alignment; it reports whether both are right.
func (v *validator) sizeAlign(ti *ArgTypeInfo, off, size int32, src Src, p string) bool {
	switch {
	case size < 0:
		v.report("zeinfo.payload-size", src.at("size"), p+".size", "size %d is negative", size)
		return false
	case ti.Sizes == nil && size == 0:
		v.report("zeinfo.payload-size", src.at("size"), p+".size", "a %s takes at least one byte", ti.Type)
		return false
	case ti.Sizes != nil && !slices.Contains(ti.Sizes, size):
		v.report("zeinfo.payload-size", src.at("size"), p+".size", "size %d; a %s takes %s bytes", size, ti.Type, list(ti.Sizes))
		return false
	}
	a := ti.Align
	if a == 0 {
		a = 8
		for a > 1 && size%a != 0 {
			a /= 2
		}
	}
	if off < 0 || (size > 0 && off%a != 0) {
		v.report("zeinfo.payload-align", src.at("offset"), p+".offset", "offset %d of %s (%d bytes) is not a non-negative multiple of %d", off, ti.Type, size, a)
		return false
	}
	return true
}

// pointer kinds an implicit argument may refer to.
var refTargets = map[Ref][]AddrSpace{
	RefBuffer:  {Global, Constant},
	RefImage:   {Image},
	RefSampler: {Sampler},
}

// Implicit argument types that carry pointer attributes in newer
// versions (inline samplers, bindless constant and global bases).
var newerAttrs = map[ArgType]bool{"const_base": true, "global_base": true, "inline_sampler": true}

func (v *validator) payload(k *Kernel, path string) {
	args := k.PayloadArguments
	// explicit[i] lists the entries describing explicit argument i.
	explicit := map[int32][]int{}
	for i, a := range args {
		if a.ArgType.Explicit() && a.ArgIndex >= 0 {
			explicit[a.ArgIndex] = append(explicit[a.ArgIndex], i)
		}
	}
	implicit := map[string]int{}
	var ss []span
	for i, a := range args {
		p := fmt.Sprintf("%s[%d]", path, i)
		ti := a.ArgType.Info()
		if ti == nil {
			continue // reported by enum
		}
		if ti.PerThread {
			v.report("zeinfo.per-thread-arg", a.Src.at("arg_type"), p+".arg_type", "%s belongs in per_thread_payload_arguments", a.ArgType)
			continue
		}
		if v.sizeAlign(ti, a.Offset, a.Size, a.Src, p) && a.Size > 0 {
			ss = append(ss, span{a.Offset, a.Size, i, a.ArgType})
		}
		v.attrs(a, p)
		switch {
		case ti.Ref == RefNone && a.ArgIndex != -1:
			v.report("zeinfo.arg-index", a.Src.at("arg_index"), p+".arg_index", "%s carries arg_index %d; it belongs to no kernel argument", a.ArgType, a.ArgIndex)
		case ti.Ref != RefNone && a.ArgIndex < 0:
			v.report("zeinfo.arg-index", a.Src.at("arg_index"), p+".arg_index", "%s needs the arg_index of its kernel argument, not %d", a.ArgType, a.ArgIndex)
			continue
		}
		switch ti.Ref {
		case RefSelf:
			v.duplicate(args, explicit[a.ArgIndex], i, p)
		case RefNone:
			if n := implicit[string(a.ArgType)]; n > 0 && !(ti.Twice && n == 1) {
				v.report("zeinfo.arg-duplicate", a.Src.at("arg_type"), p+".arg_type", "%s appears again", a.ArgType)
			}
			implicit[string(a.ArgType)]++
		default:
			key := fmt.Sprintf("%s/%d", a.ArgType, a.ArgIndex)
			if implicit[key] > 0 {
				v.report("zeinfo.arg-duplicate", a.Src.at("arg_type"), p+".arg_type", "%s of argument %d appears again", a.ArgType, a.ArgIndex)
			}
			implicit[key]++
			v.ref(args, explicit[a.ArgIndex], a, ti.Ref, p)
		}
	}
	overlaps(ss, func(a, b span) {
		x := args[b.i]
		v.report("zeinfo.payload-overlap", x.Src.at("offset"), fmt.Sprintf("%s[%d].offset", path, b.i),
			"%s at bytes %d..%d overlaps %s at %s[%d] (bytes %d..%d)", b.t, b.off, b.off+b.size, a.t, path, a.i, a.off, a.off+a.size)
	})
}

// duplicate checks that entry i is the only description of its explicit
// argument, one element of a flattened by-value aggregate, or one
// addressing mode of a pointer (IGC describes a buffer accessed both
// through a surface and through its address by a stateful and a
// stateless entry).
func (v *validator) duplicate(args []PayloadArgument, entries []int, i int, p string) {
	a := args[i]
	if len(entries) < 2 {
		return
	}
	first := args[entries[0]]
	if entries[0] == i {
		return
	}
	prev := fmt.Sprintf("payload_arguments[%d]", entries[0])
	switch {
	case a.ArgType != first.ArgType:
		v.report("zeinfo.arg-duplicate", a.Src.at("arg_type"), p+".arg_type", "argument %d is also described by %s (%s)", a.ArgIndex, prev, first.ArgType)
	case a.ArgType == ArgByPointer:
		for _, j := range entries {
			b := args[j]
			if j == i {
				break
			}
			if b.AddrMode == a.AddrMode || b.AddrSpace != a.AddrSpace || b.AccessType != a.AccessType {
				v.report("zeinfo.arg-duplicate", a.Src.at("arg_type"), p+".arg_type",
					"argument %d is also described by payload_arguments[%d]; a pointer may have one entry per addrmode, with the same addrspace and access_type", a.ArgIndex, j)
				break
			}
		}
	case a.SourceOffset < 0 || first.SourceOffset < 0:
		v.report("zeinfo.arg-duplicate", a.Src.at("arg_index"), p+".arg_index", "argument %d is described again; elements of a flattened aggregate each carry a source_offset", a.ArgIndex)
	default:
		for _, j := range entries {
			if j == i {
				break
			}
			if args[j].SourceOffset == a.SourceOffset {
				v.report("zeinfo.arg-duplicate", a.Src.at("source_offset"), p+".source_offset", "source_offset %d of argument %d is also described by payload_arguments[%d]", a.SourceOffset, a.ArgIndex, j)
				break
			}
		}
	}
}

// ref checks that the implicit argument a refers to a pointer argument
// of the kind r.
func (v *validator) ref(args []PayloadArgument, entries []int, a PayloadArgument, r Ref, p string) {
	want := refTargets[r]
	for _, j := range entries {
		t := args[j]
		if t.ArgType == ArgByPointer && slices.Contains(want, t.AddrSpace) {
			return
		}
	}
	var spaces []string
	for _, s := range want {
		spaces = append(spaces, string(s))
	}
	v.report("zeinfo.arg-ref", a.Src.at("arg_index"), p+".arg_index", "%s refers to argument %d, which is no arg_bypointer in address space %s", a.ArgType, a.ArgIndex, strings.Join(spaces, " or "))
}

// attrs checks which optional attributes the argument a carries.
func (v *validator) attrs(a PayloadArgument, p string) {
	ptr := a.ArgType == ArgByPointer
	for _, x := range []struct {
		key string
		set bool
	}{
		{"addrmode", a.AddrMode != ""},
		{"addrspace", a.AddrSpace != ""},
		{"access_type", a.AccessType != ""},
	} {
		if x.set && !ptr && !newerAttrs[a.ArgType] {
			v.report("zeinfo.arg-attr", a.Src.at(x.key), p+"."+x.key, "%s is for arg_bypointer, not %s", x.key, a.ArgType)
		}
	}
	sampler := (ptr && a.AddrSpace == Sampler) || a.ArgType == "inline_sampler"
	if a.SamplerIndex != -1 && !sampler {
		v.report("zeinfo.arg-attr", a.Src.at("sampler_index"), p+".sampler_index", "sampler_index is for sampler arguments")
	}
	if a.SourceOffset != -1 && (a.ArgType != ArgByValue || a.SourceOffset < 0) {
		v.report("zeinfo.arg-attr", a.Src.at("source_offset"), p+".source_offset", "source_offset %d: it is the non-negative offset of an arg_byvalue element", a.SourceOffset)
	}
	if !ptr {
		return
	}
	var missing []string
	for _, x := range []struct {
		key string
		set bool
	}{
		{"addrmode", a.AddrMode != ""},
		{"addrspace", a.AddrSpace != ""},
		{"access_type", a.AccessType != ""},
	} {
		if !x.set {
			missing = append(missing, x.key)
		}
	}
	if len(missing) > 0 {
		v.report("zeinfo.pointer-attr", a.Src.Pos, p, "an arg_bypointer needs %s", strings.Join(missing, " and "))
		return
	}
	bad := ""
	switch {
	case (a.AddrSpace == Local) != (a.AddrMode == SLM):
		bad = "local pointers, and only they, are addressed as slm"
	case (a.AddrSpace == Image || a.AddrSpace == Sampler) && a.AddrMode != Stateful && a.AddrMode != Bindless:
		bad = "images and samplers are stateful or bindless"
	case a.AddrSpace == Sampler && a.SamplerIndex < 0:
		bad = "a sampler needs its sampler_index"
	case (a.AddrMode == Stateless || a.AddrMode == SLM) && a.Size == 0:
		bad = "a stateless pointer or an slm offset needs a payload slot (size 4 or 8)"
	}
	if bad != "" {
		v.report("zeinfo.pointer-attr", a.Src.at("addrmode"), p, "addrmode %s, addrspace %s: %s", a.AddrMode, a.AddrSpace, bad)
	}
}

// stateful reports whether a needs a binding table entry.
func stateful(a PayloadArgument) bool {
	return a.ArgType == ArgByPointer && a.AddrMode == Stateful && a.AddrSpace != Sampler
}

func (v *validator) bindingTable(k *Kernel, path string) {
	p := path + ".binding_table_indices"
	// byIndex holds each pointer argument's stateful entry if it has
	// one, else any entry.
	byIndex := map[int32]PayloadArgument{}
	for _, a := range k.PayloadArguments {
		if _, seen := byIndex[a.ArgIndex]; a.ArgType == ArgByPointer && (!seen || stateful(a)) {
			byIndex[a.ArgIndex] = a
		}
	}
	btis := map[int32]int{}
	args := map[int32]int{}
	for i, b := range k.BindingTableIndices {
		bp := fmt.Sprintf("%s[%d]", p, i)
		if b.BTIValue < 0 || b.BTIValue > 239 {
			v.report("zeinfo.bti-range", b.Src.at("bti_value"), bp+".bti_value", "%d is outside 0..239", b.BTIValue)
		}
		if j, dup := btis[b.BTIValue]; dup {
			v.report("zeinfo.bti-duplicate", b.Src.at("bti_value"), bp+".bti_value", "bti_value %d is also given to argument %d", b.BTIValue, k.BindingTableIndices[j].ArgIndex)
		} else {
			btis[b.BTIValue] = i
		}
		if j, dup := args[b.ArgIndex]; dup {
			v.report("zeinfo.bti-duplicate", b.Src.at("arg_index"), bp+".arg_index", "argument %d already has bti_value %d", b.ArgIndex, k.BindingTableIndices[j].BTIValue)
		} else {
			args[b.ArgIndex] = i
		}
		a, ok := byIndex[b.ArgIndex]
		switch {
		case !ok:
			v.report("zeinfo.bti-target", b.Src.at("arg_index"), bp+".arg_index", "argument %d is no arg_bypointer", b.ArgIndex)
		case !stateful(a):
			v.report("zeinfo.bti-target", b.Src.at("arg_index"), bp+".arg_index", "argument %d is %s %s: only stateful buffers and images have surface states", b.ArgIndex, a.AddrMode, a.AddrSpace)
		}
	}
	v.bindless(k, path)
	for i, a := range k.PayloadArguments {
		if _, ok := args[a.ArgIndex]; stateful(a) && !ok {
			v.report("zeinfo.bti-missing", a.Src.at("addrmode"), fmt.Sprintf("%s.payload_arguments[%d]", path, i), "stateful argument %d has no binding table entry", a.ArgIndex)
		}
	}
}

// bindless reports what the runtime cannot program: a kernel whose
// buffers (or images) are bindless and bound through the binding table
// at once, or bindless with a binding table.
func (v *validator) bindless(k *Kernel, path string) {
	type kind struct {
		image bool
		mode  AddrMode
	}
	first := map[kind]int{}
	for i, a := range k.PayloadArguments {
		if a.ArgType != ArgByPointer || (a.AddrMode != Bindless && a.AddrMode != Stateful) || a.AddrSpace == Sampler {
			continue
		}
		kd := kind{a.AddrSpace == Image, a.AddrMode}
		if _, ok := first[kd]; !ok {
			first[kd] = i
		}
	}
	p := path + ".payload_arguments"
	for _, image := range []bool{false, true} {
		i, bl := first[kind{image, Bindless}]
		j, bf := first[kind{image, Stateful}]
		if bl && bf {
			a := k.PayloadArguments[max(i, j)]
			v.report("zeinfo.bindless-mix", a.Src.at("addrmode"), fmt.Sprintf("%s[%d].addrmode", p, max(i, j)),
				"payload_arguments[%d] is bindless and payload_arguments[%d] stateful; the runtime addresses all buffers (or all images) one way", i, j)
		}
	}
	_, blBuf := first[kind{false, Bindless}]
	_, blImg := first[kind{true, Bindless}]
	if (blBuf || blImg) && len(k.BindingTableIndices) > 0 {
		b := k.BindingTableIndices[0]
		v.report("zeinfo.bindless-mix", b.Src.Pos, path+".binding_table_indices[0]", "a kernel with bindless arguments has no binding table")
	}
}

func (v *validator) buffers(bs []PerThreadMemoryBuffer, args []PayloadArgument, path string) {
	globals := 0
	slots := map[int32]bool{}
	for i, b := range bs {
		p := fmt.Sprintf("%s[%d]", path, i)
		bad := func(key, format string, a ...any) {
			v.report("zeinfo.memory-buffer", b.Src.at(key), p+"."+key, format, a...)
		}
		if b.Size <= 0 {
			bad("size", "size %d; a buffer has at least one byte", b.Size)
		}
		if b.Type == BufGlobal {
			if b.Usage != PrivateSpace && b.Usage != "" {
				bad("usage", "a global buffer holds private_space, not %s", b.Usage)
			}
			if globals++; globals == 2 {
				bad("type", "a second global buffer; private memory is one buffer")
			}
		}
		if b.IsSIMTThread && b.Type != BufGlobal {
			bad("is_simt_thread", "is_simt_thread is for global buffers, not %s", b.Type)
		}
		if b.Type == BufScratch {
			switch {
			case b.Slot != 0 && b.Slot != 1:
				bad("slot", "scratch slot %d is not 0 or 1", b.Slot)
			case slots[b.Slot]:
				bad("slot", "scratch slot %d is taken by another buffer", b.Slot)
			}
			slots[b.Slot] = true
		} else if b.Slot != 0 {
			bad("slot", "slot is for scratch buffers, not %s", b.Type)
		}
	}
	if globals == 0 || args == nil {
		return
	}
	for _, a := range args {
		if a.ArgType == ArgPrivateBaseStateless {
			return
		}
	}
	for i, b := range bs {
		if b.Type == BufGlobal {
			v.report("zeinfo.private-base", b.Src.at("type"), fmt.Sprintf("%s[%d].type", path, i), "a global private buffer, but no private_base_stateless argument passes its address")
			break
		}
	}
}
