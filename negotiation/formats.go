package negotiation

import (
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/contentneg/contentneg/featuretags"
)

// The media types of the built-in renderings (contract section 4).
const (
	// MediaJSON is the structured rendering: structuredContent.
	MediaJSON = "application/json"
	// MediaMarkdown is the markdown rendering.
	MediaMarkdown = "text/markdown"
	// MediaText is the plain-text rendering.
	MediaText = "text/plain"
	// MediaTOON is the TOON rendering: Token-Oriented Object Notation.
	MediaTOON = "text/toon"
	// MediaHTML is the HTML rendering: the markdown rendering as HTML,
	// every data value escaped.
	MediaHTML = "text/html"
)

// ErrFormat reports a format that cannot be registered: see
// [Negotiator.AddFormat].
var ErrFormat = errors.New("invalid format registration")

// formats is an immutable table of the format names a server registered
// beside the built-in json, markdown, text, toon and html, each with its media type.
// Negotiators replace it as a whole, so readers need no lock.
type formats struct {
	names []string // lower case, in registration order
	types []string // the media type of names[i], lower case
}

// grammar returns the tag grammar that accepts the registered names as
// values of "format".
func (f *formats) grammar() featuretags.Grammar {
	if f == nil {
		return featuretags.Grammar{}
	}
	return featuretags.Grammar{Formats: f.names}
}

// mediaType returns the media type registered under the format name.
func (f *formats) mediaType(name string) (string, bool) {
	if f == nil {
		return "", false
	}
	for i, n := range f.names {
		if n == name {
			return f.types[i], true
		}
	}
	return "", false
}

// with returns a copy of f with name registered for mediaType, replacing an
// earlier registration of name.
func (f *formats) with(name, mediaType string) *formats {
	out := &formats{}
	if f != nil {
		for i, n := range f.names {
			if n != name {
				out.names = append(out.names, n)
				out.types = append(out.types, f.types[i])
			}
		}
	}
	out.names = append(out.names, name)
	out.types = append(out.types, mediaType)
	return out
}

// checkFormat validates a registration and returns its canonical spelling.
func checkFormat(name, mediaType string) (string, string, error) {
	lname := strings.ToLower(name)
	if _, diags := featuretags.Parse([]string{"x-check=" + lname}); name == "" || len(diags) > 0 {
		return "", "", fmt.Errorf("%w: format name %q is not a feature-tag value", ErrFormat, name)
	}
	switch lname {
	case featuretags.ValueJSON, featuretags.ValueMarkdown, featuretags.ValueText, featuretags.ValueTOON, featuretags.ValueHTML:
		return "", "", fmt.Errorf("%w: format name %q is built in", ErrFormat, name)
	}
	mt, params, err := mime.ParseMediaType(mediaType)
	if err != nil || len(params) > 0 || !strings.Contains(mt, "/") || strings.Contains(mt, "*") {
		return "", "", fmt.Errorf("%w: %q is not a media type without parameters", ErrFormat, mediaType)
	}
	switch mt {
	case MediaJSON, MediaMarkdown, MediaText, MediaTOON, MediaHTML:
		return "", "", fmt.Errorf("%w: media type %q belongs to a built-in format", ErrFormat, mt)
	}
	return lname, mt, nil
}
