// Package soak_test holds the soak test: many concurrent sessions of the demo
// weather server over streamable HTTP, in both protocol eras, each client
// with a random profile, and every result checked against the profile of
// the client that got it.
//
//	go test -race ./internal/soak/                        the CI size
//	go test ./internal/soak/ -soak.full -v -timeout 30m    1,000 sessions x 10 calls per era, with figures
package soak_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/renderers"
)

var full = flag.Bool("soak.full", false, "run the full size: 1,000 concurrent sessions x 10 calls per era")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// profile is a client profile and what every result it gets must be.
type profile struct {
	name  string
	tags  []string // nil: the client does not declare the extension
	check func(r *mcp.CallToolResult, location string) error
}

var profiles = []profile{
	{"undeclared", nil, jsonMirror},
	{"agent json", []string{"agent", "format=json", "verbosity=compact"}, structuredAlone},
	{"agent sampling", []string{"agent", "sampling"}, withHints(jsonMirror)},
	{"human markdown", []string{"human", "format=markdown"}, markdown("")},
	{"human verbose", []string{"human", "verbosity=verbose"}, markdown("The feels-like temperature")},
	{"text", []string{"format=text"}, plainText},
	{"text compact", []string{"format=text", "verbosity=compact"}, plainText},
}

// jsonMirror: structuredContent, and one text block holding its JSON.
func jsonMirror(r *mcp.CallToolResult, location string) error {
	if err := structured(r, location); err != nil {
		return err
	}
	if len(r.Content) != 1 {
		return fmt.Errorf("%d content blocks, want the JSON mirror alone", len(r.Content))
	}
	var mirror any
	if err := json.Unmarshal([]byte(textOf(r.Content[0])), &mirror); err != nil {
		return fmt.Errorf("the text block is not JSON: %w", err)
	}
	if !reflect.DeepEqual(mirror, r.StructuredContent) {
		return fmt.Errorf("the text block %s is not structuredContent", textOf(r.Content[0]))
	}
	return nil
}

// structuredAlone: structuredContent and no content block (an explicit
// format=json).
func structuredAlone(r *mcp.CallToolResult, location string) error {
	if err := structured(r, location); err != nil {
		return err
	}
	if len(r.Content) != 0 {
		return fmt.Errorf("%d content blocks, want structuredContent alone", len(r.Content))
	}
	return nil
}

// wantHints are the hints a client that asks for them must get with the
// weather of each location (weathermcp.Hints of its conditions, one per
// line): "" for none. TestSoak fills it.
var wantHints = map[string]string{}

// withHints: the hints block for the assistant, holding the location's
// hints, after what check says; no hints block when the location has none.
func withHints(check func(*mcp.CallToolResult, string) error) func(*mcp.CallToolResult, string) error {
	return func(r *mcp.CallToolResult, location string) error {
		want := wantHints[location]
		if want == "" {
			return check(r, location) // one block more fails it
		}
		if len(r.Content) != 2 {
			return fmt.Errorf("%d content blocks, want the result and the hints %q", len(r.Content), want)
		}
		hints, ok := r.Content[1].(*mcp.TextContent)
		if !ok || hints.Annotations == nil || !slices.Equal(hints.Annotations.Audience, []mcp.Role{"assistant"}) {
			return fmt.Errorf("the second block is not hints for the assistant: %#v", r.Content[1])
		}
		if hints.Text != want {
			return fmt.Errorf("the hints are %q, want %q", hints.Text, want)
		}
		cp := *r
		cp.Content = r.Content[:1]
		return check(&cp, location)
	}
}

// markdown: one markdown block naming the location in bold, containing
// want; structuredContent kept (the tool has an output schema).
func markdown(want string) func(*mcp.CallToolResult, string) error {
	return func(r *mcp.CallToolResult, location string) error {
		if err := structured(r, location); err != nil {
			return err
		}
		text, err := oneText(r)
		if err != nil {
			return err
		}
		if err := renderers.CheckMarkdown(text); err != nil {
			return fmt.Errorf("not valid markdown: %w", err)
		}
		if !strings.HasPrefix(text, "**"+renderers.EscapeMarkdown(location)+"**") || !strings.Contains(text, want) {
			return fmt.Errorf("markdown %q: want the location in bold first, and %q", text, want)
		}
		return nil
	}
}

// plainText: one plain-text block naming the location.
func plainText(r *mcp.CallToolResult, location string) error {
	if err := structured(r, location); err != nil {
		return err
	}
	text, err := oneText(r)
	if err != nil {
		return err
	}
	if err := renderers.CheckPlain(text); err != nil {
		return fmt.Errorf("not plain text: %w", err)
	}
	if !strings.Contains(text, location) {
		return fmt.Errorf("text %q does not name %q", text, location)
	}
	return nil
}

