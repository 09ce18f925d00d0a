package visa

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"spv2visa/internal/oracle"
)

// genxJob is one run of GenX_IR -binary on vISA text or on a binary
// object, for a platform (TGLLP, DG2, PVC).
type genxJob struct {
	platform string
	text     []byte // .visaasm input, or
	isa      []byte // a binary object
}

// genxOut is what GenX_IR wrote: its own binary encoding of text input
// (with the Gen code embedded), the Gen code (.dat) and its dump of the
// vISA it read (-dumpcommonisa); err reports a rejection or crash with
// GenX_IR's messages (RunGenX).
type genxOut struct {
	isa, dat, dump []byte
	err            error
}

var genxCache = struct {
	sync.Mutex
	m map[[32]byte]genxOut
}{m: map[[32]byte]genxOut{}}

func (j genxJob) key() [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", j.platform, len(j.text))
	h.Write(j.text)
	h.Write(j.isa)
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// runGenX runs the jobs on two workers (the machine's other cores
// belong to others), reusing results of identical jobs within the test
// binary's run.
func runGenX(t *testing.T, jobs []genxJob) []genxOut {
	t.Helper()
	tool := oracle.Tool(t, "GenX_IR")
	out := make([]genxOut, len(jobs))
	base := t.TempDir()
	var wg sync.WaitGroup
	next := make(chan int)
	workers := min(2, runtime.NumCPU())
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				k := j.key()
				genxCache.Lock()
				r, ok := genxCache.m[k]
				genxCache.Unlock()
				if !ok {
					o := RunGenX(tool, filepath.Join(base, fmt.Sprint(i)), GenXJob{Platform: j.platform, Text: j.text, ISA: j.isa})
					r = genxOut{isa: o.ISA, dat: o.Code, dump: o.Dump, err: o.Err}
					genxCache.Lock()
					genxCache.m[k] = r
					genxCache.Unlock()
				}
				out[i] = r
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// checkGenXBinary compares k's GenX_IR-compatible encoding (with the
// Gen code GenX_IR made) with GenX_IR's own; it returns a description
// of the first difference.
func checkGenXBinary(k *Kernel, platform string, g genxOut) error {
	return CompareGenXBinary(k, platform, g.isa, g.dat)
}

// sameVISA is SameVISA.
func sameVISA(fromText, fromBinary []byte) error { return SameVISA(fromText, fromBinary) }
