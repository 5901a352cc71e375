package middleware

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
)

// recovering is the receiving middleware of [Options.Recover]: a panic
// below it becomes a tools/call result with isError (an internal error for
// other methods) and an error log line.
func (m *Middleware) recovering(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			msg := m.shaper.Recovered(method, sdk.RequestName(req), v)
			if method == "tools/call" {
				res, err = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
				return
			}
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
		}()
		return next(ctx, method, req)
	}
}
