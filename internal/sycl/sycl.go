// Package sycl reads SYCL binary property sets: the text that the DPC++
// toolchain (sycl-post-link) writes beside each SPIR-V device image and
// the SYCL runtime reads before it builds the image. The format:
//
//	[set name]
//	key=1|<decimal 32-bit integer>
//	key=2|<base64 byte array>
//
// A byte array decodes to an 8-byte little-endian size in bits followed
// by the data. DPC++ writes the base64 with its own variant (the low six
// bits of each byte first, no padding); llvm's upstream writer uses RFC
// 4648 with padding. Read accepts both and tells them apart by the size
// prefix.
//
// Read parses the text (Parse) and decodes the sets that affect
// compilation (Properties); anything malformed is an *Error naming the
// line.
package sycl

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// ValueType is a property's value type.
type ValueType uint8

const (
	UInt32    ValueType = 1
	ByteArray ValueType = 2
)

func (t ValueType) String() string {
	switch t {
	case UInt32:
		return "a 32-bit integer (1)"
	case ByteArray:
		return "a byte array (2)"
	}
	return strconv.Itoa(int(t))
}

// Property is one key=type|value line.
type Property struct {
	Key  string
	Type ValueType
	Int  uint32 // UInt32
	// Bytes is a ByteArray's data (without the size prefix), Bits its
	// size in bits.
	Bytes []byte
	Bits  uint64
	Line  int
}

// Set is a named property set; a set named twice in a file is one set.
type Set struct {
	Name  string
	Line  int // where the set is first named
	Props []*Property
}

// Get returns the property key, or nil.
func (s *Set) Get(key string) *Property {
	if s == nil {
		return nil
	}
	for _, p := range s.Props {
		if p.Key == key {
			return p
		}
	}
	return nil
}

// File is a parsed property set file.
type File struct {
	Sets []*Set // in the order first named
}

// Set returns the set named name, or nil.
func (f *File) Set(name string) *Set {
	for _, s := range f.Sets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Error is a malformed property file: the line (1-based; 0 for the
// whole file) and what is wrong.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

func errorf(line int, format string, args ...any) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads the property set text. It is stricter than the runtime's
// reader: a key given twice in a set is an error, as is a value that
// does not fit its type.
func Parse(data []byte) (*File, error) {
	f := &File{}
	var cur *Set
	seen := map[*Set]map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				return nil, errorf(n, "a set name starts with '[' and ends with ']': %q", line)
			}
			if rest := strings.TrimSpace(line[end+1:]); rest != "" {
				return nil, errorf(n, "text after the set name: %q", rest)
			}
			name := line[1:end]
			if name == "" {
				return nil, errorf(n, "empty set name")
			}
			if cur = f.Set(name); cur == nil {
				cur = &Set{Name: name, Line: n}
				f.Sets = append(f.Sets, cur)
				seen[cur] = map[string]int{}
			}
			continue
		}
		if cur == nil {
			return nil, errorf(n, "a property before the first [set name]: %q", line)
		}
		key, tv, ok := strings.Cut(line, "=")
		if !ok || key == "" || tv == "" {
			return nil, errorf(n, "a property is key=type|value: %q", line)
		}
		typ, val, ok := strings.Cut(tv, "|")
		if !ok || typ == "" || val == "" {
			return nil, errorf(n, "a property value is type|value: %q", tv)
		}
		p := &Property{Key: key, Line: n}
		switch typ {
		case "1":
			v, err := strconv.ParseUint(val, 10, 32)
			if err != nil {
				return nil, errorf(n, "property %s: %q is not a 32-bit unsigned decimal integer", key, val)
			}
			p.Type, p.Int = UInt32, uint32(v)
		case "2":
			b, bits, err := decodeByteArray(val)
			if err != nil {
				return nil, errorf(n, "property %s: %v", key, err)
			}
			p.Type, p.Bytes, p.Bits = ByteArray, b, bits
		default:
			return nil, errorf(n, "property %s: unknown value type %q (1: 32-bit integer, 2: byte array)", key, typ)
		}
		if first, dup := seen[cur][key]; dup {
			return nil, errorf(n, "property %s is given twice in [%s] (first at line %d)", key, cur.Name, first)
		}
		seen[cur][key] = n
		cur.Props = append(cur.Props, p)
	}
	return f, nil
}

