package renderers

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// This file holds what makes generic markdown read as prose for people: labels from the schema or
// from the key made readable, units, and percentages.

// acronyms are the words a readable label writes in capitals, or spells as a unit or an encoding
// is spelled ("utf8" reads "UTF-8", "kwh" "kWh"): common acronyms, currencies (ISO 4217) and
// units. A word is looked up in lower case; words not here are written in lower case (the first
// capitalized), or as they are when they are written in capitals already.
var acronyms = map[string]string{
	// Acronyms.
	"id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs", "uri": "URI", "uris": "URIs",
	"uuid": "UUID", "guid": "GUID", "pid": "PID", "uv": "UV", "ip": "IP", "api": "API",
	"http": "HTTP", "https": "HTTPS", "json": "JSON", "html": "HTML", "xml": "XML", "csv": "CSV",
	"pdf": "PDF", "sql": "SQL", "sku": "SKU", "ttl": "TTL", "cpu": "CPU", "gpu": "GPU",
	"ram": "RAM", "utc": "UTC", "tls": "TLS", "ssh": "SSH", "dns": "DNS", "tcp": "TCP",
	"udp": "UDP", "db": "DB", "os": "OS", "ui": "UI", "mcp": "MCP", "llm": "LLM", "gps": "GPS",
	"iso": "ISO", "mime": "MIME", "ascii": "ASCII", "etag": "ETag",
	// Encodings and digests.
	"utf8": "UTF-8", "utf16": "UTF-16", "utf32": "UTF-32", "md5": "MD5", "sha": "SHA",
	"sha1": "SHA1", "sha256": "SHA256", "sha512": "SHA512",
	// Currencies.
	"chf": "CHF", "eur": "EUR", "usd": "USD", "gbp": "GBP", "jpy": "JPY", "cny": "CNY",
	// Units.
	"kb": "KB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB", "mib": "MiB", "gib": "GiB",
	"kwh": "kWh", "kmh": "km/h",
}

