package shaping_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

func TestToolInputSchema(t *testing.T) {
	const prop = `{"type":"string","enum":["json","markdown","text","toon","csv"],"description":"Optional. The format of this call's result: json for structured data, markdown or text to read, toon for compact tables, or another listed format. Omit it for the server's default."}`
	tests := []struct {
		name     string
		argument string
		give     string
		want     string // "" : unchanged
	}{
		{"off", "", `{"type":"object","properties":{"city":{"type":"string"}}}`, ""},
		{"appended to properties, bytes kept", "response_format",
			`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`,
			`{"type":"object","properties":{"city":{"type":"string"},"response_format":` + prop + `},"required":["city"],"additionalProperties":false}`},
		{"empty properties", "f", `{"type":"object","properties":{ }}`, `{"type":"object","properties":{ "f":` + prop + `}}`},
		{"no properties", "f", `{"type":"object"}`, `{"type":"object","properties":{"f":` + prop + `}}`},
		{"white space kept", "f", "{\n \"type\": \"object\",\n \"properties\": {\"a\": {}}\n}", "{\n \"type\": \"object\",\n \"properties\": {\"a\": {},\"f\":" + prop + "}\n}"},
		{"the tool owns the name", "city", `{"type":"object","properties":{"city":{"type":"string"}}}`, ""},
		{"not an object schema", "f", `{"type":"string"}`, ""},
		{"no type", "f", `{"properties":{}}`, ""},
		{"not JSON", "f", `{"type":"object",`, ""},
		{"trailing data", "f", `{"type":"object"} {}`, ""},
		{"an array", "f", `[]`, ""},
		{"empty", "f", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := shaping.New(&shaping.Options{FormatArgument: tt.argument})
			if err := s.AddFormat("csv", "text/csv", nil); err != nil {
				t.Fatal(err)
			}
			got, changed := s.ToolInputSchema([]byte(tt.give))
			want := tt.want
			if want == "" {
				want = tt.give
			}
			if string(got) != want || changed != (tt.want != "") {
				t.Errorf("ToolInputSchema(%s) =\n%s, %v\nwant\n%s", tt.give, got, changed, want)
			}
		})
	}
}

func TestTakeArgument(t *testing.T) {
	const schema = `{"type":"object","properties":{"city":{"type":"string"}}}`
	tests := []struct {
		name     string
		argument string
		schema   string
		give     string
		wantRest string
		want     shaping.Argument
	}{
		{"off", "", schema, `{"city":"Bern","f":"json"}`, `{"city":"Bern","f":"json"}`, shaping.Argument{}},
		{"absent", "f", schema, `{"city":"Bern"}`, `{"city":"Bern"}`, shaping.Argument{}},
		{"last member", "f", schema, `{"city":"Bern","f":"markdown"}`, `{"city":"Bern"}`, shaping.Argument{Value: "markdown", Given: true}},
		{"first member", "f", schema, `{"f":"markdown", "city":"Bern"}`, `{"city":"Bern"}`, shaping.Argument{Value: "markdown", Given: true}},
		{"only member", "f", schema, `{ "f" : "text" }`, `{  }`, shaping.Argument{Value: "text", Given: true}},
		{"twice: the last wins", "f", schema, `{"f":"json","f":"text","city":"Bern"}`, `{"city":"Bern"}`, shaping.Argument{Value: "text", Given: true}},
		{"null is not given", "f", schema, `{"city":"Bern","f":null}`, `{"city":"Bern"}`, shaping.Argument{}},
		{"not a string", "f", schema, `{"f":3}`, `{}`, shaping.Argument{Given: true, Invalid: true}},
		{"the tool owns the name", "city", schema, `{"city":"Bern"}`, `{"city":"Bern"}`, shaping.Argument{}},
		{"escaped value", "f", schema, `{"f":"\u006Aso\u006E"}`, `{}`, shaping.Argument{Value: "json", Given: true}},
		{"not an object", "f", schema, `[1]`, `[1]`, shaping.Argument{}},
		{"not JSON", "f", schema, `{"f":`, `{"f":`, shaping.Argument{}},
		{"null arguments", "f", schema, `null`, `null`, shaping.Argument{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := shaping.New(&shaping.Options{FormatArgument: tt.argument})
			rest, got := s.TakeArgument(func() []byte { return []byte(tt.schema) }, []byte(tt.give))
			if string(rest) != tt.wantRest || got != tt.want {
				t.Errorf("TakeArgument(%s) = %s, %+v; want %s, %+v", tt.give, rest, got, tt.wantRest, tt.want)
			}
		})
	}
}

