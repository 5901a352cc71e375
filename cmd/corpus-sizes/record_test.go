package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCanonicalValue(t *testing.T) {
	tests := []struct {
		name     string
		result   string
		textJSON bool
		want     string
		wantErr  string
	}{
		{
			name:   "structuredContent keeps the server's order and digits",
			result: `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"z":1,"a":12345678901234567890,"m":1e-7}}`,
			want:   `{"z":1,"a":12345678901234567890,"m":1e-7}`,
		},
		{
			name:   "one JSON text block without structuredContent",
			result: `{"content":[{"type":"text","text":"{\n  \"b\": [1, 2],\n  \"a\": null\n}"}]}`,
			want:   "{\n  \"b\": [1, 2],\n  \"a\": null\n}",
		},
		{
			name:     "textJSON prefers the text block to a wrapper",
			result:   `{"content":[{"type":"text","text":"[{\"name\":\"a\"}]"}],"structuredContent":{"content":"[{\"name\":\"a\"}]"}}`,
			textJSON: true,
			want:     `[{"name":"a"}]`,
		},
		{
			name:    "prose has no canonical value",
			result:  `{"content":[{"type":"text","text":"The sum of 1 and 2 is 3."}]}`,
			wantErr: "no canonical value",
		},
		{
			name:    "two text blocks have no canonical value",
			result:  `{"content":[{"type":"text","text":"{}"},{"type":"text","text":"{}"}]}`,
			wantErr: "no canonical value",
		},
		{
			name:    "text that only starts like JSON",
			result:  `{"content":[{"type":"text","text":"[FILE] a.txt"}]}`,
			wantErr: "no canonical value",
		},
		{
			name:    "a result that is not JSON",
			result:  `{"content":`,
			wantErr: "tools/call result",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canonicalValue(json.RawMessage(tt.result), tt.textJSON)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("canonicalValue() error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("canonicalValue() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestScrubber(t *testing.T) {
	scrub := scrubber("/tmp/corpus-record-123/project")
	tests := []struct {
		name, in, want string
	}{
		{
			name: "paths",
			in:   `{"content":"Allowed directories:\n/tmp/corpus-record-123/project\n/tmp/corpus-record-123/project/src/a.go"}`,
			want: `{"content":"Allowed directories:\n/home/user/project\n/home/user/project/src/a.go"}`,
		},
		{
			name: "creation and access times, not the modification time",
			in:   `{"content":"size: 49\ncreated: Tue Nov 24 2026 16:31:07 GMT+0000 (Coordinated Universal Time)\nmodified: Fri Nov 20 2026 08:00:00 GMT+0000 (Coordinated Universal Time)\naccessed: Wed Nov 25 2026 16:31:07 GMT+0000 (Coordinated Universal Time)"}`,
			want: `{"content":"size: 49\ncreated: Fri Nov 20 2026 08:00:00 GMT+0000 (Coordinated Universal Time)\nmodified: Fri Nov 20 2026 08:00:00 GMT+0000 (Coordinated Universal Time)\naccessed: Fri Nov 20 2026 08:00:00 GMT+0000 (Coordinated Universal Time)"}`,
		},
		{
			name: "a time at the end of a string",
			in:   `{"content":"created: yesterday"}`,
			want: `{"content":"created: Fri Nov 20 2026 08:00:00 GMT+0000 (Coordinated Universal Time)"}`,
		},
		{
			name: "other values unchanged",
			in:   `{"name":"Zoë","n":[1,2]}`,
			want: `{"name":"Zoë","n":[1,2]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scrub(json.RawMessage(tt.in))
			if string(got) != tt.want {
				t.Errorf("scrub(%s)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("scrub(%s) is not JSON", tt.in)
			}
		})
	}
}

func TestOutputSchemas(t *testing.T) {
	got, err := outputSchemas(json.RawMessage(`{"tools":[{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"z":{},"a":{}}}},{"name":"b","inputSchema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got["a"]) != `{"type":"object","properties":{"z":{},"a":{}}}` {
		t.Errorf("outputSchemas() = %q, want only a's schema as written", got)
	}
	if _, err := outputSchemas(json.RawMessage(`{"tools":{}}`)); err == nil {
		t.Error("outputSchemas of a malformed list: no error")
	}
}

// TestRecordReproducesCorpus records the servers' items again and compares them with the stored
// ones. It needs node and `npm ci` in interop/servers, so it runs only with
// CONTENTNEG_CORPUS_RECORD=1.
func TestRecordReproducesCorpus(t *testing.T) {
	if os.Getenv("CONTENTNEG_CORPUS_RECORD") == "" {
		t.Skip("set CONTENTNEG_CORPUS_RECORD=1 (needs node and npm ci in interop/servers)")
	}
	dir := t.TempDir()
	if err := recordItems(context.Background(), "../../interop/servers", dir); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 15 {
		t.Fatalf("recorded %d files, want at least 15", len(files))
	}
	for _, f := range files {
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(corpusDir, filepath.Base(f)))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s differs from the stored item (-stored +recorded); rerun with -record:\n%s", filepath.Base(f), diff)
		}
	}
}

// TestCorpusSources checks that testdata/corpus/SOURCES.md names every item, so that each one's
// origin (server, version, licence, call, what was scrubbed) is written down.
func TestCorpusSources(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(corpusDir, "SOURCES.md"))
	if err != nil {
		t.Fatal(err)
	}
	items, err := loadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if !strings.Contains(string(doc), "`"+it.name+"`") {
			t.Errorf("SOURCES.md does not name the item %s", it.name)
		}
	}
	for _, s := range recordedServers {
		for _, c := range s.calls {
			if c.name != "" && !strings.Contains(string(doc), "`"+c.name+"`") {
				t.Errorf("SOURCES.md does not name the recorded item %s", c.name)
			}
		}
	}
}

// TestLongNote checks that the postgres fixture's note is the 700-character note the corpus is
// meant to hold, and that the fixture's SQL quotes it.
func TestLongNote(t *testing.T) {
	if n := utf8.RuneCountInString(longNote); n != 700 {
		t.Errorf("longNote has %d characters, want 700", n)
	}
	if !strings.Contains(customersSQL, "'"+strings.ReplaceAll(longNote, "'", "''")+"'") {
		t.Error("customersSQL does not hold longNote as a quoted string")
	}
}
