package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"spv2visa/ir"
)

// printf compiles an OpPrintf: the format is read from memory when it
// runs; each argument is formatted by its IR type.
func (c *compiler) printf(v *ir.Value, dst int32) (genFn, error) {
	fmtSlot := c.s(v.Args[0])
	type parg struct {
		slot, n int32
		t       *ir.Type
	}
	var args []parg
	for _, a := range v.Args[1:] {
		args = append(args, parg{c.s(a), int32(c.p.shape(a.Type).words), a.Type})
	}
	return func(ex *exec, l *lane, r []uint64) error {
		format, err := ex.cstring(r[fmtSlot], -1)
		if err != nil {
			return err
		}
		var vals []pvalue
		for _, a := range args {
			vals = append(vals, pvalue{t: a.t, w: r[a.slot : a.slot+a.n]})
		}
		out, err := ex.format(format, vals)
		if err != nil {
			return err
		}
		ex.out.WriteString(out)
		if ex.printfW != nil {
			if _, err := ex.printfW.Write([]byte(out)); err != nil {
				return err
			}
		}
		if dst >= 0 {
			r[dst] = 0
		}
		return nil
	}, nil
}

type pvalue struct {
	t *ir.Type
	w []uint64
}

// cstring reads a NUL-terminated string at addr (at most max bytes when
// max >= 0).
func (ex *exec) cstring(addr uint64, maxLen int) (string, error) {
	var b []byte
	for i := 0; maxLen < 0 || i < maxLen; i++ {
		m := ex.mem.bytes(addr+uint64(i), 1, false)
		if m == nil {
			return "", ex.memFault(addr+uint64(i), 1, false)
		}
		if m[0] == 0 {
			break
		}
		b = append(b, m[0])
		if i > 1<<20 {
			return "", fmt.Errorf("string at %#x has no end", addr)
		}
	}
	return string(b), nil
}

// spec is one conversion specification.
type spec struct {
	minus, plus, space, hash, zero bool
	width, prec                    int // -1: not given
	vec                            int // vector length, 0 for scalars
	length                         string
	conv                           byte
}

// format implements OpenCL C's printf.
func (ex *exec) format(f string, args []pvalue) (string, error) {
	var out strings.Builder
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			out.WriteByte(f[i])
			continue
		}
		start := i
		i++
		if i < len(f) && f[i] == '%' {
			out.WriteByte('%')
			continue
		}
		sp := spec{width: -1, prec: -1}
	flags:
		for ; i < len(f); i++ {
			switch f[i] {
			case '-':
				sp.minus = true
			case '+':
				sp.plus = true
			case ' ':
				sp.space = true
			case '#':
				sp.hash = true
			case '0':
				sp.zero = true
			default:
				break flags
			}
		}
		num := func() int {
			n := -1
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				n = max(n, 0)*10 + int(f[i]-'0')
				i++
			}
			return n
		}
		if i < len(f) && f[i] == '*' {
			i++
			if next < len(args) {
				sp.width = int(sext(args[next].w[0], max(args[next].t.Scalar().Bits, 1)))
				next++
				if sp.width < 0 {
					sp.minus, sp.width = true, -sp.width
				}
			}
		} else {
			sp.width = num()
		}
		if i < len(f) && f[i] == '.' {
			i++
			if i < len(f) && f[i] == '*' {
				i++
				if next < len(args) {
					sp.prec = int(sext(args[next].w[0], max(args[next].t.Scalar().Bits, 1)))
					next++
				}
			} else {
				sp.prec = max(num(), 0)
			}
		}
		if i < len(f) && f[i] == 'v' {
			i++
			sp.vec = num()
		}
		for i < len(f) && strings.IndexByte("hlLjzt", f[i]) >= 0 {
			sp.length += f[i : i+1]
			i++
		}
		if i >= len(f) {
			break // an incomplete specification at the end prints nothing, as in C
		}
		sp.conv = f[i]
		if strings.IndexByte("diouxXcsfFeEgGaAp", sp.conv) < 0 || next >= len(args) {
			out.WriteString(f[start : i+1])
			continue
		}
		a := args[next]
		next++
		s, err := ex.formatArg(sp, a)
		if err != nil {
			return "", err
		}
		out.WriteString(s)
	}
	return out.String(), nil
}

