package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
	"github.com/rivo/uniseg"
	"github.com/tiktoken-go/tokenizer"
)

// item is one tool result of the corpus.
type item struct {
	name   string
	value  []byte // minified JSON
	schema *renderers.Schema
}

// loadCorpus reads every NAME.json of dir (NAME.schema.json files are schemas) in name order.
func loadCorpus(dir string) ([]item, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list corpus: %w", err)
	}
	var items []item
	for _, p := range paths {
		if strings.HasSuffix(p, ".schema.json") {
			continue
		}
		it, err := loadItem(p)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("no items in %s", dir)
	}
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.name, b.name) })
	return items, nil
}

func loadItem(path string) (item, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return item{}, fmt.Errorf("read item: %w", err)
	}
	var min bytes.Buffer
	if err := json.Compact(&min, raw); err != nil {
		return item{}, fmt.Errorf("item %s: %w", path, err)
	}
	it := item{name: strings.TrimSuffix(filepath.Base(path), ".json"), value: min.Bytes()}
	doc, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".schema.json")
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return item{}, fmt.Errorf("read schema: %w", err)
	default:
		if it.schema, err = renderers.ParseSchema(doc); err != nil {
			return item{}, fmt.Errorf("item %s: %w", path, err)
		}
	}
	return it, nil
}

// mediaTOON is the media type of TOON, the generic renderer's third format.
var mediaTOON = format.TOON.MediaType

// rendering is one way of showing an item: a format ("markdown", "text" or "toon") at a verbosity.
type rendering struct {
	format    string
	verbosity format.Verbosity
}

func (r rendering) String() string {
	if r.format == "toon" {
		return "TOON"
	}
	return r.format + " " + r.verbosity.String()
}

// The renderings the budgets and the chart name.
var (
	markdownCompact  = rendering{"markdown", format.Compact}
	markdownStandard = rendering{"markdown", format.Standard}
	textCompact      = rendering{"text", format.Compact}
	textStandard     = rendering{"text", format.Standard}
	toon             = rendering{"toon", format.Standard}
)

// renderings are the columns of the table, in order: markdown and text at every verbosity, then
// TOON when the generic renderer writes it.
var renderings = availableRenderings()

func availableRenderings() []rendering {
	rs := []rendering{
		markdownCompact, markdownStandard, {"markdown", format.Verbose},
		textCompact, textStandard, {"text", format.Verbose},
	}
	if _, err := (renderers.Generic{}).Render([]byte(`{}`), renderers.Options{MediaType: mediaTOON}); err == nil {
		rs = append(rs, toon)
	}
	return rs
}

// column returns r's index in renderings, or false when it is not measured.
func column(r rendering) (int, bool) {
	i := slices.Index(renderings, r)
	return i, i >= 0
}

// size is a size in bytes and o200k tokens.
type size struct{ bytes, tokens int }

// itemSizes are the sizes of one item: its minified JSON and each rendering.
type itemSizes struct {
	name    string
	uniform bool // the value is, or holds as its only container, a uniform array of objects
	json    size
	renders []size // parallel to renderings
	// table, for a uniform item, are the sizes of its table alone: the value itself, or the object's
	// one array member (its other members, scalars, are a labelled list in markdown, not a table).
	table *itemSizes
}

// measure renders every item every way and counts bytes and tokens.
func measure(items []item) ([]itemSizes, error) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	count := func(s string) (size, error) {
		ids, _, err := enc.Encode(s)
		if err != nil {
			return size{}, fmt.Errorf("count tokens: %w", err)
		}
		return size{bytes: len(s), tokens: len(ids)}, nil
	}
	one := func(it item) (itemSizes, error) {
		js, err := count(string(it.value))
		if err != nil {
			return itemSizes{}, err
		}
		sz := itemSizes{name: it.name, json: js}
		for _, r := range renderings {
			text, err := render(it, r)
			if err != nil {
				return itemSizes{}, fmt.Errorf("item %s, %s: %w", it.name, r, err)
			}
			s, err := count(text)
			if err != nil {
				return itemSizes{}, err
			}
			sz.renders = append(sz.renders, s)
		}
		return sz, nil
	}
	var out []itemSizes
	for _, it := range items {
		sz, err := one(it)
		if err != nil {
			return nil, err
		}
		if sz.uniform = uniform(it.value); sz.uniform {
			table := sz
			if t, ok := tableOf(it); ok {
				if table, err = one(t); err != nil {
					return nil, err
				}
			}
			sz.table = &table
		}
		out = append(out, sz)
	}
	return out, nil
}

// tableOf returns the table of a uniform item that is an object: its one array member, with that
// property's schema. It reports false for an item that is the table itself (an array).
func tableOf(it item) (item, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(it.value, &obj) != nil {
		return item{}, false
	}
	for k, v := range obj {
		if len(v) == 0 || v[0] != '[' {
			continue
		}
		t := item{name: it.name + "." + k, value: v}
		if it.schema != nil {
			for _, p := range it.schema.Properties {
				if p.Name == k {
					t.schema = p.Schema
				}
			}
		}
		return t, true
	}
	return item{}, false
}

func render(it item, r rendering) (string, error) {
	opts := renderers.Options{Verbosity: r.verbosity, Schema: it.schema}
	switch r.format {
	case "markdown":
		opts.MediaType = format.Markdown.MediaType
	case "text":
		opts.MediaType = format.Text.MediaType
	default:
		opts.MediaType = mediaTOON
	}
	return renderers.Generic{}.Render(it.value, opts)
}

// uniform reports whether value is a uniform array of flat objects, or an object whose only
// container member is one: what the generic renderers write as a single table.
func uniform(value []byte) bool {
	var v any
	if json.Unmarshal(value, &v) != nil {
		return false
	}
	if obj, ok := v.(map[string]any); ok {
		tables := 0
		for _, m := range obj {
			switch m := m.(type) {
			case []any:
				if !flatObjects(m) {
					return false
				}
				tables++
			case map[string]any:
				return false
			}
		}
		return tables == 1
	}
	arr, ok := v.([]any)
	return ok && flatObjects(arr)
}

// shortLine reports whether s fits a markdown table cell: one line, no white space at either end,
// at most 120 display columns (records with longer text are labelled lists, SPEC 5).
func shortLine(s string) bool {
	return !strings.ContainsAny(s, "\r\n") && strings.TrimSpace(s) == s && uniseg.StringWidth(s) <= 120
}

// flatObjects reports whether arr is non-empty and holds objects with the same keys and scalar values
// that fit table cells (shortLine).
func flatObjects(arr []any) bool {
	var keys []string
	for i, el := range arr {
		obj, ok := el.(map[string]any)
		if !ok {
			return false
		}
		var ks []string
		for k, v := range obj {
			switch v := v.(type) {
			case []any, map[string]any:
				return false
			case string:
				if !shortLine(v) {
					return false
				}
			}
			ks = append(ks, k)
		}
		slices.Sort(ks)
		if i == 0 {
			keys = ks
		} else if !slices.Equal(keys, ks) {
			return false
		}
	}
	return len(arr) > 0
}
