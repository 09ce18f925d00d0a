package emu

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// printfSize is the size of the printf buffer (the Level Zero runtime's,
// which IGC's code checks its writes against).
const printfSize = 4 << 20

// The argument type tags of IGC's printf buffer records.
const (
	pfByte = iota + 1
	pfShort
	pfInt
	pfFloat
	pfString
	pfLong
	pfPointer
	pfDouble
	pfVecByte
	pfVecShort
	pfVecInt
	pfVecLong
	pfVecFloat
	pfVecDouble
)

// decodePrintf turns the printf buffer into text the way the runtime
// does: the first dword is the bytes used; then records of a format
// string address followed by, for each conversion, a type tag and the
// value (vectors: a count and elements that take at least 4 bytes).
func (r *runState) decodePrintf() ([]byte, error) {
	buf := r.printf.data
	used := min(int(binary.LittleEndian.Uint32(buf)), len(buf))
	d := &pfDecoder{buf: buf[:used], off: 4, mem: &r.mem}
	var out bytes.Buffer
	for d.off+8 <= len(d.buf) {
		p := d.u64()
		if p == 0xffffffff {
			break
		}
		if p == 0 {
			continue
		}
		f, err := d.cstring(p)
		if err != nil {
			return nil, fmt.Errorf("printf: format string: %v", err)
		}
		if err := d.print(&out, f); err != nil {
			return nil, fmt.Errorf("printf %q: %v", f, err)
		}
	}
	return out.Bytes(), nil
}

type pfDecoder struct {
	buf []byte
	off int
	mem *memory
}

func (d *pfDecoder) next(n int) uint64 {
	if d.off+n > len(d.buf) {
		d.off = len(d.buf)
		return 0
	}
	v := getMem(d.buf[d.off : d.off+n])
	d.off += n
	return v
}

func (d *pfDecoder) u32() uint32 { return uint32(d.next(4)) }
func (d *pfDecoder) u64() uint64 { return d.next(8) }

// cstring reads a NUL-terminated string at a flat address.
func (d *pfDecoder) cstring(addr uint64) (string, error) {
	var b []byte
	for i := uint64(0); i < 1<<14; i++ {
		c, err := d.mem.find(addr+i, 1)
		if err != nil {
			return "", err
		}
		if c[0] == 0 {
			return string(b), nil
		}
		b = append(b, c[0])
	}
	return "", fmt.Errorf("no terminating NUL")
}

// print formats one record.
func (d *pfDecoder) print(out *bytes.Buffer, f string) error {
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			out.WriteByte('%')
			i++
			continue
		}
		end := i + 1
		for end < len(f) && !strings.ContainsRune("diouxXaAeEfFgGscp", rune(f[end])) {
			end++
		}
		if end == len(f) {
			out.WriteString(f[i:])
			return nil
		}
		spec := f[i : end+1]
		i = end
		tag := d.u32()
		if f[end] == 's' {
			p := d.u64()
			s := "(null)"
			if tag == pfString || tag == pfPointer {
				var err error
				if s, err = d.cstring(p); err != nil {
					return err
				}
			}
			out.WriteString(cformat(spec, s))
			continue
		}
		switch tag {
		case pfByte:
			out.WriteString(cformat(spec, int64(int8(d.next(1)))))
		case pfShort:
			out.WriteString(cformat(spec, int64(int16(d.next(2)))))
		case pfInt:
			out.WriteString(cformat(spec, int64(int32(d.u32()))))
		case pfLong:
			out.WriteString(cformat(spec, int64(d.u64())))
		case pfFloat:
			out.WriteString(cformat(spec, float64(math.Float32frombits(d.u32()))))
		case pfDouble:
			out.WriteString(cformat(spec, math.Float64frombits(d.u64())))
		case pfPointer:
			out.WriteString(cformat(spec, d.u64()))
		case pfVecByte, pfVecShort, pfVecInt, pfVecLong, pfVecFloat, pfVecDouble:
			n := int(int32(d.u32()))
			size := map[uint32]int{pfVecByte: 1, pfVecShort: 2, pfVecInt: 4, pfVecLong: 8, pfVecFloat: 4, pfVecDouble: 8}[tag]
			es := vectorSpec(spec)
			for k := 0; k < n && k < 16; k++ {
				if k > 0 {
					out.WriteByte(',')
				}
				v := d.next(size)
				switch tag {
				case pfVecFloat:
					out.WriteString(cformat(es, float64(math.Float32frombits(uint32(v)))))
				case pfVecDouble:
					out.WriteString(cformat(es, math.Float64frombits(v)))
				default:
					out.WriteString(cformat(es, int64(sext(v, size))))
				}
			}
			if size < 4 {
				d.off += (4 - size) * n
			}
		default:
			// An unknown tag: the runtime prints nothing for it.
		}
	}
	return nil
}

