package gosdkbackend_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// browse sends a request as a browser would and returns the response and
// its body.
func (d *demo) browse(t *testing.T, method, path string, form url.Values, header map[string]string) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, d.rest.URL+path, body)
	req.Header.Set("Accept", browserAccept)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := *d.rest.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp, string(out)
}

// elements counts the elements of a page by name, and fails on scripts,
// event handlers and javascript: URLs.
func elements(t *testing.T, page string) map[string]int {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			count[n.Data]++
			if n.Data == "script" || n.Data == "img" || n.Data == "iframe" {
				t.Errorf("a <%s> element in the page", n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") || strings.Contains(strings.ToLower(a.Val), "javascript:") {
					t.Errorf("attribute %s=%q on <%s>", a.Key, a.Val, n.Data)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return count
}

func TestIndexPage(t *testing.T) {
	d := newDemo(t, weatherServer(t), nil)
	resp, page := d.browse(t, "GET", "/mcp/v1/", nil, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "form-action 'self'") {
		t.Errorf("CSP %q", csp)
	}
	count := elements(t, page)
	if count["form"] != 4 {
		t.Errorf("%d forms, want one per tool (4)", count["form"])
	}
	for _, want := range []string{
		`<form method="post" action="/mcp/v1/tools/get_weather/execute"`,
		`<input type="text" name="arg.city" required>`,
		`<input type="number" step="1" name="arg.days"`,
		`<input type="number" step="any" name="arg.threshold_c" required>`,
		`<select name="_format"><option>html</option><option>json</option>`,
		`weather://cities`, `plan_outfit`, `href="/mcp/v1/resources/weather:%2F%2Fcities/content?format=html"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}

	resp, _ = d.browse(t, "GET", "/", nil, nil)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/mcp/v1/" {
		t.Errorf("GET /: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body := d.browse(t, "GET", "/mcp/v1/", nil, map[string]string{"Accept": "application/json"})
	if resp.StatusCode != 200 || !strings.Contains(body, `"serverInfo"`) {
		t.Errorf("a program still gets the capabilities: %d %s", resp.StatusCode, body)
	}
}

func TestIndexFormRunsTheTool(t *testing.T) {
	d := newDemo(t, weatherServer(t), nil)
	origin := map[string]string{"Origin": d.rest.URL, "Sec-Fetch-Site": "same-origin"}
	tests := []struct {
		name   string
		form   url.Values
		header map[string]string
		status int
		has    []string
	}{
		{"html", url.Values{"arg.city": {"Bern"}, "_format": {"html"}}, origin, 200,
			[]string{`<div id="result"><p><strong>Bern, Switzerland</strong>`, "<li>Humidity:"}},
		{"html by default", url.Values{"arg.city": {"Bern"}}, origin, 200, []string{`<div id="result"><p><strong>Bern, Switzerland</strong>`}},
		{"text", url.Values{"arg.city": {"Bern"}, "_format": {"text"}}, origin, 200, []string{`<div id="result"><pre>location: Bern, Switzerland`}},
		{"json", url.Values{"arg.city": {"Bern"}, "_format": {"json"}}, origin, 200, []string{`&#34;location&#34;: &#34;Bern, Switzerland&#34;`}},
		{"an integer field", url.Values{"arg.city": {"Tokyo"}, "arg.days": {"2"}, "_format": {"markdown"}}, origin, 200, []string{"Tokyo"}},
		{"no browser headers (curl): not the index page's", url.Values{"arg.city": {"Bern"}}, nil, 403, []string{`"code":"FORBIDDEN"`}},
		{"a tool error", url.Values{"arg.city": {"Atlantis"}}, origin, 200, []string{`class="error"`}},
		{"not an integer", url.Values{"arg.city": {"Tokyo"}, "arg.days": {"two"}}, origin, 400, []string{`"field":"days"`, "must be an integer"}},
		{"missing a required field", url.Values{"arg.days": {"2"}}, origin, 400, []string{`"field":"city"`}},
		{"an unknown format", url.Values{"arg.city": {"Bern"}, "_format": {"pdf"}}, origin, 400, []string{`"field":"_format"`}},
		{"another origin", url.Values{"arg.city": {"Bern"}}, map[string]string{"Origin": "https://evil.example"}, 403, []string{`"code":"FORBIDDEN"`}},
		{"a cross-site fetch", url.Values{"arg.city": {"Bern"}}, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, []string{`"code":"FORBIDDEN"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := "get_weather"
			if tt.form.Has("arg.days") {
				tool = "get_forecast"
			}
			resp, body := d.browse(t, "POST", "/mcp/v1/tools/"+tool+"/execute", tt.form, tt.header)
			if resp.StatusCode != tt.status {
				t.Fatalf("%d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			for _, h := range tt.has {
				if !strings.Contains(body, h) {
					t.Errorf("the answer lacks %s:\n%s", h, body)
				}
			}
			if tt.status == 200 {
				elements(t, body)
			}
		})
	}
}

// TestIndexFormEscapesData: hostile arguments and results never become
// elements of the result page.
func TestIndexFormEscapesData(t *testing.T) {
	d := newDemo(t, hostileServer(), nil)
	for _, format := range []string{"html", "markdown", "text", "toon", "json"} {
		resp, body := d.browse(t, "POST", "/mcp/v1/tools/echo/execute", url.Values{"arg.name": {`<script>alert(1)</script>`}, "_format": {format}},
			map[string]string{"Origin": d.rest.URL, "Sec-Fetch-Site": "same-origin"})
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", format, resp.StatusCode, body)
		}
		if n := elements(t, body); n["a"] != 1 || n["div"] != 1 {
			t.Errorf("%s: elements %v: more than the page's own", format, n)
		}
	}
	_, page := d.browse(t, "GET", "/mcp/v1/", nil, nil)
	elements(t, page)
}