func structured(r *mcp.CallToolResult, location string) error {
	if r.IsError {
		return fmt.Errorf("tool error: %v", r.Content)
	}
	m, ok := r.StructuredContent.(map[string]any)
	if !ok || m["location"] != location {
		return fmt.Errorf("structuredContent %v, want the conditions of %q", r.StructuredContent, location)
	}
	return nil
}

func oneText(r *mcp.CallToolResult) (string, error) {
	if len(r.Content) != 1 {
		return "", fmt.Errorf("%d content blocks, want 1", len(r.Content))
	}
	if _, ok := r.Content[0].(*mcp.TextContent); !ok {
		return "", fmt.Errorf("the block is a %T", r.Content[0])
	}
	return textOf(r.Content[0]), nil
}

func textOf(c mcp.Content) string {
	if t, ok := c.(*mcp.TextContent); ok && t != nil {
		return t.Text
	}
	return ""
}

// size is how much a run does.
type size struct{ sessions, calls int }

func TestSoak(t *testing.T) {
	sz := size{sessions: 40, calls: 5}
	if *full {
		sz = size{sessions: 1000, calls: 10}
	}
	if testing.Short() && !*full {
		sz = size{sessions: 10, calls: 3}
	}
	svc := weather.NewService(func() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) })
	cities := map[string]string{} // the name asked for -> the location the result names
	for _, name := range []string{"Bern", "Tokyo", "London", "Paris", "Sydney", "Oslo", "Lima", "Cairo"} {
		if c, err := svc.Current(name); err == nil {
			cities[name] = c.Location
			wantHints[c.Location] = strings.Join(weathermcp.Hints(c), "\n")
		}
	}
	if len(cities) < 3 {
		t.Fatalf("only %d of the test's cities are known: %v", len(cities), cities)
	}
	withSome := 0
	for _, h := range wantHints {
		if h != "" {
			withSome++
		}
	}
	if withSome == 0 || withSome == len(wantHints) {
		t.Fatalf("%d of the %d cities have hints: the check of hints needs cities with and without", withSome, len(wantHints))
	}
	for _, stateless := range []bool{false, true} {
		era := map[bool]string{false: "stateful (legacy era)", true: "stateless"}[stateless]
		t.Run(era, func(t *testing.T) {
			st := soak(t, svc, cities, stateless, sz)
			t.Logf("%s: %d sessions x %d calls = %d calls, %d wrong renderings; latency p50 %v, p99 %v, max %v; live heap %.1f MiB before, %.1f MiB at the peak (all sessions open), %.1f MiB after closing them (%d goroutines before, %d after), %.1f MiB once the server is closed too; %d sessions kept after close",
				era, sz.sessions, sz.calls, st.calls, st.wrong, st.p50, st.p99, st.max, mib(st.heapBefore), mib(st.heapPeak), mib(st.heapAfter),
				st.goroutinesBefore, st.goroutinesAfter, mib(st.heapServerClosed), st.keptAfter)
		})
	}
}

