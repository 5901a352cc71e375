package shaping_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

// stationSchema is a schema in a struct's field order, nested records
// included, as the go-sdk infers it.
const stationSchema = `{"type":"object","properties":{
	"name":{"type":"string"},"zone":{"type":"string"},
	"location":{"type":"object","properties":{"lon":{"type":"number"},"lat":{"type":"number"}}},
	"platforms":{"type":"array","items":{"type":"object","properties":{"track":{"type":"string"},"length_m":{"type":"integer"}}}}}}`

// sortedStation is the value as the go-sdk gives it: sorted keys.
const sortedStation = `{"location":{"lat":46.9,"lon":7.4},"name":"Bern","platforms":[{"length_m":320,"track":"1"}],"zone":"Mittelland"}`

func TestOrderAndIdentity(t *testing.T) {
	schema, err := renderers.ParseSchema([]byte(stationSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tags []string
		give shaping.Result
		want shaping.Plan
	}{
		{
			"agent: the mirror in the schema's order",
			[]string{"agent"},
			shaping.Result{Tool: "station", Value: []byte(sortedStation), Schema: schema, HasOutputSchema: true, MirrorsValue: true},
			shaping.Plan{
				Rendering: format.RenderingStructured, ReplaceText: true,
				Text: `{"name":"Bern","zone":"Mittelland","location":{"lon":7.4,"lat":46.9},"platforms":[{"track":"1","length_m":320}]}`,
			},
		},
		{
			"format=json: structuredContent as the handler gave it, alone",
			[]string{"format=json"},
			shaping.Result{Tool: "station", Value: []byte(sortedStation), Schema: schema, HasOutputSchema: true, MirrorsValue: true},
			shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true},
		},
		{
			"a struct's own order wins over a sorted schema",
			[]string{"format=text", "verbosity=compact"},
			shaping.Result{Tool: "t", Value: []byte(`{"zone":"Z","name":"N"}`), FromStruct: true, HasOutputSchema: true,
				Schema: &renderers.Schema{Properties: []renderers.Property{{Name: "name"}, {Name: "zone"}}}},
			shaping.Plan{Rendering: format.RenderingText, ReplaceText: true, Text: "zone=Z name=N"},
		},
		{
			"a struct's mirror already right stays",
			[]string{"agent"},
			shaping.Result{Tool: "t", Value: []byte(`{"zone":"Z","name":"N"}`), FromStruct: true, MirrorsValue: true,
				Schema: &renderers.Schema{Properties: []renderers.Property{{Name: "name"}, {Name: "zone"}}}},
			shaping.Plan{Rendering: format.RenderingStructured},
		},
		{
			"members the schema does not name follow, in the value's order",
			[]string{"agent"},
			shaping.Result{Tool: "t", Value: []byte(`{"y":1,"b":2,"x":3,"a":4}`), MirrorsValue: true,
				Schema: &renderers.Schema{Properties: []renderers.Property{{Name: "a"}, {Name: "b"}}}},
			shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `{"a":4,"b":2,"y":1,"x":3}`},
		},
		{
			"without a schema, the value's own order",
			[]string{"format=text", "verbosity=compact"},
			shaping.Result{Tool: "t", Value: []byte(`{"zone":"Z","name":"N"}`)},
			shaping.Plan{Rendering: format.RenderingText, ReplaceText: true, Text: "zone=Z name=N", DropStructured: true},
		},
		{
			"text in the schema's order keeps structuredContent as it is",
			[]string{"format=text", "verbosity=compact"},
			shaping.Result{Tool: "t", Value: []byte(`{"b":1,"a":2}`), HasOutputSchema: true,
				Schema: &renderers.Schema{Properties: []renderers.Property{{Name: "a"}, {Name: "b"}}}},
			shaping.Plan{Rendering: format.RenderingText, ReplaceText: true, Text: "a=2 b=1"},
		},
		{
			"numbers and strings keep their text, white space goes",
			[]string{"agent"},
			shaping.Result{Tool: "t", Value: []byte(`{ "b" : 1.50E+300 , "a" : "x\u00e9\n" }`),
				Schema: &renderers.Schema{Properties: []renderers.Property{{Name: "a"}, {Name: "b"}}}},
			shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `{"a":"x\u00e9\n","b":1.50E+300}`},
		},
		{
			"a repeated member stays, in its place",
			[]string{"agent"},
			shaping.Result{Tool: "t", Value: []byte(`{"b":1,"a":2,"b":3}`), MirrorsValue: true,
				Schema: &renderers.Schema{Properties: []renderers.Property{{Name: "a"}, {Name: "b"}}}},
			shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `{"a":2,"b":1,"b":3}`},
		},
		{
			"invalid JSON is not reordered",
			[]string{"agent"},
			shaping.Result{Tool: "t", Value: []byte(`{"b":1,"a":`),
				Schema: &renderers.Schema{Properties: []renderers.Property{{Name: "a"}, {Name: "b"}}}},
			shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `{"b":1,"a":`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shaping.New(nil).Tool(negotiation.FromTags(tt.tags...), tt.give)
			if got.Rendering != tt.want.Rendering || got.ReplaceText != tt.want.ReplaceText || got.Text != tt.want.Text ||
				string(got.Structured) != string(tt.want.Structured) || got.DropStructured != tt.want.DropStructured {
				t.Errorf("plan\n%+v\nwant\n%+v\n(structured %s, want %s)", got, tt.want, got.Structured, tt.want.Structured)
			}
		})
	}
}

