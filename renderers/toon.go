package renderers

import (
	"errors"
	"fmt"

	"github.com/contentneg/contentneg/toon"
	"github.com/tidwall/gjson"
)

// This file is the generic renderer of text/toon: the toon package's encoder (TOON specification
// 4.0, github.com/toon-format/spec, tag v4.0.0) with the specification's defaults, two spaces of
// indentation and the comma as delimiter, given the value in the schema's order.

// errTooDeep reports a value nested deeper than a lossless rendering can carry: TOON indents every
// level, so containers deeper than 32 levels are refused rather than flattened into strings. The
// library then falls back to the structured rendering, which carries any depth.
var errTooDeep = errors.New("value nested too deep")

// TOON renders value as TOON (Token-Oriented Object Notation, specification 4.0) with
// [toon.FromJSON]: objects as "key: value" lines indented by two spaces per level, arrays with
// their length ("key[N]:"), arrays of primitives inline ("key[3]: a,b,c"), uniform arrays of
// objects as a table ("key[2]{id,name}:" over one comma-separated row per element, a uniform
// nested object as a nested field group "key[2]{id,geo{lat,lon}}:"), objects of at least two
// uniform objects as a keyed table ("key[2:]{host,port}:" over "alpha: a.example.com,8080"), and
// other arrays as "- " list items. Strings are quoted only where the specification requires it,
// numbers are written in its canonical form from their exact digits, and members keep the
// schema's order when opts.Schema gives one, else the value's own (a table's rows take the first
// row's order, as the specification says). Any TOON 4 decoder reads the output back as the same
// JSON value. opts.Verbosity, Title and Units do not apply: TOON carries the value, all of it and
// nothing else. A value nested deeper than 32 levels gives an error wrapping [errTooDeep]; an
// invalid one an error wrapping [errInvalidJSON].
func (Generic) toon(value []byte, opts Options) (string, error) {
	return toonWith(value, opts, ',')
}

// toonWith is TOON with delim as the document delimiter, declared in every array header. TOON
// always uses the comma, the cheapest in tokens (docs/decisions.md); the tests measure the others.
func toonWith(value []byte, opts Options, delim byte) (string, error) {
	if err := validate(value); err != nil {
		return "", fmt.Errorf("renderers: toon: %w", err)
	}
	if opts.Schema != nil && !opts.ValueOrder {
		var r render
		r.init(opts, 0)
		ordered, err := r.appendOrdered(make([]byte, 0, len(value)), gjson.ParseBytes(value), opts.Schema, 1)
		r.finish()
		if err != nil {
			return "", fmt.Errorf("renderers: toon: %w", err)
		}
		value = ordered
	}
	out, err := toon.FromJSON(value, &toon.EncodeOptions{Delimiter: delim, MaxDepth: maxDepth})
	switch {
	case errors.Is(err, toon.ErrTooDeep):
		return "", fmt.Errorf("renderers: %w: %w", errTooDeep, err)
	case err != nil:
		return "", fmt.Errorf("renderers: %w: %w", errInvalidJSON, err)
	}
	return string(out), nil
}

// appendOrdered appends v as JSON whose objects' members follow the schema s (objectFields: the
// schema's properties in order, the others after them in the value's order); level counts the
// containers from the root's, which is 1.
func (r *render) appendOrdered(dst []byte, v gjson.Result, s *Schema, level int) ([]byte, error) {
	if level > maxDepth && (v.IsObject() || v.IsArray()) {
		return nil, errTooDeep
	}
	var err error
	switch {
	case v.IsObject():
		fields, mark := r.objectFields(v, s)
		defer r.popFields(mark)
		dst = append(dst, '{')
		for i := range fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, fields[i].raw...)
			dst = append(dst, ':')
			if dst, err = r.appendOrdered(dst, fields[i].value, schemaOf(fields[i].prop), level+1); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case v.IsArray():
		dst = append(dst, '[')
		i := 0
		v.ForEach(func(_, el gjson.Result) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			dst, err = r.appendOrdered(dst, el, itemsOf(s), level+1)
			return err == nil
		})
		if err != nil {
			return nil, err
		}
		return append(dst, ']'), nil
	default:
		return append(dst, v.Raw...), nil
	}
}
