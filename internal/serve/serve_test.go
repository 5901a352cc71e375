package serve_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
)

func TestMain(m *testing.M) {
	if code, ran := runSlow(); ran {
		// The test binary re-executed as a server: see
		// TestShutdownUnderLoad.
		os.Exit(code)
	}
	goleak.VerifyTestMain(m)
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		give    []string
		want    serve.Config
		wantErr bool
	}{
		{"no flags: the showcase", nil, serve.Config{}, false},
		{"session idle", []string{"-http", ":8080", "-session-idle", "1m"}, serve.Config{HTTPAddr: ":8080", SessionIdle: time.Minute}, false},
		{"session idle negative", []string{"-http", ":8080", "-session-idle", "-1s"}, serve.Config{HTTPAddr: ":8080", SessionIdle: -time.Second}, true},
		{"idle sessions kept", []string{"-http", ":8080", "-session-idle", "0"}, serve.Config{HTTPAddr: ":8080"}, false},
		{"stdio", []string{"-stdio"}, serve.Config{Stdio: true}, false},
		{"http", []string{"-http", ":8080"}, serve.Config{HTTPAddr: ":8080"}, false},
		{"stateless http, verbose", []string{"-http", ":8080", "-stateless", "-v"}, serve.Config{HTTPAddr: ":8080", Stateless: true, Verbose: true}, false},
		{"stdio and http", []string{"-stdio", "-http", ":1"}, serve.Config{Stdio: true, HTTPAddr: ":1"}, true},
		{"stateless alone", []string{"-stateless"}, serve.Config{Stateless: true}, true},
		{"rest", []string{"-rest", ":8081"}, serve.Config{RESTAddr: ":8081"}, false},
		{"rest beside http", []string{"-http", ":8080", "-rest", ":8081"}, serve.Config{HTTPAddr: ":8080", RESTAddr: ":8081"}, false},
		{"stray argument", []string{"now"}, serve.Config{}, true},
		{"unknown flag", []string{"-x"}, serve.Config{}, true},
		{"mcp-go", []string{"-sdk", "mcp-go", "-stdio"}, serve.Config{Stdio: true, MCPGo: true}, false},
		{"go-sdk named", []string{"-sdk", "go-sdk"}, serve.Config{}, false},
		{"unknown SDK", []string{"-sdk", "mcp-py"}, serve.Config{}, true},
	}
	t.Setenv(serve.SDKEnv, "") // the default is the go-sdk
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := serve.ParseFlags("test", tt.give, &stderr)
			if (err != nil) != tt.wantErr {
				t.Errorf("error = %v, want error %v", err, tt.wantErr)
			}
			if !slices.Contains(tt.give, "-session-idle") {
				tt.want.SessionIdle = serve.DefaultSessionIdle
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			if tt.wantErr && stderr.Len() == 0 {
				t.Error("a usage error wrote nothing to stderr")
			}
		})
	}
}

func testApp(showcase func(context.Context, io.Writer, *mcp.Server) error) serve.App {
	return serve.App{
		Name:     "test",
		Provide:  []any{func() *mcp.Server { return mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil) }},
		Showcase: showcase,
	}
}

func TestShowcaseExitCodes(t *testing.T) {
	tests := []struct {
		name       string
		give       error
		want       int
		wantStderr string
	}{
		{"success", nil, 0, ""},
		{"failure", errors.New("the server did not answer"), 1, "test: the server did not answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			app := testApp(func(_ context.Context, w io.Writer, _ *mcp.Server) error {
				io.WriteString(w, "shown")
				return tt.give
			})
			if got := serve.Run(context.Background(), app, nil, strings.NewReader(""), &stdout, &stderr); got != tt.want {
				t.Errorf("exit code %d, want %d", got, tt.want)
			}
			if stdout.String() != "shown" || !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
			}
		})
	}
}

func TestMissingServerConstructorFails(t *testing.T) {
	var stderr bytes.Buffer
	app := serve.App{Name: "broken", Showcase: func(context.Context, io.Writer, *mcp.Server) error { return nil }}
	if got := serve.Run(context.Background(), app, nil, strings.NewReader(""), io.Discard, &stderr); got != 1 {
		t.Errorf("exit code %d, want 1", got)
	}
	if !strings.Contains(stderr.String(), "mcp.Server") {
		t.Errorf("stderr does not name the missing type: %s", stderr.String())
	}
}

