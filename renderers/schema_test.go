package renderers

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseSchema(t *testing.T) {
	tests := []struct {
		name string
		give string
		want *Schema
	}{
		{
			name: "property order as written",
			give: `{"title":"W","description":"D","properties":{"z":{"description":"last letter"},"a":{},"m":{"type":"string"}}}`,
			want: &Schema{Title: "W", Description: "D", Properties: []Property{
				{Name: "z", Description: "last letter", Schema: &Schema{Description: "last letter"}},
				{Name: "a", Schema: &Schema{}},
				{Name: "m", Schema: &Schema{}},
			}},
		},
		{
			name: "nested object and array items",
			give: `{"properties":{"days":{"type":"array","items":{"properties":{"date":{"description":"Day"}}}}}}`,
			want: &Schema{Properties: []Property{{Name: "days", Schema: &Schema{Items: &Schema{
				Properties: []Property{{Name: "date", Description: "Day", Schema: &Schema{Description: "Day"}}},
			}}}}},
		},
		{
			name: "ref is not resolved",
			give: `{"$defs":{"P":{"properties":{"x":{}}}},"properties":{"p":{"$ref":"#/$defs/P"}}}`,
			want: &Schema{Properties: []Property{{Name: "p", Schema: &Schema{}}}},
		},
		{
			name: "boolean property schema and tuple items",
			give: `{"properties":{"any":true},"items":[{"type":"string"}]}`,
			want: &Schema{Properties: []Property{{Name: "any"}}},
		},
		{
			name: "non-string title ignored",
			give: `{"title":42,"properties":[]}`,
			want: &Schema{},
		},
		{name: "boolean schema", give: `true`, want: &Schema{}},
		{name: "escaped key", give: `{"properties":{"a\"b":{}}}`, want: &Schema{Properties: []Property{{Name: `a"b`, Schema: &Schema{}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSchema([]byte(tt.give))
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(Schema{}, Property{})); diff != "" {
				t.Errorf("ParseSchema(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

func TestParseSchemaInvalidJSON(t *testing.T) {
	tests := []struct {
		name string
		give string
	}{
		{name: "truncated", give: `{"properties":{`},
		{name: "empty", give: ``},
		{name: "trailing garbage", give: `{} x`},
		{name: "too deep", give: strings.Repeat("[", 10001) + strings.Repeat("]", 10001)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSchema([]byte(tt.give))
			if !errors.Is(err, errInvalidJSON) || !strings.HasPrefix(err.Error(), "renderers: parse schema: invalid JSON") {
				t.Errorf("ParseSchema error = %v, want a wrapped errInvalidJSON", err)
			}
		})
	}
}

func TestParseSchemaNotAnObject(t *testing.T) {
	tests := []struct {
		give string
		want string
	}{
		{give: `[]`, want: "renderers: parse schema: document is a JSON array, want an object"},
		{give: `"x"`, want: "renderers: parse schema: document is a JSON string, want an object"},
		{give: `null`, want: "renderers: parse schema: document is a JSON null, want an object"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			_, err := ParseSchema([]byte(tt.give))
			if err == nil || err.Error() != tt.want {
				t.Errorf("ParseSchema(%s) = %v, want %q", tt.give, err, tt.want)
			}
		})
	}
}

// TestParseSchemaDepth checks that subschemas below the depth limit are dropped, not parsed.
func TestParseSchemaDepth(t *testing.T) {
	doc := strings.Repeat(`{"items":`, 100) + `{}` + strings.Repeat(`}`, 100)
	s, err := ParseSchema([]byte(doc))
	requireNoError(t, err)
	depth := 0
	for ; s != nil; s = s.Items {
		depth++
	}
	if depth != maxSchemaDepth {
		t.Errorf("schema depth = %d, want %d", depth, maxSchemaDepth)
	}
}

func TestParseSchemaKeepsNamesThatAreNotUTF8(t *testing.T) {
	// An invalid byte in a property name once made its readable label read
	// past the name's end.
	for _, name := range []string{"\x91", "a\x91", "\x91B", "ab\xffCd", "x\xe2\x82"} {
		s, err := ParseSchema([]byte(`{"properties":{"` + name + `":{"type":"number"}}}`))
		if err != nil || len(s.Properties) != 1 || s.Properties[0].Name != name {
			t.Errorf("%q: %v, %+v", name, err, s)
		}
	}
}
