package gateway_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/contentneg/contentneg/gateway"
	"github.com/contentneg/contentneg/internal/interopskip"
	"github.com/contentneg/contentneg/internal/rawrpc"
	"github.com/contentneg/contentneg/shaping"
)

// serversDir holds the pinned npm servers (npm ci there).
var serversDir = filepath.Join("..", "interop", "servers")

func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	interopskip.Unavailable(t, format, args...)
}

// inProcess dials a new go-sdk server from newServer for each upstream
// session, over a pair of pipes, as a stdio upstream is reached. It counts
// the sessions it started in *started when not nil.
func inProcess(_ testing.TB, newServer func() *mcp.Server) gateway.Dialer {
	return gateway.DialFunc(func(ctx context.Context, maxMessage int) (gateway.Conn, error) {
		toServerR, toServerW := io.Pipe()
		fromServerR, fromServerW := io.Pipe()
		srv := newServer()
		sctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = srv.Run(sctx, &mcp.IOTransport{Reader: toServerR, Writer: fromServerW})
			_ = fromServerW.Close()
		}()
		closer := closerFunc(func() error {
			_ = toServerW.Close()
			cancel()
			<-done
			return nil
		})
		return gateway.NewStreamConn(fromServerR, toServerW, closer, maxMessage), nil
	})
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// newGateway returns a gateway over dial, closed with the test.
func newGateway(t *testing.T, dial gateway.Dialer, opts *gateway.Options) *gateway.Gateway {
	t.Helper()
	o := gateway.Options{}
	if opts != nil {
		o = *opts
	}
	o.Upstream = dial
	if o.Logger == nil {
		o.Logger = zaptest.NewLogger(t)
	}
	if o.Shaping == nil {
		o.Shaping = &shaping.Options{}
	}
	g, err := gateway.New(&o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// pipeClient serves a new downstream session of g over a pair of pipes
// (the bytes of a stdio connection) and returns a raw client on it.
func pipeClient(t *testing.T, g *gateway.Gateway) *rawrpc.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = g.ServeConn(context.Background(), gateway.NewStreamConn(inR, outW, inR, gateway.DefaultMaxResult))
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the downstream session did not end")
		}
	})
	return rawrpc.NewClient(t, outR, inW)
}

// sdkClient connects a go-sdk client to a new downstream session of g
// over pipes, declaring features (nil: nothing), in the protocol version
// given ("": the SDK's default, the stateless era where the upstream
// serves it).
func sdkClient(ctx context.Context, t *testing.T, g *gateway.Gateway, version string, features []string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = g.ServeConn(context.Background(), gateway.NewStreamConn(inR, outW, inR, gateway.DefaultMaxResult))
		_ = outW.Close()
	}()
	o := mcp.ClientOptions{}
	if opts != nil {
		o = *opts
	}
	if features != nil {
		if o.Capabilities == nil {
			o.Capabilities = &mcp.ClientCapabilities{}
		}
		o.Capabilities.AddExtension(shaping.ExtensionID, map[string]any{"version": "1.0", "features": features})
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &o)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// npmServer is one pinned npm server and how to start it.
type npmServer struct {
	name string
	bin  string
	args func(dir string) []string
	env  func(dir string) []string
}

// command returns the server's Command in dir, or skips (fails when
// required) without node or the installed servers.
func (u npmServer) command(t *testing.T, dir string) *gateway.Command {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not installed (%v); install Node 20 or later, then run npm ci in interop/servers", err)
	}
	bin, err := filepath.Abs(filepath.Join(serversDir, "node_modules", ".bin", u.bin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		unavailable(t, "the npm server %s is not installed (%v); run npm ci in interop/servers", u.bin, err)
	}
	var args []string
	if u.args != nil {
		args = u.args(dir)
	}
	c := &gateway.Command{Path: node, Args: append([]string{bin}, args...), Env: os.Environ()}
	if u.env != nil {
		c.Env = append(c.Env, u.env(dir)...)
	}
	return c
}

// direct starts the server's command and returns a raw client on it.
func direct(t *testing.T, c *gateway.Command) *rawrpc.Client {
	t.Helper()
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return rawrpc.NewClient(t, stdout, stdin)
}

// sdkClientWith is sdkClient with a hook that configures the client.
func sdkClientWith(ctx context.Context, t *testing.T, g *gateway.Gateway, version string, configure func(*mcp.Client)) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = g.ServeConn(context.Background(), gateway.NewStreamConn(inR, outW, inR, gateway.DefaultMaxResult))
		_ = outW.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	configure(c)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// jsonschemaObjectType is the schema of a tool without arguments.
func jsonschemaObjectType() jsonschema.Schema { return jsonschema.Schema{Type: "object"} }