func TestNeedsSchema(t *testing.T) {
	tests := []struct {
		name     string
		mirror   string
		tags     []string
		want     bool
		argument bool // the format is the format argument's
		def      bool // the profile is the server's default tags
	}{
		{name: "format=json by the argument: the mirror follows the schema", mirror: "", tags: []string{"format=json"}, want: true, argument: true},
		{name: "format=json by the default tags: the mirror follows the schema", mirror: "", tags: []string{"format=json"}, want: true, def: true},
		{name: "undeclared", mirror: "", tags: nil, want: false},
		{name: "pass-through", mirror: "", tags: []string{"verbosity=standard"}, want: false},
		{name: "agent: the mirror follows the schema", mirror: "", tags: []string{"agent"}, want: true},
		{name: "format=json alone", mirror: "", tags: []string{"format=json"}, want: false},
		{name: "format=json with the JSON mirror", mirror: "json", tags: []string{"format=json"}, want: true},
		{name: "format=json with the compact text mirror", mirror: "text", tags: []string{"format=json"}, want: true},
		{name: "markdown", mirror: "", tags: []string{"human"}, want: true},
		{name: "text", mirror: "", tags: []string{"format=text"}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p *negotiation.Profile
			if tt.tags != nil {
				p = negotiation.FromTags(tt.tags...)
			}
			if tt.def {
				var err error
				if p, err = negotiation.New(nil).Default(negotiation.Settings{Features: tt.tags}); err != nil {
					t.Fatal(err)
				}
			}
			s := shaping.New(&shaping.Options{Mirror: tt.mirror})
			if got := s.NeedsSchemaFor(p, tt.argument); got != tt.want {
				t.Errorf("NeedsSchemaFor = %v, want %v", got, tt.want)
			}
			if got := s.NeedsSchema(p); !tt.argument && got != tt.want {
				t.Errorf("NeedsSchema = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzOrder: whatever the value and the schema, the agent's mirror is the
// value itself, minified, its members moved at most, and planning never
// panics.
func FuzzOrder(f *testing.F) {
	f.Add([]byte(sortedStation), []byte(stationSchema))
	f.Add([]byte(`{"b":[{"y":1,"x":2}],"a":{"d":null,"c":"\u00e9"}}`), []byte(`{"properties":{"a":{"properties":{"c":{},"d":{}}},"b":{"items":{"properties":{"x":{},"y":{}}}}}}`))
	f.Add([]byte(`[{"b":1,"a":2},3,"x"]`), []byte(`{"items":{"properties":{"a":{},"b":{}}}}`))
	f.Add([]byte(`{"a":1,"a":2}`), []byte(`{"properties":{"a":{},"a":{}}}`))
	f.Fuzz(func(t *testing.T, value, schemaDoc []byte) {
		schema, err := renderers.ParseSchema(schemaDoc)
		if err != nil {
			return
		}
		plan := shaping.New(nil).Tool(negotiation.FromTags("agent"), shaping.Result{Tool: "t", Value: value, Schema: schema, MirrorsValue: true})
		if !plan.ReplaceText || !json.Valid(value) {
			return // unchanged, or not JSON: the mirror is left alone
		}
		var a, b any
		if err := json.Unmarshal(value, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(plan.Text), &b); err != nil {
			t.Fatalf("the mirror %q is not JSON: %v", plan.Text, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("the mirror %s is not the value %s", plan.Text, value)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(plan.Text)); err != nil || compact.String() != plan.Text {
			t.Fatalf("the mirror %q is not minified", plan.Text)
		}
	})
}

// BenchmarkOrder plans an agent's mirror of a go-sdk typed tool's value
// (sorted keys) in its schema's order, and of a value already in order.
func BenchmarkOrder(b *testing.B) {
	schema, err := renderers.ParseSchema([]byte(stationSchema))
	if err != nil {
		b.Fatal(err)
	}
	s := shaping.New(nil)
	p := negotiation.FromTags("agent")
	for _, bb := range []struct {
		name  string
		value string
	}{
		{"sorted", sortedStation},
		{"in order", `{"name":"Bern","zone":"Mittelland","location":{"lon":7.4,"lat":46.9},"platforms":[{"track":"1","length_m":320}]}`},
	} {
		r := shaping.Result{Tool: "station", Value: []byte(bb.value), Schema: schema, HasOutputSchema: true, MirrorsValue: true}
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = s.Tool(p, r)
			}
		})
	}
}
