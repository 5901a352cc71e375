package matrix_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/internal/matrix"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadProfiles(t *testing.T) {
	want := []matrix.Profile{
		{Name: "terminal", Tags: []string{"format=text", "verbosity=compact"}},
		{Name: "batch agent", Tags: []string{"agent", "!interactive", "x-acme=Terse"}},
		{Name: "bare", Tags: []string{}},
		{Name: "undeclared"},
	}
	tests := []struct {
		name string
		file string
		give string
		want []matrix.Profile
	}{
		{"YAML, block and flow lists, file order", "p.yaml", `# profiles
terminal: [format=text, verbosity=compact]
batch agent:
  - agent
  - "!interactive"   # quoted: YAML reads a bare !x as a tag
  - 'x-acme=Terse'
bare: []
undeclared: null
`, want},
		{"YAML, .yml, empty value", "p.yml", "terminal: [format=text, verbosity=compact]\nbatch agent: [agent, \"!interactive\", x-acme=Terse]\nbare: []\nundeclared:\n", want},
		{"JSON, file order", "p.json", `{
  "terminal": ["format=text", "verbosity=compact"],
  "batch agent": ["agent", "!interactive", "x-acme=Terse"],
  "bare": [],
  "undeclared": null
}`, want},
		{"JSON without an extension", "profiles", `{"terminal": ["format=text", "verbosity=compact"], "batch agent": ["agent", "!interactive", "x-acme=Terse"], "bare": [], "undeclared": null}`, want},
		{"YAML without an extension", "profiles", "terminal: [format=text, verbosity=compact]\nbatch agent: [agent, '!interactive', x-acme=Terse]\nbare: []\nundeclared: ~\n", want},
		{"JSON in a .yaml file", "p.yaml", `{"terminal": ["format=text", "verbosity=compact"], "batch agent": ["agent", "!interactive", "x-acme=Terse"], "bare": [], "undeclared": null}`, want},
		{"invalid tags are kept", "p.json", `{"odd": ["format==json", "@"]}`, []matrix.Profile{{Name: "odd", Tags: []string{"format==json", "@"}}}},
		{"numeric name", "p.yaml", "1: [agent]\n", []matrix.Profile{{Name: "1", Tags: []string{"agent"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := matrix.LoadProfiles(writeFile(t, tt.file, tt.give))
			if err != nil {
				t.Fatalf("LoadProfiles: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("profiles (-want +got):\n%s", diff)
			}
			for i, p := range got {
				if p.Declared() != (tt.want[i].Tags != nil) {
					t.Errorf("%s: Declared() = %v", p.Name, p.Declared())
				}
			}
		})
	}
}

func TestLoadProfilesRefusesBadFiles(t *testing.T) {
	many := make([]string, matrix.MaxProfiles+1)
	for i := range many {
		many[i] = "p" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": [agent]"
	}
	tests := []struct {
		name    string
		file    string
		give    string
		wantErr error
		wantMsg string // in the message
	}{
		{"empty file", "p.yaml", "", matrix.ErrNoProfiles, "empty"},
		{"blank JSON file", "p.json", "  \n", matrix.ErrNoProfiles, ""},
		{"comment only", "p.yaml", "# nothing\n", matrix.ErrNoProfiles, ""},
		{"empty map", "p.json", "{}", matrix.ErrNoProfiles, ""},
		{"empty YAML map", "p.yaml", "{}", matrix.ErrNoProfiles, ""},
		{"JSON list", "p.json", `["agent"]`, matrix.ErrNotAMap, "an array"},
		{"JSON string", "p.json", `"agent"`, matrix.ErrNotAMap, "a string"},
		{"YAML list", "p.yaml", "- agent\n- human\n", matrix.ErrNotAMap, "sequence"},
		{"YAML scalar", "p.yaml", "agent\n", matrix.ErrNotAMap, "string"},
		{"two YAML documents", "p.yaml", "a: [agent]\n---\nb: [human]\n", matrix.ErrNotAMap, "2 YAML documents"},
		{"JSON tags not strings", "p.json", `{"a": ["agent", 42]}`, matrix.ErrBadTags, `profile "a": tags must be a list of strings, or null: tag 2 is number`},
		{"JSON tags an object", "p.json", `{"a": {"agent": true}}`, matrix.ErrBadTags, "got object"},
		{"JSON tags a string", "p.json", `{"a": "agent"}`, matrix.ErrBadTags, "got string"},
		{"YAML tag a number", "p.yaml", "a: [agent, 1.0]\n", matrix.ErrBadTags, "tag 2 is a float; quote it"},
		{"YAML tag a boolean", "p.yaml", "a:\n  - true\n", matrix.ErrBadTags, "line 2: tag 1 is a bool"},
		{"YAML tag a mapping", "p.yaml", "a:\n  - x-acme: Terse\n", matrix.ErrBadTags, "mapping"},
		{"YAML tags a string", "p.yaml", "a: agent\n", matrix.ErrBadTags, "got a string"},
		{"YAML unquoted negation", "p.yaml", "a:\n  - agent\n  - !interactive\n", matrix.ErrBadTags, `line 3: YAML reads !interactive as a tag; quote a negated feature tag: "!interactive"`},
		{"YAML unquoted negation last in a flow list", "p.yaml", "a: [agent, !interactive]\n", matrix.ErrBadTags, `line 1: YAML reads !interactive as a tag; quote a negated feature tag: "!interactive"`},
		{"YAML unquoted negation first in a flow list", "p.yaml", "a: [agent]\nb: [!interactive, agent]\n", matrix.ErrBadTags, `line 2: YAML reads !interactive as a tag; quote a negated feature tag: "!interactive"`},
		{"YAML alias", "p.yaml", "a: &tags [agent]\nb: *tags\n", matrix.ErrSyntax, "anchors, aliases"},
		{"JSON syntax", "p.json", "{\n  \"a\": [\"agent\",]\n}", matrix.ErrSyntax, "line 2"},
		{"JSON truncated", "p.json", `{"a": ["agent"]`, matrix.ErrSyntax, "end of JSON"},
		{"JSON trailing data", "p.json", `{"a": ["agent"]} {}`, matrix.ErrSyntax, "after the top-level object"},
		{"YAML syntax", "p.yaml", "a: [agent\n", matrix.ErrSyntax, "']'"},
		{"JSON duplicate name", "p.json", `{"a": ["agent"], "a": ["human"]}`, matrix.ErrBadName, `"a" appears twice`},
		{"YAML duplicate name", "p.yaml", "a: [agent]\na: [human]\n", matrix.ErrSyntax, "already defined"},
		{"empty name", "p.json", `{"": ["agent"]}`, matrix.ErrBadName, "empty"},
		{"control character in a name", "p.json", `{"a\u0007": ["agent"]}`, matrix.ErrBadName, "control"},
		{"long name", "p.json", `{"` + strings.Repeat("n", matrix.MaxNameLen+1) + `": []}`, matrix.ErrTooLarge, "name longer"},
		{"huge file", "p.yaml", "a: [" + strings.Repeat("agent, ", matrix.MaxProfilesFileSize/7+1) + "]\n", matrix.ErrTooLarge, "larger than"},
		{"YAML nested too deep", "p.yaml", strings.Repeat("[", 32000), matrix.ErrTooLarge, "line 1, column 64: nested deeper than 64 levels"},
		{"YAML 240 KB of {a: ", "p.yaml", strings.Repeat("{a: ", 60000), matrix.ErrTooLarge, "line 1, column 253: nested deeper than 64 levels"},
		{"YAML too many nodes", "p.yml", "a: [" + strings.Repeat("agent, ", 50000) + "]\n", matrix.ErrTooLarge, "more than 100000 YAML nodes"},
		{"too many profiles", "p.yaml", strings.Join(many, "\n"), matrix.ErrTooLarge, "more than 64 profiles"},
		{"too many tags", "p.json", `{"a": [` + strings.Repeat(`"agent",`, matrix.MaxTagsPerProfile) + `"human"]}`, matrix.ErrTooLarge, "more than 256 tags"},
		{"long tag", "p.json", `{"a": ["x-` + strings.Repeat("a", matrix.MaxTagLen) + `"]}`, matrix.ErrTooLarge, "tag 1"},
		{"unknown extension", "p.toml", "a = [\"agent\"]\n", matrix.ErrUnknownFormat, `".toml"`},
		{"no such file", "", "", os.ErrNotExist, "open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "missing.yaml")
			if tt.file != "" {
				path = writeFile(t, tt.file, tt.give)
			}
			got, err := matrix.LoadProfiles(path)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("LoadProfiles = %v, %v; want an error wrapping %v", got, err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q, want it to name the file and contain %q", err, tt.wantMsg)
			}
		})
	}
}

func TestPresets(t *testing.T) {
	got := matrix.Presets()
	want := []matrix.Profile{
		{Name: "undeclared"},
		{Name: "agent", Tags: []string{"agent", "format=json", "verbosity=compact"}},
		{Name: "human", Tags: []string{"human", "format=markdown"}},
		{Name: "terminal", Tags: []string{"format=text", "verbosity=compact"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("presets (-want +got):\n%s", diff)
	}
	for _, p := range got {
		if w := p.Warnings(); w != nil {
			t.Errorf("%s: warnings %q", p.Name, w)
		}
	}
	got[1].Tags[0] = "changed"
	if matrix.Presets()[1].Tags[0] != "agent" {
		t.Error("Presets returns shared slices")
	}
}

func TestProfileDisplay(t *testing.T) {
	tests := []struct {
		give         matrix.Profile
		wantList     string
		wantWarnings bool
	}{
		{matrix.Profile{Name: "u"}, "(not declared)", false},
		{matrix.Profile{Name: "e", Tags: []string{}}, "(no features)", false},
		{matrix.Profile{Name: "a", Tags: []string{"agent", "format=json"}}, "agent, format=json", false},
		{matrix.Profile{Name: "bad", Tags: []string{"format==json"}}, "format==json", true},
	}
	for _, tt := range tests {
		t.Run(tt.give.Name, func(t *testing.T) {
			if got := tt.give.TagList(); got != tt.wantList {
				t.Errorf("TagList() = %q, want %q", got, tt.wantList)
			}
			if got := tt.give.Warnings(); (len(got) > 0) != tt.wantWarnings {
				t.Errorf("Warnings() = %q, want some: %v", got, tt.wantWarnings)
			}
		})
	}
}
