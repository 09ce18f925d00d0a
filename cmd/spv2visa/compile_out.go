package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/cache"
	"spv2visa/internal/fileutil"
)

// level is a build log entry's kind.
type level int

const (
	levelInfo    level = iota // per-kernel facts: the log file only
	levelNote                 // options without effect, property notes
	levelWarning              // the validator's warnings
	levelError
)

// logEntry is one build log entry; Text may span lines.
type logEntry struct {
	Level level  `json:"level"`
	Text  string `json:"text"`
}

// buildLog collects what zeModuleBuildLogGetString would return: every
// warning, note and error of the build, and a line per kernel. It goes
// to the -build_log file; warnings, notes and errors also go to stderr
// (only errors with -q).
type buildLog struct {
	entries []logEntry
	failed  bool
	// stderrOnly lines concern this run, not the build (the cache).
	extra []string
}

func (l *buildLog) add(lvl level, text string) {
	l.entries = append(l.entries, logEntry{lvl, text})
	if lvl == levelError {
		l.failed = true
	}
}

func prefixed(where, kind, msg string) string {
	if where == "" {
		return kind + ": " + msg
	}
	return where + ": " + kind + ": " + msg
}

func (l *buildLog) errorf(where, format string, args ...any) {
	l.add(levelError, prefixed(where, "error", fmt.Sprintf(format, args...)))
}

func (l *buildLog) notef(where, format string, args ...any) {
	l.add(levelNote, prefixed(where, "note", fmt.Sprintf(format, args...)))
}

func (l *buildLog) warnf(where, format string, args ...any) {
	l.add(levelWarning, prefixed(where, "warning", fmt.Sprintf(format, args...)))
}

func (l *buildLog) diag(d spirv.Diagnostic, file string) {
	lvl := levelError
	if d.Severity == spirv.SevWarning {
		lvl = levelWarning
	}
	l.add(lvl, d.Format(file))
}

func (l *buildLog) stderrOnly(format string, args ...any) {
	l.extra = append(l.extra, fmt.Sprintf(format, args...))
}

