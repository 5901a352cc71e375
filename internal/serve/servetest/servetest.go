// Package servetest runs an example server's command in-process, as the
// command line would, and connects test clients to it: over stdio (pipes)
// or streamable HTTP (a free local port). Every run ends, and its exit code
// is checked, when the test does.
package servetest

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/middleware/client"
)

// Timeout bounds every run and every connection made here.
const Timeout = 20 * time.Second

// SyncBuffer is a bytes.Buffer safe to write from one goroutine and read
// from another.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Showcase runs app's default mode and returns what it wrote on stdout; a
// non-zero exit code or anything on stderr fails the test.
func Showcase(t *testing.T, app serve.App) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	var stdout, stderr SyncBuffer
	if code := serve.Run(ctx, app, nil, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	if stderr.String() != "" {
		t.Errorf("the showcase wrote to stderr:\n%s", stderr.String())
	}
	return stdout.String()
}

// Stdio runs app with -stdio and connects a client described by opts. The
// client's close ends the server, whose exit code must be 0.
func Stdio(t *testing.T, app serve.App, opts *client.Options) *mcp.ClientSession {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stderr SyncBuffer
	done := make(chan int)
	go func() {
		code := serve.Run(context.Background(), app, []string{"-stdio"}, stdinR, stdoutW, &stderr)
		stdoutW.Close()
		done <- code
	}()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cs, err := client.New(opts).Connect(ctx, &mcp.IOTransport{Reader: stdoutR, Writer: stdinW}, client.SessionOptions(opts))
	if err != nil {
		stdinW.Close()
		<-done
		t.Fatalf("connect over stdio: %v (stderr: %s)", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close() // closes stdin: the server ends
		if code := <-done; code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
		}
	})
	return cs
}

var (
	servingAt     = regexp.MustCompile(`serving MCP \(\w+\) at (http://\S+/mcp)\n`)
	servingRESTAt = regexp.MustCompile(`serving REST at (http://\S+)\n`)
)

// HTTP runs app with -http on a free local port (and -stateless when asked)
// and returns the server's URL. The server stops when the test ends, and its
// exit code must be 0.
func HTTP(t *testing.T, app serve.App, stateless bool) string {
	t.Helper()
	args := []string{"-http", "127.0.0.1:0"}
	if stateless {
		args = append(args, "-stateless")
	}
	return HTTPWith(t, app, args...)
}

// HTTPWith runs app with args, which must hold -http 127.0.0.1:0, and
// returns the server's URL, as HTTP does.
func HTTPWith(t *testing.T, app serve.App, args ...string) string {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	var stderr SyncBuffer
	done := make(chan int)
	go func() { done <- serve.Run(ctx, app, args, strings.NewReader(""), io.Discard, &stderr) }()
	t.Cleanup(func() {
		stop()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
		}
	})
	for deadline := time.Now().Add(Timeout); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if match := servingAt.FindStringSubmatch(stderr.String()); match != nil {
			return match[1]
		}
	}
	t.Fatalf("the server did not say where it listens; stderr:\n%s", stderr.String())
	return ""
}

// REST runs app with args, which must hold -rest 127.0.0.1:0, and returns
// the REST binding's base URL ("http://127.0.0.1:PORT/mcp/v1") and, when
// args also hold -http, the MCP endpoint's URL. The server stops when the
// test ends, and its exit code must be 0.
func REST(t *testing.T, app serve.App, args ...string) (restURL, mcpURL string) {
	t.Helper()
	restURL, mcpURL, _ = RESTWithStderr(t, app, args...)
	return restURL, mcpURL
}

// RESTWithStderr is REST that also returns what the server writes on
// stderr (its log).
func RESTWithStderr(t *testing.T, app serve.App, args ...string) (restURL, mcpURL string, stderr *SyncBuffer) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	stderr = new(SyncBuffer)
	done := make(chan int)
	go func() { done <- serve.Run(ctx, app, args, strings.NewReader(""), io.Discard, stderr) }()
	t.Cleanup(func() {
		stop()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
		}
	})
	wantMCP := slices.Contains(args, "-http")
	for deadline := time.Now().Add(Timeout); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		out := stderr.String()
		r, m := servingRESTAt.FindStringSubmatch(out), servingAt.FindStringSubmatch(out)
		if r != nil && (!wantMCP || m != nil) {
			if m != nil {
				mcpURL = m[1]
			}
			return r[1], mcpURL, stderr
		}
	}
	t.Fatalf("the server did not say where it listens; stderr:\n%s", stderr.String())
	return "", "", stderr
}

// HTTPSession connects a client described by opts to the server at url; it
// is closed when the test ends.
func HTTPSession(t *testing.T, url string, opts *client.Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cs, err := client.New(opts).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, client.SessionOptions(opts))
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
