package matrix

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/negotiation"
)

// LegacyProtocol is the protocol version Options.Legacy asks for: the newest
// version with the initialize handshake.
const LegacyProtocol = "2025-11-25"

// ClientInfo is how the matrix's clients introduce themselves.
var ClientInfo = mcp.Implementation{Name: "profile-matrix", Version: "1.0.0"}

// Limits of what is kept of the server's elicitation requests.
const (
	maxElicitMessages   = 4
	maxElicitMessageLen = 256
)

// elicitations records the elicitation requests one client received.
type elicitations struct {
	mu       sync.Mutex
	count    int
	messages []string
}

// handle records req and declines it: the matrix never answers for a person.
func (e *elicitations) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.count++
	if len(e.messages) < maxElicitMessages && req != nil && req.Params != nil {
		e.messages = append(e.messages, clip(req.Params.Message, maxElicitMessageLen))
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

// snapshot returns the count and the messages kept so far.
func (e *elicitations) snapshot() (int, []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.count, append([]string(nil), e.messages...)
}

// newClient returns a client that declares p's tags (nothing when p.Tags is
// nil) and the elicitation capability, whose requests rec records and
// declines.
func newClient(p Profile, rec *elicitations) *mcp.Client {
	caps := &mcp.ClientCapabilities{}
	if p.Declared() {
		caps.AddExtension(negotiation.ExtensionID, negotiation.Settings{Features: p.Tags}.Map())
	}
	info := ClientInfo
	return mcp.NewClient(&info, &mcp.ClientOptions{
		Capabilities:       caps,
		ElicitationHandler: rec.handle,
	})
}

// sessionOptions asks for the legacy protocol when legacy is set, and for
// the client's default otherwise.
func sessionOptions(legacy bool) *mcp.ClientSessionOptions {
	if legacy {
		return &mcp.ClientSessionOptions{ProtocolVersion: LegacyProtocol}
	}
	return nil
}
