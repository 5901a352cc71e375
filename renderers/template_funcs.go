package renderers

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"text/template"
)

// templateFuncs returns the template functions; str is how data strings were written (get uses it
// to find a key given unescaped).
func templateFuncs(str func(string) string) template.FuncMap {
	return template.FuncMap{
		"join": func(sep string, list any) (string, error) {
			items, ok := list.([]any)
			if !ok && list != nil && list != "" {
				return "", fmt.Errorf("join: %T is not a list", list)
			}
			parts := make([]string, len(items))
			for i, item := range items {
				parts[i] = fmt.Sprint(item)
			}
			return strings.Join(parts, sep), nil
		},
		"default": func(def, v any) any {
			if isZero(v) {
				return def
			}
			return v
		},
		"percent": func(v any) (string, error) {
			n, ok := v.(json.Number)
			if !ok {
				return "", fmt.Errorf("percent: %T is not a number", v)
			}
			f, err := n.Float64()
			if err != nil {
				return "", fmt.Errorf("percent: %w", err)
			}
			return strconv.FormatFloat(math.Round(f*100), 'f', -1, 64) + " %", nil
		},
		"get": func(obj map[string]any, key string) any {
			if v, ok := obj[str(key)]; ok {
				return v
			}
			return ""
		},
	}
}

// isZero reports whether a template value is empty: nil, "", false, or an empty list or map.
func isZero(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String, reflect.Slice, reflect.Map:
		return rv.Len() == 0
	case reflect.Bool:
		return !rv.Bool()
	}
	return false
}
