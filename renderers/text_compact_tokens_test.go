package renderers

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/tokens"
	"github.com/tidwall/gjson"
)

// TestCompactTextNoMoreTokensThanJSON checks SPEC 5 (issue 26 item 9): generic compact text is
// never more o200k tokens than the minified JSON it comes from; where its layout cannot be
// smaller, it is the minified JSON. The values are small results whose layout costs more tokens
// than their JSON (headers, quotes and line breaks on few data), in the style of the go-sdk
// memory example's add_observations answer.
func TestCompactTextNoMoreTokensThanJSON(t *testing.T) {
	tests := []string{
		`{"observations":[{"entityName":"Zoë","contents":["a, b","c=d"]}]}`,
		`{"added":[{"entityName":"A","addedObservations":["x"]}]}`,
		`{"observations":[{"entityName":"TestPerson","contents":["Likes coffee","Works remotely"]}]}`,
		`[{"line\nbreak":"name"}]`,
		`["2026-11-19",{"value: 3":false,"山田 太郎":"- l"},"Zoë"]`,
		`[{"id":[[805,291],["k=v","id","contents"]],"ok":[972]},{"line\nbreak":3,"still here":null}]`,
	}
	for _, give := range tests {
		t.Run(give, func(t *testing.T) {
			got := checkRoundTrip(t, give, nil)
			minified := string(appendJSONText(nil, give))
			if g, j := tokens.Count(got), tokens.Count(minified); g > j {
				t.Errorf("compact text is %d o200k tokens, the minified JSON %d:\n%s", g, j, got)
			}
			if len(got) > len(minified) {
				t.Errorf("compact text is %d bytes, the minified JSON %d:\n%s", len(got), len(minified), got)
			}
		})
	}
}

// tokenWords are the strings and keys of the random values of TestCompactTextTokensRandom: words,
// numbers that are strings, quoting, separators, block syntax, line breaks, wide characters.
var tokenWords = []string{"id", "name", "a", "x", "note", "still here", "Zoë", "2026-11-19", "12", "null", "", " ",
	"a,b", "k=v", "true", "https://example.ch/a_b", "# h", "- l", "line\nbreak", "山田 太郎", "🚲", "entityName",
	"addedObservations", "contents", "status", "ok", "value: 3"}

// randomValue returns a random JSON value of tokenWords, numbers, literals, objects and arrays.
func randomValue(r *rand.Rand, depth int) any {
	switch k := r.Intn(10); {
	case depth > 3 || k < 4:
		switch r.Intn(6) {
		case 0:
			return r.Intn(1000)
		case 1:
			return nil
		case 2:
			return r.Intn(2) == 0
		default:
			return tokenWords[r.Intn(len(tokenWords))]
		}
	case k < 7:
		m := map[string]any{}
		for i := r.Intn(4); i >= 0; i-- {
			m[tokenWords[r.Intn(len(tokenWords))]] = randomValue(r, depth+1)
		}
		return m
	default:
		a := []any{}
		for i := r.Intn(4); i >= 0; i-- {
			a = append(a, randomValue(r, depth+1))
		}
		return a
	}
}

// TestCompactTextTokensRandom renders random values as compact text: each is at most as many bytes
// and o200k tokens as its minified JSON, and a layout of at most tokenFreeShare of the JSON's
// bytes is fewer tokens without counting them (what fewerTokens takes for granted).
func TestCompactTextTokensRandom(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewSource(26))
	for range n {
		value, err := json.Marshal(randomValue(r, 0))
		requireNoError(t, err)
		got := compactText(t, string(value), nil)
		minified := string(appendJSONText(nil, string(value)))
		g, j := tokens.Count(got), tokens.Count(minified)
		if g > j || len(got) > len(minified) {
			t.Fatalf("compact text of %s is %d tokens and %d bytes, the JSON %d and %d:\n%s", value, g, len(got), j, len(minified), got)
		}
		var layout render
		layout.init(Options{Verbosity: format.Compact}, len(value))
		layout.compactRoot(gjson.ParseBytes(value), nil)
		text := strings.TrimSuffix(layout.finish(), "\n")
		if float64(len(text)) <= tokenFreeShare*float64(len(minified)) && tokens.Count(text) > j {
			t.Fatalf("layout of %s is %d of %d bytes but %d tokens, the JSON %d:\n%s", value, len(text), len(minified), tokens.Count(text), j, text)
		}
	}
}
