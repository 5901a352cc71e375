package rest

import (
	"slices"
	"sync"

	"github.com/contentneg/contentneg/shaping"
)

// acceptCache remembers which media type an Accept header selects, so that
// a client sending the same header on every request pays for parsing it
// once. An entry holds the media types the negotiator offered when it was
// made; it is used only while the negotiator offers the same ones (a format
// registered later invalidates it). Only successes are kept, only for
// headers of at most maxCachedAccept bytes, and the cache is emptied when
// it reaches maxAcceptEntries: its memory stays bounded whatever clients send.
type acceptCache struct {
	mu sync.Mutex
	m  map[acceptKey]acceptEntry
}

type acceptKey struct {
	neg    *shaping.Negotiator
	accept string
}

type acceptEntry struct {
	offered   []string // neg.MediaTypes() when the entry was made
	mediaType string
}

const (
	maxAcceptEntries = 256
	maxCachedAccept  = 256
)

// get returns the media type cached for accept, when neg still offers the
// media types it offered then.
func (c *acceptCache) get(neg *shaping.Negotiator, accept string, offered []string) (string, bool) {
	if len(accept) > maxCachedAccept {
		return "", false
	}
	c.mu.Lock()
	e, ok := c.m[acceptKey{neg, accept}]
	c.mu.Unlock()
	if !ok || !slices.Equal(e.offered, offered) {
		return "", false
	}
	return e.mediaType, true
}

// put remembers that accept selects mediaType among offered.
func (c *acceptCache) put(neg *shaping.Negotiator, accept string, offered []string, mediaType string) {
	if len(accept) > maxCachedAccept {
		return
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxAcceptEntries {
		c.m = make(map[acceptKey]acceptEntry)
	}
	c.m[acceptKey{neg, accept}] = acceptEntry{offered: offered, mediaType: mediaType}
	c.mu.Unlock()
}
