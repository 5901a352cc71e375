package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather/weathermcp/weathermcptest"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// stdioSession runs the demo with -stdio in-process and connects a client
// described by opts; the server ends when the test does.
func stdioSession(t *testing.T, opts *middlewaretest.Options) *mcp.ClientSession {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int)
	go func() {
		code := serve.Run(context.Background(), app(), []string{"-stdio"}, stdinR, stdoutW, &stderr)
		stdoutW.Close()
		done <- code
	}()
	ctx, cancel := context.WithTimeout(context.Background(), weathermcptest.Timeout)
	defer cancel()
	cs, err := middlewaretest.NewClient(opts).Connect(ctx, &mcp.IOTransport{Reader: stdoutR, Writer: stdinW}, middlewaretest.SessionOptions(opts))
	if err != nil {
		t.Fatalf("connect over stdio: %v (stderr: %s)", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
		}
	})
	return cs
}

// httpServer runs the demo with -http on a free port and returns its URL;
// the server stops when the test ends.
func httpServer(t *testing.T, stateless bool) string {
	t.Helper()
	args := []string{"-http", "127.0.0.1:0"}
	if stateless {
		args = append(args, "-stateless")
	}
	ctx, stop := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan int)
	go func() { done <- serve.Run(ctx, app(), args, strings.NewReader(""), io.Discard, &stderr) }()
	t.Cleanup(func() {
		stop()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if match := servingAt.FindStringSubmatch(stderr.String()); match != nil {
			return match[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the server did not say where it listens; stderr:\n%s", stderr.String())
	return ""
}

func httpSession(t *testing.T, url string, opts *middlewaretest.Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), weathermcptest.Timeout)
	defer cancel()
	cs, err := middlewaretest.NewClient(opts).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, middlewaretest.SessionOptions(opts))
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func options(c weathermcptest.Client, legacy bool) *middlewaretest.Options {
	return &middlewaretest.Options{Settings: c.Settings, Legacy: legacy, Client: c.Options}
}

func TestElicitationOverStdio(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		era := map[bool]string{false: "stateless", true: "legacy"}[legacy]
		for _, c := range weathermcptest.CannotAnswer(t) {
			t.Run(era+"/never asked/"+c.Name, func(t *testing.T) {
				weathermcptest.CheckNeverAsked(t, stdioSession(t, options(c, legacy)))
			})
		}
		t.Run(era+"/asked", func(t *testing.T) {
			c, asked := weathermcptest.CanAnswer()
			weathermcptest.CheckAsked(t, stdioSession(t, options(c, legacy)), asked)
		})
	}
}

func TestElicitationOverHTTP(t *testing.T) {
	modes := []struct {
		name      string
		stateless bool
		legacy    bool
		canAsk    bool // whether the mode can put a question to a client at all
	}{
		{"stateful", false, false, true}, // the client falls back to the legacy era
		{"stateless", true, false, true},
		// The stateless handler cannot reach a legacy client: no profile is
		// recovered and the SDK refuses server-to-client requests at once.
		{"stateless, legacy client", true, true, false},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			url := httpServer(t, m.stateless)
			// The clients that cannot answer go first: the server's alerts
			// are shared, and the answering client sets one.
			for _, c := range weathermcptest.CannotAnswer(t) {
				t.Run("never asked/"+c.Name, func(t *testing.T) {
					weathermcptest.CheckNeverAsked(t, httpSession(t, url, options(c, m.legacy)))
				})
			}
			if !m.canAsk {
				return
			}
			t.Run("asked", func(t *testing.T) {
				c, asked := weathermcptest.CanAnswer()
				weathermcptest.CheckAsked(t, httpSession(t, url, options(c, m.legacy)), asked)
			})
		})
	}
}
