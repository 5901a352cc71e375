package shaping

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/contentneg/contentneg/internal/rawjson"
	"github.com/contentneg/contentneg/negotiation"
)

// Check reports what the server cannot start with: an [Options].Mirror it
// does not know, or default tags ([Options].Default) with an invalid tag,
// an unknown value of a registry key ("format=xml"), a contradiction or a
// major version other than 1 (contract section 1). Call it once the server's formats are added
// ([Shaper.AddFormat]), before serving: "format=csv" is valid only then.
// Until the default checks, clients that declare nothing get no default.
func (s *Shaper) Check() error {
	switch s.mirrorName {
	case "", mirrorNameJSON, mirrorNameText:
	default:
		return fmt.Errorf("shaping: Options.Mirror %q: want \"\", %q or %q", s.mirrorName, mirrorNameJSON, mirrorNameText)
	}
	_, err := s.defaultProfile()
	return err
}

// defaultProfile returns the profile of the default tags, nil for none,
// made once per set of registered formats.
func (s *Shaper) defaultProfile() (*negotiation.Profile, error) {
	if len(s.defaults.Features) == 0 && s.defaults.Version == "" {
		return nil, nil
	}
	d := s.def.Load()
	if d == nil {
		p, err := s.negotiator.Default(s.defaults)
		if err != nil {
			err = fmt.Errorf("shaping: Options.Default: %w", err)
		}
		d = &defaultTags{profile: p, err: err}
		s.def.Store(d)
	}
	return d.profile, d.err
}

// defaultTags is the checked default, or why it failed.
type defaultTags struct {
	profile *negotiation.Profile
	err     error
}

// FormatArgument returns the name of the per-call format argument
// ([Options].FormatArgument), "" when it is off.
func (s *Shaper) FormatArgument() string { return s.argument }

// argumentDescription is what a model reads of the format argument.
const argumentDescription = "Optional. The format of this call's result: json for structured data, " +
	"markdown or text to read, toon for compact tables, or another listed format. " +
	"Omit it for the server's default."

// ToolInputSchema returns a tool's advertised input schema with the format
// argument added (contract section 1): an optional string property named
// [Options].FormatArgument whose enum is the format names the server
// renders, with one line a model understands. The schema's own bytes are
// kept as they are, the property appended to its "properties" (added when
// it has none). The schema comes back unchanged, and changed is false,
// when the option is off, the schema is not a JSON object of type
// "object", or it already has a property of that name (the argument is
// then the tool's own). It is the same for every client.
func (s *Shaper) ToolInputSchema(schema []byte) (out []byte, changed bool) {
	if s.argument == "" || len(schema) == 0 {
		return schema, false
	}
	members, ok := rawjson.ObjectMembers(schema)
	if !ok {
		return schema, false
	}
	if t, ok := rawjson.Last(members, "type"); !ok || !bytes.Equal(t.Value, []byte(`"object"`)) {
		return schema, false
	}
	prop := s.argumentSchema()
	props, has := rawjson.Last(members, "properties")
	if !has {
		return rawjson.Append(schema, "properties", rawjson.Object([]string{s.argument}, [][]byte{prop})), true
	}
	inner, ok := rawjson.Members(props.Value)
	if !ok {
		return schema, false
	}
	if _, owned := rawjson.Last(inner, s.argument); owned {
		return schema, false
	}
	valueStart := props.End - len(props.Value)
	b := make([]byte, 0, len(schema)+len(s.argument)+len(prop)+4)
	b = append(b, schema[:valueStart]...)
	b = append(b, rawjson.Append(props.Value, s.argument, prop)...)
	return append(b, schema[props.End:]...), true
}

// argumentSchema is the JSON of the format argument's property.
func (s *Shaper) argumentSchema() []byte {
	names := s.negotiator.FormatNames()
	enum, _ := json.Marshal(names)
	desc, _ := json.Marshal(argumentDescription)
	return []byte(`{"type":"string","enum":` + string(enum) + `,"description":` + string(desc) + `}`)
}

// Argument is the per-call format argument of one tools/call, as
// [Shaper.TakeArgument] found it.
type Argument struct {
	// Value is the format name the call asked for.
	Value string
	// Given says the call carried the argument.
	Given bool
	// Invalid says the value was not a string: the call is a tool error.
	Invalid bool
}

