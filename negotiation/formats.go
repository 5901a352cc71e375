package negotiation

import (
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/format"
)

// errFormat reports a format that cannot be registered: see
// [Negotiator.AddFormat].
var errFormat = errors.New("invalid format registration")

// builtin is the built-in formats, in the order a server offers them:
// json, markdown, text, toon, html. It is a copy, which a change to
// package format's variables cannot reach.
var builtin = [...]format.Format{format.JSON, format.Markdown, format.Text, format.TOON, format.HTML}

// builtinByName returns the built-in format named name (lower case, as the
// tag grammar stores it).
func builtinByName(name string) (format.Format, bool) {
	for i := range builtin {
		if builtin[i].Name == name {
			return builtin[i], true
		}
	}
	return format.Format{}, false
}

// builtinByMediaType returns the built-in format served as mediaType (lower
// case, without parameters).
func builtinByMediaType(mediaType string) (format.Format, bool) {
	for i := range builtin {
		if builtin[i].MediaType == mediaType {
			return builtin[i], true
		}
	}
	return format.Format{}, false
}

// builtinByRendering returns the built-in format that r makes; false for
// pass-through and custom renderings, which have none.
func builtinByRendering(r format.Rendering) (format.Format, bool) {
	for i := range builtin {
		if builtin[i].Rendering == r {
			return builtin[i], true
		}
	}
	return format.Format{}, false
}

// formats is an immutable table of the formats a server registered beside
// the built-in ones (builtin), each of [format.RenderingCustom].
// Negotiators replace it as a whole, so readers need no lock.
type formats struct {
	list  []format.Format // in registration order
	names []string        // list[i].Name: the grammar's further values of "format"
}

// tagValues returns the registered names: the further values of "format"
// the tag grammar accepts.
func (f *formats) tagValues() []string {
	if f == nil {
		return nil
	}
	return f.names
}

// len returns how many formats are registered.
func (f *formats) len() int {
	if f == nil {
		return 0
	}
	return len(f.list)
}

// byName returns the format registered under name.
func (f *formats) byName(name string) (format.Format, bool) {
	if f != nil {
		for _, r := range f.list {
			if r.Name == name {
				return r, true
			}
		}
	}
	return format.Format{}, false
}

// byMediaType returns the format registered for mediaType.
func (f *formats) byMediaType(mediaType string) (format.Format, bool) {
	if f != nil {
		for _, r := range f.list {
			if r.MediaType == mediaType {
				return r, true
			}
		}
	}
	return format.Format{}, false
}

// with returns a copy of f with name registered for mediaType, replacing an
// earlier registration of name.
func (f *formats) with(name, mediaType string) *formats {
	out := &formats{}
	if f != nil {
		for _, r := range f.list {
			if r.Name != name {
				out.list = append(out.list, r)
				out.names = append(out.names, r.Name)
			}
		}
	}
	out.list = append(out.list, format.Format{Name: name, MediaType: mediaType, Rendering: format.RenderingCustom})
	out.names = append(out.names, name)
	return out
}

// checkFormat validates a registration and returns its canonical spelling.
func checkFormat(name, mediaType string) (string, string, error) {
	lname := strings.ToLower(name)
	if _, diags := featuretags.Parse([]string{"x-check=" + lname}); name == "" || len(diags) > 0 {
		return "", "", fmt.Errorf("%w: format name %q is not a feature-tag value", errFormat, name)
	}
	if _, builtin := builtinByName(lname); builtin {
		return "", "", fmt.Errorf("%w: format name %q is built in", errFormat, name)
	}
	mt, params, err := mime.ParseMediaType(mediaType)
	if err != nil || len(params) > 0 || !strings.Contains(mt, "/") || strings.Contains(mt, "*") {
		return "", "", fmt.Errorf("%w: %q is not a media type without parameters", errFormat, mediaType)
	}
	if _, builtin := builtinByMediaType(mt); builtin {
		return "", "", fmt.Errorf("%w: media type %q belongs to a built-in format", errFormat, mt)
	}
	return lname, mt, nil
}
