// Package resourcemeta serves SEP-2093's resources/metadata on a go-sdk
// server: a resource's metadata without its content, for listed resources
// and for URIs that a resource template matches. [Install] adds it; the
// content-negotiation middleware does so itself. Clients call it with
// [Enable] and [Get].
package resourcemeta

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/uritmpl"
	"github.com/contentneg/contentneg/shaping"
)

// Method is SEP-2093's method for a resource's metadata
// without its content.
const Method = "resources/metadata"

// Params are the params of resources/metadata.
type Params struct {
	mcp.ParamsBase
	// URI is the resource whose metadata is asked for.
	URI string `json:"uri"`
}

// Result is the result of resources/metadata.
type Result struct {
	mcp.ResultBase
	// Resource is the resource's metadata, as resources/list gives it.
	Resource *mcp.Resource `json:"resource"`
}

// Install registers resources/metadata with s and adds the receiving
// middleware that answers it, which lists the server's resources and
// templates through the handlers added before it.
func Install(s *mcp.Server) {
	_ = mcp.AddReceivingCustomMethod(s, Method,
		func(context.Context, *mcp.ServerSession, *Params) (*Result, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "resources/metadata is answered by its middleware"}
		})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != Method {
				return next(ctx, method, req)
			}
			return answer(ctx, req, next)
		}
	})
}

// answer answers resources/metadata (SEP-2093): a listed
// resource's metadata as listed; for a URI that a resource template
// matches, the template's metadata with the URI, once a read (through the
// handlers below the middleware, so untouched by negotiation) has shown the
// resource exists, with the size of its primary representation. Anything
// else is -32602 with the URI in the data.
func answer(ctx context.Context, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	params, _ := req.GetParams().(*Params)
	if params == nil || params.URI == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `resources/metadata needs a "uri"`}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	r, found := find(func(cursor string) ([]*mcp.Resource, string, error) {
		res, err := next(ctx, "resources/list", &mcp.ListResourcesRequest{Session: ss, Params: &mcp.ListResourcesParams{Cursor: cursor}})
		list, ok := res.(*mcp.ListResourcesResult)
		if err != nil || !ok || list == nil {
			return nil, "", errNoList
		}
		return list.Resources, list.NextCursor, nil
	}, func(r *mcp.Resource) bool { return r != nil && r.URI == params.URI })
	if found {
		listed := *r
		return &Result{Resource: &listed}, nil
	}
	t, found := find(func(cursor string) ([]*mcp.ResourceTemplate, string, error) {
		res, err := next(ctx, "resources/templates/list", &mcp.ListResourceTemplatesRequest{Session: ss, Params: &mcp.ListResourceTemplatesParams{Cursor: cursor}})
		list, ok := res.(*mcp.ListResourceTemplatesResult)
		if err != nil || !ok || list == nil {
			return nil, "", errNoList
		}
		return list.ResourceTemplates, list.NextCursor, nil
	}, func(t *mcp.ResourceTemplate) bool {
		return t != nil && uritmpl.Matches(t.URITemplate, params.URI)
	})
	if !found {
		return nil, notFound(params.URI)
	}
	read, err := next(ctx, "resources/read", &mcp.ReadResourceRequest{Session: ss, Params: &mcp.ReadResourceParams{URI: params.URI}})
	contents, _ := read.(*mcp.ReadResourceResult)
	var wire *jsonrpc.Error
	code := int64(0)
	if errors.As(err, &wire) {
		code = wire.Code
	}
	if shaping.NotFound(err, code, contents != nil && contents.Contents != nil && len(contents.Contents) == 0) {
		return nil, notFound(params.URI)
	} else if err != nil {
		return nil, err
	}
	meta := &mcp.Resource{URI: params.URI, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Annotations: t.Annotations, Icons: t.Icons}
	if contents != nil {
		types, sizes := make([]string, len(contents.Contents)), make([]int64, len(contents.Contents))
		for i, c := range contents.Contents {
			switch {
			case c == nil:
				sizes[i] = -1
			case c.Blob != nil:
				types[i], sizes[i] = c.MIMEType, int64(len(c.Blob))
			default:
				types[i], sizes[i] = c.MIMEType, int64(len(c.Text))
			}
		}
		meta.Size = primarySize(types, sizes, t.MIMEType)
	}
	return &Result{Resource: meta}, nil
}

func notFound(uri string) error {
	return &jsonrpc.Error{Code: shaping.NotFoundCode, Message: shaping.NotFoundMessage, Data: shaping.NotFoundData(uri)}
}

var errNoList = errors.New("no list result")

// Enable lets client c call resources/metadata with [Get]. Call it once,
// before connecting.
func Enable(c *mcp.Client) error {
	return mcp.AddSendingCustomMethod[*Params, *Result](c, Method)
}

// Get asks the server of cs for the metadata of the resource at uri
// (SEP-2093), without its content. The client must have been set up with
// [Enable].
func Get(ctx context.Context, cs *mcp.ClientSession, uri string) (*mcp.Resource, error) {
	res, err := mcp.CallCustomMethod[*Params, *Result](ctx, cs, Method, &Params{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("resources/metadata %s: %w", uri, err)
	}
	if res == nil || res.Resource == nil {
		return nil, fmt.Errorf("resources/metadata %s: the result has no resource", uri)
	}
	return res.Resource, nil
}

// maxPages bounds the pages one listing walks.
const maxPages = 100

// find walks a paged listing (list returns a page's items and the next
// cursor, "" after the last page) until match holds for an item, for at
// most maxPages pages. A listing that fails ends the walk: found is false.
func find[T any](list func(cursor string) ([]T, string, error), match func(T) bool) (item T, found bool) {
	cursor := ""
	for range maxPages {
		items, next, err := list(cursor)
		if err != nil {
			return item, false
		}
		for _, it := range items {
			if match(it) {
				return it, true
			}
		}
		if next == "" {
			break
		}
		cursor = next
	}
	return item, false
}

// primarySize is the size in bytes of the representation of the primary
// MIME type among contents (the first one otherwise): its text, or its
// blob before base64 encoding (SEP-2093). sizes[i] is -1 for a content to
// skip.
func primarySize(mimeTypes []string, sizes []int64, primary string) int64 {
	chosen := -1
	for i, mt := range mimeTypes {
		if sizes[i] < 0 {
			continue
		}
		if chosen < 0 || mt == primary && mimeTypes[chosen] != primary {
			chosen = i
		}
	}
	if chosen < 0 {
		return 0
	}
	return sizes[chosen]
}
