package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/matrix"
)

// TestLabelsSayWhatEachProfileGot checks issue 26 item 8: a profile that asked for TOON is
// labelled "toon", not "text", and the table says that the preset "agent" is agent, format=json,
// verbosity=compact, while the tag agent alone gets the JSON mirror (shown by a profile of it).
func TestLabelsSayWhatEachProfileGot(t *testing.T) {
	profiles := filepath.Join(t.TempDir(), "profiles.json")
	if err := os.WriteFile(profiles, []byte(`{"toon":["format=toon"],"agent tag":["agent"],"terminal":["format=text","verbosity=compact"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCommand(t, "-url", httpServer(t, true), "-tool", "get_weather", "-args", `{"city":"Bern"}`, "-profiles", profiles, "-json", "-q")
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	var m matrix.Matrix
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("stdout is not the JSON matrix: %v\n%s", err, stdout)
	}
	want := map[string]matrix.Rendering{"toon": matrix.RenderTOON, "agent tag": matrix.RenderJSONMirror, "terminal": matrix.RenderText}
	for _, r := range m.Rows {
		if r.Rendering != want[r.Profile] {
			t.Errorf("%s: rendering %q, want %q", r.Profile, r.Rendering, want[r.Profile])
		}
	}

	code, stdout, stderr = runCommand(t, "-url", httpServer(t, true), "-tool", "get_weather", "-args", `{"city":"Bern"}`, "-q")
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	for _, line := range []string{
		`the preset "agent" declares agent, format=json, verbosity=compact: structuredContent alone`,
		`the tag agent alone gets the structured rendering with the minified JSON mirror`,
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("the table lacks %q:\n%s", line, stdout)
		}
	}
}
