package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
)

// runAsSlow, set in the environment, makes the test binary run slowApp
// with the command line it holds (see TestMain): a real process to send
// SIGTERM to.
const runAsSlow = "CONTENTNEG_RUN_AS_SLOW"

// slowStarted is the line the slow tool writes on stderr when a call starts.
const slowStarted = "slow call started"

// slowTool is the handler of the tool "slow": it answers after a minute,
// or when its call ends.
func slowTool(ctx context.Context) error {
	fmt.Fprintln(os.Stderr, slowStarted)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Minute):
		return nil
	}
}

// slowApp is a server, on either SDK, with the tool "slow" (slowTool) and
// an output schema, so that REST clients may call it too.
func slowApp() serve.App {
	out := json.RawMessage(`{"type":"object","properties":{"done":{"type":"boolean"}}}`)
	in := json.RawMessage(`{"type":"object"}`)
	return serve.App{
		Name: "slow",
		Provide: []any{func() *mcp.Server {
			s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
			s.AddTool(&mcp.Tool{Name: "slow", InputSchema: in, OutputSchema: out}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if err := slowTool(ctx); err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"done":true}`)}, nil
			})
			return s
		}},
		MCPGo: []any{func() *server.MCPServer {
			s := server.NewMCPServer("slow", "1", server.WithToolCapabilities(false))
			tool := mcpgomcp.NewToolWithRawSchema("slow", "", in)
			tool.RawOutputSchema = out
			s.AddTool(tool, func(ctx context.Context, _ mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
				if err := slowTool(ctx); err != nil {
					return nil, err
				}
				return &mcpgomcp.CallToolResult{RawStructuredContent: json.RawMessage(`{"done":true}`)}, nil
			})
			return s
		}},
	}
}

// runSlow runs slowApp with the arguments in the environment's runAsSlow,
// when it is set, and reports whether it did (then TestMain exits with its
// code).
func runSlow() (int, bool) {
	args := os.Getenv(runAsSlow)
	if args == "" {
		return 0, false
	}
	return serve.Run(context.Background(), slowApp(), strings.Fields(args), os.Stdin, os.Stdout, os.Stderr), true
}

// TestShutdownUnderLoad: SIGTERM of a stateful HTTP server (with the REST
// binding beside it) with 200 MCP sessions open, 16 MCP callers and 4 REST
// callers in a call that would run a minute: every call ends with an error
// and the process exits 0, within the contract's bound (2 s; longer under
// the race detector), on both SDKs (issue 28 item 6).
func TestShutdownUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	const sessions, callers, restCallers = 200, 16, 4
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			child := servetest.StartChild(t, runAsSlow+"=-sdk "+sdk+" -http 127.0.0.1:0 -rest 127.0.0.1:0")
			mcpURL, restURL := "", ""
			mcpAt, restAt := regexp.MustCompile(`serving MCP \(\w+\) at (http://\S+/mcp)`), regexp.MustCompile(`serving REST at (http://\S+)`)
			for mcpURL == "" || restURL == "" {
				select {
				case line := <-child.Lines:
					if m := mcpAt.FindStringSubmatch(line); m != nil {
						mcpURL = m[1]
					}
					if m := restAt.FindStringSubmatch(line); m != nil {
						restURL = m[1]
					}
				case err := <-child.Exited:
					t.Fatalf("the server exited before serving: %v", err)
				case <-time.After(servetest.Timeout):
					t.Fatal("the server did not say where it listens")
				}
			}

			ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
			defer cancel()
			// A client of the test's own, whose connections end with it.
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			// 200 sessions, connected a few at a time.
			css := make([]*mcp.ClientSession, sessions)
			var wg sync.WaitGroup
			sem := make(chan struct{}, 8)
			errs := make(chan error, sessions)
			for i := range css {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer wg.Done()
					defer func() { <-sem }()
					cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: hc}, nil)
					if err != nil {
						errs <- err
						return
					}
					css[i] = cs
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatalf("connect: %v", err)
			}
			defer func() {
				for _, cs := range css {
					_ = cs.Close()
				}
			}()

			// 16 MCP callers and 4 REST callers in the slow tool.
			ended := make(chan error, callers+restCallers)
			for i := range callers {
				go func() {
					_, err := css[i*sessions/callers].CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
					ended <- err
				}()
			}
			for range restCallers {
				go func() {
					req, _ := http.NewRequestWithContext(ctx, http.MethodPost, restURL+"/tools/slow/execute", strings.NewReader(`{"arguments":{}}`))
					req.Header.Set("Content-Type", "application/json")
					resp, err := hc.Do(req)
					if err == nil {
						body, _ := io.ReadAll(resp.Body)
						resp.Body.Close()
						switch {
						case resp.StatusCode == http.StatusServiceUnavailable && strings.Contains(string(body), `"code":"UNAVAILABLE"`):
							err = fmt.Errorf("status %d: %.200s", resp.StatusCode, body)
						case resp.StatusCode != 200:
							t.Errorf("a REST call cut by SIGTERM: status %d, want 503 UNAVAILABLE: %.300s", resp.StatusCode, body)
							err = fmt.Errorf("status %d", resp.StatusCode)
						}
					}
					ended <- err
				}()
			}
			for started := 0; started < callers+restCallers; {
				select {
				case line := <-child.Lines:
					if strings.Contains(line, slowStarted) {
						started++
					}
				case err := <-ended:
					t.Fatalf("a call ended before SIGTERM: %v", err)
				case <-ctx.Done():
					t.Fatalf("%d of %d calls started", started, callers+restCallers)
				}
			}

			start := time.Now()
			if err := child.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			deadline := time.After(shutdownBound)
			for range callers + restCallers {
				select {
				case err := <-ended:
					if err == nil {
						t.Error("a call in flight at SIGTERM succeeded, want an error")
					}
				case <-deadline:
					t.Fatalf("calls still in flight %v after SIGTERM", shutdownBound)
				}
			}
			select {
			case err := <-child.Exited:
				if err != nil {
					t.Errorf("the server exited with %v, want status 0", err)
				}
			case <-deadline:
				t.Fatalf("the server did not exit within %v of SIGTERM with %d sessions and %d calls in flight", shutdownBound, sessions, callers+restCallers)
			}
			t.Logf("exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
		})
	}
}
