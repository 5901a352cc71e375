package middleware

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// MethodResourceMetadata is SEP-2093's method for a resource's metadata
// without its content.
const MethodResourceMetadata = "resources/metadata"

// MetadataParams are the params of resources/metadata.
type MetadataParams struct {
	mcp.ParamsBase
	// URI is the resource whose metadata is asked for.
	URI string `json:"uri"`
}

// MetadataResult is the result of resources/metadata.
type MetadataResult struct {
	mcp.ResultBase
	// Resource is the resource's metadata, as resources/list gives it.
	Resource *mcp.Resource `json:"resource"`
}

// serveMetadata registers resources/metadata with s. The handler is never
// reached while the middleware is installed: the receiving middleware
// answers the method, because only it can list the server's resources.
func serveMetadata(s *mcp.Server) {
	_ = mcp.AddReceivingCustomMethod(s, MethodResourceMetadata,
		func(context.Context, *mcp.ServerSession, *MetadataParams) (*MetadataResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "resources/metadata needs the content-negotiation middleware"}
		})
}

// maxMetadataPages bounds the listing one resources/metadata request does.
const maxMetadataPages = 100

// resourceMetadata answers resources/metadata (SEP-2093): a listed
// resource's metadata as listed; for a URI that a resource template
// matches, the template's metadata with the URI, once a read (through the
// handlers below the middleware, so untouched by negotiation) has shown the
// resource exists, with the size of its primary representation. Anything
// else is -32602 with the URI in the data.
func (m *Middleware) resourceMetadata(ctx context.Context, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	params, _ := req.GetParams().(*MetadataParams)
	if params == nil || params.URI == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `resources/metadata needs a "uri"`}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if r, err := findResource(ctx, ss, next, params.URI); r != nil || err != nil {
		if err != nil {
			return nil, err
		}
		return &MetadataResult{Resource: r}, nil
	}
	t, err := findTemplate(ctx, ss, next, params.URI)
	if err != nil || t == nil {
		return nil, errors.Join(resourceNotFound(params.URI), err)
	}
	read, err := next(ctx, "resources/read", &mcp.ReadResourceRequest{Session: ss, Params: &mcp.ReadResourceParams{URI: params.URI}})
	if read, err = notFound(params.URI, read, err); err != nil {
		return nil, err
	}
	r := &mcp.Resource{URI: params.URI, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Annotations: t.Annotations, Icons: t.Icons}
	if contents, ok := read.(*mcp.ReadResourceResult); ok && contents != nil {
		r.Size = primarySize(contents.Contents, t.MIMEType)
	}
	return &MetadataResult{Resource: r}, nil
}

func findResource(ctx context.Context, ss *mcp.ServerSession, next mcp.MethodHandler, uri string) (*mcp.Resource, error) {
	params := &mcp.ListResourcesParams{}
	for range maxMetadataPages {
		res, err := next(ctx, "resources/list", &mcp.ListResourcesRequest{Session: ss, Params: params})
		list, ok := res.(*mcp.ListResourcesResult)
		if err != nil || !ok || list == nil {
			return nil, nil // a server without resources: perhaps a template matches
		}
		for _, r := range list.Resources {
			if r != nil && r.URI == uri {
				found := *r
				return &found, nil
			}
		}
		if list.NextCursor == "" {
			return nil, nil
		}
		params = &mcp.ListResourcesParams{Cursor: list.NextCursor}
	}
	return nil, nil
}

func findTemplate(ctx context.Context, ss *mcp.ServerSession, next mcp.MethodHandler, uri string) (*mcp.ResourceTemplate, error) {
	params := &mcp.ListResourceTemplatesParams{}
	for range maxMetadataPages {
		res, err := next(ctx, "resources/templates/list", &mcp.ListResourceTemplatesRequest{Session: ss, Params: params})
		list, ok := res.(*mcp.ListResourceTemplatesResult)
		if err != nil || !ok || list == nil {
			return nil, nil
		}
		for _, t := range list.ResourceTemplates {
			if t == nil {
				continue
			}
			if tmpl, err := uritemplate.New(t.URITemplate); err == nil && tmpl.Match(uri) != nil {
				return t, nil
			}
		}
		if list.NextCursor == "" {
			return nil, nil
		}
		params = &mcp.ListResourceTemplatesParams{Cursor: list.NextCursor}
	}
	return nil, nil
}

// primarySize is the size in bytes of the representation of the primary
// MIME type (the first content otherwise): its text, or its blob before
// base64 encoding.
func primarySize(contents []*mcp.ResourceContents, primary string) int64 {
	var chosen *mcp.ResourceContents
	for _, c := range contents {
		if c != nil && (chosen == nil || c.MIMEType == primary && chosen.MIMEType != primary) {
			chosen = c
		}
	}
	if chosen == nil {
		return 0
	}
	if chosen.Blob != nil {
		return int64(len(chosen.Blob))
	}
	return int64(len(chosen.Text))
}

// EnableResourceMetadata lets client c call resources/metadata with
// [ResourceMetadata]. Call it once, before connecting.
func EnableResourceMetadata(c *mcp.Client) error {
	return mcp.AddSendingCustomMethod[*MetadataParams, *MetadataResult](c, MethodResourceMetadata)
}

// ResourceMetadata asks the server of cs for the metadata of the resource
// at uri (SEP-2093), without its content. The client must have been set up
// with [EnableResourceMetadata].
func ResourceMetadata(ctx context.Context, cs *mcp.ClientSession, uri string) (*mcp.Resource, error) {
	res, err := mcp.CallCustomMethod[*MetadataParams, *MetadataResult](ctx, cs, MethodResourceMetadata, &MetadataParams{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("resources/metadata %s: %w", uri, err)
	}
	if res == nil || res.Resource == nil {
		return nil, fmt.Errorf("resources/metadata %s: the result has no resource", uri)
	}
	return res.Resource, nil
}
