// Package cache is a content-addressed store of compilation results on
// disk: an entry is a set of named blobs filed under a key that hashes
// everything the result depends on (input bytes, every option, the
// compiler's own executable). Several processes may share a directory:
// an entry is written to a temporary file and renamed into place, so a
// reader sees a whole entry or none; an entry carries a SHA-256 of its
// contents, so a damaged one is ignored (and replaced by the next Put).
// Nothing is ever evicted.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// magic starts every entry; a format change changes it.
const magic = "spv2visa-cache-1\n"

// Key accumulates what a result depends on.
type Key struct{ h hash.Hash }

// NewKey starts a key.
func NewKey() *Key { return &Key{h: sha256.New()} }

// Add adds a named part; names and values are length-prefixed, so no
// two different sequences of parts give the same key.
func (k *Key) Add(name string, value []byte) *Key {
	var n [binary.MaxVarintLen64]byte
	k.h.Write(n[:binary.PutUvarint(n[:], uint64(len(name)))])
	k.h.Write([]byte(name))
	k.h.Write(n[:binary.PutUvarint(n[:], uint64(len(value)))])
	k.h.Write(value)
	return k
}

// AddString adds a named string part.
func (k *Key) AddString(name, value string) *Key { return k.Add(name, []byte(value)) }

// Sum returns the key as hex.
func (k *Key) Sum() string { return hex.EncodeToString(k.h.Sum(nil)) }

// Dir is a cache directory.
type Dir struct{ Path string }

// path returns where the entry of key lives: two levels, so that no
// directory grows too large.
func (d Dir) path(key string) string {
	return filepath.Join(d.Path, key[:2], key+".entry")
}

// Get returns the blobs stored under key; ok is false when there is no
// entry or it is damaged.
func (d Dir) Get(key string) (blobs map[string][]byte, ok bool) {
	if len(key) < 3 {
		return nil, false
	}
	data, err := os.ReadFile(d.path(key))
	if err != nil {
		return nil, false
	}
	blobs, err = decode(data)
	if err != nil {
		return nil, false
	}
	return blobs, true
}

// Put stores blobs under key.
func (d Dir) Put(key string, blobs map[string][]byte) error {
	if len(key) < 3 {
		return errors.New("cache: short key")
	}
	p := d.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+key[:8]+".tmp*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(encode(blobs))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// encode writes magic, the blob count, each blob's name and data
// (length-prefixed, by name), then the SHA-256 of all that.
func encode(blobs map[string][]byte) []byte {
	names := make([]string, 0, len(blobs))
	for n := range blobs {
		names = append(names, n)
	}
	sort.Strings(names)
	b := []byte(magic)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
		b = binary.AppendUvarint(b, uint64(len(blobs[n])))
		b = append(b, blobs[n]...)
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

var errDamaged = errors.New("cache: damaged entry")

func decode(data []byte) (map[string][]byte, error) {
	if len(data) < len(magic)+sha256.Size || !bytes.HasPrefix(data, []byte(magic)) {
		return nil, errDamaged
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil, errDamaged
	}
	r := body[len(magic):]
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(r)
		if n <= 0 {
			return 0, false
		}
		r = r[n:]
		return v, true
	}
	take := func(n uint64) ([]byte, bool) {
		if n > uint64(len(r)) {
			return nil, false
		}
		b := r[:n:n]
		r = r[n:]
		return b, true
	}
	count, ok := next()
	if !ok || count > uint64(len(r)) {
		return nil, errDamaged
	}
	blobs := make(map[string][]byte, count)
	for i := uint64(0); i < count; i++ {
		nl, ok1 := next()
		name, ok2 := take(nl)
		if !ok1 || !ok2 {
			return nil, errDamaged
		}
		dl, ok3 := next()
		data, ok4 := take(dl)
		if !ok3 || !ok4 {
			return nil, errDamaged
		}
		blobs[string(name)] = data
	}
	if len(r) != 0 {
		return nil, errDamaged
	}
	return blobs, nil
}

// fileID names a file's present contents without reading them: its
// absolute path, size, modification time and inode (as ccache checks a
// compiler by size and time).
func fileID(path string) (abs, id string, err error) {
	if abs, err = filepath.Abs(path); err != nil {
		return "", "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", "", err
	}
	id = NewKey().AddString("path", abs).AddString("stat", fmt.Sprintf("%d %d %s", st.Size(), st.ModTime().UnixNano(), inode(st))).Sum()
	return abs, id, nil
}

var fileHashes sync.Map // fileID → hash

// FileHash returns the SHA-256 of a file's contents, hex; a process
// computes it once per file version. The cache keys on the compiler's
// and the finalizer's executables this way, so a rebuilt compiler never
// reads its predecessor's results.
func FileHash(path string) (string, error) {
	abs, id, err := fileID(path)
	if err != nil {
		return "", err
	}
	if h, ok := fileHashes.Load(id); ok {
		return h.(string), nil
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	s := hex.EncodeToString(h.Sum(nil))
	fileHashes.Store(id, s)
	return s, nil
}

// FileHash is the package's FileHash, remembered in the cache directory
// by the file's path, size, time and inode, so that a cache hit need not
// read the whole executable again.
func (d Dir) FileHash(path string) (string, error) {
	_, id, err := fileID(path)
	if err != nil {
		return "", err
	}
	memo := filepath.Join(d.Path, "files", id)
	if b, err := os.ReadFile(memo); err == nil && len(b) == 64 {
		if _, err := hex.DecodeString(string(b)); err == nil {
			return string(b), nil
		}
	}
	h, err := FileHash(path)
	if err != nil {
		return "", err
	}
	// A failure to remember is no failure: the hash is still right.
	if os.MkdirAll(filepath.Dir(memo), 0o755) == nil {
		if f, err := os.CreateTemp(filepath.Dir(memo), "."+id[:8]+".tmp*"); err == nil {
			_, werr := f.WriteString(h)
			if cerr := f.Close(); werr == nil && cerr == nil && os.Rename(f.Name(), memo) == nil {
				return h, nil
			}
			os.Remove(f.Name())
		}
	}
	return h, nil
}
