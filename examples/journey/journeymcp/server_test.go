package journeymcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/renderers"
)

// sameResults checks that got and want hold the same raw results for calls,
// the handshake aside (it advertises the extension).
func TestPassThroughIsByteIdenticalForEveryTool(t *testing.T) {
	calls := append(append([]mcp.CallToolParams{}, successCalls...), errorCalls...)
	tests := []struct {
		name string
		tags []string
	}{
		{"undeclared", nil},
		{"only invalid tags", []string{"@#$%", "format==json", "!", "format=xml"}},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				opts := options(e.legacy, tt.tags)
				middlewaretest.CheckSameResults(t, newServer(t, false), newServer(t, true), opts, calls)
			})
		}
	}
}

func TestToolErrorsAreUntouchedForEveryProfile(t *testing.T) {
	for _, e := range eras {
		for _, p := range profiles {
			t.Run(e.name+"/"+p.name, func(t *testing.T) {
				opts := options(e.legacy, p.tags)
				middlewaretest.CheckSameResults(t, newServer(t, false), newServer(t, true), opts, errorCalls)
			})
		}
	}
}

func TestToolErrorsAreReadable(t *testing.T) {
	tests := []struct {
		name string
		give mcp.CallToolParams
		want []string
	}{
		{"unknown station suggests", errorCalls[0], []string{`from: unknown station "Atlantis"; did you mean`}},
		{"ambiguous station names the candidates", errorCalls[1], []string{`from: station "Zür" is ambiguous`, "Zürich HB", "Zürich Flughafen"}},
		{"same station twice", errorCalls[2], []string{`from and to are both "Bern"`}},
		{"limit out of range", errorCalls[3], []string{"limit 99 is out of range; give 1 to 10"}},
		{"every problem at once", errorCalls[4], []string{`unknown station "Atlantis"`, `to: unknown station "Bernn"; did you mean "Bern"`, `departure "tomorrow" is not an RFC 3339 time`, "limit -1"}},
		{"departure missing", errorCalls[5], []string{`missing properties: ["departure"]`}},
		{"station misspelt", errorCalls[6], []string{`name: unknown station "Lausane"; did you mean "Lausanne"`}},
		{"station empty", errorCalls[7], []string{"station name is empty"}},
	}
	for _, e := range eras {
		for _, p := range profiles {
			t.Run(e.name+"/"+p.name, func(t *testing.T) {
				cs := connect(t, e.legacy, p.tags)
				for _, tt := range tests {
					t.Run(tt.name, func(t *testing.T) {
						res := call(t, cs, tt.give)
						body := text(t, res)
						if !res.IsError || res.StructuredContent != nil || len(res.Content) != 1 {
							t.Errorf("not a plain tool error: isError %v, structuredContent %v, %d blocks", res.IsError, res.StructuredContent, len(res.Content))
						}
						for _, w := range tt.want {
							if !strings.Contains(body, w) {
								t.Errorf("error %q does not say %q", body, w)
							}
						}
					})
				}
			})
		}
	}
}

