package rawjson_test

import (
	"encoding/json"
	"testing"

	"github.com/contentneg/contentneg/internal/rawjson"
)

func TestObjectMembers(t *testing.T) {
	tests := []struct {
		name   string
		give   string
		keys   []string
		values []string
	}{
		{"empty", `{}`, []string{}, []string{}},
		{"white space around", " {\n \"a\" : 1 ,\"b\":[1,{\"c\":\"}\"}]\n} \n", []string{"a", "b"}, []string{"1", `[1,{"c":"}"}]`}},
		{"escaped key", `{"form\u0061t":"json"}`, []string{"format"}, []string{`"json"`}},
		{"repeated key, written order", `{"a":1,"a":2}`, []string{"a", "a"}, []string{"1", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			members, ok := rawjson.ObjectMembers([]byte(tt.give))
			if !ok || len(members) != len(tt.keys) {
				t.Fatalf("ObjectMembers(%q) = %v, %v", tt.give, members, ok)
			}
			for i, m := range members {
				if m.Key != tt.keys[i] || string(m.Value) != tt.values[i] {
					t.Errorf("member %d = %q: %s, want %q: %s", i, m.Key, m.Value, tt.keys[i], tt.values[i])
				}
				if whole := tt.give[m.Start:m.End]; whole[0] != '"' || whole[len(whole)-len(m.Value):] != string(m.Value) {
					t.Errorf("member %d spans %q", i, whole)
				}
			}
		})
	}
}

func TestObjectMembersRefusesWhatIsNotOneObject(t *testing.T) {
	for _, give := range []string{
		``, ` `, `[1]`, `"a"`, `null`, `{`, `{"a":1`, `{"a":1,}`, `{"a"}`, `{"a":1} x`, `{"a":1} {}`,
		`{a:1}`, `{"a":01}`, `{"a":"\x"}`, "{\"a\":\"\x00\"}", `{"a":[1,2}`,
	} {
		t.Run(give, func(t *testing.T) {
			if members, ok := rawjson.ObjectMembers([]byte(give)); ok {
				t.Errorf("ObjectMembers(%q) = %v, true", give, members)
			}
		})
	}
}

func TestLast(t *testing.T) {
	members, _ := rawjson.ObjectMembers([]byte(`{"a":1,"b":2,"a":3}`))
	tests := []struct {
		key   string
		want  string
		found bool
	}{
		{"a", "3", true}, // the one encoding/json keeps
		{"b", "2", true},
		{"c", "", false},
		{"A", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			m, ok := rawjson.Last(members, tt.key)
			if ok != tt.found || string(m.Value) != tt.want {
				t.Errorf("Last(%q) = %s, %v; want %s, %v", tt.key, m.Value, ok, tt.want, tt.found)
			}
		})
	}
	var decoded map[string]int
	if err := json.Unmarshal([]byte(`{"a":1,"b":2,"a":3}`), &decoded); err != nil || decoded["a"] != 3 {
		t.Fatalf("encoding/json reads a = %d (%v): Last no longer agrees with it", decoded["a"], err)
	}
}

func TestAppend(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		key   string
		value string
		want  string
	}{
		{"empty", `{}`, "f", `1`, `{"f":1}`},
		{"empty with space", `{ }`, "f", `1`, `{ "f":1}`},
		{"after the last member", `{"a":1}`, "f", `{"x":[]}`, `{"a":1,"f":{"x":[]}}`},
		{"white space kept", "{\n \"a\": 1\n}\n", "f", `2`, "{\n \"a\": 1\n,\"f\":2}\n"},
		{"a brace in a string", `{"a":"}"}`, "f", `2`, `{"a":"}","f":2}`},
		{"a name of the same key is not looked for", `{"f":1}`, "f", `2`, `{"f":1,"f":2}`},
		{"key quoted as JSON", `{}`, "a\"<b>", `0`, `{"a\"<b>":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rawjson.Append([]byte(tt.doc), tt.key, []byte(tt.value))
			if string(got) != tt.want {
				t.Errorf("Append = %s, want %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("Append gave invalid JSON %s", got)
			}
		})
	}
}

func TestAppendLeavesWhatIsNotAnObject(t *testing.T) {
	for _, give := range []string{``, `[]`, `"{}"`, `{"a"}`, `{"a":1`, `nul`} {
		t.Run(give, func(t *testing.T) {
			if got := rawjson.Append([]byte(give), "f", []byte(`1`)); string(got) != give {
				t.Errorf("Append(%q) = %q: changed", give, got)
			}
		})
	}
}
