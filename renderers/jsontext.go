package renderers

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// jsonText returns the text of a JSON string as encoding/json reads it, given gjson's reading s of
// its JSON text raw. They differ for invalid UTF-8, which encoding/json reads as one U+FFFD per
// bad byte and gjson keeps, and for \u escapes of lone surrogates, which encoding/json reads as
// one U+FFFD each and gjson sometimes as one for two; raw is then decoded again (rarely: the usual
// string costs a scan).
func jsonText(s, raw string) string {
	if utf8.ValidString(s) && (!strings.ContainsRune(s, utf8.RuneError) || !strings.Contains(raw, `\u`)) {
		return s
	}
	var out string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	return out
}
