package spvgen

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/internal/oracle"
)

const kernelDir = "../../testdata/kernels"

// valEnv is spirv-val's target environment for a corpus module: the
// source's "// val-env:" line (as build.sh reads it), else opencl2.2.
func valEnv(t *testing.T, base string) string {
	src, err := os.ReadFile(filepath.Join(kernelDir, base+".cl"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "// val-env:"); ok {
			if f := strings.Fields(v); len(f) > 0 {
				return f[0]
			}
		}
	}
	return "opencl2.2"
}

// kernelNames lowers a module and returns its kernels' names, sorted.
func kernelNames(t *testing.T, data []byte) []string {
	t.Helper()
	sm, diags := validate.Bytes(data, validate.Options{})
	if validate.HasErrors(diags) {
		var msgs []string
		for _, d := range diags {
			if d.Severity != spirv.SevWarning {
				msgs = append(msgs, d.Format("replicated"))
			}
		}
		t.Fatalf("our validator rejects the module:\n%s", strings.Join(msgs, "\n"))
	}
	mod, err := lower.Module(sm, lower.Options{})
	if err != nil {
		t.Fatalf("lowering: %v", err)
	}
	if err := mod.Verify(); err != nil {
		t.Fatalf("the lowered module does not verify: %v", err)
	}
	var names []string
	for _, f := range mod.Kernels() {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

// firstError is spirv-val's first message without its line number.
func firstError(err error) string {
	for _, l := range strings.Split(err.Error(), "\n") {
		if _, msg, ok := strings.Cut(l, "error: line "); ok {
			if _, rest, ok := strings.Cut(msg, ":"); ok {
				return strings.TrimSpace(rest)
			}
		}
	}
	return err.Error()
}

// Replicate(m, 1) is m; Replicate(m, 3) is valid for spirv-val (in the
// module's environment) and for our validator, and lowers to the
// module's kernels three times, the copies named <kernel>_1 and _2.
func TestReplicateCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(kernelDir, "spv", "*.spv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no modules in %s/spv (%v)", kernelDir, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".spv")
		base := name[:strings.LastIndexByte(name, '.')]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			one, err := Replicate(data, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(one, data) {
				t.Errorf("Replicate(m, 1) differs from m")
			}
			three, err := Replicate(data, 3)
			if err != nil {
				t.Fatal(err)
			}
			// Modules with llvm-spirv's block-order quirk
			// (testdata/kernels/README.md) are rejected as they are;
			// their copies must then fail with the same first error
			// (copy 0 comes first), and our validator checks the rest.
			env := valEnv(t, base)
			origErr := oracle.SpirvVal(t, data, env)
			err = oracle.SpirvVal(t, three, env)
			switch {
			case origErr == nil && err != nil:
				t.Errorf("spirv-val rejects the replicated module: %v", err)
			case origErr != nil && (err == nil || firstError(err) != firstError(origErr)):
				t.Errorf("spirv-val: the module gives %q, the replicated one %v", firstError(origErr), err)
			}
			orig := kernelNames(t, data)
			var want []string
			for _, k := range orig {
				want = append(want, k, k+"_1", k+"_2")
			}
			sort.Strings(want)
			if got := kernelNames(t, three); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("kernels %v, want %v", got, want)
			}
		})
	}
}

