package fileutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"spv2visa/internal/golden"
)

var _ = golden.Update

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	if err := WriteAtomic(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "two" {
		t.Fatalf("got %q, %v", b, err)
	}
	// A destination in a missing directory fails and leaves nothing.
	if err := WriteAtomic(filepath.Join(dir, "no", "x"), []byte("x"), 0o644); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
}

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp, err := WriteTemp(p, []byte("new"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(tmp, p); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "new" {
		t.Fatalf("got %q, %v", b, err)
	}
	// The old file, which the exchange left at tmp's name, is gone.
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("files left behind: %v", ents)
	}
	// A directory in the way is not exchanged with the file: the rename
	// fails and the directory stays.
	d := filepath.Join(dir, "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err = WriteTemp(d, []byte("x"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(tmp, d); err == nil {
		t.Fatal("a file replaced a directory")
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		t.Fatalf("the directory is gone: %v %v", fi, err)
	}
}

func TestExchange(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("a"), 0o644)
	os.WriteFile(b, []byte("b"), 0o644)
	err := exchange(a, b)
	if errors.Is(err, errors.ErrUnsupported) {
		return // Replace renames on this system.
	}
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	ga, _ := os.ReadFile(a)
	gb, _ := os.ReadFile(b)
	if string(ga) != "b" || string(gb) != "a" {
		t.Fatalf("after the exchange a=%q b=%q, want b, a", ga, gb)
	}
}
