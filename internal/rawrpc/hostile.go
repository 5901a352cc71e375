package rawrpc

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// HostileMethods are the methods a hostile client sends: every one an MCP
// server serves, one it never does, and ones a server may not know.
var HostileMethods = []string{
	"ping", "server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list",
	"tools/call", "resources/read", "prompts/get", "completion/complete", "logging/setLevel",
	"resources/subscribe", "resources/unsubscribe", "resources/metadata", "subscriptions/listen", "no/such/method",
}

// HostileParams are the params each of them is sent with: left out (""),
// null, of another JSON type, with members of the wrong types, and with
// values a careless server would index, parse or dereference.
var HostileParams = []string{
	"", "null", "{}", "[]", `"x"`, "1", "true",
	`{"name":1,"uri":2,"cursor":3,"arguments":"x","ref":1,"argument":1,"level":1,"notifications":1,"_meta":1}`,
	`{"name":"echo","arguments":[1],"uri":"","cursor":"-1"}`,
	`{"name":"greet","arguments":{"who":1},"uri":"test://items/","cursor":"99999999999999999999"}`,
	`{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":{}}}`,
	`{"ref":{"type":"ref/resource","uri":{}},"argument":{"name":1}}`,
	`{"level":"nonsense","uri":"test://r","_meta":{"progressToken":{"a":1}}}`,
	`{"name":"","arguments":{"":null},"_meta":{"io.modelcontextprotocol/clientCapabilities":"x"}}`,
}

// HostileDeclaration is a client capability object, as JSON, that declares
// the content-negotiation extension and the real elicitation capability
// with settings that are malformed: every one must close the elicitation
// gate (contract section 2, "Malformed declarations close the gate").
type HostileDeclaration struct {
	Name string
	Caps string
}

// HostileDeclarations are the malformed declarations of the hostile audit
// (issue 28, item 3): look-alikes of "!interactive", a tag padded past the
// length limit, features past the tag limit, elements and values of the
// wrong JSON type, and settings that are not an object.
var HostileDeclarations = []HostileDeclaration{
	{"Cyrillic i", declare(`["human","!\u0456nteractive"]`)},
	{"trailing no-break space", declare(`["human","!interactive\u00a0"]`)},
	{"trailing zero-width space", declare(`["human","!interactive\u200b"]`)},
	{"fullwidth exclamation mark", declare(`["human","\uff01interactive"]`)},
	{"padded past 128 bytes", declare(`["human","!interactive` + strings.Repeat(" ", 130) + `"]`)},
	{"past the tag limit", declare(`[` + strings.Repeat(`"x-a",`, 64) + `"!interactive"]`)},
	{"an element that is not a string", declare(`["human",{"!interactive":true}]`)},
	{"a registry name in the wrong form", declare(`["human","interactive=no"]`)},
	{"features one string", declare(`"human, !interactive"`)},
	{"features an object", declare(`{"interactive":false}`)},
	{"settings a list", `{"elicitation":{},"extensions":{"io.modelcontextprotocol/content-negotiation":["human","!interactive"]}}`},
	{"settings a string", `{"elicitation":{},"extensions":{"io.modelcontextprotocol/content-negotiation":"human, !interactive"}}`},
	{"version a number", `{"elicitation":{},"extensions":{"io.modelcontextprotocol/content-negotiation":{"version":1,"features":["human","!interactive"]}}}`},
}

// declare is the capability object declaring elicitation and version 1.0
// with features as given (JSON text).
func declare(features string) string {
	return `{"elicitation":{},"extensions":{"io.modelcontextprotocol/content-negotiation":{"version":"1.0","features":` + features + `}}}`
}

// HostileNotifications are the notifications it sends, with the same params.
var HostileNotifications = []string{
	"notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed",
	"notifications/progress", "notifications/no-such",
}

// Hostile sends c's server every hostile method with every hostile params
// and fails t for a request that gets no answer (a result or a JSON-RPC
// error) before ctx ends; then every hostile notification. The caller
// checks that the server still serves a well-formed request after them.
// In the stateless era, params that are an object carry c's envelope
// unless they bring a _meta of their own.
func Hostile(ctx context.Context, t *testing.T, c *Client) {
	t.Helper()
	for _, m := range HostileMethods {
		for _, p := range HostileParams {
			if got := c.CallRaw(ctx, m, c.withMeta(p)); got == "" {
				t.Errorf("%s %s: an empty answer", m, p)
			}
		}
	}
	for _, n := range HostileNotifications {
		for _, p := range HostileParams {
			if p != "" {
				p = `,"params":` + c.withMeta(p)
			}
			c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q%s}`, n, p))
		}
	}
}

// withMeta adds c's stateless-era envelope to params that are an object
// without a _meta; other params go as they are.
func (c *Client) withMeta(params string) string {
	if c.Meta == nil || !strings.HasPrefix(params, "{") || strings.Contains(params, `"_meta"`) {
		return params
	}
	if params == "{}" {
		return `{"_meta":` + string(c.Meta) + `}`
	}
	return `{"_meta":` + string(c.Meta) + `,` + params[1:]
}
