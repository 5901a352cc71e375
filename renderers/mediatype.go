package renderers

import (
	"errors"

	"github.com/contentneg/contentneg/internal/mediatype"
)

// ErrMediaType reports a media type a renderer does not produce.
var ErrMediaType = errors.New("unsupported media type")

// baseType is the one normaliser of media types (package mediatype).
func baseType(mimeType string) string { return mediatype.Base(mimeType) }
