package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// syncBuffer is a bytes.Buffer safe to write from one goroutine and read
// from another.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestShowcase(t *testing.T) {
	var stdout, stderr syncBuffer
	code := serve.Run(context.Background(), app(), nil, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"rendering: pass-through", "rendering: structured", "rendering: markdown", "rendering: text",
		"get_weather", "get_forecast", "Bern, Switzerland", "bytes",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("showcase output lacks %q", want)
		}
	}
	if got := strings.Count(out, "-- get_weather"); got != len(showcaseProfiles) {
		t.Errorf("%d get_weather calls shown, want %d", got, len(showcaseProfiles))
	}
	if stderr.String() != "" {
		t.Errorf("the showcase wrote to stderr:\n%s", stderr.String())
	}
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name string
		give []string
		want int
	}{
		{"help", []string{"-h"}, 0},
		{"unknown flag", []string{"-nope"}, 2},
		{"stray argument", []string{"extra"}, 2},
		{"stdio and http", []string{"-stdio", "-http", ":0"}, 2},
		{"stateless without http", []string{"-stateless"}, 2},
		{"unusable address", []string{"-http", "256.0.0.1:bad"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr syncBuffer
			if got := serve.Run(context.Background(), app(), tt.give, strings.NewReader(""), &stdout, &stderr); got != tt.want {
				t.Errorf("exit code %d, want %d; stderr:\n%s", got, tt.want, stderr.String())
			}
		})
	}
}

func TestStdio(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "stateless", true: "legacy"}[legacy], func(t *testing.T) {
			stdinR, stdinW := io.Pipe()
			stdoutR, stdoutW := io.Pipe()
			var stderr syncBuffer
			done := make(chan int)
			go func() {
				code := serve.Run(context.Background(), app(), []string{"-stdio"}, stdinR, stdoutW, &stderr)
				stdoutW.Close()
				done <- code
			}()

			opts := &middlewaretest.Options{Settings: middlewaretest.Declare("format=text", "verbosity=compact"), Legacy: legacy}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cs, err := middlewaretest.NewClient(opts).Connect(ctx, &mcp.IOTransport{Reader: stdoutR, Writer: stdinW}, middlewaretest.SessionOptions(opts))
			if err != nil {
				t.Fatalf("connect over stdio: %v (stderr: %s)", err, stderr.String())
			}
			if _, ok := cs.InitializeResult().Capabilities.Extensions[negotiation.ExtensionID]; !ok {
				t.Error("the extension is not advertised over stdio")
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}})
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			body := res.Content[0].(*mcp.TextContent).Text
			if err := renderers.CheckPlain(body); err != nil || !strings.Contains(body, "Bern") {
				t.Errorf("not compact text (%v): %s", err, body)
			}
			cs.Close() // closes stdin: the server ends
			if code := <-done; code != 0 {
				t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
			}
		})
	}
}

var servingAt = regexp.MustCompile(`at (http://\S+/mcp)`)

func TestHTTP(t *testing.T) {
	modes := []struct {
		name string
		args []string
	}{
		{"stateful", []string{"-http", "127.0.0.1:0"}},
		{"stateless", []string{"-http", "127.0.0.1:0", "-stateless"}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			ctx, stop := context.WithCancel(context.Background())
			var stdout, stderr syncBuffer
			done := make(chan int)
			go func() { done <- serve.Run(ctx, app(), m.args, strings.NewReader(""), &stdout, &stderr) }()

			var url string
			deadline := time.Now().Add(10 * time.Second)
			for url == "" && time.Now().Before(deadline) {
				if match := servingAt.FindStringSubmatch(stderr.String()); match != nil {
					url = match[1]
				}
				time.Sleep(10 * time.Millisecond)
			}
			if url == "" {
				stop()
				<-done
				t.Fatalf("the server did not say where it listens; stderr:\n%s", stderr.String())
			}

			callCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			opts := &middlewaretest.Options{Settings: middlewaretest.Declare("human", "format=markdown")}
			cs, err := middlewaretest.NewClient(opts).Connect(callCtx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 2}})
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			body := res.Content[0].(*mcp.TextContent).Text
			if err := renderers.CheckMarkdown(body); err != nil || !strings.Contains(body, "|") {
				t.Errorf("not a markdown table (%v): %s", err, body)
			}
			cs.Close()
			stop()
			if code := <-done; code != 0 {
				t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
			}
		})
	}
}
