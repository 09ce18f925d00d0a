//go:build !linux || !(amd64 || arm64)

package fileutil

import "errors"

// exchange is not available here: Replace renames.
func exchange(a, b string) error { return errors.ErrUnsupported }
