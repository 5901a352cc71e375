package journeymcp_test

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// outputSchemas returns each tool's output schema as the client sees it in
// tools/list, resolved.
func outputSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	out := map[string]*jsonschema.Resolved{}
	for _, tool := range listTools(t, cs) {
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatalf("%s: encode output schema: %v", tool.Name, err)
		}
		var s *jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: decode output schema: %v", tool.Name, err)
		}
		resolved, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: resolve output schema: %v", tool.Name, err)
		}
		out[tool.Name] = resolved
	}
	return out
}

func TestStructuredContentValidatesForEveryProfile(t *testing.T) {
	for _, e := range eras {
		for _, p := range profiles {
			t.Run(e.name+"/"+p.name, func(t *testing.T) {
				cs := connect(t, e.legacy, p.tags)
				schemas := outputSchemas(t, cs)
				for _, give := range successCalls {
					res := call(t, cs, give)
					if res.IsError || res.StructuredContent == nil {
						t.Fatalf("%s %v: isError %v, structuredContent %v", give.Name, give.Arguments, res.IsError, res.StructuredContent)
					}
					if err := schemas[give.Name].Validate(res.StructuredContent); err != nil {
						t.Errorf("%s %v: structuredContent does not validate: %v", give.Name, give.Arguments, err)
					}
				}
			})
		}
	}
}
