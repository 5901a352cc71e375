package shaping_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// fakeResult is the fake SDK's result: text blocks only, and maybe a
// value, an error flag or elicitation input requests.
type fakeResult struct {
	Value   []byte
	Texts   []string
	IsError bool
	Asks    []string // ids of elicitation input requests
	Dropped bool     // structuredContent dropped by a rebuild
}

// fakeRequest is one request of the fake SDK: the client's tags in its
// own capabilities (nil: none declared), the answers it carries, and the
// handler.
type fakeRequest struct {
	tags       []string
	capability bool
	answered   []string
	handler    func(answers map[string]string) (*fakeResult, error)
}

// fakePort records what the core asked of it.
type fakePort struct {
	runs    [][]string // the answers of each run, sorted
	schemas int
}

func (p *fakePort) Facts(r fakeRequest) (shaping.Request, string) {
	caps := shaping.Capabilities{Elicitation: r.capability}
	if r.tags != nil {
		caps.Extensions = map[string]any{negotiation.ExtensionID: negotiation.Settings{Features: r.tags}.Map()}
	}
	return shaping.Request{Stateless: true, Meta: caps, HasMeta: true}, "tool"
}

func (*fakePort) SessionKey(fakeRequest) any { return nil }

func (p *fakePort) Run(_ context.Context, r fakeRequest, refused shaping.Refused) (*fakeResult, error) {
	got := map[string]string{}
	for _, id := range r.answered {
		got[id] = "accept"
	}
	for _, id := range refused.IDs {
		got[id] = refused.Action
	}
	sorted := slices.Sorted(func(yield func(string) bool) {
		for id, a := range got {
			if !yield(id + "=" + a) {
				return
			}
		}
	})
	p.runs = append(p.runs, sorted)
	return r.handler(got)
}

func (*fakePort) Answered(r fakeRequest) ([]string, string) { return r.answered, "" }

func (*fakePort) Asked(res *fakeResult) ([]string, string) {
	if res == nil {
		return nil, ""
	}
	return res.Asks, ""
}

func (*fakePort) Internal(text string) error { return errors.New(text) }

func (*fakePort) Status(res *fakeResult) (bool, bool, bool) {
	if res == nil {
		return false, false, false
	}
	return res.IsError, len(res.Asks) > 0, true
}

func (*fakePort) Value(res *fakeResult) ([]byte, bool) { return res.Value, true }
func (*fakePort) Struct(*fakeResult) bool              { return false }

func (*fakePort) TextIsValue(res *fakeResult, value []byte) bool {
	return len(res.Texts) == 1 && res.Texts[0] == string(value)
}

func (*fakePort) Blocks(res *fakeResult) ([]bool, []string) {
	isText := make([]bool, len(res.Texts))
	for i := range isText {
		isText[i] = true
	}
	return isText, res.Texts
}

func (p *fakePort) Schema(fakeRequest, string) (any, func() []byte, bool) {
	p.schemas++
	return "tool", func() []byte { return nil }, true
}

func (*fakePort) Rebuild(res *fakeResult, blocks []shaping.Block, drop bool, structured []byte) *fakeResult {
	out := &fakeResult{Value: res.Value, Dropped: drop}
	if structured != nil {
		out.Value = structured
	}
	for _, b := range blocks {
		if b.From >= 0 && !b.Replaced {
			out.Texts = append(out.Texts, res.Texts[b.From])
			continue
		}
		out.Texts = append(out.Texts, b.Text)
	}
	return out
}

func (*fakePort) Failed(text string) *fakeResult {
	return &fakeResult{IsError: true, Texts: []string{text}}
}

var _ shaping.ToolPort[fakeRequest, *fakeResult] = (*fakePort)(nil)

