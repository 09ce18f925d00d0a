package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// proc is one command to time: an executable, its arguments, the
// directory it runs in (emptied before each run, so every run writes
// its outputs afresh) and its environment.
type proc struct {
	name string
	args []string
	dir  string
	env  []string
}

// sample is one timed run: wall time from start to exit, CPU time (user
// and system, the process's and its reaped children's) and peak RSS.
type sample struct {
	wall, cpu time.Duration
	rss       int64 // KiB
}

// measure runs p once and times the process: fork, exec and exit
// included, as for any command a build system runs. Peak RSS is the
// child's ru_maxrss from wait4 (what /usr/bin/time -f %M prints; it
// covers the child's own children, such as GenX_IR, once reaped): RSS is
// taken from every timed run rather than from a run under /usr/bin/time,
// whose own fork and exec would add to the times.
func (p proc) measure() (sample, error) {
	if err := os.RemoveAll(p.dir); err != nil {
		return sample{}, err
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return sample{}, err
	}
	cmd := exec.Command(p.name, p.args...)
	cmd.Dir = p.dir
	cmd.Env = p.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v\n%s", p.command(), err, firstLines(out.String(), 8))
	}
	s := sample{wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rss = ru.Maxrss // KiB on Linux
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return s, nil
}

// command is p as a shell command line, for messages and the report.
func (p proc) command() string {
	return strings.Join(append([]string{p.name}, p.args...), " ")
}

// interleave times the procs runs times each, the procs one after
// another within a round and the starting one rotated from round to
// round, so that load on the machine falls on every side alike.
func interleave(procs []proc, runs int) ([][]sample, error) {
	samples := make([][]sample, len(procs))
	for r := 0; r < runs; r++ {
		for k := range procs {
			i := (r + k) % len(procs)
			s, err := procs[i].measure()
			if err != nil {
				return nil, err
			}
			samples[i] = append(samples[i], s)
		}
	}
	return samples, nil
}

// stats are the medians of a proc's samples, and every run's wall time.
type stats struct {
	wall, cpu time.Duration
	rss       int64
	runs      []time.Duration
}

func summarize(ss []sample) stats {
	var st stats
	var cpu []time.Duration
	var rss []int64
	for _, s := range ss {
		st.runs = append(st.runs, s.wall)
		cpu = append(cpu, s.cpu)
		rss = append(rss, s.rss)
	}
	st.wall = median(st.runs)
	st.cpu = median(cpu)
	st.rss = median(rss)
	return st
}

func median[T int64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cleanEnv is the environment without IGC's debug variables, so that no
// dump setting of the caller slows the timed ocloc runs.
func cleanEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "IGC_") {
			env = append(env, e)
		}
	}
	return env
}

// firstLines returns at most n lines of s.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}
