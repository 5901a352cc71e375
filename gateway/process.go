package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Command starts an upstream MCP server as a process and talks to it over
// its stdin and stdout, one process per upstream session.
type Command struct {
	// Path and Args are the command and its arguments (Args without the
	// command's name).
	Path string
	Args []string
	// Env, when not nil, is the process's environment; Dir its working
	// directory.
	Env []string
	Dir string
	// Stderr receives what the process writes on stderr (nil: discarded);
	// its last lines are kept for the error that says why it ended.
	Stderr io.Writer
	// Grace is how long the process has to exit once its stdin is closed,
	// before SIGTERM, and as long again before SIGKILL (300 ms when zero).
	Grace time.Duration
}

// stderrLines is how many of the last stderr lines an error names.
const stderrLines = 5

// connect starts the process; its msgConn's Read reads at most maxMessage
// bytes a message. The returned msgConn ends the process on Close.
func (c *Command) connect(ctx context.Context, maxMessage int) (msgConn, error) {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	tail := &tailWriter{next: c.Stderr, keep: stderrLines}
	cmd.Stderr = tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", c.Path, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", c.Path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", c.Path, err)
	}
	grace := c.Grace
	if grace <= 0 {
		grace = 300 * time.Millisecond
	}
	p := &processConn{cmd: cmd, stdin: stdin, tail: tail, grace: grace, exited: make(chan struct{})}
	p.msgConn = newStreamConn(stdout, stdin, nil, maxMessage)
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// processConn is the msgConn of one upstream process.
type processConn struct {
	msgConn
	cmd     *exec.Cmd
	stdin   io.Closer
	tail    *tailWriter
	grace   time.Duration
	exited  chan struct{}
	waitErr error
	once    sync.Once
}

// Read reads the next message; once the process's stdout ends, the error
// says how the process ended and what it last wrote on stderr.
func (p *processConn) Read(ctx context.Context) ([]byte, error) {
	msg, err := p.msgConn.Read(ctx)
	if err == nil || isBad(err) {
		return msg, err
	}
	select {
	case <-p.exited:
	case <-time.After(p.grace):
	}
	return nil, p.ended(err)
}

// Write writes a message; once the process has gone, the error says how
// it ended and what it last wrote on stderr.
func (p *processConn) Write(ctx context.Context, msg []byte) error {
	err := p.msgConn.Write(ctx, msg)
	if err == nil {
		return nil
	}
	select {
	case <-p.exited:
	case <-time.After(p.grace):
	}
	return p.ended(err)
}

// ended describes why the process's output ended.
func (p *processConn) ended(cause error) error {
	select {
	case <-p.exited:
	default:
		return fmt.Errorf("the upstream's connection ended: %w", cause)
	}
	var status string
	var exit *exec.ExitError
	switch {
	case p.waitErr == nil:
		status = "exited with status 0"
	case errors.As(p.waitErr, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = "was killed by " + ws.Signal().String()
		} else {
			status = fmt.Sprintf("exited with status %d", exit.ExitCode())
		}
	default:
		status = "ended: " + p.waitErr.Error()
	}
	msg := "the upstream " + status
	if lines := p.tail.lines(); len(lines) > 0 {
		msg += "; its last stderr lines: " + strings.Join(lines, " | ")
	}
	return &upstreamEnded{Message: msg}
}

// upstreamEnded says that an upstream process ended, how, and what it
// last wrote on stderr.
type upstreamEnded struct{ Message string }

func (e *upstreamEnded) Error() string { return e.Message }

func isBad(err error) bool {
	var bad *badMessage
	return errors.As(err, &bad)
}

// Close closes the process's stdin and waits for it to exit: Grace, then
// SIGTERM and Grace again, then SIGKILL.
func (p *processConn) Close() error {
	p.once.Do(func() {
		_ = p.msgConn.Close()
		_ = p.stdin.Close()
		select {
		case <-p.exited:
			return
		case <-time.After(p.grace):
		}
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
			return
		case <-time.After(p.grace):
		}
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	return nil
}

// tailWriter passes what it is written on and keeps the last lines.
type tailWriter struct {
	next    io.Writer
	keep    int
	mu      sync.Mutex
	partial []byte
	last    []string
}

func (t *tailWriter) Write(b []byte) (int, error) {
	n := len(b)
	if t.next != nil {
		_, _ = t.next.Write(b)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(t.partial) < 512 {
				t.partial = append(t.partial, b[:min(len(b), 512-len(t.partial))]...)
			}
			break
		}
		if len(t.partial) < 512 {
			t.partial = append(t.partial, b[:min(i, 512-len(t.partial))]...)
		}
		t.push(string(t.partial))
		t.partial = t.partial[:0]
		b = b[i+1:]
	}
	return n, nil
}

func (t *tailWriter) push(line string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	t.last = append(t.last, line)
	if len(t.last) > t.keep {
		t.last = t.last[len(t.last)-t.keep:]
	}
}

func (t *tailWriter) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.last...)
	if p := strings.TrimSpace(string(t.partial)); p != "" {
		out = append(out, p)
	}
	return out
}