func TestServeTool(t *testing.T) {
	const v = `{"a":1}`
	typed := func(map[string]string) (*fakeResult, error) {
		return &fakeResult{Value: []byte(v), Texts: []string{v}}, nil
	}
	// confirm asks for "ok" until it has an answer, and says which.
	confirm := func(answers map[string]string) (*fakeResult, error) {
		if a, ok := answers["ok"]; ok {
			return &fakeResult{Texts: []string{"answer " + a}}, nil
		}
		return &fakeResult{Asks: []string{"ok"}}, nil
	}
	nagging := func(map[string]string) (*fakeResult, error) { return &fakeResult{Asks: []string{"ok"}}, nil }
	tests := []struct {
		name       string
		give       fakeRequest
		wantTexts  []string
		wantError  bool
		wantRuns   [][]string
		wantSchema int
	}{
		{"undeclared: the handler's result as it is, no schema read",
			fakeRequest{handler: typed}, []string{v}, false, [][]string{{}}, 0},
		{"agent: the typed mirror stays, the schema read for the fields' order",
			fakeRequest{tags: []string{"agent"}, handler: typed}, []string{v}, false, [][]string{{}}, 1},
		{"human: markdown, the schema read once",
			fakeRequest{tags: []string{"human"}, handler: typed}, []string{"- **A:** 1"}, false, [][]string{{}}, 1},
		{"a tool error is never rendered",
			fakeRequest{tags: []string{"human"}, handler: func(map[string]string) (*fakeResult, error) {
				return &fakeResult{Value: []byte(v), Texts: []string{"boom"}, IsError: true}, nil
			}}, []string{"boom"}, true, [][]string{{}}, 0},
		{"open gate: the question goes to the client",
			fakeRequest{tags: []string{"interactive"}, capability: true, handler: confirm}, nil, false, [][]string{{}}, 0},
		{"closed gate: the question is answered with the refusal",
			fakeRequest{tags: []string{"!interactive"}, capability: true, handler: confirm}, []string{"answer decline"}, false, [][]string{{}, {"ok=decline"}}, 0},
		{"closed gate: a forged answer is replaced before the handler runs",
			fakeRequest{tags: []string{"!interactive"}, capability: true, answered: []string{"ok"}, handler: confirm}, []string{"answer decline"}, false, [][]string{{"ok=decline"}}, 0},
		{"closed gate: a handler that keeps asking is a tool error",
			fakeRequest{tags: []string{"human"}, handler: nagging}, []string{`"tool" needs an answer to a question this client cannot be asked (the client has no elicitation capability)`}, true, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			port := &fakePort{}
			res, err := shaping.ServeTool(context.Background(), shaping.New(nil), port, tt.give)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantTexts != nil && !cmp.Equal(res.Texts, tt.wantTexts) || res.IsError != tt.wantError {
				t.Errorf("result %+v, want texts %q, error %v", res, tt.wantTexts, tt.wantError)
			}
			if tt.wantRuns != nil && !cmp.Equal(port.runs, tt.wantRuns, cmpopts.EquateEmpty()) {
				t.Errorf("runs with answers %q, want %q", port.runs, tt.wantRuns)
			}
			if port.schemas != tt.wantSchema {
				t.Errorf("schema read %d times, want %d", port.schemas, tt.wantSchema)
			}
		})
	}
}

func TestServeToolRecovers(t *testing.T) {
	const secret = "the-panic-value"
	boom := fakeRequest{handler: func(map[string]string) (*fakeResult, error) { panic(secret) }}
	for _, tags := range [][]string{nil, {"human"}} {
		t.Run(strings.Join(tags, ","), func(t *testing.T) {
			core, logs := observer.New(zapcore.ErrorLevel)
			s := shaping.New(&shaping.Options{Recover: true, Logger: zap.New(core)})
			boom.tags = tags
			res, err := shaping.ServeTool(context.Background(), s, &fakePort{}, boom)
			if err != nil || !res.IsError || strings.Contains(strings.Join(res.Texts, ""), secret) {
				t.Errorf("result %+v, %v: want a tool error without the panic's value", res, err)
			}
			if logs.Len() != 1 {
				t.Errorf("%d error lines, want 1", logs.Len())
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not go on without Recover")
			}
		}()
		_, _ = shaping.ServeTool(context.Background(), shaping.New(nil), &fakePort{}, boom)
	})
}