func TestTheSDKDefaultsToTheEnvironment(t *testing.T) {
	tests := []struct {
		env     string
		args    []string
		want    bool
		wantErr bool
	}{
		{"", nil, false, false},
		{"mcp-go", nil, true, false},
		{"mcp-go", []string{"-sdk", "go-sdk"}, false, false},
		{"go-sdk", []string{"-sdk", "mcp-go"}, true, false},
		{"nonsense", nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.env+"/"+strings.Join(tt.args, " "), func(t *testing.T) {
			t.Setenv(serve.SDKEnv, tt.env)
			cfg, err := serve.ParseFlags("test", tt.args, io.Discard)
			if (err != nil) != tt.wantErr || cfg.MCPGo != tt.want {
				t.Errorf("MCPGo = %v, error %v; want %v, error %v", cfg.MCPGo, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestAnAppWithoutAnMCPGoVersionSaysSo(t *testing.T) {
	var stderr bytes.Buffer
	app := testApp(func(context.Context, io.Writer, *mcp.Server) error { return nil })
	if got := serve.Run(context.Background(), app, []string{"-sdk", "mcp-go"}, strings.NewReader(""), io.Discard, &stderr); got != 1 {
		t.Errorf("exit code %d, want 1", got)
	}
	if !strings.Contains(stderr.String(), "no mcp-go version") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func TestListenErrorIsOneLine(t *testing.T) {
	tests := []struct{ flag, what string }{
		{"-http", "serve HTTP"},
		{"-rest", "serve REST"},
	}
	for _, tt := range tests {
		t.Run(tt.flag, func(t *testing.T) {
			taken, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer taken.Close()
			var stderr servetest.SyncBuffer
			app := testApp(func(context.Context, io.Writer, *mcp.Server) error { return nil })
			code := serve.Run(t.Context(), app, []string{tt.flag, taken.Addr().String()}, strings.NewReader(""), io.Discard, &stderr)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			want := "test: " + tt.what + ": listen tcp " + taken.Addr().String() + ": bind: address already in use\n"
			if got := stderr.String(); got != want {
				t.Errorf("stderr:\n%s\nwant the one line\n%s", got, want)
			}
		})
	}
}

func TestVerboseLogsTheNegotiation(t *testing.T) {
	// -v over stdio: a client with a profile calls a tool; stderr has the
	// negotiation's debug line and nothing of fx.
	app := serve.App{
		Name: "test",
		Provide: []any{func() *mcp.Server {
			s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			s.AddTool(&mcp.Tool{Name: "echo", InputSchema: &jsonschema.Schema{Type: "object"}},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"a":1}`}}}, nil
				})
			return s
		}},
	}
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stderr servetest.SyncBuffer
	done := make(chan int)
	go func() {
		code := serve.Run(context.Background(), app, []string{"-v", "-stdio"}, stdinR, stdoutW, &stderr)
		stdoutW.Close()
		done <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{Capabilities: agentCapabilities()})
	cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: stdoutR, Writer: stdinW}, nil)
	if err != nil {
		stdinW.Close()
		<-done
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr.String())
	}
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}}); err != nil {
		t.Errorf("call: %v", err)
	}
	cs.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit code %d", code)
	}
	log := stderr.String()
	if !strings.Contains(log, "profile negotiated") || !strings.Contains(log, `"audience": "agent"`) {
		t.Errorf("stderr lacks the negotiation:\n%s", log)
	}
	if strings.Contains(log, "fx\t") || strings.Contains(log, "provided") {
		t.Errorf("stderr holds fx's events:\n%s", log)
	}
}

// agentCapabilities declares the extension with the tag agent.
func agentCapabilities() *mcp.ClientCapabilities {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension("io.modelcontextprotocol/content-negotiation", map[string]any{"version": "1.0", "features": []string{"agent"}})
	return caps
}

// A stop asked for while the application starts (a signal, or the
// command's context ending right after the start) is a clean stop: exit
// code 0, nothing on stderr, nothing left running. fx's Start alone would
// give up with context.Canceled, and the command exit 1.
func TestStopWhileStartingIsExitZero(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"go-sdk/http", []string{"-sdk", "go-sdk", "-http", "127.0.0.1:0"}},
		{"go-sdk/http stateless", []string{"-sdk", "go-sdk", "-http", "127.0.0.1:0", "-stateless"}},
		{"go-sdk/rest", []string{"-sdk", "go-sdk", "-rest", "127.0.0.1:0"}},
		{"mcp-go/http", []string{"-sdk", "mcp-go", "-http", "127.0.0.1:0"}},
		{"mcp-go/http stateless", []string{"-sdk", "mcp-go", "-http", "127.0.0.1:0", "-stateless"}},
		{"mcp-go/rest", []string{"-sdk", "mcp-go", "-rest", "127.0.0.1:0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// The server's constructor hooks a start step that ends the
			// command's context: the stop arrives while the application
			// is still starting, every time.
			stopOnStart := func(lc fx.Lifecycle) {
				lc.Append(fx.StartHook(cancel))
			}
			app := testApp(func(context.Context, io.Writer, *mcp.Server) error { return nil })
			app.Provide = []any{func(lc fx.Lifecycle) *mcp.Server {
				stopOnStart(lc)
				return mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			}}
			app.MCPGo = []any{func(lc fx.Lifecycle) *server.MCPServer {
				stopOnStart(lc)
				return server.NewMCPServer("t", "1")
			}}
			var stderr servetest.SyncBuffer
			if code := serve.Run(ctx, app, tt.args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
				t.Errorf("exit code %d, want 0; stderr:\n%s", code, stderr.String())
			}
			if strings.Contains(stderr.String(), "context canceled") {
				t.Errorf("stderr: %s", stderr.String())
			}
		})
	}
}
