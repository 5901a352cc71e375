// Package mediatype is the project's one media-type normaliser.
package mediatype

import (
	"mime"
	"strings"
)

// Base returns the lower-case media type of a MIME type, without
// parameters ("Text/Markdown; charset=utf-8" -> "text/markdown"); a value
// that does not parse is trimmed and lower-cased. A type that is already
// plain costs a scan and no allocation.
func Base(mimeType string) string {
	plain := true
	for i := 0; i < len(mimeType) && plain; i++ {
		c := mimeType[i]
		plain = c != ';' && c != ' ' && c != '\t' && !('A' <= c && c <= 'Z')
	}
	if plain {
		return mimeType
	}
	mt, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(mimeType))
	}
	return mt
}
