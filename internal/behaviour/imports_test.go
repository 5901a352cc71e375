package behaviour_test

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// role is what a package is to the architecture (docs/architecture.md).
type role int

const (
	// core: the SDK-neutral layers that make every decision, each
	// importing only the layers under it (see coreLayer).
	core role = iota
	// helper: a library under the front ends (and the core), importing
	// no SDK and no package of the module but other helpers.
	helper
	// frontEnd: translates an SDK's (or HTTP's, or raw JSON-RPC's) types
	// to the core's plain values and back; from the core it imports
	// shaping alone, so that no decision is written in a front end twice.
	frontEnd
	// integration: wires or configures front ends for a program, or is a
	// client: it uses the public packages as a user's program would.
	integration
	// command: a program of its own.
	command
	// example: a server author's code, or a program that runs or measures
	// the examples; only these import examples/.
	example
	// testHelper: imported by tests only.
	testHelper
)

var roleNames = [...]string{"core layer", "internal helper", "front end", "integration", "command", "example", "test helper"}

func (r role) String() string { return roleNames[r] }

// roles states the role of every package of the module: a package that is
// not listed fails the test until it is given one.
var roles = map[string]role{
	"featuretags": core,
	"format":      core,
	"negotiation": core,
	"renderers":   core,
	"shaping":     core,

	"toon":                helper, // the TOON codec renderers use
	"conformance":         helper, // the contract's test vectors, embedded
	"internal/cmdline":    helper,
	"internal/clientcaps": frontEnd, // a capability map -> shaping.Capabilities, for both SDK front ends
	"internal/ctxkey":     helper,
	"internal/markup":     helper, // markdown to HTML, for renderers and shaping
	"internal/mediatype":  helper,
	"internal/rawjson":    helper,
	"internal/gostruct":   helper,
	"internal/hints":      helper, // the collector of a call's hints, shaping's and negotiation's
	"internal/tagspec":    helper, // the tag registry's spellings and problem numbers featuretags, format and negotiation share
	"internal/hostcheck":  helper,
	"internal/notfound":   helper,
	"internal/httpserve":  integration, // the one serving assembly of the demos and the gateway's command
	"internal/tokens":     helper,
	"internal/uritmpl":    helper,
	"internal/yamlrefuse": helper,

	"middleware":              frontEnd, // the go-sdk
	"middleware/resourcemeta": frontEnd,
	"middleware/internal/sdk": frontEnd,
	"mcpgo":                   frontEnd, // mark3labs/mcp-go
	"rest":                    frontEnd, // HTTP
	"rest/gosdkbackend":       frontEnd,
	"rest/mcpgobackend":       frontEnd,
	"gateway":                 frontEnd, // raw JSON-RPC, no SDK
	"cmd/contentneg":          frontEnd, // the gateway's command

	"contentnegfx":           integration, // the go-sdk front end as an fx module
	"middleware/client":      integration, // a client that declares the extension
	"internal/serve":         integration, // serves an app on either SDK and REST
	"internal/gatewayconfig": integration, // the gateway's config: a server author's code, in YAML
	"internal/mcpgotool":     integration, // typed tools for mcp-go servers
	"internal/matrix":        integration, // the profile matrix cmd/profile-matrix runs

	"internal/conformance/check": integration, // the conformance checker cmd/contentneg-conformance runs

	"cmd/contentneg-conformance":    command,
	"cmd/profile-matrix":            command,
	"interop/conformance":           command, // the conformance server the interop tests start
	"interop/typescript/tokentable": command,

	"cmd/demo-weather":              example, // runs the weather example
	"cmd/corpus-sizes":              example, // measures the examples' renderings
	"examples/csv":                  example,
	"examples/journey":              example,
	"examples/journey/journey":      example,
	"examples/journey/journeymcp":   example,
	"examples/journey/journeymcpgo": example,
	"examples/weather":              example,
	"examples/weather/weathermcp":   example,
	"examples/weather/weathermcpgo": example,

	"examples/weather/weathermcp/weathermcptest": testHelper,
	"examples/weather/weathertest":               testHelper,
	"internal/behaviour":                         testHelper,
	"internal/hostileup":                         testHelper,
	"internal/jsontest":                          testHelper,
	"internal/interopskip":                       testHelper,
	"internal/interopskip/skipline":              command, // counts the interop skips for .ci/run
	"cmd/api-size":                               command,
	"internal/rawrpc":                            testHelper,
	"internal/serve/servetest":                   testHelper,
	"internal/soak":                              testHelper,
	"interop/typescript":                         testHelper,
	"middleware/middlewaretest":                  testHelper,
	"rest/resttest":                              testHelper,
}

