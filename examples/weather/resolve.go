package weather

import (
	"cmp"
	"slices"
	"strings"
)

// MaxCityNameBytes is the longest name [Service.Resolve] looks up; longer
// names are unknown without further work.
const MaxCityNameBytes = 100

// maxSuggestions is how many names an [UnknownCityError] suggests at most.
const maxSuggestions = 3

// resolve finds the index of the entry a name means. See [Service.Resolve]
// for the rules.
func (c *catalog) resolve(input string) (int, error) {
	name := strings.TrimSpace(input)
	if name == "" || len(name) > MaxCityNameBytes {
		return -1, &UnknownCityError{Name: name}
	}
	for i := range c.entries {
		if strings.EqualFold(c.entries[i].city.Name, name) {
			return i, nil
		}
	}
	for i := range c.entries {
		if strings.EqualFold(c.entries[i].city.Slug, name) {
			return i, nil
		}
	}
	before, after, _ := strings.Cut(name, ",")
	p, q := normalize(before), normalize(after)
	var buf [4]int
	matches := buf[:0]
	for i := range c.entries {
		e := &c.entries[i]
		if slices.Contains(e.places, p) && (q == "" || slices.Contains(e.qualifiers, q)) {
			matches = append(matches, i)
		}
	}
	switch len(matches) {
	case 0:
		return -1, &UnknownCityError{Name: name, Suggestions: c.suggest(p)}
	case 1:
		return matches[0], nil
	}
	candidates := make([]string, len(matches))
	for i, m := range matches {
		candidates[i] = c.entries[m].city.Name // entries are sorted by name
	}
	return -1, &AmbiguousCityError{Name: name, Candidates: candidates}
}

// suggest returns up to [maxSuggestions] display names whose city part (or
// alias) is within a small edit distance of p, closest first, ties by name.
// The distance allowed grows with the length of p: one edit for up to two
// characters, two for up to five, and so on.
func (c *catalog) suggest(p string) []string {
	if p == "" {
		return nil
	}
	query := []rune(p)
	limit := len(query)/3 + 1
	type scored struct {
		dist int
		name string
	}
	var found []scored
	for i := range c.entries {
		e := &c.entries[i]
		best := limit + 1
		for _, pl := range e.places {
			best = min(best, distance(query, []rune(pl)))
		}
		if best <= limit {
			found = append(found, scored{best, e.city.Name})
		}
	}
	slices.SortFunc(found, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), strings.Compare(a.name, b.name))
	})
	var out []string
	for _, f := range found[:min(len(found), maxSuggestions)] {
		out = append(out, f.name)
	}
	return out
}

// normalize lower-cases s and reduces each run of white space to one space,
// without space at either end.
func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
