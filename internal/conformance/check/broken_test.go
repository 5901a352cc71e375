package check_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/internal/conformance/check"
	"github.com/contentneg/contentneg/middleware"
)

// pipeTo serves server over in-process stdio pipes, one session per call.
func pipeTo(t *testing.T, server *mcp.Server) func(context.Context) (io.ReadCloser, io.WriteCloser, error) {
	return func(context.Context) (io.ReadCloser, io.WriteCloser, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = server.Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW})
			outW.Close()
		}()
		t.Cleanup(func() { inW.Close(); outR.Close(); <-done })
		return outR, inW, nil
	}
}

// negotiating is the weather demo with the middleware, as it should be.
func negotiating() *mcp.Server {
	s := weathermcp.NewServer(weather.NewService(noon))
	middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	return s
}

// features returns the feature tags the client of req declared, and
// whether it declared the extension.
func features(req mcp.Request) ([]string, bool) {
	r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	})
	if !ok || r.ClientCapabilities() == nil {
		return nil, false
	}
	settings, ok := r.ClientCapabilities().Extensions[check.ExtensionID].(map[string]any)
	if !ok {
		return nil, false
	}
	var tags []string
	list, _ := settings["features"].([]any)
	for _, f := range list {
		if s, ok := f.(string); ok {
			tags = append(tags, s)
		}
	}
	return tags, true
}

// outer adds f as the outermost receiving middleware of s: it sees what the
// negotiation made of each request.
func outer(s *mcp.Server, f func(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error)) *mcp.Server {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			return f(ctx, method, req, next)
		}
	})
	return s
}

// ignoring advertises the extension and ignores it: a typed tool with an
// output schema, no middleware.
func ignoring() *mcp.Server {
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	caps.AddExtension(check.ExtensionID, nil)
	s := mcp.NewServer(&mcp.Implementation{Name: "ignoring", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	type in struct {
		City string `json:"city"`
	}
	type out struct {
		City        string  `json:"city"`
		Temperature float64 `json:"temperature_c"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "get_weather"}, func(_ context.Context, _ *mcp.CallToolRequest, args in) (*mcp.CallToolResult, out, error) {
		return nil, out{City: args.City, Temperature: 8.3}, nil
	})
	return s
}

// eliciting advertises the extension and asks every client a question,
// !interactive or not, in either era.
func eliciting() *mcp.Server {
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	caps.AddExtension(check.ExtensionID, nil)
	s := mcp.NewServer(&mcp.Implementation{Name: "eliciting", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	question := &mcp.ElicitParams{Message: "Which Springfield?", RequestedSchema: &jsonschema.Schema{Type: "object",
		Properties: map[string]*jsonschema.Schema{"state": {Type: "string"}}}}
	s.AddTool(&mcp.Tool{Name: "get_weather", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			answer := "no answer"
			if resp, ok := req.Params.InputResponses["which"].(*mcp.ElicitResult); ok {
				answer = resp.Action
			} else if req.Session.InitializeParams() != nil && req.Session.InitializeParams().ProtocolVersion <= string(check.Legacy) {
				res, err := req.Session.Elicit(ctx, question)
				if err != nil {
					return nil, err
				}
				answer = res.Action
			} else {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"which": question}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"answer":"` + answer + `"}`}}}, nil
		})
	return s
}

func TestBrokenServersAreCaught(t *testing.T) {
	tests := []struct {
		name   string
		server func() *mcp.Server
		tool   string
		args   string
		want   string // the check that must fail, in both eras
		alone  bool   // whether it is the only MUST that fails
	}{
		{
			name:   "advertises and ignores the extension",
			server: ignoring,
			tool:   "get_weather", args: `{"city":"Bern"}`,
			want: "rendering/applied",
		},
		{
			name: "changes tools/list per profile",
			server: func() *mcp.Server {
				return outer(negotiating(), func(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
					res, err := next(ctx, method, req)
					if tags, _ := features(req); method == "tools/list" && slices.Contains(tags, "agent") && err == nil {
						list := *res.(*mcp.ListToolsResult)
						list.Tools = slices.DeleteFunc(slices.Clone(list.Tools), func(t *mcp.Tool) bool { return t.Name == "set_alert" })
						return &list, nil
					}
					return res, err
				})
			},
			tool: "get_forecast", args: `{"city":"Bern","days":2}`,
			want: "lists/tools", alone: true,
		},
		{
			name:   "elicits a !interactive client",
			server: eliciting,
			tool:   "get_weather", args: `{}`,
			want: "gate/no-elicitation",
		},
		{
			name: "breaks pass-through",
			server: func() *mcp.Server {
				return outer(negotiating(), func(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
					res, err := next(ctx, method, req)
					if _, declared := features(req); declared && method == "tools/call" && err == nil {
						out := *res.(*mcp.CallToolResult)
						out.Meta = mcp.Meta{"negotiated": true}
						return &out, nil
					}
					return res, err
				})
			},
			tool: "get_forecast", args: `{"city":"Bern","days":2}`,
			want: "pass-through/invalid-tags",
		},
		{
			name: "markdown holds raw HTML",
			server: func() *mcp.Server {
				return outer(negotiating(), func(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
					res, err := next(ctx, method, req)
					tags, _ := features(req)
					markdown := slices.Contains(tags, "format=markdown") ||
						(slices.Contains(tags, "human") && !slices.ContainsFunc(tags, func(s string) bool { return strings.HasPrefix(s, "format") }))
					if method == "tools/call" && err == nil && markdown {
						out := *res.(*mcp.CallToolResult)
						out.Content = slices.Clone(out.Content)
						if tc, ok := out.Content[0].(*mcp.TextContent); ok {
							out.Content[0] = &mcp.TextContent{Text: tc.Text + "\n\n<div class=\"forecast\">see above</div>\n"}
						}
						return &out, nil
					}
					return res, err
				})
			},
			tool: "get_forecast", args: `{"city":"Bern","days":2}`,
			want: "markdown/no-raw-html", alone: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			report := run(t, check.Target{Pipe: pipeTo(t, tt.server())}, tt.tool, tt.args)
			if report.OK() {
				t.Fatal("every MUST holds; want a failure")
			}
			failed := map[check.Era]bool{}
			var others []string
			for _, r := range report.Results {
				switch {
				case r.Name == tt.want && r.Status == check.Fail:
					failed[r.Era] = true
				case r.Status == check.Fail && r.Level == check.Must:
					others = append(others, fmt.Sprintf("%s %s: %s", r.Era, r.Name, r.Detail))
				}
			}
			if !failed[check.Stateless] || !failed[check.Legacy] {
				t.Errorf("%s failed in eras %v, want both; MUST failures:\n%s", tt.want, failed, strings.Join(failures(report, check.Must), "\n"))
			}
			if tt.alone && len(others) > 0 {
				t.Errorf("other MUST failures than %s:\n%s", tt.want, strings.Join(others, "\n"))
			}
		})
	}
}
