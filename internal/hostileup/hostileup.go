// Package hostileup is an MCP server for tests: a small JSON-RPC server
// (stdio, both eras: initialize, or server/discover and results that say
// they are complete) that answers late, asks its client after a cancel,
// logs, keeps state per process ("set_dir", "status") and sends oversize,
// deep and malformed answers. The gateway's tests run it as its upstream.
package hostileup

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Env, set to 1, makes a test binary that calls [Main] the hostile
// upstream on its stdin and stdout.
const Env = "CONTENTNEG_HOSTILE_UPSTREAM"

// Tools is the hostile upstream's tools/list, its keys in an order
// no encoder sorts to, with fields the go-sdk does not know.
const Tools = `{"tools":[` +
	`{"name":"branches","inputSchema":{"type":"object","properties":{}},"outputSchema":{"type":"object","properties":{"branches":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"current":{"type":"boolean"},"commit":{"type":"string","title":"Commit hash"},"ahead":{"type":"integer"},"behind":{"type":"integer"}}}},"id":{"type":"integer"},"price":{"type":"number"}}},"execution":{"taskSupport":"forbidden"},"annotations":{"readOnlyHint":true}},` +
	`{"name":"set_dir","inputSchema":{"type":"object","required":["dir"],"properties":{"dir":{"type":"string"}}}},` +
	`{"name":"status","inputSchema":{"type":"object","properties":{}}},` +
	`{"name":"slow","inputSchema":{"type":"object","properties":{"ms":{"type":"integer"}}}},` +
	`{"name":"ask","description":"asks the client once the call is cancelled or after ms","inputSchema":{"type":"object","properties":{"ms":{"type":"integer"}}}},` +
	`{"name":"last_answer","inputSchema":{"type":"object","properties":{}}},` +
	`{"name":"log","inputSchema":{"type":"object","properties":{}}},` +
	`{"name":"oversize","inputSchema":{"type":"object","properties":{"bytes":{"type":"integer"}}}},` +
	`{"name":"deep","inputSchema":{"type":"object","properties":{}}},` +
	`{"name":"malformed","inputSchema":{"type":"object","properties":{}}}` +
	`]}`

// Serve serves the hostile upstream, reading r and writing w until r ends.
func Serve(r io.Reader, w io.Writer) {
	in := bufio.NewReaderSize(r, 1<<20)
	var wmu sync.Mutex
	write := func(s string) {
		wmu.Lock()
		defer wmu.Unlock()
		fmt.Fprintln(w, s)
	}
	var mu sync.Mutex
	dir := "(none)"
	lastAnswer := "(none)"
	cancelled := map[string]chan struct{}{}
	answers := map[string]chan string{}
	next := 0
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		id := string(m.ID)
		if m.Method == "" { // an answer to one of our questions
			mu.Lock()
			ch := answers[id]
			mu.Unlock()
			if ch != nil {
				ch <- string(m.Result)
			}
			continue
		}
		// A request of the stateless era (2026-07-28) says so in its _meta;
		// its results say they are complete.
		var meta struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(m.Params, &meta)
		_, stateless := meta.Meta["io.modelcontextprotocol/protocolVersion"]
		complete := ""
		if stateless {
			complete = `,"resultType":"complete"`
		}
		switch m.Method {
		case "server/discover":
			write(`{"jsonrpc":"2.0","id":` + id + `,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"hostile","version":"1"}},"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{},"prompts":{},"logging":{}}` + complete + `}}`)
		case "initialize":
			write(`{"jsonrpc":"2.0","id":` + id + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{},"logging":{}},"serverInfo":{"name":"hostile","version":"1"}}}`)
		case "notifications/cancelled":
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			_ = json.Unmarshal(m.Params, &p)
			mu.Lock()
			if ch := cancelled[string(p.RequestID)]; ch != nil {
				close(ch)
				delete(cancelled, string(p.RequestID))
			}
			mu.Unlock()
		case "prompts/list":
			write(`{"jsonrpc":"2.0","id":` + id + `,"result":{"prompts":[{"name":"greeting","arguments":[{"name":"name","required":false}]}]` + complete + `}}`)
		case "prompts/get":
			// As a zod schema of a TypeScript server reads it: the
			// arguments object must be there, even empty.
			var p struct {
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.Arguments == nil {
				write(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32602,"message":"Invalid arguments: expected object, received undefined"}}`)
				break
			}
			write(`{"jsonrpc":"2.0","id":` + id + `,"result":{"messages":[{"role":"user","content":{"type":"text","text":"Hello!"}}]` + complete + `}}`)
		case "tools/list":
			list := Tools
			if stateless {
				list = Tools[:len(Tools)-1] + complete + "}"
			}
			write(`{"jsonrpc":"2.0","id":` + id + `,"result":` + list + `}`)
		case "tools/call":
			var p struct {
				Name string         `json:"name"`
				Args map[string]any `json:"arguments"`
			}
			_ = json.Unmarshal(m.Params, &p)
			ms, _ := p.Args["ms"].(float64)
			text := func(s string) string {
				b, _ := json.Marshal(s)
				return `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":` + string(b) + `}]` + complete + `}}`
			}
			switch p.Name {
			case "branches":
				write(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"2 branches"}],"structuredContent":{"price":1.50,"id":12345678901234567890,"branches":[{"behind":0,"ahead":2,"commit":"9fceb02","current":true,"name":"main"},{"behind":3,"ahead":0,"commit":"e83c516","current":false,"name":"dev"}]}` + complete + `}}`)
			case "set_dir":
				mu.Lock()
				dir, _ = p.Args["dir"].(string)
				mu.Unlock()
				write(text("ok"))
			case "status":
				mu.Lock()
				d := dir
				mu.Unlock()
				write(text("dir=" + d))
			case "slow":
				go func() {
					time.Sleep(time.Duration(ms) * time.Millisecond)
					write(text("slept"))
				}()
			case "ask":
				ch := make(chan struct{})
				mu.Lock()
				cancelled[id] = ch
				next++
				qid := fmt.Sprintf(`"q%d"`, next)
				ans := make(chan string, 1)
				answers[qid] = ans
				mu.Unlock()
				go func() {
					select {
					case <-ch:
					case <-time.After(time.Duration(ms) * time.Millisecond):
					}
					write(`{"jsonrpc":"2.0","id":` + qid + `,"method":"elicitation/create","params":{"message":"Delete everything?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`)
					a := <-ans
					mu.Lock()
					lastAnswer = a
					mu.Unlock()
					write(text("answer " + a))
				}()
			case "last_answer":
				mu.Lock()
				a := lastAnswer
				mu.Unlock()
				write(text(a))
			case "log":
				write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"secret of ` + dirOf(&mu, &dir) + `"}}`)
				write(text("logged"))
			case "oversize":
				n := int(p.Args["bytes"].(float64))
				write(`{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"` + strings.Repeat("a", n) + `"}]},"id":` + id + `}`)
			case "deep":
				write(`{"jsonrpc":"2.0","id":` + id + `,"result":{"structuredContent":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`)
			case "malformed":
				write(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"cut`)
			default:
				write(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32602,"message":"unknown tool"}}`)
			}
		default:
			if id != "" {
				write(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32601,"message":"Method not found"}}`)
			}
		}
	}
}

func dirOf(mu *sync.Mutex, dir *string) string {
	mu.Lock()
	defer mu.Unlock()
	return *dir
}
