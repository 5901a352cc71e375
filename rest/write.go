package rest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/contentneg/contentneg/shaping"
)

// builtin negotiates among the built-in media types only (json, markdown,
// text, toon): the endpoints
// whose bodies are listings, and prompts, whose text the server does not
// render in further formats.
var builtin = shaping.New(nil).Negotiator()

// negotiate picks the response's media type for q: ?format= when given,
// else the Accept header, among the media types neg can choose. It returns
// the media type and its format name.
func negotiate(q *request, neg *shaping.Negotiator) (string, string, *Error) {
	if e := q.readVerbosity(); e != nil {
		return "", "", e
	}
	available := neg.MediaTypes()
	if f := q.query().Get("format"); f != "" {
		f = strings.ToLower(f)
		for _, mt := range available {
			if neg.FormatName(mt) == f {
				return mt, f, nil
			}
		}
		names := make([]string, len(available))
		for i, mt := range available {
			names[i] = neg.FormatName(mt)
		}
		return "", "", invalid("unknown format", Detail{Field: "format", Error: "must be one of " + strings.Join(names, ", ")})
	}
	accept := withoutVersion(strings.Join(q.r.Header.Values("Accept"), ", "))
	if mt, ok := accepts.get(neg, accept, available); ok {
		return mt, neg.FormatName(mt), nil
	}
	p, err := neg.FromAccept(accept)
	if err != nil {
		details := make([]Detail, len(available))
		for i, mt := range available {
			details[i] = Detail{MediaType: mt, Format: neg.FormatName(mt)}
		}
		return "", "", newError(http.StatusNotAcceptable, codeNotAcceptable,
			"none of the media types in Accept can be served here; details list those that can", details...)
	}
	mt := p.MediaType()
	accepts.put(neg, accept, available, mt)
	return mt, neg.FormatName(mt), nil
}

// accepts caches what negotiate chose for an Accept header.
var accepts acceptCache

// withoutVersion drops the seed's "version" parameter from every media
// range of an Accept header ("application/json;version=2024-11-05"): this
// binding serves one version, and a range with a parameter the offered type
// lacks would otherwise match nothing. Quoted strings are kept whole.
func withoutVersion(accept string) string {
	if !strings.Contains(strings.ToLower(accept), "version") {
		return accept
	}
	var out strings.Builder
	var param strings.Builder
	flush := func() {
		name, _, _ := strings.Cut(param.String(), "=")
		if !strings.EqualFold(strings.Trim(name, "; \t"), "version") {
			out.WriteString(param.String())
		}
		param.Reset()
	}
	inQuote, inParam := false, false
	for i := 0; i < len(accept); i++ {
		c := accept[i]
		switch {
		case inQuote:
			if c == '\\' && i+1 < len(accept) {
				param.WriteByte(c)
				i++
				c = accept[i]
			} else if c == '"' {
				inQuote = false
			}
		case c == '"':
			inQuote = true
		case c == ';' || c == ',':
			if inParam {
				flush()
			}
			inParam = c == ';'
		}
		if inParam {
			param.WriteByte(c)
		} else {
			out.WriteByte(c)
		}
	}
	if inParam {
		flush()
	}
	return out.String()
}

// readVerbosity reads ?verbosity=compact|standard|verbose (any case) into
// q.verbosity; another value is a 400.
func (q *request) readVerbosity() *Error {
	v := q.query().Get("verbosity")
	if v == "" {
		return nil
	}
	if lv := strings.ToLower(v); validVerbosity(lv) {
		q.verbosity = lv
		return nil
	}
	return invalid("unknown verbosity", Detail{Field: "verbosity", Error: "must be one of compact, standard, verbose"})
}

// validVerbosity reports whether v (lower case) is a verbosity name.
func validVerbosity(v string) bool {
	_, ok := shaping.ParseVerbosity(v)
	return ok
}

// The media types of HTTP bodies that are no format of the contract (the
// formats' are shaping's: [shaping.JSON] and the others).
const (
	// mediaForm is the index page's form.
	mediaForm = "application/x-www-form-urlencoded"
	// mediaOctetStream is a blob resource that names no type.
	mediaOctetStream = "application/octet-stream"
)

// features are the tags a REST request declares: the negotiated format, the
// verbosity when ?verbosity= gave one, and that nobody can be asked
// questions.
func (q *request) features(format string) []string {
	if q.verbosity != "" {
		return []string{"format=" + format, "verbosity=" + q.verbosity, "!interactive"}
	}
	return []string{"format=" + format, "!interactive"}
}

// contentType adds charset=utf-8 to text media types without a charset.
func contentType(mt string) string {
	if strings.HasPrefix(mt, "text/") && !strings.Contains(mt, "charset") {
		return mt + "; charset=utf-8"
	}
	return mt
}

