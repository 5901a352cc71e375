package sdk

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionGate: the state is read only for go-sdk v1.8.0, or when the
// build does not say (a test binary, built against go.mod's v1.8.0).
func TestVersionGate(t *testing.T) {
	tests := []struct {
		version string
		known   bool
		want    bool
	}{
		{version: "v1.8.0", known: true, want: true},
		{version: "v1.9.0", known: true, want: false},
		{version: "v1.8.1-0.20260101000000-abcdef123456", known: true, want: false},
		{version: "", known: true, want: false}, // replaced by a directory, or not linked
		{version: "", known: false, want: true},
	}
	for _, tt := range tests {
		if got := versionPinned(tt.version, tt.known); got != tt.want {
			t.Errorf("versionPinned(%q, %v) = %v, want %v", tt.version, tt.known, got, tt.want)
		}
	}
}

// TestGoModPinsTheSDK: go.mod requires the go-sdk version state.go reads,
// which test binaries (their build lists no dependencies) take on trust.
func TestGoModPinsTheSDK(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(fields) >= 2 && fields[0] == sdkPath {
			if fields[1] != pinnedSDK {
				t.Errorf("go.mod requires %s %s; state.go reads %s's layout: check it, then update pinnedSDK", sdkPath, fields[1], pinnedSDK)
			}
			return
		}
	}
	t.Errorf("go.mod does not require %s", sdkPath)
}
