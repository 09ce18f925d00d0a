//go:build linux && (amd64 || arm64)

package fileutil

import (
	"syscall"
	"unsafe"
)

const renameExchange = 2 // RENAME_EXCHANGE of renameat2(2)

// exchange swaps the names a and b atomically (renameat2 with
// RENAME_EXCHANGE); an error (ENOSYS, EINVAL on file systems without it)
// leaves both as they were.
func exchange(a, b string) error {
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	_, _, errno := syscall.Syscall6(sysRenameat2, uintptr(atFDCWD), uintptr(unsafe.Pointer(pa)), uintptr(atFDCWD), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// atFDCWD is AT_FDCWD as the kernel reads it (an int, -100).
var atFDCWD = -100
