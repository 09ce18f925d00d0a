// Package fileutil writes output files so that a failed or interrupted
// run never leaves a partial file behind: data goes to a temporary file in
// the destination directory, which replaces the destination only once
// complete.
package fileutil

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// WriteAtomic writes data to path through a temporary file that then
// replaces it.
func WriteAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := WriteTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := Replace(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// WriteTemp writes data to a new temporary file beside path, created
// with perm (less the umask, as for any created file), and returns its
// name. On failure nothing is left behind.
func WriteTemp(path string, data []byte, perm os.FileMode) (string, error) {
	prefix := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	var f *os.File
	var err error
	for try := 0; ; try++ {
		f, err = os.OpenFile(prefix+strconv.FormatUint(uint64(rand.Uint32()), 10), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil || !errors.Is(err, os.ErrExist) || try == 100 {
			break
		}
	}
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// Replace moves the file tmp to path, replacing whatever file is there
// in one step: a reader sees the old file or the new one, never none.
//
// Where it can, it exchanges the two names and then removes the old
// file, rather than renaming over it: ext4 (auto_da_alloc) writes a file
// back to the disk before a rename replaces another, which made
// rewriting a compile's outputs cost ten times writing them.
func Replace(tmp, path string) error {
	if exchange(tmp, path) != nil {
		// No file at path (or no exchange here): a rename replaces
		// nothing, or is all there is.
		return os.Rename(tmp, path)
	}
	// tmp now names what was at path.
	if err := syscall.Unlink(tmp); err != nil {
		// A directory (or something else unlink refuses) was in the
		// way: put it back, as a rename would have left it.
		exchange(tmp, path)
		return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: err}
	}
	return nil
}
