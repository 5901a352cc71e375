package renderers

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// maxSchemaDepth bounds how deep ParseSchema descends; deeper subschemas are dropped (nil), which
// only costs field order and descriptions there.
const maxSchemaDepth = 32

// Schema is what renderers use from a JSON Schema: property order and descriptions.
type Schema struct {
	// Title is the schema's "title".
	Title string
	// Description is the schema's "description".
	Description string
	// Properties are the schema's "properties", in the order they are written.
	Properties []Property
	// Items is the element schema for arrays ("items"), or nil.
	Items *Schema

	index names // property name to index, built by ParseSchema for a schema with many properties
}

// Property is one entry of a schema's "properties".
type Property struct {
	// Name is the property's key.
	Name string
	// Title is the property schema's "title": the label markdown shows for it.
	Title string
	// Description is the property schema's "description".
	Description string
	// Unit is the property schema's "unit" (or "x-unit") keyword, such as "°C", "km/h" or "%";
	// markdown writes it after the value (in a table, in the column header).
	Unit string
	// Fraction marks a number from 0 to 1 that markdown shows as a percentage (0.15 as 15%): a
	// property of type "number" with "minimum": 0 and "maximum": 1, or whose name or title has the
	// word "probability" or "fraction". See docs/decisions.md.
	Fraction bool
	// Schema is the property's own schema, for nested objects and arrays; it may be nil.
	Schema *Schema

	label string // the name made readable with Unit, computed once by ParseSchema
}

// ParseSchema reads a JSON Schema document, keeping the order of "properties" keys as written. It
// reads "title", "description", "properties" and "items" (and, of a property, "unit" or "x-unit",
// "type", "minimum" and "maximum", see [Property]) (an object schema; a tuple form is
// ignored). "$ref" and "$defs" are not resolved: a property given only by "$ref" has no subschema.
// Subschemas nested deeper than 32 levels are dropped. A boolean schema gives an empty Schema.
// Invalid JSON gives an error; ParseSchema never panics.
func ParseSchema(doc []byte) (*Schema, error) {
	if err := validate(doc); err != nil {
		return nil, fmt.Errorf("renderers: parse schema: %w", err)
	}
	root := gjson.Parse(string(doc))
	switch {
	case root.IsObject():
		return readSchema(root, 0), nil
	case root.IsBool():
		return &Schema{}, nil
	default:
		return nil, fmt.Errorf("renderers: parse schema: document is a JSON %s, want an object", kindOf(root))
	}
}

// readSchema converts one schema object; obj must be a JSON object.
func readSchema(obj gjson.Result, depth int) *Schema {
	s := &Schema{}
	obj.ForEach(func(key, value gjson.Result) bool {
		switch key.Str {
		case "title":
			s.Title = stringOf(value)
		case "description":
			s.Description = stringOf(value)
		case "properties":
			s.Properties = readProperties(value, depth)
			if len(s.Properties) > smallSchema {
				s.index = indexProperties(s.Properties)
			}
		case "items":
			s.Items = subschema(value, depth)
		}
		return true
	})
	return s
}

func readProperties(props gjson.Result, depth int) []Property {
	if !props.IsObject() {
		return nil
	}
	var out []Property
	props.ForEach(func(key, value gjson.Result) bool {
		p := Property{Name: key.Str, Schema: subschema(value, depth)}
		if value.IsObject() {
			p.Title = stringOf(value.Get("title"))
			p.Description = stringOf(value.Get("description"))
			p.Unit = stringOf(value.Get("unit"))
			if p.Unit == "" {
				p.Unit = stringOf(value.Get("x-unit"))
			}
			p.Fraction = isFraction(value, p.Name, p.Title)
		}
		if identifier(p.Name) {
			p.label = readable(p.Name, p.Unit)
		}
		out = append(out, p)
		return true
	})
	return out
}

// subschema returns the schema for value one level deeper, or nil when value is not an object or
// the depth limit is reached.
func subschema(value gjson.Result, depth int) *Schema {
	if !value.IsObject() || depth+1 >= maxSchemaDepth {
		return nil
	}
	return readSchema(value, depth+1)
}

// kindOf names the JSON type of r: "object", "array", "string", "number", "boolean" or "null".
func kindOf(r gjson.Result) string {
	switch {
	case r.IsObject():
		return "object"
	case r.IsArray():
		return "array"
	case r.IsBool():
		return "boolean"
	case r.Type == gjson.String:
		return "string"
	case r.Type == gjson.Number:
		return "number"
	}
	return "null"
}

func stringOf(r gjson.Result) string {
	if r.Type != gjson.String {
		return ""
	}
	return r.Str
}

// isFraction reports whether the property schema prop says a number from 0 to 1 that reads as a
// percentage: type "number" and either bounds of exactly 0 and 1 or a name or title with the word
// "probability" or "fraction".
func isFraction(prop gjson.Result, name, title string) bool {
	number := false
	t := prop.Get("type")
	t.ForEach(func(_, el gjson.Result) bool { // an array of types
		number = number || el.Str == "number"
		return true
	})
	if !number && t.Str != "number" {
		return false
	}
	lo, hi := prop.Get("minimum"), prop.Get("maximum")
	if lo.Type == gjson.Number && hi.Type == gjson.Number && lo.Num == 0 && hi.Num == 1 {
		return true
	}
	for _, w := range words(words(nil, name), title) {
		if strings.EqualFold(w, "probability") || strings.EqualFold(w, "fraction") {
			return true
		}
	}
	return false
}

// Index returns the index in s.Properties of the property called name (the first, for a repeated
// name), or -1. It is constant time for a schema from ParseSchema, and allocates nothing.
func (s *Schema) Index(name string) int { return s.index.of(s, name) }
