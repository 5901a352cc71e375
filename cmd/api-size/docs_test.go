package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the module's root, seen from this package's directory.
const root = "../.."

// maxExported is issue 27's bound on the public packages' exported
// identifiers.
const maxExported = 300

// architecture returns docs/architecture.md with every run of white space
// made one space, so that a figure can be found across a line break.
func architecture(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(doc)), " ")
}

// TestModuleSize holds the module's public API to issue 27's bound, and
// docs/architecture.md's "Size" section to what the counter measures now.
func TestModuleSize(t *testing.T) {
	sizes, err := measure(root)
	if err != nil {
		t.Fatal(err)
	}
	var sum size
	for _, s := range sizes {
		sum.names, sum.methods, sum.members = sum.names+s.names, sum.methods+s.methods, sum.members+s.members
	}
	if sum.exported() > maxExported {
		var b bytes.Buffer
		if err := run(root, &b); err != nil {
			t.Fatal(err)
		}
		t.Errorf("the public packages export %d identifiers, more than %d:\n%s", sum.exported(), maxExported, b.String())
	}
	doc := architecture(t)
	for _, want := range []string{
		fmt.Sprintf("export %d identifiers: %d top-level names", sum.exported(), sum.names),
		fmt.Sprintf("and %d methods of exported types", sum.methods),
		fmt.Sprintf("the %d exported struct fields and interface methods", sum.members),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/architecture.md does not say %q (go run ./cmd/api-size)", want)
		}
	}
}

// lineFigure is a figure of docs/architecture.md that counts lines of code,
// followed by the command that counts them.
var lineFigure = regexp.MustCompile("\\(([0-9]+) lines(?: of non-test code)?, `([^`]+)`\\)")

// TestArchitectureLineFigures recomputes every "(N lines, `COMMAND`)" of
// docs/architecture.md: the command is one of the two shapes the document
// uses, counted here in Go.
func TestArchitectureLineFigures(t *testing.T) {
	doc := architecture(t)
	found := lineFigure.FindAllStringSubmatch(doc, -1)
	if len(found) == 0 {
		t.Fatal("docs/architecture.md has no line figure: the pattern is out of date")
	}
	dirShape := regexp.MustCompile(`^cat \$\(ls ([a-z/]+)/\*\.go \| grep -v _test\) \| wc -l$`)
	fileShape := regexp.MustCompile(`^wc -l < ([a-z/]+\.go)$`)
	for _, f := range found {
		stated, _ := strconv.Atoi(f[1])
		var files []string
		switch {
		case dirShape.MatchString(f[2]):
			dir := dirShape.FindStringSubmatch(f[2])[1]
			all, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range all {
				if !strings.Contains(filepath.Base(name), "_test") {
					files = append(files, name)
				}
			}
		case fileShape.MatchString(f[2]):
			files = []string{filepath.Join(root, fileShape.FindStringSubmatch(f[2])[1])}
		default:
			t.Errorf("%q: a command of an unknown shape", f[0])
			continue
		}
		lines := 0
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			lines += bytes.Count(b, []byte("\n"))
		}
		if len(files) == 0 || lines != stated {
			t.Errorf("docs/architecture.md says %q; the command counts %d lines", f[0], lines)
		}
	}
}

// documented are the packages of the module whose names the docs write as
// "pkg.Name", by the name a reader sees, and where each is.
var documented = map[string]string{
	"featuretags":    "featuretags",
	"format":         "format",
	"negotiation":    "negotiation",
	"renderers":      "renderers",
	"shaping":        "shaping",
	"middleware":     "middleware",
	"mcpgo":          "mcpgo",
	"rest":           "rest",
	"gateway":        "gateway",
	"toon":           "toon",
	"gosdkbackend":   "rest/gosdkbackend",
	"mcpgobackend":   "rest/mcpgobackend",
	"resttest":       "rest/resttest",
	"middlewaretest": "middleware/middlewaretest",
	"resourcemeta":   "middleware/resourcemeta",
	"contentnegfx":   "contentnegfx",
	"conformance":    "conformance",
	"gatewayconfig":  "internal/gatewayconfig",
	"httpserve":      "internal/httpserve",
	"notfound":       "internal/notfound",
	"clientcaps":     "internal/clientcaps",
	"sdk":            "middleware/internal/sdk",
}

// reference is a "pkg.Name", "pkg.Type.Member" or "pkg.(*Type).Method" in
// prose or code; a match preceded by a letter, '/', '.' or '-' is part of
// a longer name or a path and is skipped.
var reference = regexp.MustCompile(`([A-Za-z/.\-]?)\b([a-z]+)\.(?:\(\*?([A-Za-z_][A-Za-z0-9_]*)\)\.)?([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?`)

