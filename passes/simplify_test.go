package passes

import (
	"slices"
	"strings"
	"testing"

	"spv2visa/ir"
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
	// Every rule parses, under the op its pattern heads.
	n := 0
	for op := ir.Op(0); int(op) < ir.NumOps; op++ {
		for _, rl := range rulesFor(op) {
			if rl.pat != nil && rl.pat.op != op {
				t.Errorf("rule %s: filed under %s, matches %s", rl.name, op, rl.pat.op)
			}
			n++
		}
	}
	if n != len(ruleTable) {
		t.Errorf("%d rules parsed, the table has %d", n, len(ruleTable))
	}
}
