package renderers

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// templateData decodes v for a template: objects become map[string]any (keys passed through str,
// by way of keys when not nil, the last of duplicate keys wins), arrays []any, strings str(s),
// numbers json.Number, booleans bool and null "". Containers deeper than maxDepth become their
// minified JSON text, through str. Maps and lists are made at their final size.
func templateData(v gjson.Result, str func(string) string, keys *keyCache, depth int) any {
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
	n := 0
	v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	if v.IsArray() {
		list := make([]any, 0, n)
		v.ForEach(func(_, el gjson.Result) bool {
			list = append(list, templateData(el, str, keys, depth+1))
			return true
		})
		return list
	}
	var obj map[string]any
	if depth == 0 && n <= maxPooledKeys {
		obj, _ = objectPool.Get().(map[string]any)
	}
	if obj == nil {
		obj = make(map[string]any, n)
	}
	v.ForEach(func(key, el gjson.Result) bool {
		obj[keys.get(validText(key.Str), str)] = templateData(el, str, keys, depth+1)
		return true
	})
	return obj
}

// objectPool holds the top-level maps of executions that ended (see releaseData): a map of ten
// keys costs three allocations to make.
var objectPool sync.Pool

// maxPooledKeys bounds the maps the pool holds, and so the memory it keeps.
const maxPooledKeys = 64

// releaseData returns data's top-level map to the pool once its template has run: nothing
// holds it then (template functions get its values, and do not keep the map).
func releaseData(data any) {
	if m, ok := data.(map[string]any); ok && len(m) <= maxPooledKeys {
		clear(m)
		objectPool.Put(m)
	}
}

// bufferPool holds the output buffers of executions that ended, each in
// the *limitedWriter that bounds it.
var bufferPool = sync.Pool{New: func() any { return new(limitedWriter) }}

// maxPooledBuffer bounds the buffers the pool holds.
const maxPooledBuffer = 64 << 10

// keyCache keeps the escaped form of the object keys a template has seen: the same tool's
// values have the same keys, and escaping them again on every call cost an allocation each. It
// holds at most maxCachedKeys keys of at most maxCachedKeyLen bytes; others are escaped each
// time. A nil *keyCache caches nothing.
type keyCache struct {
	mu   sync.RWMutex
	keys map[string]string
}

const (
	maxCachedKeys   = 512
	maxCachedKeyLen = 64
)

func (c *keyCache) get(key string, str func(string) string) string {
	if c == nil || len(key) > maxCachedKeyLen {
		return str(key)
	}
	c.mu.RLock()
	out, ok := c.keys[key]
	c.mu.RUnlock()
	if ok {
		return out
	}
	out = str(key)
	c.mu.Lock()
	if c.keys == nil {
		c.keys = make(map[string]string)
	}
	if len(c.keys) < maxCachedKeys {
		c.keys[strings.Clone(key)] = out // key is a piece of the value's text: keep a copy
	}
	c.mu.Unlock()
	return out
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
