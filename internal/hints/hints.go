// Package hints holds the collector of the reasoning hints a handler
// attaches to its result with negotiation.AddHints: package shaping keeps
// one in each call whose profile wants hints, and negotiation finds it in
// the call's context.
package hints

import (
	"slices"
	"sync"
)

// max bounds what one call can collect.
const max = 32

// Collector collects the hints of one call. Its zero value is empty and
// ready to use; it is safe for concurrent use.
type Collector struct {
	mu    sync.Mutex
	hints []string
}

// Add appends hints, ignoring empty ones and any beyond the 32nd.
func (h *Collector) Add(hints ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range hints {
		if s != "" && len(h.hints) < max {
			h.hints = append(h.hints, s)
		}
	}
}

// All returns a copy of the hints, in the order they were added; nil for a
// nil Collector.
func (h *Collector) All() []string {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.hints)
}
