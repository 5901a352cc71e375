//go:build unix

package renderers

import "syscall"

// cpuTime returns the user and system CPU time the process has used, in nanoseconds, or 0 when it
// cannot be read.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