// formatArg formats one argument (every element of a vector, joined by
// commas).
func (ex *exec) formatArg(sp spec, a pvalue) (string, error) {
	n := 1
	if sp.vec > 0 {
		n = min(sp.vec, len(a.w))
	}
	sc := a.t.Scalar()
	var parts []string
	for k := 0; k < n; k++ {
		w := a.w[k]
		var s string
		switch sp.conv {
		case 'd', 'i', 'o', 'u', 'x', 'X', 'c':
			bitsIn := 64 // pointers; bools are 0 or 1
			if sc.Kind == ir.KInt {
				bitsIn = sc.Bits
			}
			if sc.Kind == ir.KFloat { // a mismatched float: its value
				w = uint64(int64(fval(uint8(sc.Bits), w)))
				bitsIn = 64
			}
			width := 32
			switch sp.length {
			case "hh":
				width = 8
			case "h":
				width = 16
			case "l", "ll":
				width = 64
			case "hl":
				width = 32
			}
			if sp.conv == 'c' {
				s = pad(sp, "", string([]byte{byte(w)}), false)
				break
			}
			signed := sp.conv == 'd' || sp.conv == 'i'
			var neg bool
			var mag uint64
			if signed {
				v := sext(mask(uint64(sext(w, bitsIn)), width), width)
				neg, mag = v < 0, uint64(v)
				if neg {
					mag = -mag
				}
			} else {
				mag = mask(uint64(sext(w, bitsIn)), width)
			}
			s = fmtInt(sp, neg, mag)
		case 's':
			str, err := ex.cstring(w, sp.prec)
			if err != nil {
				return "", err
			}
			s = pad(sp, "", str, false)
		case 'p':
			s = pad(sp, "", "0x"+strconv.FormatUint(w, 16), false)
		default:
			x := float64(int64(w))
			if sc.Kind == ir.KFloat {
				x = fval(uint8(sc.Bits), w)
			}
			s = fmtFloat(sp, x)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ","), nil
}

// pad applies the width: left or right justified, or zero-filled
// between the prefix (sign, 0x) and the digits.
func pad(sp spec, prefix, body string, zeroOK bool) string {
	n := len(prefix) + len(body)
	if sp.width <= n {
		return prefix + body
	}
	fill := sp.width - n
	switch {
	case sp.minus:
		return prefix + body + strings.Repeat(" ", fill)
	case sp.zero && zeroOK:
		return prefix + strings.Repeat("0", fill) + body
	}
	return strings.Repeat(" ", fill) + prefix + body
}

func fmtInt(sp spec, neg bool, mag uint64) string {
	var digits string
	switch sp.conv {
	case 'o':
		digits = strconv.FormatUint(mag, 8)
	case 'x':
		digits = strconv.FormatUint(mag, 16)
	case 'X':
		digits = strings.ToUpper(strconv.FormatUint(mag, 16))
	default:
		digits = strconv.FormatUint(mag, 10)
	}
	if sp.prec == 0 && mag == 0 {
		digits = ""
	}
	if sp.prec > len(digits) {
		digits = strings.Repeat("0", sp.prec-len(digits)) + digits
	}
	prefix := ""
	switch {
	case neg:
		prefix = "-"
	case sp.plus && (sp.conv == 'd' || sp.conv == 'i'):
		prefix = "+"
	case sp.space && (sp.conv == 'd' || sp.conv == 'i'):
		prefix = " "
	}
	if sp.hash {
		switch {
		case sp.conv == 'o' && !strings.HasPrefix(digits, "0"):
			digits = "0" + digits
		case sp.conv == 'x' && mag != 0:
			prefix += "0x"
		case sp.conv == 'X' && mag != 0:
			prefix += "0X"
		}
	}
	return pad(sp, prefix, digits, sp.prec < 0)
}

func fmtFloat(sp spec, x float64) string {
	upper := sp.conv == 'F' || sp.conv == 'E' || sp.conv == 'G' || sp.conv == 'A'
	prefix := ""
	switch {
	case math.Signbit(x):
		prefix = "-"
	case sp.plus:
		prefix = "+"
	case sp.space:
		prefix = " "
	}
	a := math.Abs(x)
	if math.IsInf(x, 0) || x != x {
		body := "inf"
		if x != x {
			body = "nan"
		}
		if upper {
			body = strings.ToUpper(body)
		}
		return pad(sp, prefix, body, false)
	}
	prec := sp.prec
	var body string
	switch sp.conv {
	case 'f', 'F':
		if prec < 0 {
			prec = 6
		}
		body = strconv.FormatFloat(a, 'f', prec, 64)
		if sp.hash && prec == 0 {
			body += "."
		}
	case 'e', 'E':
		if prec < 0 {
			prec = 6
		}
		body = expForm(a, prec, sp.hash)
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		}
		if prec == 0 {
			prec = 1
		}
		e := strconv.FormatFloat(a, 'e', prec-1, 64)
		xp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
		if prec > xp && xp >= -4 {
			body = strconv.FormatFloat(a, 'f', prec-1-xp, 64)
		} else {
			body = expForm(a, prec-1, sp.hash)
		}
		if !sp.hash {
			body = trimZeros(body)
		} else if !strings.Contains(body, ".") {
			if k := strings.IndexByte(body, 'e'); k >= 0 {
				body = body[:k] + "." + body[k:]
			} else {
				body += "."
			}
		}
	case 'a', 'A':
		prefix += "0x"
		body = hexFloat(a, prec, sp.hash)
	}
	if upper {
		body = strings.ToUpper(body)
		prefix = strings.ToUpper(prefix)
	}
	return pad(sp, prefix, body, true)
}

