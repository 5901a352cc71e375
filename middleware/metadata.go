package middleware

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/shaping"
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
	r, found := shaping.Find(func(cursor string) ([]*mcp.Resource, string, error) {
		res, err := next(ctx, "resources/list", &mcp.ListResourcesRequest{Session: ss, Params: &mcp.ListResourcesParams{Cursor: cursor}})
		list, ok := res.(*mcp.ListResourcesResult)
		if err != nil || !ok || list == nil {
			return nil, "", errNoList
		}
		return list.Resources, list.NextCursor, nil
	}, func(r *mcp.Resource) bool { return r != nil && r.URI == params.URI })
	if found {
		listed := *r
		return &MetadataResult{Resource: &listed}, nil
	}
	t, found := shaping.Find(func(cursor string) ([]*mcp.ResourceTemplate, string, error) {
		res, err := next(ctx, "resources/templates/list", &mcp.ListResourceTemplatesRequest{Session: ss, Params: &mcp.ListResourceTemplatesParams{Cursor: cursor}})
		list, ok := res.(*mcp.ListResourceTemplatesResult)
		if err != nil || !ok || list == nil {
			return nil, "", errNoList
		}
		return list.ResourceTemplates, list.NextCursor, nil
	}, func(t *mcp.ResourceTemplate) bool {
		return t != nil && shaping.TemplateMatches(t.URITemplate, params.URI)
	})
	if !found {
		return nil, resourceNotFound(params.URI)
	}
	read, err := next(ctx, "resources/read", &mcp.ReadResourceRequest{Session: ss, Params: &mcp.ReadResourceParams{URI: params.URI}})
	if read, err = notFound(params.URI, read, err); err != nil {
		return nil, err
	}
	meta := &mcp.Resource{URI: params.URI, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Annotations: t.Annotations, Icons: t.Icons}
	if contents, ok := read.(*mcp.ReadResourceResult); ok && contents != nil {
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
		meta.Size = shaping.PrimarySize(types, sizes, t.MIMEType)
	}
	return &MetadataResult{Resource: meta}, nil
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
