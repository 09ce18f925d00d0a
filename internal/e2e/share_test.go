package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"spv2visa/backend/visa"
	"spv2visa/internal/compiler"
	"spv2visa/internal/oracle"
	"spv2visa/passes"
)

// TestSharedVarsGenX compiles every module that compiles for a device
// again with shared variables (compiler.Options.ShareVars): the
// finalizer must accept each kernel without a message, our .isa must be
// its re-encoding of our text, and sharing must leave fewer variables
// than the variable per value. (TestEmulateCompiled runs the shared
// code against PoCL.)
func TestSharedVarsGenX(t *testing.T) {
	genx := oracle.Tool(t, "GenX_IR")
	builds := compiled(t)
	dir := t.TempDir()
	var mu sync.Mutex
	before, after, kernels := 0, 0, 0
	parallel(len(builds), func(i int) {
		b := builds[i]
		data, err := os.ReadFile(filepath.Join(kernelDir, "spv", b.module+".O2.spv"))
		if err != nil {
			t.Error(err)
			return
		}
		out, err := compiler.Compile(context.Background(), data, compiler.Options{
			Platform: b.p, Passes: passes.Config{Opt: 2}, Jobs: 1, EmitISA: true, ShareVars: true})
		if err != nil {
			t.Errorf("%s: with shared variables: %v", b, err)
			return
		}
		p := strings.ToUpper(b.p.Name)
		for j, k := range out.Kernels {
			where := fmt.Sprintf("%s kernel %s (shared variables)", b, k.Name)
			r := visa.RunGenX(genx, filepath.Join(dir, fmt.Sprint(i, "_", j)), visa.GenXJob{Platform: p, Text: k.Text})
			if r.Err != nil {
				t.Errorf("%s: GenX_IR rejects our vISA: %v", where, r.Err)
				continue
			}
			for _, w := range dedup(r.Warnings()) {
				t.Errorf("%s: GenX_IR: %s", where, w)
			}
			if err := visa.CompareGenXBinary(k.Sel.Kernel, p, r.ISA, r.Code); err != nil {
				t.Errorf("%s: %v", where, err)
			}
			mu.Lock()
			after += len(k.Sel.Kernel.Vars)
			before += len(b.out.Kernels[j].Sel.Kernel.Vars)
			kernels++
			mu.Unlock()
		}
	})
	t.Logf("%d kernels: %d variables with sharing, %d with a variable per value", kernels, after, before)
	if kernels == 0 || after >= before {
		t.Errorf("sharing leaves %d variables of %d", after, before)
	}
}
