package main

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/serve/servetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// runCommand runs the command with args and a deadline.
func runCommand(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	var out, errOut servetest.SyncBuffer
	code = run(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}
