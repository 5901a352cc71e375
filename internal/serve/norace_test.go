//go:build !race

package serve_test

import "time"

// shutdownBound is the contract's bound on the exit after SIGTERM: 2 s
// (race_test.go has the bound under the race detector).
const shutdownBound = 2 * time.Second
