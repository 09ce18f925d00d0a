package emu

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ReadGlobals reads the text form of a program's global data: one
// "section NAME SIZE" line followed by the section's bytes in
// hexadecimal lines, and "symbol NAME SECTION OFFSET SIZE" lines
// (SECTION an index in file order). # starts a comment line; names are
// quoted Go strings.
func ReadGlobals(name string, data []byte) (*Globals, error) {
	g := &Globals{Symbols: map[string]Symbol{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	line := 0
	fail := func(format string, args ...any) (*Globals, error) {
		return nil, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	var cur *Section
	want := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := fields(text)
		switch f[0] {
		case "section":
			if cur != nil && len(cur.Data) != want {
				return fail("section %s has %d bytes, want %d", cur.Name, len(cur.Data), want)
			}
			if len(f) != 3 {
				return fail("want section NAME SIZE")
			}
			n, err := strconv.Unquote(f[1])
			size, err2 := strconv.Atoi(f[2])
			if err != nil || err2 != nil || size < 0 || size > 1<<28 {
				return fail("bad section line")
			}
			cur, want = &Section{Name: n, Data: make([]byte, 0, size)}, size
			g.Sections = append(g.Sections, cur)
		case "symbol":
			if len(f) != 5 {
				return fail("want symbol NAME SECTION OFFSET SIZE")
			}
			n, err := strconv.Unquote(f[1])
			sec, err2 := strconv.Atoi(f[2])
			off, err3 := strconv.ParseUint(f[3], 10, 64)
			size, err4 := strconv.ParseUint(f[4], 10, 64)
			if err != nil || err2 != nil || err3 != nil || err4 != nil {
				return fail("bad symbol line")
			}
			g.Symbols[n] = Symbol{Section: sec, Offset: off, Size: size}
		default:
			b, err := hex.DecodeString(text)
			if err != nil || cur == nil {
				return fail("want hexadecimal bytes of a section")
			}
			cur.Data = append(cur.Data, b...)
			if len(cur.Data) > want {
				return fail("section %s has more than %d bytes", cur.Name, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if cur != nil && len(cur.Data) != want {
		return fail("section %s has %d bytes, want %d", cur.Name, len(cur.Data), want)
	}
	for n, s := range g.Symbols {
		if s.Section < 0 || s.Section >= len(g.Sections) || s.Offset+s.Size > uint64(len(g.Sections[s.Section].Data)) {
			return nil, fmt.Errorf("%s: symbol %s is outside its section", name, n)
		}
	}
	return g, nil
}

func fields(s string) []string {
	var out []string
	for s != "" {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err == nil {
				out = append(out, q)
				s = s[len(q):]
				continue
			}
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			i = len(s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// Text writes g in the form ReadGlobals reads.
func (g *Globals) Text() []byte {
	var b bytes.Buffer
	for _, s := range g.Sections {
		fmt.Fprintf(&b, "section %q %d\n", s.Name, len(s.Data))
		for i := 0; i < len(s.Data); i += 32 {
			b.WriteString(hex.EncodeToString(s.Data[i:min(i+32, len(s.Data))]))
			b.WriteByte('\n')
		}
	}
	names := make([]string, 0, len(g.Symbols))
	for n := range g.Symbols {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := g.Symbols[n]
		fmt.Fprintf(&b, "symbol %q %d %d %d\n", n, s.Section, s.Offset, s.Size)
	}
	return b.Bytes()
}

// Clone returns a copy of g whose sections can be written without
// touching g's.
func (g *Globals) Clone() *Globals {
	c := &Globals{Symbols: g.Symbols}
	for _, s := range g.Sections {
		c.Sections = append(c.Sections, &Section{Name: s.Name, Data: append([]byte(nil), s.Data...)})
	}
	return c
}
