package emu

import (
	"fmt"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/zeinfo"
)

// FuzzRun runs arbitrary kernels (declarations and code after a fixed
// header): whatever the input, the emulator returns a result or an
// error, never panics or hangs.
//
//	go test ./backend/visa/emu -run '^$' -fuzz FuzzRun
func FuzzRun(f *testing.F) {
	f.Add([]byte(`
.decl A v_type=G type=ud num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
    mov (M1, 16) A(0,0)<1> 0x76543210:uv
    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x3:ud
L:
    add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:ud
    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x9:ud
    (P1) goto (M1, 16) L
`))
	f.Add([]byte(`
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
.decl PTR v_type=G type=uq num_elts=1 align=qword
.input PTR offset=32 size=8
    mov (M1, 16) A(0,0)<1> PTR(0,0)<0;1,0>
    svm_gather.4.1 (M1, 16) A.0 D.0
    lsc_store.ugm (M1, 16)  flat[A+0x4]:a64  D:d32
`))
	f.Add([]byte(`
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl A0 v_type=A num_elts=4
    addr_add (M1_NM, 4) A0(0)<1> &V 0x4:uw
    mov (M1_NM, 8) V(0,0)<1> r[A0(0),0]<2,1>:ud
    call (M1, 16) S
    ret (M1, 1)
.function "S"
S:
    ret (M1, 16)
`))
	p, err := platform.Lookup("dg2")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		src := fmt.Sprintf(".version 4.1\n.kernel \"f\"\n.kernel_attr SimdSize=16\n%s\n", body)
		k, err := visa.Parse("f.visaasm", []byte(src))
		if err != nil {
			return
		}
		info := &zeinfo.Kernel{Name: "f", ExecutionEnv: zeinfo.ExecutionEnv{SIMDSize: 16, GRFCount: 128, SLMSize: 64}}
		info.PayloadArguments = []zeinfo.PayloadArgument{ptrArg(0, 0)}
		info.BindingTableIndices = []zeinfo.BindingTableIndex{{BTIValue: 1, ArgIndex: 0}}
		prog, err := Compile(k, info, p)
		if err != nil {
			return
		}
		l := &Launch{Dims: 1, Global: [3]int{32}, Local: [3]int{32}, Args: []Arg{Buffer(make([]byte, 256))},
			MaxSteps: 10000, Strict: true}
		if _, err := prog.Run(l); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatal(err)
		}
	})
}
