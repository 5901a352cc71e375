package gateway_test

import (
	"os"
	"testing"

	"github.com/contentneg/contentneg/gateway"
	"github.com/contentneg/contentneg/internal/hostileup"
	"github.com/contentneg/contentneg/internal/interopskip"
)

func TestMain(m *testing.M) {
	if os.Getenv(hostileup.Env) == "1" {
		hostileup.Serve(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(interopskip.Main(m).Run())
}

// hostile returns the Command that starts the hostile upstream: this test
// binary, as package hostileup's server.
func hostile(t *testing.T) *gateway.Command {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &gateway.Command{Path: exe, Args: []string{"-test.run=^$"}, Env: append(os.Environ(), hostileup.Env+"=1")}
}
