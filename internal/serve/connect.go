package serve

import (
	"context"
	"fmt"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/client"
)

// ConnectInProcess connects server and a client described by opts over
// in-memory transports, as the showcases do; closeAll closes both sessions.
// In a showcase run with -sdk mcp-go (server is then nil), it connects to
// the mcp-go server over in-process pipes.
func ConnectInProcess(ctx context.Context, server *mcp.Server, opts *client.Options) (cs *mcp.ClientSession, closeAll func(), err error) {
	if srv, ok := ctx.Value(mcpgoKey{}).(*mcpgoserver.MCPServer); ok && server == nil {
		return connectMCPGo(ctx, srv, opts)
	}
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverTransport, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("connect server: %w", err)
	}
	cs, err = client.New(opts).Connect(ctx, clientTransport, client.SessionOptions(opts))
	if err != nil {
		_ = ss.Close()
		return nil, nil, fmt.Errorf("connect client: %w", err)
	}
	return cs, func() { _ = cs.Close(); _ = ss.Close() }, nil
}
