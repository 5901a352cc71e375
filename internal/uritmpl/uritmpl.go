// Package uritmpl is the project's one URI-template matcher (RFC 6570, level
// 1-4 expressions as github.com/yosida95/uritemplate reads them): which
// registered template serves a resource URI, and whether one template
// matches a URI. The renderer registry, the shaper's per-resource settings,
// the REST binding and resources/metadata all ask it.
package uritmpl

import (
	"slices"
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// Matches reports whether the URI template matches uri. A template that
// does not parse matches nothing.
func Matches(template, uri string) bool {
	t, err := uritemplate.New(template)
	return err == nil && t.Match(uri) != nil
}

// Set holds URI templates in the order they were added. The zero Set is
// empty and ready. Add is not safe for concurrent use; Match is, on a Set
// no one adds to any more (the renderer registry publishes such sets).
type Set struct {
	templates []entry
}

type entry struct {
	name string
	tmpl *uritemplate.Template
}

// Add adds name when it is a URI template (it holds a "{" and parses), and
// reports whether it did. A name added before is not added again.
func (s *Set) Add(name string) bool {
	if !strings.Contains(name, "{") {
		return false
	}
	for _, e := range s.templates {
		if e.name == name {
			return false
		}
	}
	t, err := uritemplate.New(name)
	if err != nil {
		return false
	}
	s.templates = append(s.templates, entry{name: name, tmpl: t})
	return true
}

// Clone returns a copy of s that Add may grow without changing s: the
// renderer registry copies its template sets on write, so that readers of
// the published copy need no lock.
func (s *Set) Clone() Set {
	return Set{templates: slices.Clone(s.templates)}
}

// Match yields, in the order they were added, the templates that match
// uri, until yield returns false.
func (s *Set) Match(uri string, yield func(name string) bool) {
	for _, e := range s.templates {
		if e.tmpl.Match(uri) != nil && !yield(e.name) {
			return
		}
	}
}
