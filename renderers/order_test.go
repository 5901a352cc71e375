package renderers_test

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

func TestValueOrderKeepsTheValuesOrderWithASchema(t *testing.T) {
	schema := &renderers.Schema{Properties: []renderers.Property{
		{Name: "a"},
		{Name: "rows", Schema: &renderers.Schema{Items: &renderers.Schema{Properties: []renderers.Property{{Name: "x"}, {Name: "y"}}}}},
		{Name: "b"},
	}}
	value := []byte(`{"b":"bee","a":"ant","rows":[{"y":"yak","x":"xen"},{"y":"yew","x":"xis"}]}`)
	tests := []struct {
		name       string
		opts       renderers.Options
		valueOrder bool
		want       [][2]string // pairs of values, the first before the second
	}{
		{"markdown, the schema's order", renderers.Options{MediaType: format.Markdown.MediaType}, false, [][2]string{{"ant", "bee"}, {"xen", "yak"}}},
		{"markdown, the value's order", renderers.Options{MediaType: format.Markdown.MediaType}, true, [][2]string{{"bee", "ant"}, {"yak", "xen"}}},
		{"text, the schema's order", renderers.Options{MediaType: format.Text.MediaType}, false, [][2]string{{"ant", "bee"}, {"xen", "yak"}}},
		{"text, the value's order", renderers.Options{MediaType: format.Text.MediaType}, true, [][2]string{{"bee", "ant"}, {"yak", "xen"}}},
		{"compact text, the value's order", renderers.Options{MediaType: format.Text.MediaType, Verbosity: format.Compact}, true, [][2]string{{"bee", "ant"}, {"yak", "xen"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Schema, opts.ValueOrder = schema, tt.valueOrder
			got, err := renderers.Generic{}.Render(value, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, pair := range tt.want {
				if i, j := strings.Index(got, pair[0]), strings.Index(got, pair[1]); i < 0 || j < 0 || i > j {
					t.Errorf("%s is not before %s:\n%s", pair[0], pair[1], got)
				}
			}
		})
	}
}
