// C99 'inline' without 'static': at -O0 clang emits no body, llvm-spirv emits an Import-linkage declaration
inline int twice(int x) { return 2 * x; }
kernel void k(global int *a) { a[0] = twice(a[1]); }