// words splits an identifier at '_', '-', ' ' and case changes, appending the words to out:
// "precipitationProbability_pct" gives "precipitation", "Probability", "pct"; "HTTPStatus" gives
// "HTTP", "Status"; "utf8Bytes" gives "utf8", "Bytes".
func words(out []string, s string) []string {
	start := -1
	var prev rune
	for i, c := range s {
		sep := c == '_' || c == '-' || c == ' '
		_, size := utf8.DecodeRuneInString(s[i:]) // 1 for an invalid byte, which c reads as U+FFFD
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		camel := unicode.IsUpper(c) && (unicode.IsLower(prev) || unicode.IsDigit(prev) ||
			unicode.IsUpper(prev) && unicode.IsLower(next))
		if start >= 0 && (sep || camel) {
			out = append(out, s[start:i])
			start = -1
		}
		if !sep && start < 0 {
			start = i
		}
		prev = c
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// identifier reports whether key reads as a property name that can be made readable: a letter, then
// letters and digits, with single '_' or '-' between words ("precipitation_probability",
// "observedAt"). Other keys (file names, "__init__", "C:\temp", keys with spaces) are data and are
// shown as they are.
func identifier(key string) bool {
	if key == "" || !isLetter(key[0]) {
		return false
	}
	for i := 1; i < len(key); i++ {
		c := key[i]
		switch {
		case isAlnum(c):
		case (c == '_' || c == '-') && i+1 < len(key) && isAlnum(key[i+1]):
		default:
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// readable makes a property name readable: "precipitation_probability" gives "Precipitation
// probability", "uv_index" "UV index". A last word that spells unit is dropped ("high_c" with unit
// "°C" gives "High"), as the unit is shown with the value.
func readable(key, unit string) string {
	var b strings.Builder
	writeReadable(&b, key, unit)
	return b.String()
}

// writeReadable writes readable(key, unit) to b without allocating for keys of up to 16 words.
func writeReadable(b *strings.Builder, key, unit string) {
	var buf [16]string
	ws := words(buf[:0], key)
	if len(ws) > 1 && unit != "" && spells(ws[len(ws)-1], unit) {
		ws = ws[:len(ws)-1]
	}
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		var low [8]byte
		if len(w) <= len(low) {
			for k := 0; k < len(w); k++ {
				low[k] = lowerASCII(w[k])
			}
			if a, ok := acronyms[string(low[:len(w)])]; ok { // no allocation: a map index by []byte
				b.WriteString(a)
				continue
			}
		}
		if len(w) > 1 && upperWord(w) {
			b.WriteString(w) // an acronym already
			continue
		}
		for k, c := range w {
			if k == 0 && i == 0 {
				b.WriteRune(unicode.ToUpper(c))
			} else {
				b.WriteRune(unicode.ToLower(c))
			}
		}
	}
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// upperWord reports whether w has no lower-case letter, as strings.ToUpper(w) == w would.
func upperWord(w string) bool {
	for _, c := range w {
		if unicode.ToUpper(c) != c {
			return false
		}
	}
	return true
}

// spells reports whether word is unit written with letters only: "c" for "°C", "kmh" for "km/h",
// "percent" or "pct" for "%".
func spells(word, unit string) bool {
	word = strings.ToLower(word)
	if unit == "%" {
		return word == "percent" || word == "pct"
	}
	var b strings.Builder
	for _, c := range strings.ToLower(unit) {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			b.WriteRune(c)
		}
	}
	return b.Len() > 0 && b.String() == word
}

// mdUnit returns the unit markdown shows for the field key: Options.Units first, else the schema's.
func (r *render) mdUnit(key string, p *Property) string {
	if u := r.opts.Units[key]; u != "" {
		return collapseSpace(u)
	}
	if p != nil {
		return collapseSpace(p.Unit)
	}
	return ""
}

// mdLabel writes the label of the field key: for a property the schema declares, its title, else
// its name made readable when it reads as a property name. A key the schema does not declare is
// made readable too when names is set (every key of its object or table reads as a property name,
// see namesOnly), else it is data and shown as it is (a package name in a map of dependencies).
// Escaped; an empty key is written `""`.
func (r *render) mdLabel(key string, p *Property, names bool) {
	switch {
	case p != nil && p.Title != "":
		writeEscaped(&r.b, collapseSpace(p.Title))
	case p != nil && p.label != "" && r.opts.Units[key] == "":
		writeEscaped(&r.b, p.label) // made readable by ParseSchema, with the schema's unit
	case (p != nil || names) && identifier(key):
		writeReadable(&r.b, key, r.mdUnit(key, p)) // letters, digits and spaces: nothing to escape
	default:
		r.mdKey(key)
	}
}

// nameKey reports whether key reads as a property name in data without a schema: an identifier
// (see identifier) without '-', which is common in keys that are data (package names such as
// "left-pad", header names such as "content-type").
func nameKey(key string) bool {
	return identifier(key) && strings.IndexByte(key, '-') < 0
}

// namesOnly reports whether every key of fields reads as a property name (nameKey): then the keys
// the schema does not declare are made readable. One key that does not (a file name, a package
// name with '-' or '/') shows that the object is a map whose keys are data, and none is changed.
func namesOnly(fields []field) bool {
	for i := range fields {
		if fields[i].prop == nil && !nameKey(fields[i].key) {
			return false
		}
	}
	return true
}

// columnNames is namesOnly for the columns of a table.
func columnNames(cols []column) bool {
	for i := range cols {
		if cols[i].prop == nil && !nameKey(cols[i].key) {
			return false
		}
	}
	return true
}

// mdValue writes a scalar field value: a fraction as a percentage ("15%"), a value in "%" as "82%",
// and, when unit is set, another unit after a space ("8.3 °C"; "46.9°" for an angle). Null gets
// no unit.
func (r *render) mdValue(key string, p *Property, v gjson.Result, unit bool, ind string) {
	if v.Type == gjson.Number {
		if p != nil && p.Fraction {
			if pct, ok := percentOf(v.Raw); ok {
				r.b.WriteString(pct)
				r.b.WriteByte('%')
				return
			}
		}
		if r.mdUnit(key, p) == "%" {
			r.b.WriteString(v.Raw)
			r.b.WriteByte('%')
			return
		}
	}
	r.mdScalar(v, ind)
	if u := r.mdUnit(key, p); unit && u != "" && v.Type != gjson.Null {
		if r.mdBlockEnd { // after a code block, on a line of its own
			r.b.WriteString(ind)
			writeEscaped(&r.b, u)
			r.b.WriteByte('\n')
			return
		}
		if u != "°" && u != "′" && u != "″" { // an angle's marks follow the number directly
			r.b.WriteByte(' ')
		}
		writeEscaped(&r.b, u)
	}
}

// percentOf returns the JSON number raw, from 0 to 1 and written without an exponent, times 100
// written exactly (the decimal point moved two places: "0.155" gives "15.5"); ok is false for any
// other number.
func percentOf(raw string) (string, bool) {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f < 0 || f > 1 || strings.ContainsAny(raw, "eE-") {
		return "", false
	}
	whole, frac, _ := strings.Cut(raw, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	digits := strings.TrimLeft(whole+frac[:2], "0")
	if digits == "" {
		digits = "0"
	}
	if rest := strings.TrimRight(frac[2:], "0"); rest != "" {
		return digits + "." + rest, true
	}
	return digits, true
}
