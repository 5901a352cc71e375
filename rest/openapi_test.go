package rest_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/contentneg/contentneg/rest"
)

func TestOpenAPI(t *testing.T) {
	f := newFake()
	f.tools = append(f.tools, rest.Tool{
		Name:         "odd name/x",
		InputSchema:  json.RawMessage(`{"type":"object","$defs":{"p":{"type":"string","minLength":1}},"properties":{"a":{"$ref":"#/$defs/p"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
	})
	h := rest.New(f, &rest.Options{BasePath: "/mcp/v1"})
	got := viaRecorder(t, h, httptest.NewRequest("GET", "/mcp/v1/openapi.json", nil))
	if got.status != 200 {
		t.Fatalf("%d %s", got.status, got.body)
	}
	doc, err := openapi3.NewLoader().LoadFromData([]byte(got.body))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if doc.Servers[0].URL != "/mcp/v1" {
		t.Errorf("server %q", doc.Servers[0].URL)
	}
	tests := []struct {
		path, operation string
		hasOutput       bool
	}{
		{"/tools/echo/execute", "execute_echo", true},
		{"/tools/fail/execute", "execute_fail", false},
		{"/tools/odd%20name%2Fx/execute", "execute_odd_name_x", true},
	}
	for _, tt := range tests {
		item := doc.Paths.Find(tt.path)
		if item == nil || item.Post == nil || item.Post.OperationID != tt.operation {
			t.Errorf("%s: no operation %s", tt.path, tt.operation)
			continue
		}
		ok := item.Post.Responses.Value("200").Value
		for _, mt := range []string{"application/json", "text/markdown", "text/plain"} {
			if ok.Content.Get(mt) == nil {
				t.Errorf("%s: no 200 response as %s", tt.path, mt)
			}
		}
		structured := ok.Content.Get("application/json").Schema.Value.Properties["structuredContent"]
		if hasOutput := structured.Ref != ""; hasOutput != tt.hasOutput {
			t.Errorf("%s: structuredContent %q, want the output schema: %v", tt.path, structured.Ref, tt.hasOutput)
		}
		for _, code := range []string{"400", "406", "413", "422"} {
			if item.Post.Responses.Value(code) == nil {
				t.Errorf("%s: no %s response", tt.path, code)
			}
		}
	}
	// The $defs reference resolves inside the tool's component.
	args := doc.Paths.Find("/tools/odd%20name%2Fx/execute").Post.RequestBody.Value.Content.Get("application/json").Schema.Value.Properties["arguments"].Value
	if a := args.Properties["a"]; a == nil || a.Value == nil || a.Value.MinLength != 1 {
		t.Errorf("the $ref into $defs does not resolve: %+v", args.Properties["a"])
	}
}