func TestTakeArgumentFromTheAdvertisedSchema(t *testing.T) {
	// A front end that sees only the advertised schema (the REST binding
	// reaches the server as a client) takes the argument all the same.
	s := shaping.New(&shaping.Options{FormatArgument: "f"})
	advertised, changed := s.ToolInputSchema([]byte(`{"type":"object","properties":{"city":{"type":"string"}}}`))
	if !changed {
		t.Fatal("not advertised")
	}
	rest, got := s.TakeArgument(func() []byte { return advertised }, []byte(`{"city":"Bern","f":"text"}`))
	if string(rest) != `{"city":"Bern"}` || got != (shaping.Argument{Value: "text", Given: true}) {
		t.Errorf("TakeArgument = %s, %+v", rest, got)
	}
}

func TestTakeArgumentMap(t *testing.T) {
	s := shaping.New(&shaping.Options{FormatArgument: "f"})
	args := map[string]any{"city": "Bern", "f": "toon"}
	rest, got := s.TakeArgumentMap(nil, args)
	if len(rest) != 1 || rest["city"] != "Bern" || got != (shaping.Argument{Value: "toon", Given: true}) {
		t.Errorf("TakeArgumentMap = %v, %+v", rest, got)
	}
	if len(args) != 2 {
		t.Errorf("the caller's map changed: %v", args)
	}
	if _, got := s.TakeArgumentMap(func() []byte { return []byte(`{"type":"object","properties":{"f":{}}}`) }, args); got.Given {
		t.Errorf("a tool owning the name lost it: %+v", got)
	}
}

