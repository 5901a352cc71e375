package check_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/contentneg/contentneg/internal/conformance/check"
)

func TestRenderingsNameKnownChecks(t *testing.T) {
	cases, err := check.Renderings()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, c := range check.Catalog() {
		known[c.Name] = true
	}
	fed := map[string]bool{"advertised": true, "errors/unchanged": true, "no-canonical/unchanged": true} // fed by every client
	for _, c := range cases {
		if c.Name == "" || c.Rendering == "" {
			t.Errorf("case %+v lacks a name or a rendering", c)
		}
		for _, name := range c.Checks {
			if !known[name] {
				t.Errorf("case %q names an unknown check %q", c.Name, name)
			}
			fed[name] = true
		}
	}
	for name := range known {
		if !fed[name] {
			t.Errorf("no case feeds check %q", name)
		}
	}
	if cases[0].Settings != nil {
		t.Error("the first case must be the undeclared client")
	}
}

func TestTheDocsListEveryCheck(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range check.Catalog() {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(c.Name) + "` \\| " + string(c.Level) + " \\|")
		if !row.Match(doc) {
			t.Errorf("docs/conformance.md has no row for %s (%s)", c.Name, c.Level)
		}
	}
}
