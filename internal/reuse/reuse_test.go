package reuse

import "testing"

func TestZeroed(t *testing.T) {
	s := []int{1, 2, 3, 4}
	z := Zeroed(s, 3)
	if len(z) != 3 || &z[0] != &s[0] || z[0] != 0 || z[2] != 0 || s[3] != 4 {
		t.Errorf("Zeroed(s, 3) = %v (s %v): want three zeros in s's memory", z, s)
	}
	if z := Zeroed(s, 5); len(z) != 5 || &z[0] == &s[0] {
		t.Errorf("Zeroed(s, 5) reused a slice too small")
	}
}

func TestEmpty(t *testing.T) {
	s := []int{1, 2, 3}
	if e := Empty(s, 3); len(e) != 0 || cap(e) != 3 || &e[:1][0] != &s[0] {
		t.Errorf("Empty(s, 3): len %d cap %d, want s's memory emptied", len(e), cap(e))
	}
	if e := Empty(s, 4); len(e) != 0 || cap(e) < 4 {
		t.Errorf("Empty(s, 4): len %d cap %d, want room for 4", len(e), cap(e))
	}
}
