package main

import (
	"errors"
	"io"
	"testing"
)

func TestTailKeepsTheEnd(t *testing.T) {
	tests := []struct {
		name string
		give []string
		want string
	}{
		{"short", []string{"starting\n", "ready\n"}, "starting\nready\n"},
		{"long writes", []string{string(make([]byte, maxServerLog)), "the end"}, "..." + string(make([]byte, maxServerLog-len("the end"))) + "the end"},
		{"one huge write", []string{"x" + string(make([]byte, 3*maxServerLog)) + "the end"}, "..." + string(make([]byte, maxServerLog-len("the end"))) + "the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tl tail
			for _, s := range tt.give {
				if n, err := tl.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := tl.String(); got != tt.want {
				t.Errorf("kept %d bytes ending %q, want %d bytes", len(got), got[max(0, len(got)-10):], len(tt.want))
			}
		})
	}
}

func TestLimitedBody(t *testing.T) {
	tests := []struct {
		name    string
		give    int // body size
		wantErr error
	}{
		{"empty", 0, nil},
		{"small", 100, nil},
		{"exactly the bound", maxResponseBody, nil},
		{"one byte over", maxResponseBody + 1, errResponseTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := &limitedBody{rc: io.NopCloser(io.LimitReader(zeros{}, int64(tt.give))), left: maxResponseBody}
			n, err := io.Copy(io.Discard, body)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("read %d bytes, error %v; want %v", n, err, tt.wantErr)
			}
			if n > maxResponseBody {
				t.Errorf("read %d bytes, more than the bound", n)
			}
		})
	}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
