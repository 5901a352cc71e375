package matrix

import "testing"

func TestClipping(t *testing.T) {
	tests := []struct {
		give     string
		giveN    int
		wantClip string
		wantCell string
	}{
		{"short", 10, "short", "short"},
		{"exactly10!", 10, "exactly10!", "exactly10!"},
		{"a longer text", 10, "a longe...", "a longe..."},
		{"ééééé", 6, "é...", "é..."}, // never cuts a character in two
		{"tab\there", 20, "tab\there", `"tab\there"`},
		{"\xff", 10, "\xff", `"\xff"`},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if got := clip(tt.give, tt.giveN); got != tt.wantClip {
				t.Errorf("clip(%q, %d) = %q, want %q", tt.give, tt.giveN, got, tt.wantClip)
			}
			if got := cell(tt.give, tt.giveN); got != tt.wantCell {
				t.Errorf("cell(%q, %d) = %q, want %q", tt.give, tt.giveN, got, tt.wantCell)
			}
		})
	}
}

func TestEscapeControls(t *testing.T) {
	tests := []struct {
		give string
		want string
	}{
		{"line\n\tindented", "line\n\tindented"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"cr\r\x7f\u0085", `cr\x0d\x7f\x85`},
	}
	for _, tt := range tests {
		if got := escapeControls(tt.give); got != tt.want {
			t.Errorf("escapeControls(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}
