package gateway

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/contentneg/contentneg/internal/notfound"
	"github.com/contentneg/contentneg/internal/rawjson"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/shaping"
)

// RESTBackend returns the REST binding's backend for the gateway: its
// requests share one upstream session (never an MCP client's), declare
// their features to the core as an MCP client's _meta would, and have no
// elicitation capability, so every question is declined. Values keep the
// upstream's bytes: digits and member order. Serve it with rest.New, giving
// rest.Options the Negotiator and FormatArgument of [Gateway.Shaper], so
// that the binding negotiates the formats the gateway renders:
//
//	sh := g.Shaper()
//	h := rest.New(g.RESTBackend(), &rest.Options{BasePath: "/mcp/v1",
//		Negotiator: sh.Negotiator(), FormatArgument: sh.FormatArgument()})
func (g *Gateway) RESTBackend() rest.Backend { return restBackend{g} }

type restBackend struct{ g *Gateway }

var _ rest.Backend = restBackend{}

// session returns a session for one REST request, over the shared
// upstream session.
func (b restBackend) session() *session { return b.g.newSession("", nil, true) }

func (b restBackend) Server(ctx context.Context) (*rest.Server, error) {
	res, err := b.g.shared.handshake(ctx)
	if err != nil {
		return nil, restError(err, "initialize")
	}
	info := serverInfo(advertise(res))
	return &rest.Server{Name: info.Name, Title: info.Title, Version: info.Version, ProtocolVersion: info.ProtocolVersion, Capabilities: info.Capabilities, Instructions: info.Instructions}, nil
}

// list returns every item of a list, all pages, at most maxItems.
func (b restBackend) list(ctx context.Context, method, member string) ([][]byte, error) {
	s := b.session()
	defer s.close()
	var items [][]byte
	err := s.listAll(ctx, method, func(res, _ []byte) {
		v, _ := rawjson.Get(res, member)
		els, _ := rawjson.Elements(v)
		for _, e := range els {
			if len(items) < maxItems {
				items = append(items, e)
			}
		}
	})
	var rpc *jsonRPCError
	if errors.As(err, &rpc) && rpc.Code == codeMethodNotFound {
		return nil, nil // the server offers none of these
	}
	if err != nil {
		return nil, restError(err, method)
	}
	return items, nil
}

func str(doc []byte, key string) string {
	v, _ := rawjson.Get(doc, key)
	s, _ := rawjson.String(v)
	return s
}

func raw(doc []byte, key string) json.RawMessage {
	v, ok := rawjson.Get(doc, key)
	if !ok {
		return nil
	}
	return json.RawMessage(v)
}

func (b restBackend) Tools(ctx context.Context) ([]rest.Tool, error) {
	items, err := b.list(ctx, "tools/list", "tools")
	if err != nil {
		return nil, err
	}
	out := make([]rest.Tool, 0, len(items))
	for _, t := range items {
		// The REST binding takes the format argument itself
		// (rest.Options.FormatArgument): the schema is the upstream's.
		in := raw(t, "inputSchema")
		out = append(out, rest.Tool{Name: str(t, "name"), Title: str(t, "title"), Description: str(t, "description"), InputSchema: in, OutputSchema: raw(t, "outputSchema"), Annotations: raw(t, "annotations")})
	}
	return out, nil
}

func (b restBackend) Resources(ctx context.Context) ([]rest.Resource, error) {
	items, err := b.list(ctx, "resources/list", "resources")
	if err != nil {
		return nil, err
	}
	out := make([]rest.Resource, 0, len(items))
	for _, r := range items {
		res := rest.Resource{URI: str(r, "uri"), Name: str(r, "name"), Title: str(r, "title"), Description: str(r, "description"), MIMEType: str(r, "mimeType"), Annotations: raw(r, "annotations")}
		if v, ok := rawjson.Get(r, "size"); ok {
			if n, ok := rawjson.Int(v); ok {
				res.Size = &n
			}
		}
		if lm := str(res.Annotations, "lastModified"); lm != "" {
			res.LastModified, _ = time.Parse(time.RFC3339, lm)
		}
		out = append(out, res)
	}
	return out, nil
}

func (b restBackend) ResourceTemplates(ctx context.Context) ([]rest.ResourceTemplate, error) {
	items, err := b.list(ctx, "resources/templates/list", "resourceTemplates")
	if err != nil {
		return nil, err
	}
	out := make([]rest.ResourceTemplate, 0, len(items))
	for _, r := range items {
		out = append(out, rest.ResourceTemplate{URITemplate: str(r, "uriTemplate"), Name: str(r, "name"), Title: str(r, "title"), Description: str(r, "description"), MIMEType: str(r, "mimeType")})
	}
	return out, nil
}

