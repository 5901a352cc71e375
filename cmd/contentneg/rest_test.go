package main

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"testing"

	"github.com/contentneg/contentneg/rest/resttest"
)

// everythingFixture names what the npm everything server offers to the
// REST binding's black-box suite.
var everythingFixture = resttest.Fixture{
	Structured: resttest.Call{Tool: "get-structured-content", Arguments: `{"location":"Chicago"}`},
	Plain:      resttest.Call{Tool: "echo", Arguments: `{"message":"hi"}`},
	Invalid:    resttest.Invalid{Call: resttest.Call{Tool: "get-sum", Arguments: `{"a":"two","b":3}`}, Field: "a"},
	Failing:    resttest.Call{Tool: "gzip-file-as-resource", Arguments: `{"data":"ftp://example.invalid/x"}`},
	Resource:   "demo://resource/static/document/architecture.md",
	Templated:  "demo://resource/dynamic/text/1",
	Prompt:     resttest.Prompt{Name: "args-prompt", Arguments: map[string]string{"city": "Bern"}, Required: "city"},
}

// TestRESTSuite: the REST binding's own suite (package resttest, which
// rest's tests run against their fake backend) passes through the gateway,
// contentneg -rest, in front of the npm everything server.
func TestRESTSuite(t *testing.T) {
	cmdline := everything(t)
	base := restGateway(t, cmdline)
	resttest.Run(t, base, everythingFixture)
}

// restGateway runs the command in-process with -rest on a free port in
// front of cmdline, and returns the REST binding's base URL; the gateway
// stops, exit code 0, when the test ends.
func restGateway(t *testing.T, cmdline []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	stderrR, stderrW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"-rest", "127.0.0.1:0", "--"}, cmdline...), nil, io.Discard, stderrW)
		_ = stderrW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if c := <-code; c != 0 {
			t.Errorf("the gateway exited with %d, want 0", c)
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderrR)
		re := regexp.MustCompile(`REST under (\S+) at (http://\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[2] + m[1]
			}
		}
		close(found)
	}()
	select {
	case base, ok := <-found:
		if !ok {
			t.Fatal("the gateway exited before serving REST")
		}
		return base
	case <-ctx.Done():
		t.Fatal("the gateway did not say where it serves REST")
	}
	return ""
}
