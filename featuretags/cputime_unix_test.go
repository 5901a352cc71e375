//go:build unix

package featuretags_test

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU reports the process's CPU time per operation since start as
// "cpu-ns/op": on a machine shared with other work, wall time per
// operation grows with the load, CPU time much less.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
