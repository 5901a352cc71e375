package behaviour_test

import (
	"go/build"
	"strings"
	"testing"
)

// TestFrontEndsImportOnlyTheCore keeps the architecture's rule (contract
// section 9): front ends (package middleware and its gate, mcpgo, rest and
// its backends, the gateway) import only shaping from the core, so that no decision can
// be written in a front end twice; and no package of the core imports an
// SDK.
func TestFrontEndsImportOnlyTheCore(t *testing.T) {
	const module = "github.com/contentneg/contentneg/"
	frontEnds := []string{"middleware", "middleware/elicitation", "middleware/resourcemeta", "middleware/internal/sdk", "mcpgo", "rest", "rest/gosdkbackend", "rest/mcpgobackend", "gateway", "cmd/contentneg"}
	core := []string{"featuretags", "negotiation", "renderers", "shaping"}
	imports := func(pkg string) []string {
		p, err := build.Import(module+pkg, ".", 0)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		return p.Imports
	}
	for _, pkg := range frontEnds {
		for _, imp := range imports(pkg) {
			if imp == module+"negotiation" || imp == module+"renderers" || imp == module+"featuretags" {
				t.Errorf("front end %s imports %s: use shaping", pkg, strings.TrimPrefix(imp, module))
			}
		}
	}
	for _, pkg := range core {
		for _, imp := range imports(pkg) {
			if strings.Contains(imp, "modelcontextprotocol/go-sdk") || strings.Contains(imp, "mark3labs/mcp-go") {
				t.Errorf("core package %s imports the SDK %s", pkg, imp)
			}
		}
	}
}
