package emu

import (
	"testing"

	"spv2visa/zeinfo"
)

// TestPayload checks the thread payload of a 2D launch on PVC: local ids
// in 64-byte rows from r1, r0's group ids and the cross-thread data
// after the local ids.
func TestPayload(t *testing.T) {
	c := kcase{dev: "pvc", simd: 16, text: `
.decl LX v_type=G type=uw num_elts=16 align=GRF
.decl LY v_type=G type=uw num_elts=16 align=GRF
.decl CT v_type=G type=ud num_elts=16 align=GRF
.decl G v_type=G type=ud num_elts=2 align=GRF
.decl R0 v_type=G type=ud num_elts=16 align=GRF alias=<%r0, 0>
.input LX offset=64 size=32
.input LY offset=128 size=32
.input CT offset=192 size=64
    mov (M1_NM, 1) G(0,0)<1> R0(0,1)<0;1,0>
    mov (M1_NM, 1) G(0,1)<1> R0(0,6)<0;1,0>
`, info: func(k *zeinfo.Kernel) {
		k.PerThreadPayloadArguments = []zeinfo.PerThreadPayloadArgument{{ArgType: zeinfo.ArgLocalID, Offset: 0, Size: 128}}
		k.PayloadArguments = []zeinfo.PayloadArgument{
			zeinfo.NewArg(zeinfo.ArgGlobalIDOffset, 0, 12),
			zeinfo.NewArg(zeinfo.ArgLocalSize, 12, 12),
			zeinfo.NewArg(zeinfo.ArgGlobalSize, 24, 8),
			zeinfo.NewArg(zeinfo.ArgGroupCount, 32, 12),
			zeinfo.NewArg(zeinfo.ArgWorkDimensions, 44, 4),
			func() zeinfo.PayloadArgument {
				a := zeinfo.NewArg(zeinfo.ArgByValue, 48, 4)
				a.ArgIndex = 0
				return a
			}(),
		}
	}, args: []Arg{Value([]byte{1, 2, 3, 4})}}
	p := mustPlatform(t, "pvc")
	k, info := parseK(t, c)
	prog, err := Compile(k, info, p)
	if err != nil {
		t.Fatal(err)
	}
	l := &Launch{Dims: 2, Global: [3]int{8, 12}, Local: [3]int{4, 6}, Offset: [3]int{5, 0}, Args: c.args}
	_, r, err := prog.run(l)
	if err != nil {
		t.Fatal(err)
	}
	// The last group is (1, 1): 24 work-items in two threads; thread 1
	// holds work-items 16-23: x = k%4, y = k/4.
	eq(t, "local x", u16s(r.reg(t, 1, "LX"))[:8], []uint16{0, 1, 2, 3, 0, 1, 2, 3})
	eq(t, "local y", u16s(r.reg(t, 1, "LY"))[:8], []uint16{4, 4, 4, 4, 5, 5, 5, 5})
	eq(t, "group ids", u32s(r.reg(t, 1, "G")), []uint32{1, 1})
	eq(t, "cross-thread data", u32s(r.reg(t, 1, "CT"))[:13], []uint32{5, 0, 0, 4, 6, 1, 8, 12, 2, 2, 1, 2, 0x04030201})
}
