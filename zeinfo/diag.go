package zeinfo

import (
	"fmt"
	"sort"
)

// Severity of a diagnostic.
type Severity uint8

const (
	// Error: the runtime would reject the file, or the metadata cannot
	// describe a correct launch.
	Error Severity = iota
	// Warning: readable, but outside ze_info 1.9 (newer keys).
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText makes -json print "error"/"warning".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one problem found by Read or Validate.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	// Line and Col locate the problem in the YAML text (0: unknown, for
	// models built in memory).
	Line int `json:"line"`
	Col  int `json:"col"`
	// Path is the key path, such as kernels[0].execution_env.simd_size.
	Path string `json:"path,omitempty"`
	// Kernel is the name of the kernel (or function) concerned, if any.
	Kernel string `json:"kernel,omitempty"`
	Msg    string `json:"message"`
}

// Format renders d as `file:line:col: error: rule: message`, the message
// naming the kernel and the key path.
func (d Diagnostic) Format(file string) string {
	loc := file
	if d.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", file, d.Line, max(d.Col, 1))
	}
	return fmt.Sprintf("%s: %s: %s: %s", loc, d.Severity, d.Rule, d.Text())
}

// Text is the message with the kernel and the key path in front.
func (d Diagnostic) Text() string {
	s := d.Msg
	if d.Path != "" {
		s = d.Path + ": " + s
	}
	if d.Kernel != "" {
		s = fmt.Sprintf("kernel %q: %s", d.Kernel, s)
	}
	return s
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Sort orders diagnostics by position, then rule and path, so that
// output does not depend on the order rules run in.
func Sort(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Path < b.Path
	})
}

// Rule is one check of Read or Validate.
type Rule struct {
	ID       string
	Severity Severity
	Summary  string
}

// Rules lists every rule, reader rules first.
var Rules = []Rule{
	{"zeinfo.syntax", Error, "the text is YAML without the features the runtime's parser lacks (anchors, aliases, tags, flow mappings, several documents)"},
	{"zeinfo.tab", Error, "no tab characters (the runtime's parser rejects them)"},
	{"zeinfo.type", Error, "each value has the kind its key needs: mapping, sequence, int32 (decimal), bool, string, int32x3"},
	{"zeinfo.missing-key", Error, "required keys are present: version, kernels, name, execution_env, grf_count, simd_size, arg_type, offset, size, bti_value, arg_index, type, usage"},
	{"zeinfo.duplicate-key", Error, "a key appears once per mapping"},
	{"zeinfo.unknown-key", Error, "keys are those of ze_info 1.9 (in files of version 1.9 or older)"},
	{"zeinfo.newer-key", Warning, "a key newer than ze_info 1.9 in a newer file: kept, not checked"},
	{"zeinfo.version", Error, "version is \"1.N\": major 1, the one this runtime generation decodes"},
	{"zeinfo.key-version", Error, "keys and enumerators exist in the version the file declares"},
	{"zeinfo.enum", Error, "enumerated values are the specification's strings"},
	{"zeinfo.newer-value", Warning, "an enumerator newer than ze_info 1.9 in a newer file"},
	{"zeinfo.kernel-name", Error, "kernel and function names are non-empty and unique"},
	{"zeinfo.simd-size", Error, "simd_size is 1, 8, 16 or 32"},
	{"zeinfo.grf-count", Error, "grf_count is 32, 64, 96, 128, 160, 192 or 256"},
	{"zeinfo.slm-size", Error, "slm_size is between 0 and 65536 bytes"},
	{"zeinfo.barrier-count", Error, "barrier_count is between 0 and 32"},
	{"zeinfo.sub-group-size", Error, "required_sub_group_size is 0 or equals simd_size"},
	{"zeinfo.work-group-size", Error, "required_work_group_size is [0, 0, 0] or three positive sizes"},
	{"zeinfo.walk-order", Error, "work_group_walk_order_dimensions is a permutation of 0, 1, 2 or one of the specification's orders"},
	{"zeinfo.inline-data", Error, "inline_data_payload_size is 0, 32 or 64"},
	{"zeinfo.skip-offset", Error, "offset_to_skip_per_thread_data_load and offset_to_skip_set_ffid_gp are non-negative multiples of 8 (instruction boundaries)"},
	{"zeinfo.local-id", Error, "local_id is at per-thread offset 0 with 1 to 3 dimensions of simd_size × 2 bytes, each padded to a GRF; packed_local_ids only with SIMD1"},
	{"zeinfo.per-thread-arg", Error, "per_thread_payload_arguments hold only local ids, once each, without overlap; payload_arguments hold none"},
	{"zeinfo.payload-size", Error, "an argument's size is what its arg_type takes"},
	{"zeinfo.payload-align", Error, "an argument's offset is a multiple of its element size (8 for pointers)"},
	{"zeinfo.payload-overlap", Error, "payload arguments do not overlap"},
	{"zeinfo.arg-index", Error, "explicit arguments and the implicit arguments of a buffer, image or sampler carry arg_index >= 0; other implicit arguments carry none"},
	{"zeinfo.arg-duplicate", Error, "each explicit argument is described once (a flattened by-value aggregate once per source_offset); implicit arguments appear once"},
	{"zeinfo.arg-ref", Error, "an implicit argument's arg_index names an explicit argument of the right kind (buffer, image, sampler)"},
	{"zeinfo.arg-attr", Error, "addrmode, addrspace, access_type only on pointers, sampler_index only on samplers, source_offset only on by-value arguments"},
	{"zeinfo.pointer-attr", Error, "a pointer argument has addrmode, addrspace and access_type in a possible combination (slm for local, stateful or bindless images and samplers, samplers with sampler_index)"},
	{"zeinfo.bti-target", Error, "binding table entries are for stateful buffer and image arguments only"},
	{"zeinfo.bti-missing", Error, "every stateful buffer and image argument has a binding table entry"},
	{"zeinfo.bti-duplicate", Error, "bti_value and arg_index are unique in the binding table"},
	{"zeinfo.bindless-mix", Error, "a kernel does not address buffers (or images) both bindless and through the binding table, and a bindless kernel has no binding table"},
	{"zeinfo.bti-range", Error, "bti_value is between 0 and 239 (the rest of the table is reserved)"},
	{"zeinfo.memory-buffer", Error, "per-thread memory buffers: global only for private_space, slot only for scratch (0 or 1, unique), is_simt_thread only for global, size > 0, one global buffer"},
	{"zeinfo.private-base", Error, "a global private buffer comes with a private_base_stateless argument"},
	{"zeinfo.experimental", Error, "experimental properties are -1, 0 or 1"},
	{"zeinfo.debug-env", Error, "sip_surface_bti and sip_surface_offset are -1 or non-negative"},
}

func ruleSeverity(id string) Severity {
	for _, r := range Rules {
		if r.ID == id {
			return r.Severity
		}
	}
	panic("zeinfo: unknown rule " + id)
}