type stats struct {
	calls, wrong                      int64
	p50, p99, max                     time.Duration
	heapBefore, heapPeak, heapAfter   uint64
	heapServerClosed                  uint64
	goroutinesBefore, goroutinesAfter int
	keptAfter                         int
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// heapInUse returns the bytes of live heap objects after two collections
// (the second empties what sync.Pool kept from the first).
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// soak runs one era: sz.sessions clients connect at once, each makes
// sz.calls calls of get_weather for random cities, all stay open until every
// one is done (the peak), then all close.
func soak(t *testing.T, svc *weather.Service, cities map[string]string, stateless bool, sz size) stats {
	s := weathermcp.NewServer(svc)
	m := middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools(), Recover: true})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	srv := httptest.NewServer(m.Handler(h))
	transport := &http.Transport{MaxIdleConnsPerHost: 2 * sz.sessions, MaxConnsPerHost: 0}
	httpClient := &http.Client{Transport: transport}
	shutdown := func() {
		m.Close()
		for ss := range s.Sessions() {
			_ = ss.Close()
		}
		srv.Close()
		transport.CloseIdleConnections()
	}
	defer shutdown()
	names := make([]string, 0, len(cities))
	for name := range cities {
		names = append(names, name)
	}
	slices.Sort(names)

	var st stats
	st.heapBefore, st.goroutinesBefore = heapInUse(), runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	var (
		wg        sync.WaitGroup
		allDone   = make(chan struct{})
		remaining atomic.Int64
		latMu     sync.Mutex
		latencies = make([]time.Duration, 0, sz.sessions*sz.calls)
		calls     atomic.Int64
		wrong     atomic.Int64
		errOnce   sync.Once
	)
	remaining.Store(int64(sz.sessions))
	sessions := make([]*mcp.ClientSession, sz.sessions)
	for i := range sz.sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if remaining.Add(-1) == 0 {
					close(allDone)
				}
			}()
			rng := rand.New(rand.NewPCG(uint64(i), 14))
			p := profiles[rng.IntN(len(profiles))]
			opts := &client.Options{Legacy: !stateless}
			if p.tags != nil {
				opts.Settings = client.Declare(p.tags...)
			}
			cs, err := client.New(opts).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: httpClient}, client.SessionOptions(opts))
			if err != nil {
				errOnce.Do(func() { t.Errorf("session %d: connect: %v", i, err) })
				return
			}
			sessions[i] = cs
			for range sz.calls {
				name := names[rng.IntN(len(names))]
				start := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": name}})
				d := time.Since(start)
				calls.Add(1)
				if err == nil {
					err = p.check(res, cities[name])
				}
				if err != nil {
					wrong.Add(1)
					errOnce.Do(func() { t.Errorf("session %d (%s), %s: %v", i, p.name, name, err) })
				}
				latMu.Lock()
				latencies = append(latencies, d)
				latMu.Unlock()
			}
		}()
	}
	<-allDone
	st.heapPeak = heapInUse() // every session still open
	wg.Wait()
	for _, cs := range sessions {
		if cs != nil {
			_ = cs.Close()
		}
	}
	transport.CloseIdleConnections()
	deadline := time.Now().Add(30 * time.Second)
	for m.Shaper().Sessions() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	st.keptAfter = m.Shaper().Sessions()
	if st.keptAfter != 0 {
		t.Errorf("%d sessions still kept after every client closed", st.keptAfter)
	}
	sessions = nil
	st.heapAfter, st.goroutinesAfter = heapInUse(), runtime.NumGoroutine()
	shutdown()
	st.heapServerClosed = heapInUse()
	st.calls, st.wrong = calls.Load(), wrong.Load()
	if want := int64(sz.sessions * sz.calls); st.calls != want {
		t.Errorf("%d calls made, want %d", st.calls, want)
	}
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		st.p50, st.p99, st.max = latencies[n/2], latencies[n*99/100], latencies[n-1]
	}
	return st
}

// TestWithHints: withHints fails a result whose hints are missing, other
// than the location's, or there when the location has none (the planted
// faults; the check once passed a result without its hints).
func TestWithHints(t *testing.T) {
	saved := wantHints
	t.Cleanup(func() { wantHints = saved })
	wantHints = map[string]string{"Wet": "Take an umbrella.", "Dry": ""}
	value := map[string]any{"location": "Wet"}
	mirror := func(location string) *mcp.TextContent {
		return &mcp.TextContent{Text: `{"location":"` + location + `"}`}
	}
	hints := func(text string) *mcp.TextContent {
		return &mcp.TextContent{Text: text, Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}}
	}
	check := withHints(func(r *mcp.CallToolResult, location string) error {
		if len(r.Content) != 1 {
			return fmt.Errorf("%d content blocks, want 1", len(r.Content))
		}
		return nil
	})
	tests := []struct {
		name     string
		location string
		content  []mcp.Content
		wantErr  bool
	}{
		{name: "the hints", location: "Wet", content: []mcp.Content{mirror("Wet"), hints("Take an umbrella.")}},
		{name: "none, none wanted", location: "Dry", content: []mcp.Content{mirror("Dry")}},
		{name: "missing", location: "Wet", content: []mcp.Content{mirror("Wet")}, wantErr: true},
		{name: "other hints", location: "Wet", content: []mcp.Content{mirror("Wet"), hints("Wear sunscreen.")}, wantErr: true},
		{name: "not for the assistant", location: "Wet", content: []mcp.Content{mirror("Wet"), &mcp.TextContent{Text: "Take an umbrella."}}, wantErr: true},
		{name: "hints where none are", location: "Dry", content: []mcp.Content{mirror("Dry"), hints("Take an umbrella.")}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := check(&mcp.CallToolResult{Content: tt.content, StructuredContent: value}, tt.location)
			if (err != nil) != tt.wantErr {
				t.Errorf("withHints: %v, want an error: %v", err, tt.wantErr)
			}
		})
	}
}
