package featuretags_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/featuretags"
)

// grammar is an independent statement of the ABNF of SPEC section 2, used
// as an oracle: every tag the parser keeps must match it.
var grammar = regexp.MustCompile(`^(?:!?[A-Za-z][A-Za-z0-9._-]*|[A-Za-z][A-Za-z0-9._-]*!?=[A-Za-z0-9._+:-]+)$`)

// separator splits a fuzz input into tags; it is a control byte, so tags
// still hold every other control byte the fuzzer finds.
const separator = "\x1e"

// seedTags returns every feature list of the conformance vectors.
func seedTags(f *testing.F) [][]string {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "profiles.json"))
	if err != nil {
		f.Fatalf("read vectors: %v", err)
	}
	var doc struct {
		Cases []struct {
			Settings any `json:"settings"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		f.Fatalf("decode vectors: %v", err)
	}
	var out [][]string
	for _, c := range doc.Cases {
		settings, _ := c.Settings.(map[string]any)
		list, _ := settings["features"].([]any)
		var tags []string
		for _, el := range list {
			if s, ok := el.(string); ok {
				tags = append(tags, s)
			}
		}
		out = append(out, tags)
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, tags := range seedTags(f) {
		f.Add(strings.Join(tags, separator))
	}
	f.Fuzz(func(t *testing.T, input string) {
		tags := strings.Split(input, separator)
		set, diags := featuretags.Parse(tags)

		if set.Len() > featuretags.MaxTags || set.Len() > len(tags) {
			t.Fatalf("set has %d tags from %d inputs", set.Len(), len(tags))
		}
		seen := map[featuretags.Tag]bool{}
		for tag := range set.All() {
			written := tag.String()
			if !grammar.MatchString(written) {
				t.Errorf("kept tag %q does not match the grammar", written)
			}
			if tag.Name != strings.ToLower(tag.Name) {
				t.Errorf("kept name %q is not lower case", tag.Name)
			}
			if seen[tag] {
				t.Errorf("tag %q kept twice", written)
			}
			seen[tag] = true
			if tag.Op == featuretags.Presence && set.Negated(tag.Name) {
				t.Errorf("%q kept beside its negation", written)
			}
			if tag.Op == featuretags.Equality && set.Excludes(tag.Name, tag.Value) {
				t.Errorf("%q kept beside its exclusion", written)
			}
			if !set.Contains(tag) {
				t.Errorf("Contains(%q) = false for a tag of the set", written)
			}
		}
		for _, key := range []string{featuretags.Format, featuretags.Verbosity} {
			n := 0
			for range set.Values(key) {
				n++
			}
			if n > 1 {
				t.Errorf("registry key %s has %d values", key, n)
			}
		}
		for _, d := range diags {
			if d.Index < -1 || d.Index >= len(tags) {
				t.Errorf("diagnostic index %d out of range [0,%d)", d.Index, len(tags))
			}
			if len(d.Tag) > featuretags.MaxTagLen {
				t.Errorf("diagnostic keeps %d bytes", len(d.Tag))
			}
			if s := d.String(); strings.ContainsAny(s, "\n\r") {
				t.Errorf("diagnostic string %q holds a line break", s)
			}
		}
		// Every input that matches the grammar after trimming, and is not
		// dropped for a registry reason, is kept.
		for i, raw := range tags {
			if i >= featuretags.MaxTags || len(raw) > featuretags.MaxTagLen {
				continue
			}
			trimmed := strings.Trim(raw, " \t\n\v\f\r")
			if grammar.MatchString(trimmed) != !hasProblem(diags, i, featuretags.Invalid) {
				t.Errorf("tag %q: grammar match %v, but Invalid diagnostic %v", raw, grammar.MatchString(trimmed), hasProblem(diags, i, featuretags.Invalid))
			}
		}
		// Parsing is deterministic.
		again, againDiags := featuretags.Parse(tags)
		if strings.Join(tagsOf(again), ",") != strings.Join(tagsOf(set), ",") || len(againDiags) != len(diags) {
			t.Error("a second parse of the same input differs")
		}
	})
}

func hasProblem(diags []featuretags.Diagnostic, index int, p featuretags.Problem) bool {
	for _, d := range diags {
		if d.Index == index && d.Problem == p {
			return true
		}
	}
	return false
}
