//go:build race

package weathermcp_test

// raceEnabled: the race detector makes sync.Pool drop what it is given at
// random, so allocation counts are only kept without it.
const raceEnabled = true
