package renderers

import (
	"testing"
)

func TestReadable(t *testing.T) {
	tests := []struct {
		give string
		unit string
		want string
	}{
		{give: "precipitation_probability", want: "Precipitation probability"},
		{give: "observedAt", want: "Observed at"},
		{give: "HTTPStatus", want: "HTTP status"},
		{give: "uv_index", want: "UV index"},
		{give: "user-id", want: "User ID"},
		{give: "high_c", unit: "°C", want: "High"},
		{give: "wind_speed_kmh", unit: "km/h", want: "Wind speed"},
		{give: "humidity_percent", unit: "%", want: "Humidity"},
		{give: "humidity_pct", unit: "%", want: "Humidity"},
		{give: "temperature_c", want: "Temperature c"},
		{give: "c", unit: "°C", want: "C"}, // a single word is kept: it is the whole name
		{give: "price", unit: "CHF", want: "Price"},
		{give: "total_chf", unit: "CHF", want: "Total"},
		{give: "size", unit: "bytes", want: "Size"},
		// Issue 26: acronyms and units stay readable.
		{give: "utf8Bytes", want: "UTF-8 bytes"},
		{give: "http_status", want: "HTTP status"},
		{give: "id", want: "ID"},
		{give: "chf", want: "CHF"},
		{give: "entityType", want: "Entity type"},
		{give: "entity_type", want: "Entity type"},
		{give: "sha256Sum", want: "SHA256 sum"},
		{give: "price_eur", want: "Price EUR"},
		{give: "sizeKb", want: "Size KB"},
		{give: "pid", want: "PID"},
		{give: "uuid", want: "UUID"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if got := readable(tt.give, tt.unit); got != tt.want {
				t.Errorf("readable(%q, %q) = %q, want %q", tt.give, tt.unit, got, tt.want)
			}
		})
	}
}

func TestIdentifier(t *testing.T) {
	tests := []struct {
		give string
		want bool
	}{
		{give: "a", want: true},
		{give: "snake_case_2", want: true},
		{give: "camelCase", want: true},
		{give: "kebab-case", want: true},
		{give: "", want: false},
		{give: "_id", want: false},
		{give: "x__y", want: false},
		{give: "trailing_", want: false},
		{give: "2fa", want: false},
		{give: "a b", want: false},
		{give: "file.md", want: false},
		{give: "café", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if got := identifier(tt.give); got != tt.want {
				t.Errorf("identifier(%q) = %v, want %v", tt.give, got, tt.want)
			}
		})
	}
}

func TestPercentOf(t *testing.T) {
	tests := []struct {
		give   string
		want   string
		wantOK bool
	}{
		{give: "0.15", want: "15", wantOK: true},
		{give: "0.155", want: "15.5", wantOK: true},
		{give: "0.07", want: "7", wantOK: true},
		{give: "0.5", want: "50", wantOK: true},
		{give: "1", want: "100", wantOK: true},
		{give: "1.0", want: "100", wantOK: true},
		{give: "0", want: "0", wantOK: true},
		{give: "0.000", want: "0", wantOK: true},
		{give: "0.12345678901234567890", want: "12.34567890123456789", wantOK: true},
		{give: "1.5", wantOK: false},
		{give: "-0.5", wantOK: false},
		{give: "-0", wantOK: false},
		{give: "1e-1", wantOK: false},
		{give: "5E-1", wantOK: false},
		{give: "x", wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, ok := percentOf(tt.give)
			if ok != tt.wantOK || ok && got != tt.want {
				t.Errorf("percentOf(%q) = %q, %v; want %q, %v", tt.give, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
