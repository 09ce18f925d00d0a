package passes

import (
	"slices"
	"strings"
	"testing"
)

// TestPatternTokens: every pattern and replacement of the rule table
// splits into the tokens of spacing out its parentheses, and the whole
// table parses.
func TestPatternTokens(t *testing.T) {
	spaced := strings.NewReplacer("(", " ( ", ")", " ) ")
	for _, rd := range ruleTable {
		for _, s := range []string{rd.pat, rd.res} {
			if got, want := patternTokens(s), strings.Fields(spaced.Replace(s)); !slices.Equal(got, want) {
				t.Errorf("rule %s: tokens of %q: %q, want %q", rd.name, s, got, want)
			}
		}
	}
	for _, s := range []string{"", "x", " (add\tx\n(const 0)) "} {
		if got, want := patternTokens(s), strings.Fields(spaced.Replace(s)); !slices.Equal(got, want) {
			t.Errorf("tokens of %q: %q, want %q", s, got, want)
		}
	}
	if n := len(rulesByOp()); n == 0 {
		t.Error("no rules")
	}
}
