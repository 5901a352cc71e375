package servetest

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
)

// Child is the test binary started again as a child process, with env
// (NAME=value) added to its environment, so that a test can send it
// signals. Lines are the lines of its stderr (dropped when no one reads
// them in time); Exited gives its Wait error once, after its stderr
// closes. The process is killed when the test ends.
type Child struct {
	Cmd    *exec.Cmd
	Lines  <-chan string
	Exited <-chan error
}

// StartChild starts the test binary as a [Child].
func StartChild(t testing.TB, env string) *Child {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), env)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	exited := make(chan error, 1)
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		exited <- cmd.Wait()
	}()
	return &Child{Cmd: cmd, Lines: lines, Exited: exited}
}
