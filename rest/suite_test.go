package rest_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/resttest"
)

// fixture names what the fake backend offers to the black-box suite.
var fixture = resttest.Fixture{
	Structured: resttest.Call{Tool: "echo", Arguments: `{"city":"Bern"}`},
	Plain:      resttest.Call{Tool: "t0", Arguments: `{}`},
	Invalid:    resttest.Invalid{Call: resttest.Call{Tool: "echo", Arguments: `{"city":5}`}, Field: "city"},
	Failing:    resttest.Call{Tool: "fail", Arguments: `{}`},
	Resource:   "data://big",
	Templated:  "data://item/3",
	Prompt:     resttest.Prompt{Name: "greet", Arguments: map[string]string{"name": "Ada"}, Required: "name"},
}

// TestSuite runs the binding's black-box suite (package resttest, which
// also runs through the gateway) against the fake backend over a real
// listener, with CORS off and on, at a base path and at the root.
func TestSuite(t *testing.T) {
	tests := []struct {
		name string
		base string
		cors string
	}{
		{name: "base path", base: "/mcp/v1"},
		{name: "CORS on", base: "/mcp/v1", cors: "https://app.example"},
		{name: "root", base: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := &rest.Options{BasePath: tt.base, CallTimeout: 5 * time.Second}
			f := fixture
			if tt.cors != "" {
				opts.CORS, f.CORSOrigin = []string{tt.cors}, tt.cors
			}
			srv := httptest.NewServer(rest.New(newFake(), opts))
			defer srv.Close()
			resttest.Run(t, srv.URL+tt.base, f)
		})
	}
}

// invalidReads is a backend whose server rejects every resource read as
// invalid params, as the TypeScript SDK does for a URI it does not know.
type invalidReads struct{ *fake }

func (invalidReads) ReadResource(_ context.Context, uri string, _ []string) ([]rest.ResourceContent, error) {
	return nil, fmt.Errorf("read %s: Resource %s not found: %w", uri, uri, rest.ErrInvalidArguments)
}

// TestContentOfAnUnknownResource: the content of a URI that is neither
// listed nor made from a template is a 404 when the server rejects the
// read, whatever error it answers with; the same error for a URI the
// server offers is the server's 400.
func TestContentOfAnUnknownResource(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		status int
		code   string
	}{
		{name: "unknown", path: "/resources/nope:%2F%2Fx/content", status: 404, code: "NOT_FOUND"},
		{name: "listed", path: "/resources/data:%2F%2Fbig/content", status: 400, code: "INVALID_PARAMETER"},
		{name: "made from a template", path: "/resources/data:%2F%2Fitem%2Fabc/content", status: 400, code: "INVALID_PARAMETER"},
	}
	h := rest.New(invalidReads{newFake()}, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := viaRecorder(t, h, httptest.NewRequest("GET", tt.path, nil))
			if got.status != tt.status || !strings.Contains(got.body, `"code":"`+tt.code+`"`) || !strings.Contains(got.body, "not found") {
				t.Errorf("%d %s, want %d %s with the server's message", got.status, got.body, tt.status, tt.code)
			}
		})
	}
}
