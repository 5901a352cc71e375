//go:build !unix

package renderers

// cpuTime is not measured on this platform.
func cpuTime() int64 { return 0 }
