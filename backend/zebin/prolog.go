package zebin

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"

	"spv2visa/backend/platform"
)

// Gen opcodes (Gen12 and later: bits 0-6 of an instruction's first
// dword, compacted or not) of the instructions the finalizer writes in
// a per-thread prolog.
const (
	opAdd  = 0x40
	opMad  = 0x5b
	opNop  = 0x60
	opMov  = 0x61
	opAnd  = 0x65
	opSend = 0x31
)

// genInst is one instruction of Gen code: where it is, its opcode,
// whether it is compacted (8 bytes instead of 16).
type genInst struct {
	pc        int
	op        byte
	compacted bool
}

func decodeInsts(code []byte) []genInst {
	var is []genInst
	for _, pc := range instOffsets(code) {
		d := binary.LittleEndian.Uint32(code[pc:])
		is = append(is, genInst{pc: pc, op: byte(d & 0x7f), compacted: d&(1<<29) != 0})
	}
	return is
}

// prologEnd finds the end of the per-thread prolog in code without the
// listing (SkipPerThreadDataLoad finds it with it): on a platform
// where the finalizer loads the payload, a kernel with perThread bytes
// of per-thread input (.kernel_attr PerThreadInputSize) starts with
//
//	mov, and, and, add, [add], mad, [mov]   the load address (uncompacted)
//	send, {add, send}                        loads into r1, r1+n, ... (uncompacted)
//	nop...                                   padding
//
// until the sends have filled the per-thread registers. The send's
// destination register (bits 56-63) and response length in registers
// (bits 51-55) must continue one another from r1. Any other shape is
// errNeedsListing: the listing then says where the prolog ends.
func prologEnd(code []byte, p *platform.Platform, perThread int) (int, error) {
	if p == nil || !p.LoadPayload {
		return 0, nil
	}
	is := decodeInsts(code)
	at := func(i int, op byte) bool { return i < len(is) && is[i].op == op && !is[i].compacted }
	head := at(0, opMov) && at(1, opAnd) && at(2, opAnd) && at(3, opAdd)
	if perThread <= 0 {
		if head {
			return 0, errNeedsListing // a prolog where none was expected
		}
		return 0, nil
	}
	if !head {
		return 0, errNeedsListing
	}
	i := 4
	if at(i, opAdd) { // the cross-thread offset's relocation
		i++
	}
	if !at(i, opMad) {
		return 0, errNeedsListing
	}
	i++
	if at(i, opMov) { // inline data moved to its place
		i++
	}
	grfs := (perThread + p.GRFBytes - 1) / p.GRFBytes
	for loaded := 0; loaded < grfs; {
		if loaded > 0 {
			if !at(i, opAdd) {
				return 0, errNeedsListing
			}
			i++
		}
		if !at(i, opSend) {
			return 0, errNeedsListing
		}
		pc := is[i].pc
		dst, rlen := int(code[pc+7]), int(code[pc+6]>>3)
		if dst != 1+loaded || rlen == 0 {
			return 0, errNeedsListing
		}
		loaded += rlen
		i++
	}
	for i < len(is) && is[i].op == opNop {
		i++
	}
	if i >= len(is) {
		return 0, errNeedsListing
	}
	return is[i].pc, nil
}

// perThreadInputSize reads the kernel attribute PerThreadInputSize of
// a kernel's vISA text; 0 when absent.
func perThreadInputSize(visa []byte) int {
	const key = "\n.kernel_attr PerThreadInputSize="
	i := bytes.Index(visa, []byte(key))
	if i < 0 {
		return 0
	}
	v := visa[i+len(key):]
	if j := bytes.IndexByte(v, '\n'); j >= 0 {
		v = v[:j]
	}
	n, err := strconv.Atoi(string(v))
	if err != nil {
		return 0
	}
	return n
}

// reportedSpill reads the spill size from the finalizer's messages
// ("Spill memory used = N bytes for kernel K"); 0 without the report.
func reportedSpill(msgs string) int {
	const key = "Spill memory used = "
	i := strings.Index(msgs, key)
	if i < 0 {
		return 0
	}
	v, _, _ := strings.Cut(msgs[i+len(key):], " ")
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return n
}
