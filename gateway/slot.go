package gateway

import (
	"context"
	"sync"
)

// slot holds an upstream session started on demand: the first caller
// that finds none starts one, and callers that come meanwhile wait for
// it. A session and the shared upstream each have one.
type slot struct {
	mu       sync.Mutex
	up       *upstream
	starting chan struct{}
	closed   bool
}

// get returns the upstream session, started with start when there is
// none; gone is the error once the slot is closed.
func (sl *slot) get(ctx context.Context, start func(context.Context) (*upstream, error), gone func() error) (*upstream, error) {
	sl.mu.Lock()
	for {
		if sl.closed {
			sl.mu.Unlock()
			return nil, gone()
		}
		if sl.up != nil {
			u := sl.up
			sl.mu.Unlock()
			return u, nil
		}
		if sl.starting == nil {
			break
		}
		ch := sl.starting
		sl.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
		sl.mu.Lock()
	}
	ch := make(chan struct{})
	sl.starting = ch
	sl.mu.Unlock()
	u, err := start(ctx)
	sl.mu.Lock()
	sl.starting = nil
	close(ch)
	if err == nil && sl.closed {
		sl.mu.Unlock()
		u.close()
		return nil, gone()
	}
	if err == nil {
		sl.up = u
	}
	sl.mu.Unlock()
	return u, err
}

// current returns the upstream session, nil when there is none.
func (sl *slot) current() *upstream {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.up
}

// take empties the slot and returns what it held.
func (sl *slot) take() *upstream {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	u := sl.up
	sl.up = nil
	return u
}

// forget empties the slot if it holds u, which ended.
func (sl *slot) forget(u *upstream) {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.up == u {
		sl.up = nil
	}
}

// close closes the slot for good and returns what it held.
func (sl *slot) close() *upstream {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	sl.closed = true
	u := sl.up
	sl.up = nil
	return u
}
