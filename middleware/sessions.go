package middleware

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/negotiation"
)

// sessions keeps each legacy-era session's client, parsed once, and drops
// it when the session ends. With a store, profiles are also kept by session
// id, for sessions whose initialize capabilities the SDK does not keep.
type sessions struct {
	store negotiation.Store

	mu   sync.Mutex
	byID map[*mcp.ServerSession]client
}

func newSessions(store negotiation.Store) *sessions {
	return &sessions{store: store, byID: make(map[*mcp.ServerSession]client)}
}

func (s *sessions) load(ss *mcp.ServerSession) (client, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.byID[ss]
	return c, ok
}

// save keeps c for the session until the session ends.
func (s *sessions) save(ss *mcp.ServerSession, c client) {
	s.mu.Lock()
	_, known := s.byID[ss]
	s.byID[ss] = c
	s.mu.Unlock()

	id := ss.ID()
	if s.store != nil && id != "" {
		s.store.Save(id, c.profile)
	}
	if !known {
		go func() {
			_ = ss.Wait() // returns when the session ends, however it ends
			s.forget(ss, id)
		}()
	}
}

func (s *sessions) forget(ss *mcp.ServerSession, id string) {
	s.mu.Lock()
	delete(s.byID, ss)
	s.mu.Unlock()
	if s.store != nil && id != "" {
		s.store.Forget(id)
	}
}

func (s *sessions) fromStore(id string) (*negotiation.Profile, bool) {
	if s.store == nil || id == "" {
		return nil, false
	}
	return s.store.Load(id)
}

// len returns the number of sessions kept, for tests.
func (s *sessions) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}
