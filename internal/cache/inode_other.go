//go:build !unix

package cache

import "os"

// inode is empty where the system gives no inode: size and time remain.
func inode(os.FileInfo) string { return "" }
