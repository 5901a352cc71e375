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

// defaultMaxSessions is the number of sessions a memory store keeps when
// NewMemoryStore is given no positive bound.
const defaultMaxSessions = 10_000

// memoryStore is the in-memory Store of NewMemoryStore.
type memoryStore struct {
	mu    sync.Mutex
	max   int
	order *list.List               // front = most recently used; values are *stored
	items map[string]*list.Element // session id -> element of order
}

type stored struct {
	id      string
	profile *Profile
}

var _ Store = (*memoryStore)(nil)

// NewMemoryStore returns an empty in-memory Store that keeps at most
// maxSessions sessions (10,000 when maxSessions <= 0): when it is full,
// saving a new session evicts the least recently used one. The empty
// session id (in-memory, stdio and stateless transports have no ids) is
// never kept, so that unrelated connections cannot share a profile.
func NewMemoryStore(maxSessions int) Store {
	if maxSessions <= 0 {
		maxSessions = defaultMaxSessions
	}
	return &memoryStore{max: maxSessions, order: list.New(), items: make(map[string]*list.Element)}
}

// Load returns the session's profile and marks the session as recently used.
func (s *memoryStore) Load(sessionID string) (*Profile, bool) {
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
func (s *memoryStore) Save(sessionID string, p *Profile) {
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
func (s *memoryStore) Forget(sessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[sessionID]; ok {
		s.order.Remove(el)
		delete(s.items, sessionID)
	}
}
