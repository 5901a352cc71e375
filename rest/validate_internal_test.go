package rest

import "testing"

func TestSchemaMessage(t *testing.T) {
	tests := []struct{ give, want string }{
		{"validating root: validating /properties/days: maximum: 9/1 is greater than 7.000000", "maximum: 9 is greater than 7"},
		{"minimum: -3/1 is less than 0.500000", "minimum: -3 is less than 0.5"},
		{"minimum: 1/2 is less than 1.250000", "minimum: 1/2 is less than 1.25"},
		{"type: 5 has type \"float64\", want \"string\"", "type: 5 has type \"float64\", want \"string\""},
		{"validating root: ", "validating root: "},
	}
	for _, tt := range tests {
		if got := schemaMessage(tt.give); got != tt.want {
			t.Errorf("schemaMessage(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}
