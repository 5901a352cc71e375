package matrix_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/matrix"
)

// TestMain fails the tests on leaked goroutines, and points every HTTP proxy
// and the tiktoken cache at places that cannot serve the tokenizer's files:
// if anything tried to download them, the token counts would fail.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "matrix-tiktoken-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for k, v := range map[string]string{
		"HTTP_PROXY":         "http://127.0.0.1:9",
		"HTTPS_PROXY":        "http://127.0.0.1:9",
		"NO_PROXY":           "",
		"TIKTOKEN_CACHE_DIR": cache,
		"DATA_GYM_CACHE_DIR": cache,
	} {
		os.Setenv(k, v)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		entries, _ := os.ReadDir(cache)
		os.RemoveAll(cache)
		if code == 0 && len(entries) > 0 {
			fmt.Fprintln(os.Stderr, "the tokenizer wrote to the tiktoken download cache")
			code = 1
		}
		os.Exit(code)
	}))
}

// testContext returns a context that ends with the test or after 30 s.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// inMemory dials server in-process: a new server session per profile, over
// in-memory transports, closed when the test ends.
func inMemory(t *testing.T, server *mcp.Server) matrix.Dial {
	t.Helper()
	return func(ctx context.Context, _ matrix.Profile) (mcp.Transport, error) {
		serverT, clientT := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, serverT, nil)
		if err != nil {
			return nil, fmt.Errorf("connect the server: %w", err)
		}
		t.Cleanup(func() { _ = ss.Close() })
		return clientT, nil
	}
}