// The generated kernel replicates too, and the bound grows with the
// copies.
func TestReplicateGenerated(t *testing.T) {
	data := Kernel(500)
	out, err := Replicate(data, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := oracle.SpirvVal(t, out, "opencl2.2"); err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := spirv.Read(data)
	if got, want := len(m.Functions), 10*len(in.Functions); got != want {
		t.Errorf("%d functions, want %d", got, want)
	}
	if m.Header.Bound <= 9*in.Header.Bound {
		t.Errorf("bound %d for 10 copies of a module of bound %d", m.Header.Bound, in.Header.Bound)
	}
	if got := kernelNames(t, out); len(got) != 10 || got[0] != "big" || got[1] != "big_1" {
		t.Errorf("kernels %v", got)
	}
	if _, err := Replicate(data, 0); err == nil {
		t.Errorf("Replicate(m, 0) gives no error")
	}
	if _, err := Replicate(data, 1<<20); err == nil || !strings.Contains(err.Error(), "ids") {
		t.Errorf("Replicate beyond the id bound: %v", err)
	}
}

// replicateSample has what the corpus lacks: llvm-spirv's kernel argument
// strings, a decoration group, an initialized program-scope variable, an
// execution mode, an exported helper and an imported function.
const replicateSample = `OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpExecutionMode %k LocalSize 8 1 1
%s1 = OpString "kernel_arg_type.k.image_kernel_data*,myInt,"
%s2 = OpString "kernel_arg_type_qual.k.const restrict,,"
OpName %p "in"
OpName %n "out"
OpName %helper "helper"
OpName %ext "ext"
OpName %g "counter"
OpDecorate %helper LinkageAttributes "helper" Export
OpDecorate %ext LinkageAttributes "ext" Import
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
OpDecorate %grp Alignment 4
%grp = OpDecorationGroup
OpGroupDecorate %grp %g
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3 = OpTypeVector %ulong 3
%pv3 = OpTypePointer Input %v3
%S = OpTypeStruct %uint %uint
%pS = OpTypePointer CrossWorkgroup %S
%pU = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %pS %uint
%hfn = OpTypeFunction %uint %uint
%c1 = OpConstant %uint 1
%gid = OpVariable %pv3 Input
%g = OpVariable %pU CrossWorkgroup %c1
%ext = OpFunction %uint None %hfn
%e = OpFunctionParameter %uint
OpFunctionEnd
%helper = OpFunction %uint None %hfn
%x = OpFunctionParameter %uint
%hb = OpLabel
%y = OpIAdd %uint %x %c1
%z = OpFunctionCall %uint %ext %y
OpReturnValue %z
OpFunctionEnd
%k = OpFunction %void None %fn
%p = OpFunctionParameter %pS
%n = OpFunctionParameter %uint
%entry = OpLabel
%ids = OpLoad %v3 %gid Aligned 32
%id = OpCompositeExtract %ulong %ids 0
%id32 = OpUConvert %uint %id
%sum = OpIAdd %uint %id32 %n
%call = OpFunctionCall %uint %helper %sum
OpStore %g %call Aligned 4
OpReturn
OpFunctionEnd
`

func TestReplicateSample(t *testing.T) {
	data, err := oracle.Assemble(t, []byte(replicateSample), "spv1.2")
	if err != nil {
		t.Fatal(err)
	}
	if err := oracle.SpirvVal(t, data, "opencl2.2"); err != nil {
		t.Fatalf("the sample is invalid: %v", err)
	}
	out, err := Replicate(data, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := oracle.SpirvVal(t, out, "opencl2.2"); err != nil {
		t.Fatalf("spirv-val rejects the replicated sample: %v", err)
	}
	if got := kernelNames(t, out); fmt.Sprint(got) != "[k k_1 k_2]" {
		t.Errorf("kernels %v", got)
	}
	sm, _ := validate.Bytes(out, validate.Options{})
	mod, err := lower.Module(sm, lower.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := mod.Func("k")
	for _, name := range []string{"k_1", "k_2"} {
		c := mod.Func(name)
		if c == nil {
			t.Fatalf("no kernel %s", name)
		}
		if fmt.Sprint(c.ParamAttrs) != fmt.Sprint(k.ParamAttrs) || c.LocalSize != k.LocalSize {
			t.Errorf("%s: params %v, local size %v; %s has %v, %v", name, c.ParamAttrs, c.LocalSize, k.Name, k.ParamAttrs, k.LocalSize)
		}
	}
	if k.ParamAttrs[0].TypeName != "image_kernel_data*" || k.LocalSize != [3]int{8, 1, 1} {
		t.Errorf("the original kernel lost its attributes: %v %v", k.ParamAttrs, k.LocalSize)
	}
	// A variable per copy, aligned by the group; one import, shared.
	var globals []string
	for _, g := range mod.Globals {
		if g.Align != 4 || g.Init == nil {
			t.Errorf("global %s: align %d, init %v", g.Name, g.Align, g.Init)
		}
		globals = append(globals, g.Name)
	}
	if len(globals) != 3 {
		t.Errorf("globals %v, want three", globals)
	}
	if len(mod.Imports) != 1 {
		t.Errorf("%d imports, want the one shared", len(mod.Imports))
	}
	// Export names are suffixed, the imported name is not.
	dis, err := oracle.Run(out, oracle.Tool(t, "spirv-dis"), "-")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`LinkageAttributes "helper_2" Export`, `"kernel_arg_type_qual.k_1.const restrict,,"`, `"k_1" %gl_GlobalInvocationID`} {
		if !strings.Contains(string(dis), want) {
			t.Errorf("the replicated module lacks %s:\n%s", want, dis)
		}
	}
	if n := strings.Count(string(dis), `"ext" Import`); n != 1 {
		t.Errorf("%d imports of ext, want 1", n)
	}
}
