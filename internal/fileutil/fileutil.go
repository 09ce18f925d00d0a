// Package fileutil writes output files so that a failed or interrupted
// run never leaves a partial file behind: data goes to a temporary file in
// the destination directory, which is renamed over the destination only
// once complete.
package fileutil

import (
	"os"
	"path/filepath"
)

// WriteAtomic writes data to path through a temporary file and a rename.
func WriteAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
