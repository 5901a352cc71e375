//go:build race

package serve_test

import "time"

// shutdownBound is how long the process may take to exit after SIGTERM.
// Under the race detector, which slows a program several times over on a
// loaded machine, the bound only shows that nothing waits for a client;
// .ci/run runs the shutdown tests again without it, where the contract's
// 2 s applies.
const shutdownBound = 10 * time.Second
