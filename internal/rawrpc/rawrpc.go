// Package rawrpc is a test client that speaks JSON-RPC as bytes, one
// message per line (an MCP stdio connection), in either protocol era,
// and a table of hostile requests every front end must answer.
package rawrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// Client speaks JSON-RPC as bytes, one message per line (stdio), and
// keeps the bytes of what it gets: it is not the go-sdk client, which
// decodes results into its own types.
type Client struct {
	t    *testing.T
	w    io.Writer
	next int

	// What the server wrote, read as it comes so that the server is never
	// held up by a client that is not waiting for an answer: an unbounded
	// queue, ready when it grows or the connection ends.
	mu    sync.Mutex
	queue [][]byte
	ended bool
	ready chan struct{}

	asked []string // the methods of the requests the server sent

	// Meta is the stateless era's _meta envelope of every request, or nil
	// for the legacy era (initialize first).
	Meta json.RawMessage
}

// NewClient is a client writing to w and reading r's lines until r ends.
func NewClient(t *testing.T, r io.Reader, w io.Writer) *Client {
	c := &Client{t: t, w: w, ready: make(chan struct{}, 1)}
	go func() {
		defer c.push(nil, true)
		br := bufio.NewReaderSize(r, 1<<16)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				c.push(bytes.TrimSuffix(line, []byte{'\n'}), false)
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

func (c *Client) push(line []byte, ended bool) {
	c.mu.Lock()
	if line != nil {
		c.queue = append(c.queue, line)
	}
	c.ended = c.ended || ended
	c.mu.Unlock()
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// line is the next line the server wrote; false when the connection ended
// and every line was taken.
func (c *Client) line(ctx context.Context, method string) ([]byte, bool) {
	c.t.Helper()
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			l := c.queue[0]
			c.queue = c.queue[1:]
			c.mu.Unlock()
			return l, true
		}
		ended := c.ended
		c.mu.Unlock()
		if ended {
			return nil, false
		}
		select {
		case <-c.ready:
		case <-ctx.Done():
			c.t.Fatalf("%s: no answer: %v", method, ctx.Err())
		}
	}
}

// SendTimeout bounds a write: a server that stops reading fails the test.
const SendTimeout = 20 * time.Second

// Send writes one message (a line).
func (c *Client) Send(msg string) {
	c.t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.w, msg+"\n")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			c.t.Fatalf("write %s: %v", msg, err)
		}
	case <-time.After(SendTimeout):
		c.t.Fatalf("the server has not read %s for %v", msg, SendTimeout)
	}
}

// Call sends a request and returns its response's "result" bytes, or its
// "error" bytes prefixed with "error: ". A request of the server is
// answered "method not found"; notifications are skipped.
func (c *Client) Call(ctx context.Context, method string, params map[string]any) string {
	c.t.Helper()
	c.next++
	p, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.Meta != nil {
		p = append(append(append(p[:len(p)-1:len(p)-1], `,"_meta":`...), c.Meta...), '}')
		if len(params) == 0 {
			p = append([]byte(`{"_meta":`), append(c.Meta, '}')...)
		}
	}
	c.next--
	return c.CallRaw(ctx, method, string(p))
}

// CallRaw is Call with params as the JSON text given, as it is ("": no
// params member at all).
func (c *Client) CallRaw(ctx context.Context, method, params string) string {
	c.t.Helper()
	c.next++
	if params != "" {
		params = `,"params":` + params
	}
	c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q%s}`, c.next, method, params))
	for {
		line, ok := c.line(ctx, method)
		if !ok {
			c.t.Fatalf("%s: the connection ended", method)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			c.t.Fatalf("%s: a line that is not JSON-RPC: %s", method, line)
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.mu.Lock()
			c.asked = append(c.asked, m.Method)
			c.mu.Unlock()
			c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"not here"}}`, m.ID))
		case m.Method != "":
		case string(m.ID) == fmt.Sprint(c.next) && m.Error != nil:
			return "error: " + string(m.Error)
		case string(m.ID) == fmt.Sprint(c.next):
			return string(m.Result)
		}
	}
}

// Asked returns the methods of the requests the server sent c so far
// ("elicitation/create", ...), each answered "method not found".
func (c *Client) Asked() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.asked...)
}

// Initialize makes c a legacy-era client declaring caps (a JSON object).
func (c *Client) Initialize(ctx context.Context, caps string) {
	c.t.Helper()
	var cm map[string]any
	if err := json.Unmarshal([]byte(caps), &cm); err != nil {
		c.t.Fatal(err)
	}
	res := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    cm,
		"clientInfo":      map[string]any{"name": "raw", "version": "1.0.0"},
	})
	if strings.HasPrefix(res, "error:") {
		c.t.Fatalf("initialize: %s", res)
	}
	c.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// Stateless makes c a stateless-era client declaring caps.
func (c *Client) Stateless(caps string) {
	c.Meta = json.RawMessage(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1.0.0"},` +
		`"io.modelcontextprotocol/clientCapabilities":` + caps + `}`)
}
