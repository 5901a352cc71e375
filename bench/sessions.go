package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/negotiation"
)

func numCPU() int { return runtime.NumCPU() }

// memRow is one row of the session memory table.
type memRow struct {
	server, clients      string
	perSession           float64
	goroutinesPerSession float64
	kept                 int
	left                 string
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// sessionMemory opens n legacy-era sessions at once on a streamable HTTP
// server, with the middleware or not, for clients declaring the extension or
// not, and measures the heap and goroutines they add, then closes them
// (DELETE) and measures what is left.
func sessionMemory(n int) ([]memRow, error) {
	configs := []struct {
		server, clients string
		negotiated      bool
		tags            []string
	}{
		{"go-sdk alone", "not declared", false, nil},
		{"with the middleware", "not declared", true, nil},
		{"with the middleware", "declared (human)", true, []string{"human"}},
	}
	// A first round that is not reported pays what a process pays once:
	// the SDK's first allocations, and the runtime's records of n
	// goroutines, which it keeps for reuse after they end.
	if _, err := oneSessionMemory(n, true, []string{"human"}); err != nil {
		return nil, err
	}
	var out []memRow
	for _, c := range configs {
		row, err := oneSessionMemory(n, c.negotiated, c.tags)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", c.server, c.clients, err)
		}
		row.server, row.clients = c.server, c.clients
		out = append(out, row)
	}
	return out, nil
}

func oneSessionMemory(n int, negotiated bool, tags []string) (memRow, error) {
	s := weathermcp.NewServer(weather.NewService(nil))
	var m *middleware.Middleware
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	if negotiated {
		m = middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
		h = m.Handler(h)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: time.Minute}

	caps := map[string]any{}
	if tags != nil {
		caps["extensions"] = map[string]any{negotiation.ExtensionID: negotiation.Settings{Features: tags}.Map()}
	}
	init, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": map[string]any{"name": "bench", "version": "1"},
	}})
	initialized := []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	before, goroutinesBefore := heapInUse(), runtime.NumGoroutine()
	ids := make([]string, n)
	var (
		wg       sync.WaitGroup
		errMu    sync.Mutex
		firstErr error
	)
	work := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				id, err := post(hc, srv.URL, "", init)
				if err == nil {
					_, err = post(hc, srv.URL, id, initialized)
				}
				if err != nil {
					errMu.Lock()
					firstErr = err
					errMu.Unlock()
					continue
				}
				ids[i] = id
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return memRow{}, firstErr
	}
	tr.CloseIdleConnections()
	open := heapInUse()
	row := memRow{
		perSession:           float64(int64(open)-int64(before)) / float64(n),
		goroutinesPerSession: float64(runtime.NumGoroutine()-goroutinesBefore) / float64(n),
	}
	if m != nil {
		row.kept = m.Shaper().Sessions()
	}

	for _, id := range ids {
		req, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := hc.Do(req)
		if err != nil {
			return memRow{}, err
		}
		resp.Body.Close()
	}
	tr.CloseIdleConnections()
	for deadline := time.Now().Add(10 * time.Second); m != nil && m.Shaper().Sessions() > 0 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	serverSessions := 0
	for range s.Sessions() {
		serverSessions++
	}
	kept := 0
	if m != nil {
		kept = m.Shaper().Sessions()
	}
	after := heapInUse()
	row.left = fmt.Sprintf("%d sessions, %d kept, %+.0f KiB heap", serverSessions, kept, float64(int64(after)-int64(before))/1024)
	runtime.KeepAlive(s)
	return row, nil
}

// post sends one JSON-RPC message and returns the session id of the answer.
func post(hc *http.Client, url, session string, body []byte) (string, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	id := resp.Header.Get("Mcp-Session-Id")
	if session == "" && id == "" {
		return "", fmt.Errorf("no session id")
	}
	return id, nil
}
