package notfound_test

import (
	"testing"

	"github.com/contentneg/contentneg/internal/notfound"
)

func TestOnWire(t *testing.T) {
	tests := []struct {
		name string
		code int64
		data string
		want bool
	}{
		{"SEP-2093", notfound.Code, `{"uri":"weather://x"}`, true},
		{"legacy code", -32002, ``, true},
		{"invalid params without data", notfound.Code, ``, false},
		{"invalid params with other data", notfound.Code, `{"field":"uri"}`, false},
		{"uri not a string", notfound.Code, `{"uri":1}`, false},
		{"not JSON", notfound.Code, `"uri"`, false},
		{"internal error", -32603, `{"uri":"x"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := notfound.OnWire(tt.code, []byte(tt.data)); got != tt.want {
				t.Errorf("OnWire(%d, %s) = %v, want %v", tt.code, tt.data, got, tt.want)
			}
		})
	}
}

func TestDataIsReadOnWire(t *testing.T) {
	if !notfound.OnWire(notfound.Code, notfound.Data("weather://x")) {
		t.Errorf("OnWire(Code, Data(uri)) = false, want true")
	}
}
