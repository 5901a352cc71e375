package serve

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/client"
)

// ConnectInProcess connects server and a client described by opts over
// in-memory transports, as the showcases do; closeAll closes both sessions.
func ConnectInProcess(ctx context.Context, server *mcp.Server, opts *client.Options) (cs *mcp.ClientSession, closeAll func(), err error) {
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