// prose returns doc without its fenced blocks of other languages than Go:
// they hold data and renderings (a rendered code search names code of its
// own), not the project's API.
func prose(doc string) string {
	var b strings.Builder
	inData, inFence := false, false
	for line := range strings.Lines(doc) {
		if fence := strings.TrimSpace(line); strings.HasPrefix(fence, "```") {
			if !inFence {
				lang := strings.TrimPrefix(fence, "```")
				inFence, inData = true, lang != "" && lang != "go"
			} else {
				inFence, inData = false, false
			}
			continue
		}
		if !inData {
			b.WriteString(line)
		}
	}
	return b.String()
}

// yamlKey is a configuration key (rest.api_key), not a Go name.
var yamlKey = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)+$`)

// declared returns every name a package declares, its tests included (the
// docs name benchmarks): top-level names, and every method and struct field
// name of its types.
func declared(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join(root, dir), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncDecl:
					names[x.Name.Name] = true
				case *ast.TypeSpec:
					names[x.Name.Name] = true
				case *ast.ValueSpec:
					for _, id := range x.Names {
						names[id.Name] = true
					}
				case *ast.Field:
					for _, id := range x.Names {
						names[id.Name] = true
					}
				}
				return true
			})
		}
	}
	return names
}

// TestDocsNameWhatExists finds, in README.md and docs/*.md, every
// "pkg.Name" of a package of the module and fails on a name the package
// does not declare: a doc that names a removed or renamed identifier.
// docs/decisions.md is a history, where removed names belong, and is not
// read. A member (pkg.T.Field, pkg.(*T).Method) may be declared in pkg or
// in shaping: the front ends' Options are aliases of shaping's.
func TestDocsNameWhatExists(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(name string) bool { return filepath.Base(name) == "decisions.md" })
	files = append(files, filepath.Join(root, "README.md"))
	decls := map[string]map[string]bool{}
	for _, dir := range documented {
		decls[dir] = declared(t, dir)
	}
	skip := map[string]bool{"md": true, "go": true, "json": true, "yaml": true, "mod": true, "sum": true, "mjs": true, "ts": true, "js": true}
	for _, name := range files {
		doc, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range reference.FindAllStringSubmatch(prose(string(doc)), -1) {
			before, pkg, recv, member, sub := m[1], m[2], m[3], m[4], m[5]
			dir, ok := documented[pkg]
			if !ok || before != "" || skip[member] || yamlKey.MatchString(member) {
				continue
			}
			top, members := member, []string{sub}
			if recv != "" {
				top, members = recv, []string{member}
			}
			if !decls[dir][top] {
				t.Errorf("%s names %q: %s declares no %s", filepath.Base(name), m[0][len(before):], dir, top)
				continue
			}
			for _, id := range members {
				if id != "" && !decls[dir][id] && !decls["shaping"][id] {
					t.Errorf("%s names %q: neither %s nor shaping declares %s", filepath.Base(name), m[0][len(before):], dir, id)
				}
			}
		}
	}
}

// importRow is one row of docs/architecture.md's import table.
var importRow = regexp.MustCompile("(?m)^\\| `([a-z/]+)` \\| [^|]+ \\| ([^|]+) \\| ([^|]+) \\|$")

// TestArchitectureImportTable holds docs/architecture.md's table of what
// each package imports (of the module, and which SDK) to the code.
func TestArchitectureImportTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := importRow.FindAllStringSubmatch(string(doc), -1)
	if len(rows) < 10 {
		t.Fatalf("docs/architecture.md has %d rows in its import table: the pattern is out of date", len(rows))
	}
	const module = "github.com/contentneg/contentneg/"
	for _, row := range rows {
		pkg, wantMod, wantSDK := row[1], strings.TrimSpace(row[2]), strings.TrimSpace(row[3])
		p, err := build.ImportDir(filepath.Join(root, pkg), 0)
		if err != nil {
			t.Errorf("%s: %v", pkg, err)
			continue
		}
		var mod, sdk []string
		for _, imp := range p.Imports {
			switch {
			case strings.HasPrefix(imp, module):
				mod = append(mod, strings.TrimPrefix(imp, module))
			case strings.HasPrefix(imp, "github.com/modelcontextprotocol/go-sdk") && !slices.Contains(sdk, "go-sdk"):
				sdk = append(sdk, "go-sdk")
			case strings.HasPrefix(imp, "github.com/mark3labs/mcp-go") && !slices.Contains(sdk, "mcp-go"):
				sdk = append(sdk, "mcp-go")
			}
		}
		slices.Sort(mod)
		gotMod, gotSDK := strings.Join(mod, ", "), strings.Join(sdk, ", ")
		if gotMod == "" {
			gotMod = "none"
		}
		if gotSDK == "" {
			gotSDK = "no"
		}
		if gotMod != wantMod || gotSDK != wantSDK {
			t.Errorf("docs/architecture.md: %s imports %q and %q; the code: %q and %q", pkg, wantMod, wantSDK, gotMod, gotSDK)
		}
	}
}