// TakeArgument takes the format argument ([Options].FormatArgument) out of
// a tools/call's arguments (a JSON object), before the SDK validates them
// and before the handler: rest are the arguments without it, every other
// member's bytes as they were. inputSchema returns the tool's own input
// schema, read only when the arguments hold the name (nil: none): a tool
// that has a property of that name keeps its argument, and rest is args. A JSON null counts as not given, and is taken out too. With the
// option off, or arguments that are not an object, rest is args and
// nothing is given.
func (s *Shaper) TakeArgument(inputSchema func() []byte, args []byte) (rest []byte, arg Argument) {
	if s.argument == "" || len(args) == 0 {
		return args, Argument{}
	}
	if !bytes.Contains(args, []byte(s.argument)) && bytes.IndexByte(args, '\\') < 0 {
		// Neither the name nor an escape that could spell it: most calls
		// cost one scan of their bytes and nothing more.
		return args, Argument{}
	}
	members, ok := rawjson.ObjectMembers(args)
	if !ok {
		return args, Argument{}
	}
	last, found := rawjson.Last(members, s.argument) // the last one wins, as encoding/json reads it
	if !found || s.owns(inputSchema) {
		return args, Argument{}
	}
	rest = make([]byte, 0, len(args))
	rest = append(rest, args[:members[0].Start]...)
	kept := 0
	for _, m := range members {
		if m.Key == s.argument {
			continue
		}
		if kept > 0 {
			rest = append(rest, ',')
		}
		rest = append(rest, args[m.Start:m.End]...)
		kept++
	}
	rest = append(rest, args[members[len(members)-1].End:]...)
	raw := last.Value
	switch {
	case bytes.Equal(raw, []byte("null")):
		return rest, Argument{}
	case len(raw) > 0 && raw[0] == '"':
		var v string
		if json.Unmarshal(raw, &v) == nil {
			return rest, Argument{Value: v, Given: true}
		}
	}
	return rest, Argument{Given: true, Invalid: true}
}

// TakeArgumentMap is [Shaper.TakeArgument] for arguments an SDK decoded
// into a map: rest is a copy of args without the argument (args itself is
// not changed), or args when nothing is taken.
func (s *Shaper) TakeArgumentMap(inputSchema func() []byte, args map[string]any) (rest map[string]any, arg Argument) {
	if s.argument == "" {
		return args, Argument{}
	}
	v, found := args[s.argument]
	if !found || s.owns(inputSchema) {
		return args, Argument{}
	}
	rest = make(map[string]any, len(args)-1)
	for k, x := range args {
		if k != s.argument {
			rest[k] = x
		}
	}
	switch v := v.(type) {
	case nil:
		return rest, Argument{}
	case string:
		return rest, Argument{Value: v, Given: true}
	}
	return rest, Argument{Given: true, Invalid: true}
}

// owns reports whether a tool's input schema has a property named as the
// format argument, other than the one [Shaper.ToolInputSchema] adds.
func (s *Shaper) owns(schema func() []byte) bool {
	if schema == nil {
		return false
	}
	members, ok := rawjson.ObjectMembers(schema())
	if !ok {
		return false
	}
	props, ok := rawjson.Last(members, "properties")
	if !ok {
		return false
	}
	inner, ok := rawjson.Members(props.Value)
	if !ok {
		return false
	}
	m, owned := rawjson.Last(inner, s.argument)
	if !owned {
		return false
	}
	// The property this library advertised (a front end that reads the
	// advertised schema, such as the REST binding) is not the tool's own.
	var prop struct {
		Description string `json:"description"`
	}
	return json.Unmarshal(m.Value, &prop) != nil || prop.Description != argumentDescription
}

// withArgument returns the profile of one call that carried the format
// argument, or the tool error's text for a value the server cannot render.
func (s *Shaper) withArgument(p *negotiation.Profile, arg Argument) (*negotiation.Profile, string) {
	if arg.Invalid {
		return nil, fmt.Sprintf("argument %q must be a string, one of %s",
			s.argument, strings.Join(s.negotiator.FormatNames(), ", "))
	}
	out, err := s.negotiator.WithFormat(p, arg.Value)
	if err != nil {
		return nil, "argument " + strconv.Quote(s.argument) + ": " + err.Error()
	}
	return out, ""
}
