package journey

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameLen is the longest station name, in bytes, that a look-up accepts.
const MaxNameLen = 100

// minPrefixLen is the shortest normalized prefix that may name a station,
// so that "B" or "Zu" do not silently pick one.
const minPrefixLen = 3

// maxSuggestions is the most station names an UnknownStationError carries.
const maxSuggestions = 3

// checkName says what makes name unusable as a station name, or returns
// nil. It does not echo long names.
func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("name is empty")
	case len(name) > MaxNameLen:
		return fmt.Errorf("name is %d bytes long; the limit is %d", len(name), MaxNameLen)
	case !utf8.ValidString(name):
		return fmt.Errorf("name %q is not valid UTF-8", name)
	case strings.ContainsFunc(name, unicode.IsControl):
		return fmt.Errorf("name %q contains control characters", name)
	}
	return nil
}

// normalize returns the look-up key of a name: lower case, common accents
// removed, and only letters and digits kept, so that "Zürich HB",
// "zurich hb" and "zurich-hb" have the same key.
func normalize(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		r = unicode.ToLower(r)
		if f, ok := folds[r]; ok {
			b.WriteString(f)
		} else if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// folds maps the accented lower-case letters of Swiss place names to
// plain letters.
var folds = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ä': "a", 'ã': "a", 'å': "a", 'æ': "ae",
	'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ñ': "n",
	'ò': "o", 'ó': "o", 'ô': "o", 'ö': "o", 'õ': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ÿ': "y", 'ß': "ss",
}

// resolve finds the station a user-supplied name means. field names the
// argument in error messages ("from", "to", "name").
func (n *network) resolve(field, name string) (int, error) {
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return -1, invalid("%s: station %v; give a station name such as %q", field, err, "Zürich HB")
	}
	key := normalize(name)
	if key == "" {
		return -1, invalid("%s: station name %q has no letters or digits", field, name)
	}
	for i, keys := range n.keys {
		if slices.Contains(keys, key) {
			return i, nil
		}
	}
	var prefixed []int
	if utf8.RuneCountInString(key) >= minPrefixLen {
		for i, keys := range n.keys {
			if slices.ContainsFunc(keys, func(k string) bool { return strings.HasPrefix(k, key) }) {
				prefixed = append(prefixed, i)
			}
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], nil
	}
	err := &UnknownStationError{Name: name, Ambiguous: len(prefixed) > 1}
	if err.Ambiguous {
		err.Suggestions = n.closest(key, prefixed)
	} else {
		err.Suggestions = n.closest(key, nil)
	}
	return -1, fmt.Errorf("%s: %w", field, err)
}

// closest returns the names of up to maxSuggestions stations, from among
// candidates or all stations when candidates is nil, ordered by the edit
// distance between key and the nearest key of the station, then by name.
func (n *network) closest(key string, candidates []int) []string {
	if candidates == nil {
		candidates = make([]int, len(n.stations))
		for i := range candidates {
			candidates[i] = i
		}
	}
	type scored struct{ station, distance int }
	scores := make([]scored, 0, len(candidates))
	for _, st := range candidates {
		best := -1
		for _, k := range n.keys[st] {
			if d := editDistance(key, k); best < 0 || d < best {
				best = d
			}
		}
		scores = append(scores, scored{st, best})
	}
	// Stations are sorted by key, so the station number breaks ties by name.
	slices.SortFunc(scores, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.distance, b.distance), cmp.Compare(a.station, b.station))
	})
	var names []string
	for _, s := range scores[:min(maxSuggestions, len(scores))] {
		names = append(names, n.stations[s.station].Name)
	}
	return names
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