// expForm is C's %e: d.ddde±XX.
func expForm(a float64, prec int, hash bool) string {
	s := strconv.FormatFloat(a, 'e', prec, 64)
	if hash && prec == 0 {
		k := strings.IndexByte(s, 'e')
		s = s[:k] + "." + s[k:]
	}
	return s
}

// trimZeros removes trailing zeros of the fraction (and a bare point).
func trimZeros(s string) string {
	exp := ""
	if k := strings.IndexByte(s, 'e'); k >= 0 {
		s, exp = s[:k], s[k:]
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s + exp
}

// hexFloat is C's %a without the sign and 0x: h.hhhp±d, the exact value
// unless a precision rounds it (to nearest even).
func hexFloat(a float64, prec int, hash bool) string {
	if a == 0 {
		s := "0"
		if prec > 0 {
			s += "." + strings.Repeat("0", prec)
		} else if hash {
			s += "."
		}
		return s + "p+0"
	}
	b := math.Float64bits(a)
	exp := int(b>>52) - 1023
	mant := b & (1<<52 - 1)
	lead := uint64(1)
	if b>>52 == 0 { // subnormal: 0x0.xxxp-1022
		lead, exp = 0, -1022
	}
	if prec >= 0 && prec < 13 {
		// Round the kept digits, the leading one included, to nearest even.
		drop := uint(4 * (13 - prec))
		all := lead<<52 | mant
		half := uint64(1) << (drop - 1)
		rest := all & (1<<drop - 1)
		all >>= drop
		if rest > half || rest == half && all&1 == 1 {
			all++
		}
		lead, mant = all>>(4*uint(prec)), all&(1<<(4*uint(prec))-1)
	}
	var frac string
	switch {
	case prec < 0:
		frac = strings.TrimRight(fmt.Sprintf("%013x", mant), "0")
	case prec <= 13:
		if prec > 0 {
			frac = fmt.Sprintf("%0*x", prec, mant)
		}
	default:
		frac = fmt.Sprintf("%013x", mant) + strings.Repeat("0", prec-13)
	}
	s := strconv.FormatUint(lead, 16)
	if frac != "" || hash {
		s += "." + frac
	}
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	return s + "p" + sign + strconv.Itoa(exp)
}
