package shaping

import (
	"github.com/yosida95/uritemplate/v3"
)

// maxPages bounds the pages one listing walks.
const maxPages = 100

// Find walks a paged listing (list returns a page's items and the next
// cursor, "" after the last page) until match holds for an item, for at
// most 100 pages. A listing that fails ends the walk: found is false.
func Find[T any](list func(cursor string) ([]T, string, error), match func(T) bool) (item T, found bool) {
	cursor := ""
	for range maxPages {
		items, next, err := list(cursor)
		if err != nil {
			return item, false
		}
		for _, it := range items {
			if match(it) {
				return it, true
			}
		}
		if next == "" {
			break
		}
		cursor = next
	}
	return item, false
}

// TemplateMatches reports whether the URI template (RFC 6570) matches uri.
func TemplateMatches(template, uri string) bool {
	t, err := uritemplate.New(template)
	return err == nil && t.Match(uri) != nil
}

// PrimarySize is the size in bytes of the representation of the primary
// MIME type among contents (the first one otherwise): its text, or its
// blob before base64 encoding (resources/metadata, SEP-2093). size returns
// a content's size; it is -1 for a content to skip.
func PrimarySize(mimeTypes []string, sizes []int64, primary string) int64 {
	chosen := -1
	for i, mt := range mimeTypes {
		if sizes[i] < 0 {
			continue
		}
		if chosen < 0 || mt == primary && mimeTypes[chosen] != primary {
			chosen = i
		}
	}
	if chosen < 0 {
		return 0
	}
	return sizes[chosen]
}