// text is the build log file's contents.
func (l *buildLog) text() []byte {
	var b strings.Builder
	for _, e := range l.entries {
		b.WriteString(e.Text)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// print writes the entries meant for the terminal.
func (l *buildLog) print(w io.Writer, quiet bool) {
	for _, e := range l.entries {
		if e.Level == levelError || (!quiet && e.Level != levelInfo) {
			fmt.Fprintln(w, e.Text)
		}
	}
	if !quiet {
		for _, s := range l.extra {
			fmt.Fprintln(w, s)
		}
	}
}

func writeFileAtomic(path string, data []byte) error {
	return fileutil.WriteAtomic(path, data, 0o644)
}

// fileName escapes a kernel name for use in a file name: bytes other
// than letters, digits and "_.$-" become %XX, and so does a leading
// '.', so that no name escapes the output directory or hides.
func fileName(kernel string) string {
	var b strings.Builder
	for i := 0; i < len(kernel); i++ {
		ch := kernel[i]
		ok := ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("_.$-", ch) >= 0
		if !ok || (i == 0 && ch == '.') {
			fmt.Fprintf(&b, "%%%02X", ch)
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// outFile is one output file.
type outFile struct {
	path string
	data []byte
}

// files lists the output files of r, in a fixed order.
func (c *compilation) files(r *result) []outFile {
	base := c.outputBase()
	var fs []outFile
	if b, ok := r.blobs["zebin"]; ok {
		fs = append(fs, outFile{base + ".bin", b})
	}
	if b, ok := r.blobs["zeinfo"]; ok {
		fs = append(fs, outFile{base + ".ze_info.yaml", b})
	}
	for _, k := range r.kernels {
		for _, ext := range []string{"visaasm", "isa"} {
			if b, ok := r.blobs[ext+"/"+k]; ok {
				fs = append(fs, outFile{base + "." + fileName(k) + "." + ext, b})
			}
		}
	}
	return fs
}

// staged is a set of output files written to temporary files beside
// their destinations, not yet renamed into place.
type staged struct {
	files   []outFile
	temps   []string
	created []string // directories made for them, outermost first
}

// stageAll writes every output of r to a temporary file; on failure it
// removes what it wrote.
func (c *compilation) stageAll(r *result) (*staged, error) {
	s := &staged{files: c.files(r)}
	if len(s.files) == 0 {
		return s, nil
	}
	dir := filepath.Dir(s.files[0].path)
	var err error
	if s.created, err = mkdirAll(dir); err != nil {
		return nil, fmt.Errorf("cannot create the output directory %s: %v", dir, ioErr(err))
	}
	for _, f := range s.files {
		t, err := stage(f)
		if err != nil {
			s.rollback(nil)
			return nil, fmt.Errorf("cannot write %s: %v", f.path, ioErr(err))
		}
		s.temps = append(s.temps, t)
	}
	return s, nil
}

// commit renames the temporary files into place, all or none.
func (s *staged) commit() error {
	var done []string
	for i, f := range s.files {
		if err := fileutil.Replace(s.temps[i], f.path); err != nil {
			s.rollback(done)
			return fmt.Errorf("cannot write %s: %v", f.path, ioErr(err))
		}
		done = append(done, f.path)
	}
	return nil
}

// rollback removes the temporary files, the outputs already renamed
// (done) and the directories made for them.
func (s *staged) rollback(done []string) {
	for _, t := range s.temps {
		os.Remove(t)
	}
	for _, d := range done {
		os.Remove(d)
	}
	for i := len(s.created) - 1; i >= 0; i-- {
		os.Remove(s.created[i])
	}
}

// stage writes f's data to a temporary file in its directory.
func stage(f outFile) (string, error) {
	return fileutil.WriteTemp(f.path, f.data, 0o644)
}

// mkdirAll creates dir and its missing parents; it returns the
// directories it created, outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for i, j := 0, len(missing)-1; i < j; i, j = i+1, j-1 {
		missing[i], missing[j] = missing[j], missing[i]
	}
	return missing, nil
}

// ioErr drops the path from a file error (the message names it).
func ioErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// cacheKey hashes everything the result depends on: the compiler's own
// executable, the input and its name (diagnostics quote it), the
// device, the options as given and as resolved (with the specialization
// constant values), the property file, the outputs asked for and the
// finalizer's executable.
func (c *compilation) cacheKey() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	dir := cache.Dir{Path: c.f.cacheDir}
	self, err := dir.FileHash(exe)
	if err != nil {
		return "", err
	}
	k := cache.NewKey().
		AddString("compiler", self).
		AddString("file", c.f.file).
		Add("input", c.input).
		AddString("device", c.p.Name).
		AddString("options", c.f.options).
		AddString("internal_options", c.f.internal).
		Add("properties", c.propsData).
		AddString("config", c.configKey())
	if c.cfg.Finalizer != nil {
		fin, err := dir.FileHash(c.finPath)
		if err != nil {
			return "", err
		}
		k.AddString("finalizer", fin)
	}
	return k.Sum(), nil
}

// configKey spells out the resolved compiler options.
func (c *compilation) configKey() string {
	o := c.cfg
	var b strings.Builder
	fmt.Fprintf(&b, "opt=%d fast=%t mad=%t nsz=%t finite=%t unsafe=%t crdiv=%t simd=%d grfs=%d 4gb=%t debug=%t isa=%t spv=%t share=%t\n",
		o.Passes.Opt, o.Passes.FastRelaxedMath, o.Passes.MadEnable, o.Passes.NoSignedZeros, o.Passes.FiniteMathOnly,
		o.Passes.UnsafeMath, o.Passes.CorrectlyRoundedDivSqrt, o.SIMD, o.GRFs, o.Has4GBBuffers, o.DebugEnv, o.EmitISA, o.SPIRVInZebin, o.ShareVars)
	var kinds []string
	for k := range c.emit {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Fprintf(&b, "emit=%s\n", strings.Join(kinds, ","))
	ids := make([]uint32, 0, len(o.SpecConstants))
	for id := range o.SpecConstants {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		fmt.Fprintf(&b, "spec %d=%s\n", id, hex.EncodeToString(o.SpecConstants[id]))
	}
	return b.String()
}

// Cache entries hold the result's blobs plus these two.
const (
	cacheKernels = "meta/kernels"
	cacheLog     = "meta/log"
)

func (c *compilation) cacheGet(key string) (*result, bool) {
	blobs, ok := cache.Dir{Path: c.f.cacheDir}.Get(key)
	if !ok {
		return nil, false
	}
	r := &result{blobs: map[string][]byte{}, cached: true}
	var entries []logEntry
	if json.Unmarshal(blobs[cacheKernels], &r.kernels) != nil || json.Unmarshal(blobs[cacheLog], &entries) != nil {
		return nil, false
	}
	for name, b := range blobs {
		if !strings.HasPrefix(name, "meta/") {
			r.blobs[name] = b
		}
	}
	if !c.complete(r) {
		return nil, false
	}
	for _, e := range entries {
		c.log.add(e.Level, e.Text)
	}
	return r, true
}

// complete reports whether r has every output the run asks for.
func (c *compilation) complete(r *result) bool {
	for kind := range c.emit {
		switch kind {
		case "zebin", "zeinfo":
			if _, ok := r.blobs[kind]; !ok {
				return false
			}
		default:
			for _, k := range r.kernels {
				if _, ok := r.blobs[kind+"/"+k]; !ok {
					return false
				}
			}
		}
	}
	return true
}

func (c *compilation) cachePut(key string, r *result, entries []logEntry) error {
	blobs := map[string][]byte{}
	for n, b := range r.blobs {
		blobs[n] = b
	}
	var err error
	if blobs[cacheKernels], err = json.Marshal(r.kernels); err != nil {
		return err
	}
	if blobs[cacheLog], err = json.Marshal(entries); err != nil {
		return err
	}
	return cache.Dir{Path: c.f.cacheDir}.Put(key, blobs)
}
