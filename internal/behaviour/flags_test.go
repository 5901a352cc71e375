package behaviour_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/renderers"
)

// The demo's -default-tags and -format-argument, on both SDKs.

func TestDemoFlagsDefaultTagsAndFormatArgument(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		t.Run(string(sdk), func(t *testing.T) {
			t.Setenv(serve.SDKEnv, string(sdk))
			url := servetest.HTTPWith(t, behaviour.App(), "-http", "127.0.0.1:0",
				"-default-tags", "human, format=markdown", "-format-argument", "response_format")
			cs := servetest.HTTPSession(t, url, options(nil, true))
			bern := map[string]any{"city": "Bern"}
			md := text(t, call(t, cs, "get_weather", bern))
			if err := renderers.CheckMarkdown(md); err != nil || json.Valid([]byte(md)) {
				t.Errorf("undeclared client with -default-tags: %q is not the default's markdown (%v)", md, err)
			}
			asked := text(t, call(t, cs, "get_weather", map[string]any{"city": "Bern", "response_format": "json"}))
			if !json.Valid([]byte(asked)) {
				t.Errorf("response_format json: %q is not the JSON mirror", asked)
			}
		})
	}
}

func TestDemoRefusesToStartWithBadDefaultTags(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		for _, bad := range []string{"format=xml", "human, @#$"} {
			t.Run(string(sdk)+"/"+bad, func(t *testing.T) {
				t.Setenv(serve.SDKEnv, string(sdk))
				var stderr strings.Builder
				code := serve.Run(context.Background(), behaviour.App(), []string{"-stdio", "-default-tags", bad},
					strings.NewReader(""), io.Discard, &stderr)
				name := strings.TrimSpace(bad[strings.LastIndex(bad, ",")+1:])
				if code != 1 || !strings.Contains(stderr.String(), name) {
					t.Errorf("exit code %d, stderr %q; want 1 naming %q", code, stderr.String(), name)
				}
			})
		}
	}
}

func TestDemoRESTTakesTheFormatArgument(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		t.Run(string(sdk), func(t *testing.T) {
			t.Setenv(serve.SDKEnv, string(sdk))
			base, _ := servetest.REST(t, behaviour.App(), "-rest", "127.0.0.1:0", "-format-argument", "response_format")
			post := func(format string) (int, string, string) {
				body := `{"arguments":{"city":"Bern","response_format":"` + format + `"}}`
				req, err := http.NewRequest(http.MethodPost, base+"/tools/get_weather/execute", strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Accept", "application/json")
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				return res.StatusCode, res.Header.Get("Content-Type"), string(b)
			}
			code, ct, body := post("markdown")
			if code != http.StatusOK || !strings.HasPrefix(ct, "text/markdown") || renderers.CheckMarkdown(body) != nil || json.Valid([]byte(body)) {
				t.Errorf("response_format markdown: %d %s\n%s", code, ct, body)
			}
			code, _, body = post("xml")
			if code != http.StatusUnprocessableEntity || !strings.Contains(body, "json, markdown, text, toon") {
				t.Errorf("response_format xml: %d\n%s", code, body)
			}
		})
	}
}
