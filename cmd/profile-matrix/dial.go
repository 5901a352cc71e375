package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/matrix"
)

// How long a server started with -command gets to exit once its stdin is
// closed, and to close its output once it has exited.
const (
	terminateAfter = 3 * time.Second
	waitDelay      = 3 * time.Second
)

// commandDial starts argv once per profile and talks to it over stdio. Each
// server's stderr is kept, its last bytes only, in logs.
func commandDial(argv []string, logs *serverLogs) matrix.Dial {
	return func(ctx context.Context, p matrix.Profile) (mcp.Transport, error) {
		if len(argv) == 0 {
			return nil, fmt.Errorf("no command")
		}
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stderr = logs.new(p.Name)
		cmd.WaitDelay = waitDelay
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}, nil
	}
}

// httpDial connects to a streamable HTTP endpoint once per profile, reading
// at most maxResponseBody bytes of each response.
func httpDial(endpoint string) matrix.Dial {
	client := &http.Client{Transport: limitTransport{http.DefaultTransport}}
	return func(context.Context, matrix.Profile) (mcp.Transport, error) {
		return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: client}, nil
	}
}

// maxResponseBody bounds each HTTP response body: the SDK reads a JSON
// response whole, with no bound of its own.
const maxResponseBody = 32 << 20

// errResponseTooLarge is returned by a response body read past its bound.
var errResponseTooLarge = errors.New("the server's response is larger than 32 MiB")

// limitTransport bounds the bodies of the responses of base.
type limitTransport struct{ base http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: maxResponseBody}
	return resp, nil
}

// limitedBody reads at most left bytes of rc, then fails with
// errResponseTooLarge if there is more.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

// Read implements io.Reader.
func (b *limitedBody) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.left <= 0 {
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 && err != nil {
			return 0, err
		}
		return 0, errResponseTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

// Close implements io.Closer.
func (b *limitedBody) Close() error { return b.rc.Close() }

// maxServerLog is how much of each server's stderr is kept.
const maxServerLog = 4 << 10

// serverLogs keeps the end of the stderr of each server started, by profile.
type serverLogs struct {
	mu   sync.Mutex
	logs map[string]*tail
}

// new returns the writer for the stderr of profile's server.
func (s *serverLogs) new(profile string) *tail {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.logs == nil {
		s.logs = make(map[string]*tail)
	}
	t := &tail{}
	s.logs[profile] = t
	return t
}

// get returns what profile's server wrote to stderr, its last bytes only.
func (s *serverLogs) get(profile string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.logs[profile]; t != nil {
		return t.String()
	}
	return ""
}

// tail is a writer that keeps the last maxServerLog bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	cut bool
}

// Write implements io.Writer.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= maxServerLog {
		t.buf = append(t.buf[:0], p[len(p)-maxServerLog:]...)
		t.cut = true
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - maxServerLog; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(p), nil
}

// String returns the bytes kept, after "..." when earlier ones were dropped.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return "..." + string(t.buf)
	}
	return string(t.buf)
}