func (b restBackend) Prompts(ctx context.Context) ([]rest.Prompt, error) {
	items, err := b.list(ctx, "prompts/list", "prompts")
	if err != nil {
		return nil, err
	}
	out := make([]rest.Prompt, 0, len(items))
	for _, p := range items {
		pr := rest.Prompt{Name: str(p, "name"), Title: str(p, "title"), Description: str(p, "description")}
		args, _ := rawjson.Get(p, "arguments")
		els, _ := rawjson.Elements(args)
		for _, a := range els {
			req, _ := rawjson.Get(a, "required")
			pr.Arguments = append(pr.Arguments, rest.PromptArgument{Name: str(a, "name"), Title: str(a, "title"), Description: str(a, "description"), Required: string(req) == "true"})
		}
		out = append(out, pr)
	}
	return out, nil
}

// exchange is a REST request for the core: the features as the request's
// own declaration, no elicitation capability.
func (b restBackend) exchange(ctx context.Context, s *session, method string, params []byte, name string, features []string) *exchange {
	m := &message{id: []byte("0"), method: method, params: params}
	list := make([]any, len(features))
	for i, f := range features {
		list[i] = f
	}
	x := &exchange{ctx: ctx, s: s, m: m, params: params, name: name}
	x.facts.Meta = shaping.Capabilities{Extensions: map[string]any{shaping.ExtensionID: map[string]any{"version": "1.0", "features": list}}}
	x.facts.HasMeta = true
	return x
}

func (b restBackend) CallTool(ctx context.Context, name string, arguments json.RawMessage, features []string) (*rest.ToolResult, error) {
	s := b.session()
	defer s.close()
	if len(arguments) == 0 {
		arguments = json.RawMessage("{}")
	}
	params := rawjson.Object([]string{"name", "arguments"}, [][]byte{rawjson.Quote(name), arguments})
	res, err := shaping.ServeTool(ctx, b.g.shaper, toolPortV, b.exchange(ctx, s, "tools/call", params, name, features))
	if err != nil {
		return nil, restError(err, "call tool "+name)
	}
	status, needsInput, _ := toolPortV.Status(res)
	out := &rest.ToolResult{IsError: status, NeedsInput: needsInput, Content: raw(res, "content")}
	if out.Content == nil {
		out.Content = json.RawMessage("[]")
	}
	_, texts := blocks(res)
	out.Text = strings.Join(texts, "\n\n")
	if v, _ := toolPortV.Value(res); v != nil {
		out.Structured = json.RawMessage(v)
	}
	return out, nil
}

func (b restBackend) ReadResource(ctx context.Context, uri string, features []string) ([]rest.ResourceContent, error) {
	s := b.session()
	defer s.close()
	params := rawjson.Object([]string{"uri"}, [][]byte{rawjson.Quote(uri)})
	res, err := shaping.ServeResource(ctx, b.g.shaper, resourcePortV, b.exchange(ctx, s, "resources/read", params, uri, features))
	if err != nil {
		return nil, restError(err, "read resource "+uri)
	}
	list, _ := rawjson.Get(res, "contents")
	els, _ := rawjson.Elements(list)
	out := make([]rest.ResourceContent, 0, len(els))
	for _, e := range els {
		c := rest.ResourceContent{URI: str(e, "uri"), MIMEType: str(e, "mimeType"), Text: str(e, "text")}
		if v, ok := rawjson.Get(e, "blob"); ok {
			enc, _ := rawjson.String(v)
			blob, err := base64.StdEncoding.DecodeString(enc)
			if err != nil {
				return nil, fmt.Errorf("gateway: read resource %s: its blob is not base64: %w", uri, err)
			}
			c.Blob, c.IsBlob = blob, true
		}
		out = append(out, c)
	}
	return out, nil
}

func (b restBackend) GetPrompt(ctx context.Context, name string, arguments map[string]string, features []string) (*rest.PromptResult, error) {
	s := b.session()
	defer s.close()
	args, err := rawjson.Marshal(arguments)
	if err != nil {
		return nil, err
	}
	if arguments == nil {
		args = []byte("{}")
	}
	params := rawjson.Object([]string{"name", "arguments"}, [][]byte{rawjson.Quote(name), args})
	res, err := shaping.ServePrompt(ctx, b.g.shaper, promptPortV, b.exchange(ctx, s, "prompts/get", params, name, features))
	if err != nil {
		return nil, restError(err, "get prompt "+name)
	}
	out := &rest.PromptResult{Description: str(res, "description"), Messages: raw(res, "messages")}
	texts, _ := promptPortV.Texts(res)
	out.Text = strings.Join(texts, "\n\n")
	return out, nil
}

// restError marks the protocol's "not found", "invalid params" and the
// gateway's "unavailable" for the REST binding.
func restError(err error, what string) error {
	var rpc *jsonRPCError
	if errors.As(err, &rpc) {
		data, _ := rawjson.Get(rpc.Raw, "data")
		switch {
		case notfound.OnWire(rpc.Code, data):
			return fmt.Errorf("%s: %s: %w", what, rpc.Message, rest.ErrNotFound)
		case rpc.Code == codeInvalidParams:
			return fmt.Errorf("%s: %s: %w", what, rpc.Message, rest.ErrInvalidArguments)
		case rpc.Code == codeUnavailable:
			return fmt.Errorf("%s: %s: %w", what, rpc.Message, rest.ErrUnavailable)
		}
	}
	return fmt.Errorf("gateway: %s: %w", what, err)
}