func TestCheckDefault(t *testing.T) {
	tests := []struct {
		name    string
		give    negotiation.Settings
		wantErr string // "" : none
		want    string // the default profile, "" for none
	}{
		{"none", negotiation.Settings{}, "", ""},
		{"flag form", shaping.ParseTags(" human, format=markdown "), "", "v1.0 audience=human format=markdown verbosity=unset interactive=unknown mcp-capable=unknown rendering=markdown"},
		{"one feature holding a list", negotiation.Settings{Features: []string{"agent,verbosity=compact"}}, "", "v1.0 audience=agent format=unset verbosity=compact interactive=unknown mcp-capable=unknown rendering=structured"},
		{"a registered format", shaping.ParseTags("format=csv"), "", "v1.0 audience=unknown format=custom verbosity=unset interactive=unknown mcp-capable=unknown rendering=custom"},
		{"an invalid tag", shaping.ParseTags("human, @#$"), `"@#$"`, ""},
		{"an unknown format", shaping.ParseTags("format=xml"), `"format=xml"`, ""},
		{"a contradiction", shaping.ParseTags("interactive, !interactive"), "interactive", ""},
		{"a major version it does not know", negotiation.Settings{Version: "2.0", Features: []string{"human"}}, `"2.0"`, ""},
		{"a version without tags", negotiation.Settings{Version: "1.0"}, `"1.0"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := shaping.New(&shaping.Options{Default: tt.give})
			if err := s.AddFormat("csv", "text/csv", nil); err != nil {
				t.Fatal(err)
			}
			err := s.Check()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Check() = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), "invalid default tags: ") || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Check() = %v, want invalid default tags naming %s", err, tt.wantErr)
			}
			got := s.Resolve(&shaping.Request{Stateless: true}).Profile
			if tt.want == "" && got != nil || tt.want != "" && got.String() != tt.want {
				t.Errorf("undeclared client's profile = %v, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckDefaultBeforeAddFormat(t *testing.T) {
	s := shaping.New(&shaping.Options{Default: shaping.ParseTags("format=csv")})
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "format=csv") {
		t.Fatalf("Check() before AddFormat = %v, want the unknown format named", err)
	}
	if p := s.Resolve(&shaping.Request{}).Profile; p != nil {
		t.Errorf("a default that does not check was applied: %v", p)
	}
	if err := s.AddFormat("csv", "text/csv", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("Check() after AddFormat = %v", err)
	}
	if p := s.Resolve(&shaping.Request{}).Profile; p.MediaType() != "text/csv" {
		t.Errorf("default after AddFormat: %v", p)
	}
}

func TestResolveDefault(t *testing.T) {
	s := shaping.New(&shaping.Options{Default: shaping.ParseTags("human, format=markdown")})
	declared := shaping.Capabilities{Extensions: map[string]any{negotiation.ExtensionID: map[string]any{"features": []any{"format=json"}}}, Elicitation: true}
	tests := []struct {
		name          string
		give          shaping.Request
		wantRendering format.Rendering
		wantElicit    bool
	}{
		{"stateless, nothing declared", shaping.Request{Stateless: true, HasMeta: true, Meta: shaping.Capabilities{Elicitation: true}}, format.RenderingMarkdown, true},
		{"stateless, declared", shaping.Request{Stateless: true, HasMeta: true, Meta: declared}, format.RenderingStructured, true},
		{"legacy, nothing declared", shaping.Request{HasSession: true, Session: shaping.Capabilities{Elicitation: true}}, format.RenderingMarkdown, true},
		{"legacy, declared", shaping.Request{HasSession: true, Session: declared}, format.RenderingStructured, true},
		{"no facts", shaping.Request{}, format.RenderingMarkdown, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := s.Resolve(&tt.give)
			if c.Profile.Rendering() != tt.wantRendering || c.Elicitation != tt.wantElicit {
				t.Errorf("Resolve = %v, elicitation %v; want %v, %v", c.Profile, c.Elicitation, tt.wantRendering, tt.wantElicit)
			}
		})
	}
}

func TestTakeArgumentWithAnEscapedName(t *testing.T) {
	s := shaping.New(&shaping.Options{FormatArgument: "f"})
	rest, got := s.TakeArgument(nil, []byte(`{"\u0066":"text","a":1}`))
	if string(rest) != `{"a":1}` || got != (shaping.Argument{Value: "text", Given: true}) {
		t.Errorf("TakeArgument = %s, %+v", rest, got)
	}
}

func FuzzTakeArgument(f *testing.F) {
	for _, seed := range []string{`{"f":"json","a":1}`, `{"a":{"f":1},"f":null}`, `{"f":"x","f":"y"}`, `{}`, `[`, `{"\u0066":"text"}`, ` { "a" : [1, {"f":2}] , "f" : "toon" } `} {
		f.Add([]byte(seed))
	}
	s := shaping.New(&shaping.Options{FormatArgument: "f"})
	f.Fuzz(func(t *testing.T, args []byte) {
		rest, arg := s.TakeArgument(nil, args)
		var in map[string]json.RawMessage
		if json.Unmarshal(args, &in) != nil || in == nil {
			return // not an object: nothing is promised but no panic
		}
		var out map[string]json.RawMessage
		if err := json.Unmarshal(rest, &out); err != nil {
			t.Fatalf("rest %q of %q is not JSON: %v", rest, args, err)
		}
		if _, left := out["f"]; left {
			t.Fatalf("the argument stayed in %q", rest)
		}
		_, had := in["f"]
		if len(out) != len(in)-map[bool]int{true: 1, false: 0}[had] {
			t.Fatalf("members lost: %q -> %q", args, rest)
		}
		if arg.Given && !had {
			t.Fatalf("an argument found in %q", args)
		}
		schema, _ := s.ToolInputSchema(args)
		_ = schema
	})
}

// BenchmarkTakeArgument takes the format argument out of a call's
// arguments and adds it to a tool's input schema: the two splices of raw
// JSON on the hot path of a tools/call and a tools/list.
func BenchmarkTakeArgument(b *testing.B) {
	s := shaping.New(&shaping.Options{FormatArgument: "format"})
	args := []byte(`{"city":"Bern","days":3,"units":{"temperature":"C","wind":"km/h"},"format":"markdown"}`)
	schema := []byte(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)
	b.Run("TakeArgument", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, arg := s.TakeArgument(nil, args); arg.Value != "markdown" {
				b.Fatal(arg)
			}
		}
	})
	b.Run("ToolInputSchema", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, changed := s.ToolInputSchema(schema); !changed {
				b.Fatal("unchanged")
			}
		}
	})
}

func TestCheckMirror(t *testing.T) {
	for _, give := range []string{"", "json", "text"} {
		if err := shaping.New(&shaping.Options{Mirror: give}).Check(); err != nil {
			t.Errorf("Mirror %q: Check() = %v, want nil", give, err)
		}
	}
	if err := shaping.New(&shaping.Options{Mirror: "markdown"}).Check(); err == nil || !strings.Contains(err.Error(), `"markdown"`) {
		t.Errorf(`Mirror "markdown": Check() = %v, want an error naming it`, err)
	}
}
