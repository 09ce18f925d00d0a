package fileutil

// sysRenameat2 is renameat2's number, which package syscall lacks on amd64.
const sysRenameat2 = 316
