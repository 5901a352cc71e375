package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	mcpclient "github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testTimeout bounds each test's run of the command and its calls.
const testTimeout = 20 * time.Second

// runShowcase runs the command without flags and returns its stdout.
func runShowcase(t *testing.T) string { return servetest.Showcase(t, app()) }

func TestShowcase(t *testing.T) {
	out := runShowcase(t)
	tests := []struct {
		give string
		want int // occurrences
	}{
		{"==== find_connections ", len(showcaseCalls)},
		{"---- a person (human) -> rendering: markdown\n", len(showcaseCalls)},
		{"---- an agent (agent, format=json, verbosity=compact) -> rendering: structured\n", len(showcaseCalls)},
		{"---- a terminal (format=text, verbosity=compact) -> rendering: text\n", len(showcaseCalls)},
		{"     text: 423 bytes; structuredContent: 950 bytes\n", 1},
		{"    | ## Zürich HB → Bern\n", 1},
		{"    | ### 08:02 → 08:58 · 56 min · direct\n", 1},
		{"    | - 08:02–08:58 **IC 1 709** from Zürich HB (platform 31) to Bern (platform 8)\n", 1},
		{"    | ### 08:04 → 10:33 · 2 h 29 min · 1 change\n", 1},
		{"    | Zürich HB → Bern, Fri 20 Nov 2026\n", 1},
		{"    | 08:04-10:33 2 h 29 min: IC 61 1207 to Olten, IC 21 1108\n", 1},
		{`    | {"connections":[`, 0},
		{"     (no text block: structuredContent alone)\n", len(showcaseCalls)},
		{"  bytes of text: a person 423, an agent 0, a terminal 124\n", 1},
		{"  bytes of text: a person 490, an agent 0, a terminal 154\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if got := strings.Count(out, tt.give); got != tt.want {
				t.Errorf("%q appears %d times, want %d; output:\n%s", tt.give, got, tt.want, out)
			}
		})
	}
}

func TestShowcaseIsDeterministic(t *testing.T) {
	if first, second := runShowcase(t), runShowcase(t); first != second {
		t.Errorf("two runs differ:\n%s\n----\n%s", first, second)
	}
}

func TestStdio(t *testing.T) {
	tests := []struct {
		name   string
		legacy bool
	}{{"stateless", false}, {"legacy", true}}
	for _, tt := range tests {
		for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
			t.Run(sdk+"/"+tt.name, func(t *testing.T) {
				t.Setenv(serve.SDKEnv, sdk)
				cs := servetest.Stdio(t, app(), &mcpclient.Options{Settings: mcpclient.Declare("format=text", "verbosity=compact"), Legacy: tt.legacy})
				if _, ok := cs.InitializeResult().Capabilities.Extensions[negotiation.ExtensionID]; !ok {
					t.Error("the extension is not advertised over stdio")
				}
				body := callText(t, cs, "Interlaken Ost", "Luzern", 1)
				want := "Interlaken Ost → Luzern, Fri 20 Nov 2026\n08:04-10:33 2 h 29 min: IC 61 1207 to Olten, IC 21 1108"
				if err := renderers.CheckPlain(body); err != nil || body != want {
					t.Errorf("compact text (%v):\n got %q\nwant %q", err, body, want)
				}
			})
		}
	}
}

func TestHTTP(t *testing.T) {
	tests := []struct {
		name      string
		stateless bool
	}{{"stateful", false}, {"stateless", true}}
	for _, tt := range tests {
		for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
			t.Run(sdk+"/"+tt.name, func(t *testing.T) {
				t.Setenv(serve.SDKEnv, sdk)
				url := servetest.HTTP(t, app(), tt.stateless)
				cs := servetest.HTTPSession(t, url, &mcpclient.Options{Settings: mcpclient.Declare("human")})
				body := callText(t, cs, "Zürich HB", "Brig", 2)
				if err := renderers.CheckMarkdown(body); err != nil || !strings.Contains(body, "### 08:32 → 10:49 · 2 h 17 min · 1 change") {
					t.Errorf("not the markdown itinerary (%v):\n%s", err, body)
				}
			})
		}
	}
}

// callText calls find_connections at the showcase's departure time and
// returns the first text block.
func callText(t *testing.T, cs *mcp.ClientSession, from, to string, limit int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
	defer cancel()
	params := findConnections(from, to, limit)
	res, err := cs.CallTool(ctx, &params)
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if len(res.Content) == 0 {
		t.Fatal("no content")
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("first block is %T", res.Content[0])
	}
	return tc.Text
}

func TestShowcaseIsTheSameOnBothSDKs(t *testing.T) {
	t.Setenv(serve.SDKEnv, serve.SDKGo)
	goSDK := runShowcase(t)
	t.Setenv(serve.SDKEnv, serve.SDKMCPGo)
	if mcpGo := runShowcase(t); mcpGo != goSDK {
		t.Errorf("the showcase on mcp-go differs:\n%s\n---- go-sdk:\n%s", mcpGo, goSDK)
	}
}
