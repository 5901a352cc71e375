package matrix

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// WriteTexts writes each profile's text blocks, under a heading giving the
// profile, its rendering and the size. Control characters other than
// newline and tab are shown escaped, so that a server's text cannot drive
// the terminal.
func WriteTexts(w io.Writer, m *Matrix) error {
	var buf bytes.Buffer
	for _, r := range m.Rows {
		if r.Error != "" {
			continue
		}
		blocks := "text blocks"
		if r.TextBlocks == 1 {
			blocks = "text block"
		}
		fmt.Fprintf(&buf, "\n---- %s: %s, %d %s, %d bytes\n", cell(r.Profile, MaxNameLen), r.Rendering, r.TextBlocks, blocks, r.TextBytes)
		for i, t := range r.Texts {
			if len(r.Texts) > 1 {
				fmt.Fprintf(&buf, "-- block %d\n", i+1)
			}
			buf.WriteString(escapeControls(t))
			if !strings.HasSuffix(t, "\n") {
				buf.WriteString("\n")
			}
		}
		if r.TextsTruncated {
			fmt.Fprintf(&buf, "[cut: the matrix keeps %d blocks of up to %d bytes]\n", MaxKeptBlocks, MaxKeptText)
		}
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write the texts: %w", err)
	}
	return nil
}

// escapeControls replaces control characters other than "\n" and "\t" with
// a visible escape such as \x1b.
func escapeControls(s string) string {
	if strings.IndexFunc(s, isEscaped) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isEscaped(r) {
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isEscaped reports whether escapeControls escapes r: C0 and C1 controls
// except newline and tab, and DEL.
func isEscaped(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0)
}