// coreLayer orders the core: a layer imports only layers with a smaller
// number (and helpers). negotiation and renderers stand side by side.
var coreLayer = map[string]int{"featuretags": 0, "format": 1, "negotiation": 2, "renderers": 2, "shaping": 3}

const module = "github.com/contentneg/contentneg"

// TestFrontEndsImportOnlyTheCore keeps the architecture's rules (contract
// section 9) over every package of the module, each with its stated role:
// front ends import only shaping from the core, so that no decision can be
// written in a front end twice; nothing under a front end (the core and
// the helpers) imports an SDK; no package that is not a test imports
// examples/ unless it is an example; the core's layers import only
// downward. Test files are not held to it.
func TestFrontEndsImportOnlyTheCore(t *testing.T) {
	pkgs := modulePackages(t)
	for _, p := range pkgs {
		if _, ok := roles[p.rel]; !ok {
			t.Errorf("package %s has no role: state one in roles", p.rel)
		}
	}
	for rel := range roles {
		if !slices.ContainsFunc(pkgs, func(p pkg) bool { return p.rel == rel }) {
			t.Errorf("roles lists %s, which is not a package of the module", rel)
		}
	}
	for _, p := range pkgs {
		r, ok := roles[p.rel]
		if !ok {
			continue
		}
		for _, imp := range p.imports {
			if sdk(imp) && (r == core || r == helper) {
				t.Errorf("%s %s imports the SDK %s", r, p.rel, imp)
			}
			dep, inModule := strings.CutPrefix(imp, module+"/")
			if !inModule {
				continue
			}
			if strings.HasPrefix(dep, "examples/") && r != example {
				t.Errorf("%s %s imports %s: only examples do", r, p.rel, dep)
			}
			depRole, known := roles[dep]
			if !known {
				continue // reported above
			}
			switch r {
			case core:
				if depRole != helper && (depRole != core || coreLayer[dep] >= coreLayer[p.rel]) {
					t.Errorf("core layer %s imports %s (%s): the core imports only downward", p.rel, dep, depRole)
				}
			case helper:
				if depRole != helper {
					t.Errorf("helper %s imports %s (%s): helpers import only helpers", p.rel, dep, depRole)
				}
			case frontEnd:
				if depRole == core && dep != "shaping" {
					t.Errorf("front end %s imports %s: use shaping", p.rel, dep)
				}
				if depRole == testHelper {
					t.Errorf("front end %s imports the test helper %s", p.rel, dep)
				}
			}
		}
	}
}

// pkg is one package of the module and its imports (test files left out).
type pkg struct {
	rel     string // the import path under the module
	imports []string
}

// modulePackages lists the packages of the module the way go list ./...
// does: every directory with Go files, but testdata, directories whose
// names begin with . or _, and nested modules.
func modulePackages(t *testing.T) []pkg {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.Contains(string(b), "module "+module+"\n") {
		t.Fatalf("%s is not the module's root: %v", root, err)
	}
	var out []pkg
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		p, err := build.Default.ImportDir(path, 0)
		var none *build.NoGoError
		switch {
		case errors.As(err, &none):
			return nil
		case err != nil:
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out = append(out, pkg{rel: filepath.ToSlash(rel), imports: p.Imports})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < len(roles)/2 {
		t.Fatalf("found %d packages: the walk is wrong", len(out))
	}
	return out
}

func sdk(imp string) bool {
	return strings.Contains(imp, "modelcontextprotocol/go-sdk") || strings.Contains(imp, "mark3labs/mcp-go")
}
