package negotiation

import (
	"container/list"
	"sync"
)

// Store keeps the profile of each session, for transports where the SDK does
// not keep a session's initialize capabilities. Implementations must be safe
// for concurrent use.
type Store interface {
	// Load returns the profile kept for the session, if any.
	Load(sessionID string) (*Profile, bool)
	// Save keeps p for the session, replacing what was kept.
	Save(sessionID string, p *Profile)
	// Forget drops the session's profile; the session has ended.
	Forget(sessionID string)
}

// DefaultMaxSessions is the number of sessions a [MemoryStore] keeps when
// [NewMemoryStore] is given no positive bound.
const DefaultMaxSessions = 10_000

// MemoryStore is an in-memory [Store] bounded in entries: when it is full,
// saving a new session evicts the least recently used one. The empty
// session id (in-memory, stdio and stateless transports have no ids) is
// never kept, so that unrelated connections cannot share a profile.
type MemoryStore struct {
	mu    sync.Mutex
	max   int
	order *list.List               // front = most recently used; values are *stored
	items map[string]*list.Element // session id -> element of order
}

type stored struct {
	id      string
	profile *Profile
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty store that keeps at most maxSessions
// sessions (DefaultMaxSessions when maxSessions <= 0).
func NewMemoryStore(maxSessions int) *MemoryStore {
	if maxSessions <= 0 {
		maxSessions = DefaultMaxSessions
	}
	return &MemoryStore{max: maxSessions, order: list.New(), items: make(map[string]*list.Element)}
}

// Load returns the session's profile and marks the session as recently used.
func (s *MemoryStore) Load(sessionID string) (*Profile, bool) {
	if sessionID == "" {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.items[sessionID]
	if !ok {
		return nil, false
	}
	s.order.MoveToFront(el)
	return el.Value.(*stored).profile, true
}

// Save keeps p for the session, evicting the least recently used session
// when the store is full. An empty session id is ignored.
func (s *MemoryStore) Save(sessionID string, p *Profile) {
	if sessionID == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[sessionID]; ok {
		el.Value.(*stored).profile = p
		s.order.MoveToFront(el)
		return
	}
	if s.order.Len() >= s.max {
		oldest := s.order.Back()
		s.order.Remove(oldest)
		delete(s.items, oldest.Value.(*stored).id)
	}
	s.items[sessionID] = s.order.PushFront(&stored{id: sessionID, profile: p})
}

// Forget drops the session's profile.
func (s *MemoryStore) Forget(sessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[sessionID]; ok {
		s.order.Remove(el)
		delete(s.items, sessionID)
	}
}

// Len returns the number of sessions kept.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.order.Len()
}
