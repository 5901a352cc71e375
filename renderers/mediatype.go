package renderers

import (
	"errors"

	"github.com/contentneg/contentneg/internal/mediatype"
)

// errMediaType reports a media type a renderer does not produce.
var errMediaType = errors.New("unsupported media type")

// baseType is the one normaliser of media types (package mediatype).
func baseType(mimeType string) string { return mediatype.Base(mimeType) }