// vectorSpec drops the vector size (v2, v16...) and an "hl" length
// from a vector conversion, as the runtime does.
func vectorSpec(spec string) string {
	var b strings.Builder
	for i := 0; i < len(spec); i++ {
		if spec[i] == 'v' {
			i++
			for i+1 < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
				i++
			}
			i--
			continue
		}
		b.WriteByte(spec[i])
	}
	s := b.String()
	if n := len(s); n > 3 && s[n-3:n-1] == "hl" {
		s = s[:n-3] + s[n-1:]
	}
	return s
}

// cformat formats one value with a C printf conversion.
func cformat(spec string, v any) string {
	// Split %[flags][width][.prec][length]conv.
	conv := spec[len(spec)-1]
	body := spec[1 : len(spec)-1]
	flags := ""
	for len(body) > 0 && strings.IndexByte("-+ #0", body[0]) >= 0 {
		flags += body[:1]
		body = body[1:]
	}
	width := ""
	for len(body) > 0 && body[0] >= '0' && body[0] <= '9' {
		width += body[:1]
		body = body[1:]
	}
	prec := -1
	if len(body) > 0 && body[0] == '.' {
		body = body[1:]
		p := 0
		for len(body) > 0 && body[0] >= '0' && body[0] <= '9' {
			p = p*10 + int(body[0]-'0')
			body = body[1:]
		}
		prec = p
	}
	length := body
	goSpec := func(c byte) string {
		s := "%" + flags + width
		if prec >= 0 {
			s += "." + strconv.Itoa(prec)
		}
		return s + string(c)
	}
	switch x := v.(type) {
	case string:
		if prec >= 0 && prec < len(x) {
			x = x[:prec]
		}
		return fmt.Sprintf("%"+flags+width+"s", x)
	case int64:
		u := uint64(x)
		switch {
		case strings.HasPrefix(length, "hh"):
			x, u = int64(int8(x)), uint64(uint8(x))
		case strings.HasPrefix(length, "h"):
			x, u = int64(int16(x)), uint64(uint16(x))
		case strings.HasPrefix(length, "l"):
		default:
			x, u = int64(int32(x)), uint64(uint32(x))
		}
		switch conv {
		case 'd', 'i':
			return fmt.Sprintf(goSpec('d'), x)
		case 'u':
			return fmt.Sprintf(goSpec('d'), u)
		case 'x', 'X', 'o':
			s := fmt.Sprintf(goSpec(conv), u)
			if conv == 'o' && strings.Contains(flags, "#") {
				// C's alternate octal is a single leading zero.
				s = strings.Replace(s, "0o", "0", 1)
			}
			return s
		case 'c':
			return fmt.Sprintf("%"+flags+width+"c", rune(byte(x)))
		}
		return fmt.Sprintf(goSpec('d'), x)
	case uint64:
		return fmt.Sprintf("%"+flags+width+"s", "0x"+strconv.FormatUint(x, 16))
	case float64:
		switch conv {
		case 'g', 'G':
			return cfmtG(flags, width, prec, conv, x)
		case 'a', 'A':
			return fmt.Sprintf(goSpec(conv-'a'+'x'), x)
		case 'e', 'E', 'f', 'F':
			if prec < 0 {
				prec = 6
			}
			return fmt.Sprintf(goSpec(conv), x)
		}
		return fmt.Sprintf(goSpec('f'), x)
	}
	return ""
}

// cfmtG is C's %g: %e or %f by the exponent, trailing zeros removed
// unless '#'.
func cfmtG(flags, width string, prec int, conv byte, x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return fmt.Sprintf("%"+flags+width+"g", x)
	}
	p := prec
	if p < 0 {
		p = 6
	}
	if p == 0 {
		p = 1
	}
	e := 0
	if x != 0 {
		s := strconv.FormatFloat(x, 'e', p-1, 64)
		e, _ = strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	}
	var s string
	if p > e && e >= -4 {
		s = strconv.FormatFloat(math.Abs(x), 'f', p-1-e, 64)
	} else {
		s = strconv.FormatFloat(math.Abs(x), 'e', p-1, 64)
	}
	if !strings.Contains(flags, "#") {
		mant, exp, _ := strings.Cut(s, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		s = mant
		if exp != "" {
			s += "e" + exp
		}
	}
	if conv == 'G' {
		s = strings.ToUpper(s)
	}
	switch {
	case math.Signbit(x):
		s = "-" + s
	case strings.Contains(flags, "+"):
		s = "+" + s
	case strings.Contains(flags, " "):
		s = " " + s
	}
	w, _ := strconv.Atoi(width)
	for len(s) < w {
		if strings.Contains(flags, "-") {
			s += " "
		} else if strings.Contains(flags, "0") {
			i := 0
			if s[0] == '-' || s[0] == '+' || s[0] == ' ' {
				i = 1
			}
			s = s[:i] + "0" + s[i:]
		} else {
			s = " " + s
		}
	}
	return s
}
