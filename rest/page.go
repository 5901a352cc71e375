package rest

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
)

// link is a HAL link.
type link struct {
	Href      string `json:"href"`
	Method    string `json:"method,omitempty"`
	Templated bool   `json:"templated,omitempty"`
}

// links is a HAL _links object.
type links map[string]link

// cursor is what a page cursor encodes: the id of the last item served.
type cursor struct {
	After string `json:"after"`
}

// pageParams reads limit and cursor.
func pageParams(v url.Values) (limit int, after string, e *Error) {
	limit = defaultLimit
	var details []Detail
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxLimit {
			details = append(details, Detail{Field: "limit", Error: "must be a positive integer, at most " + strconv.Itoa(maxLimit)})
		}
		limit = n
	}
	if s := v.Get("cursor"); s != "" {
		var c cursor
		raw, err := base64.RawURLEncoding.DecodeString(s)
		if err == nil {
			err = json.Unmarshal(raw, &c)
		}
		if err != nil || c.After == "" {
			details = append(details, Detail{Field: "cursor", Error: "not a cursor this server gave"})
		}
		after = c.After
	}
	if details != nil {
		return 0, "", invalid("invalid query parameter", details...)
	}
	return limit, after, nil
}

// page returns the items after the cursor's item (the first one whose id
// follows it in the listing's order when it is gone), at most limit, and
// the cursor of the next page ("" for the last).
func page[T any](items []T, id func(T) string, limit int, after string) ([]T, string) {
	start := 0
	if after != "" {
		start = len(items)
		for i, it := range items {
			if id(it) == after {
				start = i + 1
				break
			}
		}
		if start == len(items) {
			// The item is gone: listings are sorted by id, so resume at the
			// first one past it.
			start = sort.Search(len(items), func(i int) bool { return id(items[i]) > after })
		}
	}
	end := min(start+limit, len(items))
	next := ""
	if end < len(items) {
		raw, _ := json.Marshal(cursor{After: id(items[end-1])})
		next = base64.RawURLEncoding.EncodeToString(raw)
	}
	return items[start:end], next
}

// listLinks returns the self and next links of a page of the list at path.
func listLinks(path string, v url.Values, next string) links {
	self := path
	if enc := v.Encode(); enc != "" {
		self += "?" + enc
	}
	l := links{"self": {Href: self}}
	if next != "" {
		nv := url.Values{}
		for k, vs := range v {
			nv[k] = vs
		}
		nv.Set("cursor", next)
		l["next"] = link{Href: path + "?" + nv.Encode()}
	}
	return l
}

func sortDetails(d []Detail) {
	sort.Slice(d, func(i, j int) bool { return d[i].Field < d[j].Field })
}
