package shaping

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

// Order and identity (contract section 5): the members of a value's objects
// are rendered, and mirrored, in one order whatever the SDK:
//
//   - a value encoded from a Go struct (toolResult.FromStruct) keeps its own
//     order, the struct's fields', even when the output schema's differs
//     (mcp-go's WithOutputSchema[T] sorts the schema's properties);
//   - otherwise the output schema's property order, when the tool has one
//     (the go-sdk infers a typed tool's schema in struct order, but gives
//     the value with sorted keys);
//   - otherwise the value's own order, as the handler encoded it.
//
// inOrder returns r's value in that order, and whether that changed it.
func inOrder(r toolResult) ([]byte, bool) {
	if r.FromStruct || r.Schema == nil || !json.Valid(r.Value) {
		return r.Value, false
	}
	o := orderer{}
	v := gjson.ParseBytes(r.Value)
	if o.ordered(v, r.Schema) {
		return r.Value, false // nothing to move: no copy
	}
	o.members = make([]member, 0, 16)
	out := o.value(make([]byte, 0, len(r.Value)), v, r.Schema)
	if bytes.Equal(out, r.Value) {
		return r.Value, false
	}
	return out, true
}

// needsSchema reports whether planning a result with structuredContent for
// profile p reads the tool's output schema (toolResult.Schema and
// HasOutputSchema): for every rendering with text from the value, the JSON
// mirror included, but not for pass-through, nor for structuredContent
// alone (a client's own format=json without a mirror), so that a front end
// that pays to look the schema up is asked only then. argument says the
// model chose the format with the format argument
// (toolResult.FormatArgument): its json keeps the mirror, which follows
// the schema's order.
func (s *Shaper) needsSchema(p *negotiation.Profile, argument bool) bool {
	switch p.Rendering() {
	case format.RenderingPassThrough:
		return false
	case format.RenderingStructured:
		return !s.structuredAlone(p, argument) || s.mirror != mirrorNone
	}
	return true
}

// structuredAlone reports whether the structured rendering for p is the
// one the client asked for itself with format=json, which [Options].Mirror
// governs (structuredContent alone by default). A format=json that the
// model chose with the format argument (toolResult.FormatArgument), or that
// comes from the operator's default tags ([negotiation.Profile.FromDefault]),
// keeps the minified JSON mirror: the client never said that it reads
// structuredContent (contract section 1).
func (s *Shaper) structuredAlone(p *negotiation.Profile, argument bool) bool {
	explicit, _ := p.Tags().Value("format")
	return explicit == format.JSON.Name && !argument && !p.FromDefault()
}

// orderer writes a JSON value minified, with the members of each object
// the schema describes in the schema's property order, the others after
// them in the value's order.
type orderer struct {
	members []member // scratch, a stack shared by the nested objects
}

// member is one member of an object being ordered.
type member struct {
	key, raw string // the raw key, quotes included, and the raw value
	rank     int
}

// ordered reports whether v is in s's order already and minified, reading
// it without copying it.
func (o *orderer) ordered(v gjson.Result, s *renderers.Schema) bool {
	switch {
	case s == nil || !v.IsObject() && !v.IsArray():
		return true // whether it is minified is left to the caller's comparison
	case v.IsArray():
		ok := true
		if s.Items != nil {
			v.ForEach(func(_, el gjson.Result) bool {
				ok = o.ordered(el, s.Items)
				return ok
			})
		}
		return ok
	}
	last, ok := -1, true
	v.ForEach(func(key, value gjson.Result) bool {
		rank := rankOf(s, key.Str)
		if rank < last {
			ok = false
			return false
		}
		last = rank
		var sub *renderers.Schema
		if rank < len(s.Properties) {
			sub = s.Properties[rank].Schema
		}
		ok = o.ordered(value, sub)
		return ok
	})
	return ok
}

// value appends v, ordered by s, to dst.
func (o *orderer) value(dst []byte, v gjson.Result, s *renderers.Schema) []byte {
	switch {
	case s == nil:
		return appendCompact(dst, v.Raw)
	case v.IsObject():
		return o.object(dst, v, s)
	case !v.IsObject() && !v.IsArray():
		return append(dst, v.Raw...) // a scalar's raw text has no white space to drop
	case v.IsArray() && s.Items != nil:
		dst = append(dst, '[')
		first := true
		v.ForEach(func(_, el gjson.Result) bool {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = o.value(dst, el, s.Items)
			return true
		})
		return append(dst, ']')
	}
	return appendCompact(dst, v.Raw)
}

// object appends obj with its members in s's order to dst.
func (o *orderer) object(dst []byte, obj gjson.Result, s *renderers.Schema) []byte {
	mark := len(o.members)
	obj.ForEach(func(key, value gjson.Result) bool {
		o.members = append(o.members, member{key: key.Raw, raw: value.Raw, rank: rankOf(s, key.Str)})
		return true
	})
	members := o.members[mark:]
	slices.SortStableFunc(members, func(a, b member) int { return cmp.Compare(a.rank, b.rank) })
	dst = append(dst, '{')
	for i := range members {
		m := o.members[mark+i] // o.members may grow below: index it afresh
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, m.key...)
		dst = append(dst, ':')
		var sub *renderers.Schema
		if m.rank < len(s.Properties) {
			sub = s.Properties[m.rank].Schema
		}
		if sub == nil {
			dst = appendCompact(dst, m.raw)
		} else {
			dst = o.value(dst, gjson.Parse(m.raw), sub)
		}
	}
	clear(o.members[mark:])
	o.members = o.members[:mark]
	return append(dst, '}')
}

// rankOf returns the index of the property called name in s (the first,
// for a repeated name), or len(s.Properties) when s has none.
func rankOf(s *renderers.Schema, name string) int {
	if i := s.Index(name); i >= 0 {
		return i
	}
	return len(s.Properties)
}

// appendCompact appends raw JSON to dst without insignificant white space.
func appendCompact(dst []byte, raw string) []byte {
	b := bytes.NewBuffer(dst)
	if err := json.Compact(b, []byte(raw)); err != nil {
		return append(dst, raw...)
	}
	return b.Bytes()
}