// decodeByteArray decodes a byte array value: the size prefix and the
// data, in DPC++'s base64 variant or RFC 4648's.
func decodeByteArray(s string) ([]byte, uint64, error) {
	raw, err1 := decodeDPCPP(s)
	if err1 == nil {
		if b, bits, err := splitSize(raw); err == nil {
			return b, bits, nil
		} else {
			err1 = err
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		if raw, err := enc.DecodeString(s); err == nil {
			if b, bits, err := splitSize(raw); err == nil {
				return b, bits, nil
			}
		}
	}
	return nil, 0, fmt.Errorf("not a base64 byte array: %v", err1)
}

// splitSize splits a decoded byte array into its data and size in bits;
// the data must be exactly the bytes the size needs.
func splitSize(raw []byte) ([]byte, uint64, error) {
	if len(raw) < 8 {
		return nil, 0, fmt.Errorf("%d bytes decoded, fewer than the 8-byte size prefix", len(raw))
	}
	bits := binary.LittleEndian.Uint64(raw)
	data := raw[8:]
	if bits > uint64(len(data))*8 || (bits+7)/8 != uint64(len(data)) {
		return nil, 0, fmt.Errorf("the size prefix says %d bits, but %d bytes of data follow", bits, len(data))
	}
	return data, bits, nil
}

// decodeDPCPP decodes DPC++'s base64 variant: the standard alphabet,
// each character carrying the next six bits of the data starting from
// the low bits of the first byte, and no padding.
func decodeDPCPP(s string) ([]byte, error) {
	if len(s)%4 == 1 {
		return nil, fmt.Errorf("%d characters cannot encode whole bytes", len(s))
	}
	var out []byte
	var acc uint32
	nbits := 0
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(b64Alphabet, s[i])
		if v < 0 {
			return nil, fmt.Errorf("character %q at %d is not base64", s[i], i+1)
		}
		acc |= uint32(v) << nbits
		nbits += 6
		if nbits >= 8 {
			out = append(out, byte(acc))
			acc >>= 8
			nbits -= 8
		}
	}
	return out, nil
}

// EncodeDPCPP encodes data (with its size prefix) as DPC++ writes a byte
// array value; tests use it to write property files.
func EncodeDPCPP(data []byte) string { return encodeBits(data, uint64(len(data))*8) }

// encodeBits encodes data of the given size in bits.
func encodeBits(data []byte, bits uint64) string {
	raw := binary.LittleEndian.AppendUint64(nil, bits)
	raw = append(raw, data...)
	var sb strings.Builder
	var acc uint32
	nbits := 0
	for _, b := range raw {
		acc |= uint32(b) << nbits
		nbits += 8
		for nbits >= 6 {
			sb.WriteByte(b64Alphabet[acc&63])
			acc >>= 6
			nbits -= 6
		}
	}
	if nbits > 0 {
		sb.WriteByte(b64Alphabet[acc&63])
	}
	return sb.String()
}

const b64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// Write formats a file back into the text form (byte arrays in DPC++'s
// variant, of Bits bits, or all their bytes when Bits is 0); tests use
// it.
func (f *File) Write() []byte {
	var b bytes.Buffer
	for _, s := range f.Sets {
		fmt.Fprintf(&b, "[%s]\n", s.Name)
		for _, p := range s.Props {
			if p.Type == UInt32 {
				fmt.Fprintf(&b, "%s=1|%d\n", p.Key, p.Int)
			} else {
				bits := p.Bits
				if bits == 0 {
					bits = uint64(len(p.Bytes)) * 8
				}
				fmt.Fprintf(&b, "%s=2|%s\n", p.Key, encodeBits(p.Bytes, bits))
			}
		}
	}
	return b.Bytes()
}
