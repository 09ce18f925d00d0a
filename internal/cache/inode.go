//go:build unix

package cache

import (
	"fmt"
	"os"
	"syscall"
)

// inode identifies a file's inode and device, where the system says.
func inode(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}
