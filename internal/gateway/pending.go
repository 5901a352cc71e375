package gateway

import "sync"

// pending is work asked for and not yet taken, by key, with the latest
// value for each: asking never blocks (the upstream's notification
// handlers, which run on its session's reading goroutine, ask) and never
// drops a key, and a key asked for again before it is taken is done once.
// One goroutine waits on wake and takes.
type pending[K comparable, V any] struct {
	mu   sync.Mutex
	due  map[K]V
	wake chan struct{} // one slot: a wake-up already due covers later asks
}

func newPending[K comparable, V any]() *pending[K, V] {
	return &pending[K, V]{due: map[K]V{}, wake: make(chan struct{}, 1)}
}

// ask records k with v, over any value k had, and wakes the taker.
func (p *pending[K, V]) ask(k K, v V) {
	p.mu.Lock()
	p.due[k] = v
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// forget drops k if it is due.
func (p *pending[K, V]) forget(k K) {
	p.mu.Lock()
	delete(p.due, k)
	p.mu.Unlock()
}

// take returns what is due and leaves nothing due.
func (p *pending[K, V]) take() map[K]V {
	p.mu.Lock()
	defer p.mu.Unlock()
	due := p.due
	p.due = map[K]V{}
	return due
}
