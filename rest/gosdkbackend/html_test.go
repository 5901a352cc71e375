package gosdkbackend_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// hostile values: each would be an element, an attribute, a link or an
// entity if it reached the HTML unescaped.
var hostile = []string{
	`<script>alert(1)</script>`,
	`<img src=x onerror="alert(2)">`,
	`javascript:alert(3)`,
	`[click](javascript:alert(4))`,
	`<a href="javascript:alert(5)">a</a>`,
	`&lt;b&gt; &amp; &#x3C;i&#x3E;`,
	`<!-- comment --><div onclick=alert(6)>`,
	"`code` *em* **strong** <https://example.com>",
}

type hostileOut struct {
	Name  string   `json:"name"`
	Note  string   `json:"note"`
	Items []string `json:"items"`
}

// hostileServer has a typed tool, a text tool, JSON, markdown and text
// resources and a prompt, every one echoing the hostile values.
func hostileServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Name string `json:"name"`
	}) (*mcp.CallToolResult, hostileOut, error) {
		return nil, hostileOut{Name: in.Name, Note: strings.Join(hostile, " "), Items: hostile}, nil
	})
	s.AddTool(&mcp.Tool{Name: "plain", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(hostile, "\n")}}}, nil
	})
	for _, r := range []struct{ uri, mime, text string }{
		{"hostile://json", "application/json", `{"title":"<script>alert(1)</script>","items":["<img src=x onerror=alert(2)>","[x](javascript:alert(4))"]}`},
		{"hostile://text", "text/plain", strings.Join(hostile, "\n")},
		{"hostile://html", "text/html", strings.Join(hostile, "\n")},
	} {
		s.AddResource(&mcp.Resource{URI: r.uri, Name: r.uri, MIMEType: r.mime}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.uri, MIMEType: r.mime, Text: r.text}}}, nil
		})
	}
	s.AddPrompt(&mcp.Prompt{Name: "greet", Arguments: []*mcp.PromptArgument{{Name: "who", Required: true}}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "## Greet\n\nSay hello to " + req.Params.Arguments["who"]}}}}, nil
	})
	middleware.Install(s, nil)
	return s
}

// checkNoHTMLFromData parses an HTML rendering as a browser would and fails
// on any element or attribute that the renderings of data do not make:
// markdown's block and inline elements, and table alignment. Script, img, a,
// div, event handlers and comments can only have come from data.
func checkNoHTMLFromData(t *testing.T, what, body string) {
	t.Helper()
	ctx := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(body), ctx)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	allowed := map[atom.Atom]bool{
		atom.P: true, atom.Strong: true, atom.Em: true, atom.Code: true, atom.Pre: true,
		atom.Ul: true, atom.Ol: true, atom.Li: true, atom.Table: true, atom.Thead: true,
		atom.Tbody: true, atom.Tr: true, atom.Th: true, atom.Td: true, atom.H1: true,
		atom.H2: true, atom.H3: true, atom.H4: true, atom.Br: true, atom.Hr: true,
		atom.Del: true, atom.Blockquote: true,
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			if !allowed[n.DataAtom] {
				t.Errorf("%s: element <%s> came from data:\n%s", what, n.Data, body)
			}
			for _, a := range n.Attr {
				if a.Key != "align" && !(a.Key == "style" && strings.HasPrefix(a.Val, "text-align:")) {
					t.Errorf("%s: attribute %s=%q on <%s> came from data:\n%s", what, a.Key, a.Val, n.Data, body)
				}
			}
		case html.CommentNode:
			t.Errorf("%s: a comment (%q): raw HTML reached the converter:\n%s", what, n.Data, body)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	text := ""
	for _, n := range nodes {
		walk(n)
		text += textOf(n)
	}
	if !strings.Contains(text, "alert(1)") {
		t.Errorf("%s: the data was dropped, not escaped: text %q", what, text)
	}
}

func textOf(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(textOf(c))
	}
	return b.String()
}

// TestHTMLHasNoHTMLFromData: hostile values through every path that gives
// HTML (execute, resource content, prompt render over REST; a tool call, a
// resource read and a prompt over MCP with format=html) give HTML in which
// no element or attribute came from data, under a Content-Security-Policy
// that allows nothing to run, and REST's bytes are the MCP client's.
func TestHTMLHasNoHTMLFromData(t *testing.T) {
	s := hostileServer()
	d := newDemo(t, s, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare("format=html")})

	do := func(t *testing.T, method, path, body, accept string) string {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, method, d.rest.URL+"/mcp/v1"+path, strings.NewReader(body))
		if method == "POST" {
			req.Header.Set("Content-Type", "application/json")
		}
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := d.rest.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("%s %s: %d %s %s", method, path, resp.StatusCode, resp.Header.Get("Content-Type"), out)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'none'") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: CSP %q, nosniff %q", method, path, csp, resp.Header.Get("X-Content-Type-Options"))
		}
		return string(out)
	}
	name := `{"arguments":{"name":"<script>alert(1)</script><img src=x onerror=alert(7)>"}}`

	t.Run("execute typed", func(t *testing.T) {
		body := do(t, "POST", "/tools/echo/execute", name, "text/html")
		checkNoHTMLFromData(t, "execute echo", body)
		if again := do(t, "POST", "/tools/echo/execute?format=html", name, "application/json"); again != body {
			t.Errorf("?format=html differs from Accept: text/html")
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"name": "<script>alert(1)</script><img src=x onerror=alert(7)>"}})
		if err != nil || res.IsError {
			t.Fatalf("MCP: %v %+v", err, res)
		}
		mcpText := res.Content[0].(*mcp.TextContent).Text
		checkNoHTMLFromData(t, "MCP echo", mcpText)
		if mcpText != body {
			t.Errorf("REST and MCP differ:\nREST %q\nMCP  %q", body, mcpText)
		}
	})
	t.Run("execute text", func(t *testing.T) {
		body := do(t, "POST", "/tools/plain/execute", `{}`, "text/html")
		checkNoHTMLFromData(t, "execute plain", body)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "plain", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("MCP: %v %+v", err, res)
		}
		checkNoHTMLFromData(t, "MCP plain", res.Content[0].(*mcp.TextContent).Text)
	})
	for _, uri := range []string{"hostile://json", "hostile://text", "hostile://html"} {
		t.Run("resource "+uri, func(t *testing.T) {
			body := do(t, "GET", "/resources/"+url.PathEscape(uri)+"/content", "", "text/html")
			checkNoHTMLFromData(t, uri, body)
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatal(err)
			}
			if c := res.Contents[0]; c.MIMEType != "text/html" || c.Text != body {
				t.Errorf("MCP %s %q, REST %q", c.MIMEType, c.Text, body)
			}
		})
	}
	t.Run("prompt", func(t *testing.T) {
		body := do(t, "POST", "/prompts/greet/render", `{"arguments":{"who":"<script>alert(1)</script><img src=x onerror=alert(7)>"}}`, "text/html")
		checkNoHTMLFromData(t, "prompt", body)
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"who": "<script>alert(1)</script><img src=x onerror=alert(7)>"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Messages[0].Content.(*mcp.TextContent).Text; got != body {
			t.Errorf("MCP %q, REST %q", got, body)
		}
	})
	t.Run("listing", func(t *testing.T) {
		body := do(t, "GET", "/tools/echo", "", "text/html")
		checkNoHTMLFromData(t, "tool item", "alert(1)"+body)
	})
}
