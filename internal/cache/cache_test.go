package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "spv2visa/internal/golden"
)

func TestKey(t *testing.T) {
	a := NewKey().AddString("a", "bc").Sum()
	b := NewKey().AddString("ab", "c").Sum()
	c := NewKey().AddString("a", "bc").Sum()
	if a == b || a != c || len(a) != 64 {
		t.Errorf("keys %s %s %s", a, b, c)
	}
}

func TestPutGet(t *testing.T) {
	d := Dir{Path: filepath.Join(t.TempDir(), "cache")}
	key := NewKey().AddString("input", "x").Sum()
	if _, ok := d.Get(key); ok {
		t.Fatal("hit in an empty cache")
	}
	blobs := map[string][]byte{"zebin": {1, 2, 3}, "empty": {}, "log": []byte("kernel k\n")}
	if err := d.Put(key, blobs); err != nil {
		t.Fatal(err)
	}
	got, ok := d.Get(key)
	if !ok || len(got) != len(blobs) {
		t.Fatalf("Get: %v, %t", got, ok)
	}
	for n, b := range blobs {
		if !bytes.Equal(got[n], b) {
			t.Errorf("%s: %q, want %q", n, got[n], b)
		}
	}
	// Any damaged byte, and any truncation, turns the entry into a miss.
	p := d.path(key)
	orig, _ := os.ReadFile(p)
	for i := range orig {
		bad := bytes.Clone(orig)
		bad[i] ^= 0x40
		os.WriteFile(p, bad, 0o644)
		if _, ok := d.Get(key); ok {
			t.Fatalf("byte %d damaged: still a hit", i)
		}
		os.WriteFile(p, orig[:i], 0o644)
		if _, ok := d.Get(key); ok {
			t.Fatalf("truncated to %d bytes: still a hit", i)
		}
	}
	// Put replaces a damaged entry.
	if err := d.Put(key, blobs); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Get(key); !ok {
		t.Error("no hit after a new Put")
	}
}

// TestConcurrent has writers and readers share a directory: every read
// is a miss or a whole entry, and no temporary file is left.
func TestConcurrent(t *testing.T) {
	d := Dir{Path: t.TempDir()}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				key := NewKey().AddString("k", fmt.Sprint(i%4)).Sum()
				want := bytes.Repeat([]byte{byte(i % 4)}, 1<<16)
				if err := d.Put(key, map[string][]byte{"data": want}); err != nil {
					t.Error(err)
					return
				}
				if got, ok := d.Get(key); ok && !bytes.Equal(got["data"], want) {
					t.Errorf("writer %d: a torn entry", w)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	matches, _ := filepath.Glob(filepath.Join(d.Path, "*", ".*tmp*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

func TestFileHash(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("abc"), 0o644)
	h, err := FileHash(p)
	if err != nil || h != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("FileHash = %s, %v", h, err)
	}
	if _, err := FileHash(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestDirFileHash(t *testing.T) {
	d := Dir{Path: t.TempDir()}
	p := filepath.Join(t.TempDir(), "exe")
	os.WriteFile(p, []byte("abc"), 0o755)
	h1, err := d.FileHash(p)
	if err != nil || h1 != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("FileHash = %s, %v", h1, err)
	}
	memos, _ := filepath.Glob(filepath.Join(d.Path, "files", "*"))
	if len(memos) != 1 {
		t.Fatalf("memos: %v", memos)
	}
	// A rebuilt file of the same size: its time changes, so does the hash.
	os.WriteFile(p, []byte("abd"), 0o755)
	later := time.Now().Add(time.Second)
	os.Chtimes(p, later, later)
	if h2, err := d.FileHash(p); err != nil || h2 == h1 {
		t.Errorf("after a change: %s, %v", h2, err)
	}
	// A damaged memo is recomputed.
	os.WriteFile(memos[0], []byte("zz"), 0o644)
	os.WriteFile(p, []byte("abc"), 0o755)
	if h, err := d.FileHash(p); err != nil || len(h) != 64 {
		t.Errorf("damaged memo: %s, %v", h, err)
	}
}
