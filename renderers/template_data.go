package renderers

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// templateData decodes v for a template: objects become map[string]any (keys passed through str,
// the last of duplicate keys wins), arrays []any, strings str(s), numbers json.Number, booleans
// bool and null "". Containers deeper than maxDepth become their minified JSON text, through str.
func templateData(v gjson.Result, str func(string) string, depth int) any {
	switch v.Type {
	case gjson.String:
		return str(validText(v.Str))
	case gjson.Number:
		return json.Number(v.Raw)
	case gjson.True:
		return true
	case gjson.False:
		return false
	case gjson.Null:
		return ""
	}
	if depth >= maxDepth {
		return str(string(appendMinified(nil, v.Raw)))
	}
	if v.IsArray() {
		list := []any{}
		v.ForEach(func(_, el gjson.Result) bool {
			list = append(list, templateData(el, str, depth+1))
			return true
		})
		return list
	}
	obj := map[string]any{}
	v.ForEach(func(key, el gjson.Result) bool {
		obj[str(validText(key.Str))] = templateData(el, str, depth+1)
		return true
	})
	return obj
}

// escapeControls writes the control and bidi characters of s (other than tab and newline) as
// \uXXXX, for text templates.
func escapeControls(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r != '\t' && r != '\n' && needsEscapeRune(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r != '\t' && r != '\n' && needsEscapeRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
