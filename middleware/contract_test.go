package middleware_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
)

// addReport registers the tool "report", with an output schema or without
// one; its handler gives structured content either way.
func addReport(s *mcp.Server, withSchema bool) {
	tool := &mcp.Tool{Name: "report", InputSchema: json.RawMessage(`{"type":"object"}`)}
	if withSchema {
		tool.OutputSchema = json.RawMessage(`{"type":"object","properties":{"t":{"type":"number"}}}`)
	}
	s.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"t":8}`}}, StructuredContent: map[string]any{"t": 8}}, nil
	})
}

// A markdown client keeps structuredContent exactly when the tool, as the
// server has it now, declares an output schema: learned per server (one
// Middleware may serve several) and again when a tool is replaced.
func TestOutputSchemaIsKnownPerServerAndAsItIsNow(t *testing.T) {
	human := &client.Options{Settings: client.Declare("human")}
	for _, e := range eras {
		t.Run(e.name+"/replaced", func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
			addReport(s, false)
			middleware.Install(s, nil)
			cs := middlewaretest.Connect(t, s, &client.Options{Settings: human.Settings, Legacy: e.legacy})
			if res := call(t, cs, "report", map[string]any{}); res.StructuredContent != nil {
				t.Fatalf("without an output schema: structuredContent %v, want none", res.StructuredContent)
			}
			addReport(s, true) // replaces the tool
			if res := call(t, cs, "report", map[string]any{}); res.StructuredContent == nil {
				t.Errorf("after the tool got an output schema: structuredContent dropped, which the MCP spec forbids")
			}
		})
		t.Run(e.name+"/two servers", func(t *testing.T) {
			m := middleware.New(nil)
			without := mcp.NewServer(&mcp.Implementation{Name: "a", Version: "1"}, nil)
			addReport(without, false)
			m.Install(without)
			with := mcp.NewServer(&mcp.Implementation{Name: "b", Version: "1"}, nil)
			addReport(with, true)
			m.Install(with)
			opts := &client.Options{Settings: human.Settings, Legacy: e.legacy}
			if res := call(t, middlewaretest.Connect(t, without, opts), "report", map[string]any{}); res.StructuredContent != nil {
				t.Fatalf("server without the schema: structuredContent %v, want none", res.StructuredContent)
			}
			if res := call(t, middlewaretest.Connect(t, with, opts), "report", map[string]any{}); res.StructuredContent == nil {
				t.Errorf("server with the schema: structuredContent dropped")
			}
		})
	}
}

// A declared client without the elicitation capability whose handler
// returns inputRequests gets the gate's local decline in both eras (in the
// legacy era the SDK's bridge would otherwise fail the call).
func TestDeclaredClientWithoutTheCapabilityGetsTheLocalDecline(t *testing.T) {
	for _, e := range eras {
		for _, tags := range [][]string{{"agent"}, {"human", "interactive"}} {
			t.Run(e.name+"/"+strings.Join(tags, ","), func(t *testing.T) {
				cs := middlewaretest.Connect(t, newAskingServer(&middleware.Options{}), &client.Options{Settings: client.Declare(tags...), Legacy: e.legacy})
				res := call(t, cs, "returns", map[string]any{})
				if got := strings.Join(textBlocks(res), ""); res.IsError || !strings.Contains(got, "answer: decline") {
					t.Errorf("result = %s, want the handler's answer to a local decline", mustJSON(t, res))
				}
			})
		}
	}
}

// In the legacy era a request's own _meta client capabilities come first
// (resolution step 1), before the session's initialize capabilities.
func TestLegacyRequestMetaCapabilitiesComeFirst(t *testing.T) {
	s, _ := newServer(&middleware.Options{})
	cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare("human"), Legacy: true})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	meta := mcp.Meta{mcp.MetaKeyClientCapabilities: map[string]any{
		"extensions": map[string]any{negotiation.ExtensionID: client.Declare("format=text", "verbosity=compact")},
	}}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: toolTyped, Arguments: map[string]any{"station": "Bern"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := onlyText(t, res); strings.Contains(got, "**") || !strings.Contains(got, "station=Bern") {
		t.Errorf("text = %q, want the compact text the request's own capabilities ask for", got)
	}
}

// A gated elicitation sent with a context that does not come from the call
// is still logged with the tool's name.
func TestGatedElicitationOutsideTheCallIsLoggedWithTheTool(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "detached", InputSchema: emptyObject}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(context.Background(), question) // not the call's context
		if err != nil {
			return nil, err
		}
		return answered(res.Action), nil
	})
	middleware.Install(s, &middleware.Options{Logger: zap.New(core)})
	cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare("!interactive"), Legacy: true, Client: failIfAsked(t)})
	if got := onlyText(t, call(t, cs, "detached", map[string]any{})); got != "answer: decline" {
		t.Fatalf("text = %q, want the gate's refusal", got)
	}
	gated := logs.FilterMessage("elicitation gated").All()
	if len(gated) != 1 || gated[0].ContextMap()["tool"] != "detached" {
		t.Errorf("log = %v, want one line naming the tool", gated)
	}
}

// With the SDK's sessions in stateless mode, a legacy client's profile
// comes from the store (resolution step 3) on every later request, and
// outlives the throwaway connection of the initialize request. The SDK
// reads MCPGODEBUG once at start, so the test runs itself in a child
// process with it set.
func TestStoreServesLegacyClientsOfStatelessHTTPWithSessions(t *testing.T) {
	if os.Getenv("MCPGODEBUG") != "allowsessionsinstateless=1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStoreServesLegacyClientsOfStatelessHTTPWithSessions$", "-test.v")
		cmd.Env = append(os.Environ(), "MCPGODEBUG=allowsessionsinstateless=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("in a child process with MCPGODEBUG=allowsessionsinstateless=1: %v\n%s", err, out)
		}
		return
	}
	store := negotiation.NewMemoryStore(10)
	s, _ := newServer(&middleware.Options{Store: store})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer srv.Close()
	cs := connectHTTP(t, srv.URL, &client.Options{Settings: client.Declare("human"), Legacy: true})
	if cs.ID() == "" {
		t.Fatal("no session id: the SDK did not run with sessions in stateless mode")
	}
	for i := range 3 {
		if got := onlyText(t, call(t, cs, toolTyped, map[string]any{"station": "Bern"})); !strings.Contains(got, "**") {
			t.Fatalf("call %d: text = %q, want markdown for the human client", i, got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
