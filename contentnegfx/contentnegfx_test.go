package contentnegfx_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"
	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/contentnegfx"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type in struct {
	Name string `json:"name"`
}

type out struct {
	Greeting string `json:"greeting"`
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fx", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "greet"}, func(_ context.Context, _ *mcp.CallToolRequest, i in) (*mcp.CallToolResult, out, error) {
		return nil, out{Greeting: "Hello, " + i.Name}, nil
	})
	return s
}

func greet(t *testing.T, s *mcp.Server, tags ...string) string {
	t.Helper()
	cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare(tags...)})
	if _, ok := cs.InitializeResult().Capabilities.Extensions[negotiation.ExtensionID]; !ok {
		t.Error("the extension is not advertised")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if len(res.Content) == 0 {
		return ""
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func TestModuleInstallsTheMiddleware(t *testing.T) {
	tmpl, err := renderers.NewTemplate(renderers.TemplateSpec{
		Markdown: map[format.Verbosity]string{format.Standard: "_{{.greeting}}_"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var s *mcp.Server
	app := fxtest.New(t,
		fx.NopLogger,
		fx.Provide(newServer),
		contentnegfx.Module,
		contentnegfx.Tool("greet", shaping.Tool{Renderer: tmpl}),
		fx.Populate(&s),
	)
	app.RequireStart()
	defer app.RequireStop()

	tests := []struct {
		tags []string
		want string
	}{
		{[]string{"human"}, "_Hello, Ada_"},
		{[]string{"format=text", "verbosity=compact"}, `greeting="Hello, Ada"`},
		{[]string{"agent"}, `{"greeting":"Hello, Ada"}`},
	}
	for _, tt := range tests {
		if got := greet(t, s, tt.tags...); got != tt.want {
			t.Errorf("%v: got %q, want %q", tt.tags, got, tt.want)
		}
	}
}

func TestModuleUsesTheApplicationsLoggerAndOptions(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	var s *mcp.Server
	app := fxtest.New(t,
		fx.NopLogger,
		fx.Provide(newServer),
		fx.Supply(zap.New(core)),
		fx.Supply(&middleware.Options{Mirror: ""}),
		contentnegfx.Module,
		fx.Populate(&s),
	)
	app.RequireStart()
	defer app.RequireStop()

	if got := greet(t, s, "format=json", "@bad"); got != "" {
		t.Errorf("format=json with no mirror: text %q, want none", got)
	}
	if logs.FilterMessage("profile negotiated with diagnostics").Len() == 0 {
		t.Error("the application's logger got no negotiation line")
	}
}

func TestNewWorksWithoutFx(t *testing.T) {
	s := newServer()
	m := contentnegfx.New(contentnegfx.Params{
		Tools: []contentnegfx.NamedTool{{Name: "greet", Tool: shaping.Tool{Title: "Greeting"}}},
	})
	contentnegfx.Install(m, s)
	if got := greet(t, s, "human"); got != "# Greeting\n\n- **Greeting:** Hello, Ada" {
		t.Errorf("got %q", got)
	}
}
