package matrix

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes m as an indented JSON document: see Matrix and Row for
// the fields.
func WriteJSON(w io.Writer, m *Matrix) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("write the JSON: %w", err)
	}
	return nil
}
