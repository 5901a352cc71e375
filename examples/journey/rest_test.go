package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/serve/servetest"
	mcpclient "github.com/contentneg/contentneg/middleware/client"
)

func TestREST(t *testing.T) {
	base, mcpURL := servetest.REST(t, app(), "-rest", "127.0.0.1:0", "-http", "127.0.0.1:0")
	params := findConnections("Zürich HB", "Brig", 2)
	body, _ := json.Marshal(map[string]any{"arguments": params.Arguments})
	for _, f := range []struct{ format, accept string }{{"markdown", "text/markdown"}, {"text", "text/plain"}} {
		req, _ := http.NewRequest("POST", base+"/tools/find_connections/execute", strings.NewReader(string(body)))
		req.Header.Set("Accept", f.accept)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cs := servetest.HTTPSession(t, mcpURL, &mcpclient.Options{Settings: mcpclient.Declare("format=" + f.format)})
		want := callText(t, cs, "Zürich HB", "Brig", 2)
		if resp.StatusCode != 200 || string(got) != want {
			t.Errorf("%s over REST (%d) differs from MCP:\nREST: %q\nMCP:  %q", f.format, resp.StatusCode, got, want)
		}
	}
}
