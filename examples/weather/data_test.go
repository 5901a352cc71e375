package weather

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testRecord returns a valid cities.json record as a generic map, for tests
// to break one field at a time.
func testRecord(name, slug string) map[string]any {
	return map[string]any{
		"name":               name,
		"slug":               slug,
		"country":            "Testland",
		"country_code":       "TL",
		"latitude":           10.0,
		"longitude":          20.0,
		"utc_offset_minutes": 60,
		"climate": map[string]any{
			"mean_temp_c":        []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
			"temp_stddev_c":      2.0,
			"precip_probability": []float64{.1, .2, .3, .4, .5, .6, .7, .8, .9, 1, 0, .5},
			"diurnal_range_c":    8.0,
			"humidity_percent":   70.0,
			"wind_kmh":           10.0,
			"wind_from_deg":      270.0,
		},
	}
}

// testCatalog parses records into a catalogue or fails the test.
func testCatalog(t *testing.T, recs ...map[string]any) *catalog {
	t.Helper()
	data, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseCatalog(data)
	if err != nil {
		t.Fatalf("parseCatalog: %v", err)
	}
	return c
}

func TestEmbeddedCatalog(t *testing.T) {
	c, err := parseCatalog(citiesJSON)
	if err != nil {
		t.Fatalf("embedded cities.json: %v", err)
	}
	if len(c.entries) < 24 {
		t.Errorf("%d cities, want at least 24", len(c.entries))
	}
	names := make(map[string]string) // slug to name
	var north, south int
	for _, e := range c.entries {
		names[e.city.Slug] = e.city.Name
		if e.city.Latitude > 0 {
			north++
		} else {
			south++
		}
	}
	if north < 5 || south < 5 {
		t.Errorf("%d northern and %d southern cities, want at least 5 of each", north, south)
	}
	for slug, want := range map[string]string{
		"bern":           "Bern, Switzerland",
		"new-york":       "New York, US",
		"springfield-il": "Springfield, IL",
		"springfield-ma": "Springfield, MA",
		"springfield-mo": "Springfield, MO",
	} {
		if got := names[slug]; got != want {
			t.Errorf("slug %q is %q, want %q", slug, got, want)
		}
	}
	var springfields []string
	for _, e := range c.entries {
		if place(e.city.Name) == "Springfield" {
			springfields = append(springfields, e.city.Name)
		}
	}
	if diff := cmp.Diff([]string{"Springfield, IL", "Springfield, MA", "Springfield, MO"}, springfields); diff != "" {
		t.Errorf("Springfields (-want +got):\n%s", diff)
	}
	if !slices.IsSortedFunc(c.entries, func(a, b entry) int { return strings.Compare(a.city.Name, b.city.Name) }) {
		t.Error("entries are not sorted by name")
	}
}

func TestParseCatalogRejects(t *testing.T) {
	tests := []struct {
		name    string
		give    func(r map[string]any)
		wantErr string
	}{
		{"name without country", func(r map[string]any) { r["name"] = "Nowhere" }, "City, Country"},
		{"slug with capitals", func(r map[string]any) { r["slug"] = "Nowhere" }, "slug"},
		{"slug with spaces", func(r map[string]any) { r["slug"] = "no where" }, "slug"},
		{"three-letter country code", func(r map[string]any) { r["country_code"] = "TLD" }, "country code"},
		{"latitude", func(r map[string]any) { r["latitude"] = 91.0 }, "latitude"},
		{"offset not in quarter hours", func(r map[string]any) { r["utc_offset_minutes"] = 50 }, "utc_offset_minutes"},
		{"offset too large", func(r map[string]any) { r["utc_offset_minutes"] = 15 * 60 }, "utc_offset_minutes"},
		{"eleven temperatures", func(r map[string]any) { climate(r)["mean_temp_c"] = make([]float64, 11) }, "12 monthly"},
		{"temperature out of range", func(r map[string]any) {
			climate(r)["mean_temp_c"] = []float64{99, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
		}, "mean_temp_c[0]"},
		{"probability above 1", func(r map[string]any) {
			climate(r)["precip_probability"] = []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.5}
		}, "precip_probability[11]"},
		{"negative wind", func(r map[string]any) { climate(r)["wind_kmh"] = -1.0 }, "wind_kmh"},
		{"wind direction 360", func(r map[string]any) { climate(r)["wind_from_deg"] = 360.0 }, "wind_from_deg"},
		{"zero diurnal range", func(r map[string]any) { climate(r)["diurnal_range_c"] = 0.0 }, "diurnal_range_c"},
		{"alias with comma", func(r map[string]any) { r["aliases"] = []string{"No, Where"} }, "alias"},
		{"unknown field", func(r map[string]any) { r["population"] = 1 }, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := testRecord("Nowhere, Testland", "nowhere")
			tt.give(r)
			data, err := json.Marshal([]any{r})
			if err != nil {
				t.Fatal(err)
			}
			_, err = parseCatalog(data)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseCatalog error = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

func TestParseCatalogRejectsDocuments(t *testing.T) {
	dup := func(a, b map[string]any) string {
		data, err := json.Marshal([]any{a, b})
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	tests := []struct {
		name    string
		give    string
		wantErr string
	}{
		{"not JSON", "{", "unexpected EOF"},
		{"not a list", `{"name": "x"}`, "cannot unmarshal"},
		{"empty list", "[]", "no cities"},
		{"duplicate slug", dup(testRecord("A, X", "a"), testRecord("B, X", "a")), "duplicate slug"},
		{"duplicate name", dup(testRecord("A, X", "a"), testRecord("a, x", "b")), "duplicate name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseCatalog([]byte(tt.give))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseCatalog error = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

// climate returns the climate object of a test record.
func climate(r map[string]any) map[string]any { return r["climate"].(map[string]any) }

func TestSuggestLimit(t *testing.T) {
	var recs []map[string]any
	for _, n := range []string{"Aad", "Aac", "Aab", "Aaa", "Zzz"} {
		recs = append(recs, testRecord(n+", X", strings.ToLower(n)))
	}
	c := testCatalog(t, recs...)
	_, err := c.resolve("Aax")
	want := &UnknownCityError{Name: "Aax", Suggestions: []string{"Aaa, X", "Aab, X", "Aac, X"}}
	if diff := cmp.Diff(error(want), err); diff != "" {
		t.Errorf("resolve (-want +got):\n%s", diff)
	}
}

func TestZoneName(t *testing.T) {
	tests := []struct {
		give int
		want string
	}{
		{0, "UTC+00:00"},
		{60, "UTC+01:00"},
		{330, "UTC+05:30"},
		{-540, "UTC-09:00"},
		{-570, "UTC-09:30"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.give), func(t *testing.T) {
			if got := zoneName(tt.give); got != tt.want {
				t.Errorf("zoneName(%d) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}
