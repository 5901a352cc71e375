package main

import (
	"context"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
)

// runAsDemo, set in the environment, makes the test binary run the demo's
// main with the command line it holds: a real process to send SIGTERM to.
const runAsDemo = "CONTENTNEG_RUN_AS_DEMO"

func TestShutdownWithQuestionsOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	const questions = 10
	child := servetest.StartChild(t, runAsDemo+"=-http 127.0.0.1:0")
	cmd, lines, exited := child.Cmd, child.Lines, child.Exited
	url := ""
	for url == "" {
		select {
		case line := <-lines:
			if m := regexp.MustCompile(`at (http://\S+/mcp)`).FindStringSubmatch(line); m != nil {
				url = m[1]
			}
		case err := <-exited:
			t.Fatalf("the demo exited before serving: %v", err)
		case <-time.After(servetest.Timeout):
			t.Fatal("the demo did not say where it listens")
		}
	}

	// Ten interactive clients ask for "Springfield", and never say which.
	release := make(chan struct{})
	defer close(release)
	asked := make(chan struct{}, questions)
	clientOpts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked <- struct{}{}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-release:
			return nil, context.Canceled
		}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
	defer cancel()
	results := make(chan error, questions)
	for range questions {
		cs := servetest.HTTPSession(t, url, &client.Options{Settings: client.Declare("human", "interactive"), Legacy: true, Client: clientOpts})
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Springfield"}})
			results <- err
		}()
	}
	for range questions {
		select {
		case <-asked:
		case <-ctx.Done():
			t.Fatal("the clients were not asked")
		}
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the demo exited with %v, want status 0", err)
		}
	case <-time.After(shutdownBound):
		t.Fatalf("the demo did not exit within %v of SIGTERM with %d questions open", shutdownBound, questions)
	}
}