// renderingCSP is the Content-Security-Policy of an HTML rendering: it may
// load, run, embed and submit nothing, and no page may frame it. The
// renderings hold no HTML from data already; the policy is the second wall.
const renderingCSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// setContentType sets Content-Type, and for HTML the restrictive
// Content-Security-Policy. Every body is declared nosniff, so that a browser
// never reads a text or JSON body as HTML.
func setContentType(h http.Header, mt string) {
	h.Set("Content-Type", contentType(mt))
	h.Set("X-Content-Type-Options", "nosniff")
	if base, _, _ := strings.Cut(mt, ";"); strings.EqualFold(strings.TrimSpace(base), shaping.HTML.MediaType) && h.Get("Content-Security-Policy") == "" {
		h.Set("Content-Security-Policy", renderingCSP)
	}
}

// etag is a strong entity tag of body: a hash of the exact bytes.
func etag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}

// serveGET answers a GET (or HEAD) with body through http.ServeContent:
// strong ETag and If-None-Match (304), Range (206; overlapping ranges
// coalesced, more than 8 ignored: see limitRanges), If-Modified-Since when
// modtime is known.
func serveGET(q *request, mediaType string, body []byte, modtime time.Time) {
	h := q.w.Header()
	setContentType(h, mediaType)
	h.Set("ETag", etag(body))
	h.Set("Cache-Control", "no-cache")
	limitRanges(q.r, int64(len(body)))
	http.ServeContent(&errorCatcher{ResponseWriter: q.w}, q.r, "", modtime, bytes.NewReader(body))
}

// servePOST answers a POST with body: never cached.
func servePOST(q *request, mediaType string, body []byte) {
	h := q.w.Header()
	setContentType(h, mediaType)
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", itoa(len(body)))
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write(body)
}

// marshal encodes v as JSON without HTML escaping, with a final newline.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null\n")
	}
	return b.Bytes()
}

// readBody reads a request body of at most the handler's limit: 413 beyond.
// It returns the body's "arguments" member (an object, or nil when the body
// is empty or has none).
func (h *handler) readArguments(q *request) (json.RawMessage, *Error) {
	body, err := readAll(http.MaxBytesReader(q.w, q.r.Body, h.maxBody), q.r.ContentLength, h.maxBody)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, newError(http.StatusRequestEntityTooLarge, codePayloadTooLarge,
				"the request body is larger than "+itoa(int(h.maxBody))+" bytes")
		}
		if isTimeout(err) {
			return nil, bodyTimedOut(q.w, h.bodyTimeout)
		}
		return nil, invalid("the request body could not be read", Detail{Field: "body", Error: err.Error()})
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	// A body that is one valid JSON value needs no decoder; any other is
	// read by one, for the message its error gives.
	first := json.RawMessage(bytes.Trim(body, " \t\r\n")) // JSON's whitespace only
	if !json.Valid(first) {
		var decoded json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&decoded); err != nil {
			return nil, invalid(`the body must be a JSON object {"arguments": {...}}`, Detail{Field: "body", Error: jsonError(err)})
		}
		if dec.More() {
			return nil, invalid("the body holds more than one JSON value", Detail{Field: "body", Error: "trailing data"})
		}
		first = decoded
	}
	envelope, err := members(first)
	if err == nil && envelope == nil {
		err = errors.New("null is not an object")
	}
	if err != nil {
		return nil, invalid(`the body must be a JSON object {"arguments": {...}}`, Detail{Field: "body", Error: err.Error()})
	}
	var details []Detail
	for k := range envelope {
		if k != "arguments" {
			details = append(details, Detail{Field: k, Error: `unknown member; the body is {"arguments": {...}}`})
		}
	}
	args := envelope["arguments"]
	if t := bytes.TrimSpace(args); len(t) > 0 && t[0] != '{' && !bytes.Equal(t, []byte("null")) {
		details = append(details, Detail{Field: "arguments", Error: "must be a JSON object"})
	}
	if len(details) > 0 {
		sortDetails(details)
		return nil, invalid("invalid request body", details...)
	}
	if bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
		return nil, nil
	}
	return args, nil
}

// readAll reads r whole, into a buffer sized from the request's
// Content-Length when it gives one within limit (one allocation instead of
// a doubling series).
func readAll(r io.Reader, contentLength, limit int64) ([]byte, error) {
	if contentLength <= 0 || contentLength > limit {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, contentLength+1) // +1: io.EOF is seen without growing
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

func jsonError(err error) string {
	if err == nil {
		return "null is not an object"
	}
	return err.Error()
}
