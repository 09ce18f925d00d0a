package visa

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"spv2visa/internal/oracle"
)

// igcDumps are IGC's .visaasm dumps of the corpus, by device, committed
// under testdata/igc (testdata/igc/gen.sh regenerates them).
var igcDumps = []struct{ dir, platform string }{
	{"tgllp", "TGLLP"}, {"dg2", "DG2"}, {"pvc", "PVC"},
}

// TestIGCDumps reads every IGC dump and checks the reader and both
// binary encodings against GenX_IR:
//   - printing the parsed kernel and parsing that again prints the same;
//   - GenX_IR encodes the printed text exactly as it encodes the dump
//     (so reading and printing lost nothing that matters);
//   - the GenX_IR-compatible encoding equals GenX_IR's byte for byte;
//   - GenX_IR reads the complete encoding as the same vISA (for a set
//     of dumps that covers every instruction signature).
func TestIGCDumps(t *testing.T) {
	type dump struct {
		file, platform string
		text, printed  []byte
		k              *Kernel
	}
	var dumps []dump
	for _, d := range igcDumps {
		files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "igc", d.dir, "*.visaasm"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			oracle.Missing(t, "no IGC dumps under testdata/igc/"+d.dir+" (run testdata/igc/gen.sh)")
		}
		for _, f := range files {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			k, err := Parse(f, text)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			printed := []byte(k.Text())
			k2, err := Parse(f+" (printed)", printed)
			if err != nil {
				t.Errorf("%s: reading the printed kernel: %v", f, err)
				continue
			}
			if again := k2.Text(); again != string(printed) {
				t.Errorf("%s: print, parse, print differs:\n%s", f, lineDiff(string(printed), again))
				continue
			}
			dumps = append(dumps, dump{file: f, platform: d.platform, text: text, printed: printed, k: k})
		}
	}
	// GenX_IR reads our complete binary of the smallest dumps that
	// together use every instruction signature (form, operand kinds,
	// modifiers, predication) on each platform: compiling every dump a
	// third time would double the test's time for little more.
	readBack := coveringSet(len(dumps), func(i int) (string, int, []string) {
		return dumps[i].platform, len(dumps[i].text), signatures(dumps[i].k)
	})
	var jobs []genxJob
	for i, d := range dumps {
		full, err := d.k.EncodeWith(EncodeOptions{GRFSize: grfSizes[d.platform]})
		if err != nil {
			t.Errorf("%s: %v", d.file, err)
			full = []byte("unencodable")
		}
		if !readBack[i] {
			full = nil
		}
		jobs = append(jobs,
			genxJob{platform: d.platform, text: d.text},
			genxJob{platform: d.platform, text: d.printed})
		if full != nil {
			jobs = append(jobs, genxJob{platform: d.platform, isa: full})
		}
	}
	outs := runGenX(t, jobs)
	same := map[string]int{}
	genDiff := map[string][]string{}
	total := map[string]int{}
	read := map[string]int{}
	for i, d := range dumps {
		orig, printed := outs[0], outs[1]
		outs = outs[2:]
		var fromBin genxOut
		if readBack[i] {
			fromBin, outs = outs[0], outs[1:]
		}
		total[d.platform]++
		if orig.err != nil {
			t.Errorf("%s: GenX_IR rejects IGC's own dump: %v", d.file, orig.err)
			continue
		}
		if printed.err != nil {
			t.Errorf("%s: GenX_IR rejects the printed kernel: %v", d.file, printed.err)
			continue
		}
		if !bytes.Equal(orig.isa, printed.isa) {
			t.Errorf("%s: GenX_IR encodes the printed kernel differently from the dump: %s", d.file, firstDiff(d.k, printed.isa, orig.isa))
			continue
		}
		if err := checkGenXBinary(d.k, d.platform, orig); err != nil {
			t.Errorf("%s: %v", d.file, err)
			continue
		}
		same[d.platform]++
		if !readBack[i] {
			continue
		}
		if fromBin.err != nil {
			t.Errorf("%s: GenX_IR rejects our binary: %v", d.file, fromBin.err)
			continue
		}
		if err := sameVISA(orig.dump, fromBin.dump); err != nil {
			t.Errorf("%s: %v", d.file, err)
			continue
		}
		read[d.platform]++
		if !bytes.Equal(fromBin.dat, orig.dat) {
			// GenX_IR's binary reader marks sampler messages for
			// serialization where its text reader does not; the vISA
			// it read is the same (checked above).
			genDiff[d.platform] = append(genDiff[d.platform], filepath.Base(d.file))
		}
	}
	for _, d := range igcDumps {
		t.Logf("%s: %d of %d IGC dumps read and re-encoded byte for byte; GenX_IR reads our complete binary of %d as their text (%d of those give different Gen code: %v)",
			d.platform, same[d.platform], total[d.platform], read[d.platform], len(genDiff[d.platform]), genDiff[d.platform])
	}
}

// lineDiff shows the first differing line of two texts.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "lengths differ"
}

// signatures lists what an instruction's encoding depends on: its form,
// predication, saturation and each operand's kind and modifier.
func signatures(k *Kernel) []string {
	var out []string
	for _, in := range k.Body {
		var b strings.Builder
		b.WriteString(in.Op.String())
		if in.Pred.Var != nil {
			b.WriteString(" pred")
		}
		if in.Sat {
			b.WriteString(" sat")
		}
		for _, o := range in.Args {
			fmt.Fprintf(&b, " %d.%d.%d", o.Kind, o.Mod, min(o.VS, 0))
		}
		out = append(out, b.String())
	}
	return out
}

// coveringSet picks items, smallest first, until every signature of
// every group is in a picked item of that group.
func coveringSet(n int, item func(int) (group string, size int, sigs []string)) map[int]bool {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		_, sa, _ := item(order[a])
		_, sb, _ := item(order[b])
		return sa < sb
	})
	seen := map[string]bool{}
	picked := map[int]bool{}
	for _, i := range order {
		g, _, sigs := item(i)
		for _, s := range sigs {
			if !seen[g+"\x00"+s] {
				picked[i] = true
				seen[g+"\x00"+s] = true
			}
		}
	}
	return picked
}
