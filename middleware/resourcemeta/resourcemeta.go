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

	"github.com/contentneg/contentneg/internal/notfound"
	"github.com/contentneg/contentneg/internal/uritmpl"
	"github.com/contentneg/contentneg/middleware/internal/sdk"
)

// metadataMethod is SEP-2093's method for a resource's metadata
// without its content.
const metadataMethod = "resources/metadata"

// metadataParams are the params of resources/metadata.
type metadataParams struct {
	mcp.ParamsBase
	// URI is the resource whose metadata is asked for.
	URI string `json:"uri"`
}

// metadataResult is the result of resources/metadata.
type metadataResult struct {
	mcp.ResultBase
	// Resource is the resource's metadata, as resources/list gives it.
	Resource *mcp.Resource `json:"resource"`
}

// Install registers resources/metadata with s and adds the receiving
// middleware that answers it, which lists the server's resources and
// templates through the handlers added before it.
func Install(s *mcp.Server) {
	_ = mcp.AddReceivingCustomMethod(s, metadataMethod,
		func(context.Context, *mcp.ServerSession, *metadataParams) (*metadataResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "resources/metadata is answered by its middleware"}
		})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != metadataMethod {
				return next(ctx, method, req)
			}
			return answer(ctx, req, next)
		}
	})
}

// answer answers resources/metadata (SEP-2093): a listed
// resource's metadata as listed; for a URI that a resource template
// matches, the template's metadata with the URI, once a read (by the
// template's handler, untouched by negotiation) has shown the resource
// exists, with the size of its primary representation. Anything else is
// -32602 with the URI in the data.
func answer(ctx context.Context, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	params, _ := req.GetParams().(*metadataParams)
	if params == nil || params.URI == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `resources/metadata needs a "uri"`}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if reg, found, readable := sdk.RegisteredResource(ss, params.URI); readable {
		return fromRegistration(ctx, ss, params.URI, reg, found)
	}
	return fromLists(ctx, ss, params.URI, next)
}

// fromRegistration answers from the server's registrations as the SDK
// keeps them (sdk.RegisteredResource): no request goes through the
// middleware below, so a user's middleware sees only the client's
// resources/metadata. A templated resource is read with the template's own
// handler, to learn that it exists and its size.
func fromRegistration(ctx context.Context, ss *mcp.ServerSession, uri string, reg sdk.Registration, found bool) (mcp.Result, error) {
	switch {
	case !found:
		return nil, notFound(uri)
	case reg.Resource != nil:
		listed := *reg.Resource
		return &metadataResult{Resource: &listed}, nil
	}
	t := reg.Template
	read, err := reg.Handler(ctx, &mcp.ReadResourceRequest{Session: ss, Params: &mcp.ReadResourceParams{URI: uri}})
	if err == nil && (read == nil || read.Contents == nil) {
		return nil, fmt.Errorf("reading resource %s: read handler returned nil information", uri)
	}
	return templated(uri, t, read, err)
}

// fromLists answers by listing the resources and templates through the
// handlers below the middleware: the way when the SDK's registrations
// cannot be read.
func fromLists(ctx context.Context, ss *mcp.ServerSession, uri string, next mcp.MethodHandler) (mcp.Result, error) {
	r, found := find(func(cursor string) ([]*mcp.Resource, string, error) {
		res, err := next(ctx, "resources/list", &mcp.ListResourcesRequest{Session: ss, Params: &mcp.ListResourcesParams{Cursor: cursor}})
		list, ok := res.(*mcp.ListResourcesResult)
		if err != nil || !ok || list == nil {
			return nil, "", errNoList
		}
		return list.Resources, list.NextCursor, nil
	}, func(r *mcp.Resource) bool { return r != nil && r.URI == uri })
	if found {
		listed := *r
		return &metadataResult{Resource: &listed}, nil
	}
	t, found := find(func(cursor string) ([]*mcp.ResourceTemplate, string, error) {
		res, err := next(ctx, "resources/templates/list", &mcp.ListResourceTemplatesRequest{Session: ss, Params: &mcp.ListResourceTemplatesParams{Cursor: cursor}})
		list, ok := res.(*mcp.ListResourceTemplatesResult)
		if err != nil || !ok || list == nil {
			return nil, "", errNoList
		}
		return list.ResourceTemplates, list.NextCursor, nil
	}, func(t *mcp.ResourceTemplate) bool {
		return t != nil && uritmpl.Matches(t.URITemplate, uri)
	})
	if !found {
		return nil, notFound(uri)
	}
	read, err := next(ctx, "resources/read", &mcp.ReadResourceRequest{Session: ss, Params: &mcp.ReadResourceParams{URI: uri}})
	contents, _ := read.(*mcp.ReadResourceResult)
	return templated(uri, t, contents, err)
}

// templated answers for a resource a template serves, from its read.
func templated(uri string, t *mcp.ResourceTemplate, contents *mcp.ReadResourceResult, err error) (mcp.Result, error) {
	var wire *jsonrpc.Error
	code := int64(0)
	if errors.As(err, &wire) {
		code = wire.Code
	}
	if notfound.Outcome(err, code, contents != nil && contents.Contents != nil && len(contents.Contents) == 0) {
		return nil, notFound(uri)
	} else if err != nil {
		return nil, err
	}
	meta := &mcp.Resource{URI: uri, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Annotations: t.Annotations, Icons: t.Icons}
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
			if c != nil && types[i] == "" {
				types[i] = t.MIMEType // as the SDK fills it in
			}
		}
		meta.Size = primarySize(types, sizes, t.MIMEType)
	}
	return &metadataResult{Resource: meta}, nil
}

func notFound(uri string) error {
	return &jsonrpc.Error{Code: notfound.Code, Message: notfound.Message, Data: notfound.Data(uri)}
}

var errNoList = errors.New("no list result")

// Enable lets client c call resources/metadata with [Get]. Call it once,
// before connecting.
func Enable(c *mcp.Client) error {
	return mcp.AddSendingCustomMethod[*metadataParams, *metadataResult](c, metadataMethod)
}

// Get asks the server of cs for the metadata of the resource at uri
// (SEP-2093), without its content. The client must have been set up with
// [Enable].
func Get(ctx context.Context, cs *mcp.ClientSession, uri string) (*mcp.Resource, error) {
	res, err := mcp.CallCustomMethod[*metadataParams, *metadataResult](ctx, cs, metadataMethod, &metadataParams{URI: uri})
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
