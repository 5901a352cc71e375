package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/websocket"

	"github.com/contentneg/contentneg/internal/interopskip"
	"github.com/contentneg/contentneg/internal/serve/servetest"
)

// TestBrowserRunsGetWeather: headless Chromium loads the demo's REST index
// page, fills in and submits the get_weather form, and the result page's
// DOM holds the weather in HTML. The page has no JavaScript; the test drives
// the browser over the DevTools protocol, as a person's clicks would.
func TestBrowserRunsGetWeather(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		interopskip.Unavailable(t, "chromium is not installed (apt-get install chromium)")
	}
	base, _ := servetest.REST(t, app(), "-rest", "127.0.0.1:0")

	b := startBrowser(t, bin)
	b.navigate(t, base+"/")
	b.waitFor(t, `document.readyState === "complete" && !!document.forms["get_weather"]`)
	b.eval(t, `(() => {
		const f = document.forms["get_weather"];
		f.elements["arg.city"].value = "Bern";
		f.elements["_format"].value = "html";
		f.querySelector("button[type=submit]").click();
		return true;
	})()`)
	b.waitFor(t, `document.readyState === "complete" && !!document.getElementById("result")`)
	var got struct{ Title, Result, Strong, Path string }
	raw := b.eval(t, `JSON.stringify({
		title: document.querySelector("h1").innerText,
		result: document.getElementById("result").innerText,
		strong: (document.querySelector("#result strong") || {}).innerText || "",
		path: location.pathname})`)
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || json.Unmarshal([]byte(s), &got) != nil {
		t.Fatalf("the page's DOM: %s (%v)", raw, err)
	}
	if got.Path != "/mcp/v1/tools/get_weather/execute" || !strings.HasPrefix(got.Title, "get_weather") {
		t.Errorf("not the result page: %+v", got)
	}
	if got.Strong != "Bern, Switzerland" || !strings.Contains(got.Result, "Humidity:") {
		t.Errorf("the result as the browser shows it: %+v", got)
	}
}

// browser is a headless Chromium and a DevTools connection to its page.
type browser struct {
	conn *websocket.Conn
	next int
}

func startBrowser(t *testing.T, bin string) *browser {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--remote-debugging-port=0", "--remote-allow-origins=*",
		"--user-data-dir="+dir, "about:blank")
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start %s: %v", bin, err)
	}
	b := &browser{}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	// Killing the browser process leaves its helper processes writing the
	// profile, and t.TempDir's removal then fails. Browser.close ends them
	// all before the process exits; the kill is for a browser that hangs.
	t.Cleanup(func() {
		if b.conn != nil {
			_ = websocket.JSON.Send(b.conn, map[string]any{"id": -1, "method": "Browser.close"})
			_ = b.conn.Close()
		}
		select {
		case <-exited:
		case <-time.After(servetest.Timeout):
			t.Errorf("chromium still runs %v after Browser.close; killed", servetest.Timeout)
			cancel()
			<-exited
		}
		cancel()
	})

	// Chromium writes the port it listens on into the profile directory.
	var port string
	deadline := time.Now().Add(servetest.Timeout)
	for port == "" && time.Now().Before(deadline) {
		if f, err := os.Open(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			sc := bufio.NewScanner(f)
			if sc.Scan() {
				port = strings.TrimSpace(sc.Text())
			}
			f.Close()
		}
		if port == "" {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if port == "" {
		t.Fatal("chromium did not open its DevTools port")
	}
	var targets []struct{ Type, WebSocketDebuggerURL string }
	resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&targets)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	ws := ""
	for _, tg := range targets {
		if tg.Type == "page" {
			ws = tg.WebSocketDebuggerURL
			break
		}
	}
	if ws == "" {
		t.Fatalf("no page among %+v", targets)
	}
	conn, err := websocket.Dial(ws, "", "http://127.0.0.1/")
	if err != nil {
		t.Fatal(err)
	}
	b.conn = conn
	return b
}

// call sends one DevTools command and returns its result, skipping the
// events that arrive meanwhile.
func (b *browser) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	b.next++
	id := b.next
	_ = b.conn.SetDeadline(time.Now().Add(servetest.Timeout))
	if err := websocket.JSON.Send(b.conn, map[string]any{"id": id, "method": method, "params": params}); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	for {
		var msg struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := websocket.JSON.Receive(b.conn, &msg); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if msg.ID != id {
			continue
		}
		if msg.Error != nil {
			t.Fatalf("%s: %s", method, msg.Error.Message)
		}
		return msg.Result
	}
}

func (b *browser) navigate(t *testing.T, url string) {
	t.Helper()
	b.call(t, "Page.navigate", map[string]any{"url": url})
}

// eval evaluates a JavaScript expression in the page (DevTools evaluation
// is not the page's script: the page's CSP forbids that) and returns its
// value as JSON.
func (b *browser) eval(t *testing.T, expr string) json.RawMessage {
	t.Helper()
	raw := b.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true})
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.ExceptionDetails != nil {
		t.Fatalf("evaluate %q: %s %v", expr, raw, err)
	}
	return r.Result.Value
}

// waitFor evaluates cond until it is true.
func (b *browser) waitFor(t *testing.T, cond string) {
	t.Helper()
	deadline := time.Now().Add(servetest.Timeout)
	for time.Now().Before(deadline) {
		raw := b.call(t, "Runtime.evaluate", map[string]any{"expression": cond, "returnByValue": true})
		if strings.Contains(string(raw), `"value":true`) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the page never satisfied %s", cond)
}
