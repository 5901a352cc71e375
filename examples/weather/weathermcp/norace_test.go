//go:build !race

package weathermcp_test

const raceEnabled = false
