package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/interopskip"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

func TestMain(m *testing.M) {
	if args := os.Getenv(runAsDemo); args != "" {
		// The test binary re-executed as the demo, with the command line
		// the variable holds: see TestShutdownWithQuestionsOpen.
		os.Args = append(os.Args[:1], strings.Fields(args)...)
		main()
	}
	goleak.VerifyTestMain(interopskip.Main(m))
}

func TestShowcase(t *testing.T) {
	for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
		t.Run(sdk, func(t *testing.T) {
			t.Setenv(serve.SDKEnv, sdk)
			checkShowcase(t, servetest.Showcase(t, app()))
		})
	}
}

func checkShowcase(t *testing.T, out string) {
	t.Helper()
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
			var stdout, stderr servetest.SyncBuffer
			if got := serve.Run(context.Background(), app(), tt.give, strings.NewReader(""), &stdout, &stderr); got != tt.want {
				t.Errorf("exit code %d, want %d; stderr:\n%s", got, tt.want, stderr.String())
			}
		})
	}
}

func TestStdio(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
			t.Run(sdk+"/"+map[bool]string{false: "stateless", true: "legacy"}[legacy], func(t *testing.T) {
				t.Setenv(serve.SDKEnv, sdk)
				cs := servetest.Stdio(t, app(), &client.Options{Settings: client.Declare("format=text", "verbosity=compact"), Legacy: legacy})
				if _, ok := cs.InitializeResult().Capabilities.Extensions[negotiation.ExtensionID]; !ok {
					t.Error("the extension is not advertised over stdio")
				}
				body := firstText(t, cs, mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}})
				if err := renderers.CheckPlain(body); err != nil || !strings.Contains(body, "Bern") {
					t.Errorf("not compact text (%v): %s", err, body)
				}
			})
		}
	}
}

func TestHTTP(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
			t.Run(sdk+"/"+map[bool]string{false: "stateful", true: "stateless"}[stateless], func(t *testing.T) {
				t.Setenv(serve.SDKEnv, sdk)
				url := servetest.HTTP(t, app(), stateless)
				cs := servetest.HTTPSession(t, url, &client.Options{Settings: client.Declare("human", "format=markdown")})
				body := firstText(t, cs, mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 2}})
				if err := renderers.CheckMarkdown(body); err != nil || !strings.Contains(body, "|") {
					t.Errorf("not a markdown table (%v): %s", err, body)
				}
			})
		}
	}
}

func TestHTTPStopsWithClientsStillConnected(t *testing.T) {
	// A stateful client that never closes its session must not keep the
	// server from stopping, nor leave its session running (goleak checks).
	for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
		for _, legacy := range []bool{false, true} {
			t.Run(sdk+"/"+map[bool]string{false: "stateless", true: "legacy"}[legacy], func(t *testing.T) {
				t.Setenv(serve.SDKEnv, sdk)
				var cs *mcp.ClientSession
				t.Cleanup(func() { // registered first, so it runs after the server stopped
					if cs != nil {
						cs.Close()
					}
				})
				url := servetest.HTTP(t, app(), false)
				ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
				defer cancel()
				opts := &client.Options{Legacy: legacy}
				var err error
				if cs, err = client.New(opts).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, client.SessionOptions(opts)); err != nil {
					t.Fatalf("connect: %v", err)
				}
				firstText(t, cs, mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}})
			})
		}
	}
}

func firstText(t *testing.T, cs *mcp.ClientSession, params mcp.CallToolParams) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &params)
	if err != nil {
		t.Fatalf("call %s: %v", params.Name, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("call %s: no content", params.Name)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// The README's excerpt of the showcase is what the showcase prints on the
// fixed clock it names: each part, in order.
func TestREADMEShowcaseExcerpt(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- showcase -->\n```text\n")
	excerpt, _, closed := strings.Cut(rest, "```\n<!-- /showcase -->")
	if !ok || !closed {
		t.Fatal("README.md has no showcase excerpt between <!-- showcase --> and <!-- /showcase -->")
	}
	t.Setenv("CONTENTNEG_NOW", "2026-11-20T08:00:00+01:00")
	out := servetest.Showcase(t, app())
	for i, part := range strings.Split(excerpt, "...\n") {
		at := strings.Index(out, part)
		if at < 0 {
			t.Fatalf("README excerpt part %d is not in the showcase's output (regenerate it with CONTENTNEG_NOW=2026-11-20T08:00:00+01:00 go run ./cmd/demo-weather):\n%s\n---- output:\n%s", i, part, out)
		}
		out = out[at+len(part):]
	}
}

func TestFixedClock(t *testing.T) {
	if _, err := clock("yesterday"); err == nil {
		t.Error("an unreadable CONTENTNEG_NOW was accepted")
	}
	now, err := clock("2026-11-20T08:00:00+01:00")
	if err != nil || now().Hour() != 8 {
		t.Fatalf("clock: %v", err)
	}
	if now, err := clock(""); now != nil || err != nil {
		t.Errorf("no CONTENTNEG_NOW: a fixed clock (%v), want the current time", err)
	}
}