func TestToolListIsIdenticalForEveryProfile(t *testing.T) {
	want, err := json.Marshal(listTools(t, middlewaretest.Connect(t, newServer(t, false), nil)))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eras {
		for _, p := range profiles {
			t.Run(e.name+"/"+p.name, func(t *testing.T) {
				got, err := json.Marshal(listTools(t, connect(t, e.legacy, p.tags)))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Errorf("tools/list differs from the server's without the middleware (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestBothToolsDeclareOutputSchemas(t *testing.T) {
	tools := listTools(t, middlewaretest.Connect(t, newServer(t, false), nil))
	got := map[string]bool{}
	for _, tool := range tools {
		got[tool.Name] = tool.OutputSchema != nil && tool.InputSchema != nil
	}
	want := map[string]bool{journeymcp.FindConnections: true, journeymcp.GetStation: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools with input and output schemas (-want +got):\n%s", diff)
	}
}

func TestRenderings(t *testing.T) {
	overnight := successCalls[3]
	tests := []struct {
		name  string
		tags  []string
		give  mcp.CallToolParams
		check func(t *testing.T, body string)
	}{
		{"agent gets JSON", []string{"agent"}, withChange, isJSON(`"train":"IC 6 906"`)},
		{"undeclared gets JSON", nil, withChange, isJSON(`"train":"IC 6 906"`)},
		{"person gets an itinerary", []string{"human"}, direct, isMarkdown("## Zürich HB → Bern", "### 08:02 → 08:58 · 56 min · direct", "- 08:02–08:58 **IC 1 709** from Zürich HB (platform 31) to Bern (platform 8)")},
		{"person sees the change", []string{"human"}, withChange, isMarkdown("### 08:32 → 10:49 · 2 h 17 min · 1 change", "**IC 6 906** from Bern (platform 6)")},
		{"verbose notes the change", []string{"human", "verbosity=verbose"}, withChange, isMarkdown("- *change at Bern: 17 min, platform 8 to 6*", "at least 4 minutes")},
		{"compact markdown: a line per connection", []string{"format=markdown", "verbosity=compact"}, withChange, isMarkdown("- 08:32–10:49 (2 h 17 min) IC 1 711 to Bern, IC 6 906")},
		{"overnight shows the days", []string{"human"}, overnight, isMarkdown("23:32 → 06:52 (Sat 21 Nov 2026)", "2 changes", "· 1 change · Sat 21 Nov 2026")},
		{"terminal gets a few lines", []string{"format=text", "verbosity=compact"}, withChange, isPlain("Zürich HB → Brig, Fri 20 Nov 2026\n08:15-10:19 2 h 04 min: IC 8 1006\n08:32-10:49 2 h 17 min: IC 1 711 to Bern, IC 6 906")},
		{"standard text", []string{"format=text"}, withChange, isPlain("08:32 → 10:49, 2 h 17 min, 1 change\n  08:32-09:28 IC 1 711 from Zürich HB (platform 31) to Bern (platform 8)")},
		{"verbose text notes the change", []string{"format=text", "verbosity=verbose"}, withChange, isPlain("  change at Bern: 17 min, platform 8 to 6")},
		{"station for a person", []string{"human"}, station("Bern"), isMarkdown("- **Name:** Bern", "IC 61")},
		{"station for a terminal", []string{"format=text", "verbosity=compact"}, station("Bern"), isPlain("name=Bern")},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				res := call(t, connect(t, e.legacy, tt.tags), tt.give)
				if res.IsError {
					t.Fatalf("tool error: %s", text(t, res))
				}
				if res.StructuredContent == nil {
					t.Error("structuredContent dropped; the tools declare output schemas")
				}
				tt.check(t, text(t, res))
			})
		}
	}
}

func isJSON(want string) func(*testing.T, string) {
	return func(t *testing.T, body string) {
		t.Helper()
		if !json.Valid([]byte(body)) || !strings.Contains(body, want) {
			t.Errorf("not JSON with %q: %s", want, body)
		}
	}
}

func isMarkdown(want ...string) func(*testing.T, string) {
	return func(t *testing.T, body string) {
		t.Helper()
		if err := renderers.CheckMarkdown(body); err != nil || json.Valid([]byte(body)) {
			t.Errorf("not markdown (%v):\n%s", err, body)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("markdown lacks %q:\n%s", w, body)
			}
		}
	}
}

func isPlain(want ...string) func(*testing.T, string) {
	return func(t *testing.T, body string) {
		t.Helper()
		if err := renderers.CheckPlain(body); err != nil || json.Valid([]byte(body)) {
			t.Errorf("not plain text (%v):\n%s", err, body)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("text lacks %q:\n%s", w, body)
			}
		}
	}
}

func TestNewServerWithoutAPlannerUsesTheEmbeddedTimetable(t *testing.T) {
	cs := middlewaretest.Connect(t, journeymcp.NewServer(nil), nil)
	res := call(t, cs, station("Zürich HB"))
	if res.IsError || !strings.Contains(text(t, res), `"id":"zurich-hb"`) {
		t.Errorf("get_station: %s", text(t, res))
	}
}
