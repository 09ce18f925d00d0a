package zebin

import (
	"encoding/binary"
	"errors"
	"testing"

	"spv2visa/backend/platform"
)

// gen assembles Gen code for prologEnd: each instruction an opcode, 16
// bytes (8 when compacted); a send's destination register and response
// length as the finalizer encodes them.
type genOp struct {
	op        byte
	compacted bool
	dst, rlen byte
}

func genCode(ops ...genOp) []byte {
	var code []byte
	for _, o := range ops {
		n := 16
		if o.compacted {
			n = 8
		}
		in := make([]byte, n)
		d := uint32(o.op)
		if o.compacted {
			d |= 1 << 29
		}
		binary.LittleEndian.PutUint32(in, d)
		if o.op == opSend {
			in[6], in[7] = o.rlen<<3, o.dst
		}
		code = append(code, in...)
	}
	return code
}

func TestPrologEnd(t *testing.T) {
	dg2, _ := platform.Lookup("dg2") // 32-byte registers, payload loaded
	pvc, _ := platform.Lookup("pvc") // 64-byte registers
	tgl, _ := platform.Lookup("tgllp")
	head := []genOp{{op: opMov}, {op: opAnd}, {op: opAnd}, {op: opAdd}, {op: opMad}}
	body := []genOp{{op: opMov}, {op: opAnd}, {op: opSend, dst: 7, rlen: 2}, {op: 0x66, compacted: true}}
	code := func(ops ...[]genOp) []byte {
		var all []genOp
		for _, o := range ops {
			all = append(all, o...)
		}
		return genCode(all...)
	}
	send := func(dst, rlen byte) genOp { return genOp{op: opSend, dst: dst, rlen: rlen} }
	add := []genOp{{op: opAdd}}
	for _, c := range []struct {
		name      string
		p         *platform.Platform
		perThread int
		code      []byte
		want      int // -1: errNeedsListing
	}{
		// SIMD32, three local id dimensions: 6 registers of 32 bytes.
		{"dg2 two loads", dg2, 192, code(head, []genOp{send(1, 4)}, add, []genOp{send(5, 2)}, body), 128},
		{"dg2 one load", dg2, 96, code(head, []genOp{send(1, 4)}, body), 96},
		{"pvc", pvc, 192, code(head, []genOp{send(1, 2)}, add, []genOp{send(3, 1)}, body), 128},
		{"relocation add and inline data move", dg2, 64, code(head[:4], add, head[4:], []genOp{{op: opMov}, send(1, 2)}, body), 128},
		{"nop padding", dg2, 64, code(head, []genOp{send(1, 2), {op: opNop}, {op: opNop}}, body), 128},
		{"no payload loads", tgl, 192, code(body), 0},
		{"no per-thread input", dg2, 0, code(body), 0},
		// Shapes it does not know: the listing decides.
		{"prolog without per-thread input", dg2, 0, code(head, []genOp{send(1, 2)}, body), -1},
		{"loads too few registers", dg2, 192, code(head, []genOp{send(1, 4)}, body), -1},
		{"registers not consecutive", dg2, 192, code(head, []genOp{send(1, 4)}, add, []genOp{send(6, 2)}, body), -1},
		{"compacted prolog", dg2, 64, code(head[:2], []genOp{{op: opAnd, compacted: true}}, head[3:], []genOp{send(1, 2)}, body), -1},
		{"no code after it", dg2, 64, code(head, []genOp{send(1, 2)}), -1},
		{"not a prolog", dg2, 64, code(body), -1},
	} {
		got, err := prologEnd(c.code, c.p, c.perThread)
		switch {
		case c.want < 0 && !errors.Is(err, errNeedsListing):
			t.Errorf("%s: %d, %v; want errNeedsListing", c.name, got, err)
		case c.want >= 0 && (err != nil || got != c.want):
			t.Errorf("%s: %d, %v; want %d", c.name, got, err, c.want)
		}
	}
}

func TestReportedFacts(t *testing.T) {
	if n := reportedSpill("[vISA Finalizer Messages]\nSpill memory used = 1024 bytes for kernel k\n    advice"); n != 1024 {
		t.Errorf("reportedSpill: %d", n)
	}
	if n := reportedSpill("some warning"); n != 0 {
		t.Errorf("reportedSpill without a report: %d", n)
	}
	if n := perThreadInputSize([]byte(".version 4.1\n.kernel \"k\"\n.kernel_attr SimdSize=32\n.kernel_attr PerThreadInputSize=192\n")); n != 192 {
		t.Errorf("perThreadInputSize: %d", n)
	}
	if n := perThreadInputSize([]byte(".version 4.1\n.kernel \"k\"\n")); n != 0 {
		t.Errorf("perThreadInputSize without the attribute: %d", n)
	}
}
