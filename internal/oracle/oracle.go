// Package oracle finds the independent reference tools tests compare
// against (spirv-val, spirv-as, spirv-dis, clang-15, llvm-spirv-15,
// GenX_IR, ocloc, PoCL). A missing tool skips the test on a developer's
// machine but fails it when the CI environment variable is set, so CI can
// never pass by not checking.
package oracle

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Tool returns the path of the reference tool name, or ends the test:
// a skip locally, a failure under CI.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	Missing(t, fmt.Sprintf("reference tool %s not found on PATH (run `make tools`)", name))
	return ""
}

// Missing ends the test because an oracle is unavailable: a skip locally,
// a failure under CI.
func Missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; oracle tests must not skip under CI", why)
	}
	t.Skip(why)
}

// Run runs a tool with stdin and returns its stdout; a non-zero exit
// becomes an error that carries stderr.
func Run(stdin []byte, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%s %v: %v\n%s", filepath.Base(name), args, err, errb.String())
	}
	return out.Bytes(), nil
}

// Assemble runs spirv-as on SPIR-V assembly text and returns the binary.
// IDs written as numbers keep their values (--preserve-numeric-ids).
func Assemble(t testing.TB, text []byte, targetEnv string) ([]byte, error) {
	t.Helper()
	as := Tool(t, "spirv-as")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.spvasm")
	out := filepath.Join(dir, "out.spv")
	if err := os.WriteFile(in, text, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(nil, as, "--preserve-numeric-ids", "--target-env", targetEnv, in, "-o", out); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}

// SpirvVal runs spirv-val on a module for a target environment
// ("opencl2.2", ...); it returns nil when the module is valid and the
// validator's message otherwise.
func SpirvVal(t testing.TB, spv []byte, targetEnv string) error {
	t.Helper()
	val := Tool(t, "spirv-val")
	f := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(f, spv, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(nil, val, "--target-env", targetEnv, f)
	return err
}

// TargetEnv returns spirv-val's OpenCL target environment for a module of
// SPIR-V version major.minor: opencl2.0 for 1.0, opencl2.1 for 1.1,
// opencl2.2 for 1.2, and the universal environment for newer versions.
func TargetEnv(major, minor uint8) string {
	switch {
	case major == 1 && minor == 0:
		return "opencl2.0"
	case major == 1 && minor == 1:
		return "opencl2.1"
	case major == 1 && minor == 2:
		return "opencl2.2"
	}
	return fmt.Sprintf("spv%d.%d", major, minor)
}
