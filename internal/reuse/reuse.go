// Package reuse hands out slices in the memory of earlier ones, for the
// readers and checkers that keep their tables from one module to the
// next instead of allocating them anew.
package reuse

// Zeroed returns s resliced to n zero elements, or a new slice where s
// has room for fewer: a table indexed by position.
func Zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Empty returns s emptied, or a new slice where s has room for fewer
// than n elements: a table filled by appending, so nothing to clear.
func Empty[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}
