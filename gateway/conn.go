package gateway

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// msgConn carries JSON-RPC messages, one at a time, each the bytes of one
// JSON value. The gateway reads its clients and its upstreams through it.
type msgConn interface {
	// Read returns the next message. An error of type *[badMessage] says
	// one message could not be read (too large, too deep, not JSON): the
	// connection goes on. Any other error ends it.
	Read(ctx context.Context) ([]byte, error)
	// Write writes one message. It is safe to call concurrently.
	Write(ctx context.Context, msg []byte) error
	// Close ends the connection; Read and Write then fail. It may be
	// called more than once.
	Close() error
}

// badMessage is one message a [msgConn] could not read. The connection goes
// on: the gateway fails only the request the message answers, when ID
// says which (the raw JSON id; nil when it could not be read).
type badMessage struct {
	ID     []byte
	Reason string
}

func (e *badMessage) Error() string { return "unreadable message: " + e.Reason }

// newStreamConn returns a msgConn that reads newline-delimited messages from
// r and writes them to w, as MCP's stdio transport does. A message longer
// than maxMessage bytes is a *badMessage (its id read as it streams by),
// never buffered whole. Close closes closer (nil for none).
func newStreamConn(r io.Reader, w io.Writer, closer io.Closer, maxMessage int) msgConn {
	return &streamConn{r: bufio.NewReaderSize(r, 64<<10), w: w, closer: closer, max: maxMessage, closed: make(chan struct{})}
}

type streamConn struct {
	r      *bufio.Reader
	rmu    sync.Mutex
	w      io.Writer
	wmu    sync.Mutex
	closer io.Closer
	max    int
	once   sync.Once
	closed chan struct{}
}

var newline = []byte{'\n'}

// errClosed is what a closed connection's Read and Write return.
var errClosed = errors.New("connection closed")

func (c *streamConn) Read(ctx context.Context) ([]byte, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	for {
		line, err := c.readLine()
		if err != nil {
			select {
			case <-c.closed:
				return nil, errClosed
			default:
			}
			return nil, err
		}
		line = trimSpace(line)
		if len(line) == 0 {
			continue // blank lines between messages are no messages
		}
		return line, nil
	}
}

// readLine returns one line without its newline; a line past the bound is
// drained as it streams and returned as a *badMessage.
func (c *streamConn) readLine() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := c.r.ReadSlice('\n')
		if len(buf)+len(chunk) > c.max {
			return nil, c.drain(buf, chunk, err)
		}
		if len(buf)+len(chunk) > cap(buf) {
			// Double: a line of n bytes then costs about 2n, where
			// append's growth for large slices (1.25x) costs about 5n.
			grown := make([]byte, len(buf), max(2*cap(buf), len(buf)+len(chunk), 4096))
			copy(grown, buf)
			buf = grown
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) > 0:
			return buf, nil
		default:
			return nil, err
		}
	}
}

// drain reads the rest of an oversize line, finding its id as it goes.
func (c *streamConn) drain(head, chunk []byte, err error) error {
	var f idFinder
	f.feed(head)
	f.feed(chunk)
	n := len(head) + len(chunk)
	for errors.Is(err, bufio.ErrBufferFull) {
		chunk, err = c.r.ReadSlice('\n')
		f.feed(chunk)
		n += len(chunk)
	}
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
		return err
	}
	return &badMessage{ID: f.id(), Reason: fmt.Sprintf("a message of more than %d bytes (-max-result)", c.max)}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

func (c *streamConn) Write(_ context.Context, msg []byte) error {
	select {
	case <-c.closed:
		return errClosed
	default:
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(msg); err != nil {
		return err
	}
	_, err := c.w.Write(newline)
	return err
}

func (c *streamConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		if c.closer != nil {
			err = c.closer.Close()
		}
	})
	return err
}

// idFinder finds the top-level "id" member of a JSON object fed to it in
// pieces, in constant memory: what an oversize message answers.
type idFinder struct {
	depth    int
	inString bool
	escaped  bool
	// key collects the current top-level key (up to 8 bytes), value the
	// id's value (up to 80 bytes).
	key       []byte
	inKey     bool
	afterKey  bool // between a top-level key and its value
	isID      bool // the value being read is the id's
	value     []byte
	found     []byte
	overflown bool
}

func (f *idFinder) feed(b []byte) {
	for _, c := range b {
		f.step(c)
	}
}

func (f *idFinder) step(c byte) {
	if f.isID {
		f.readID(c)
		return
	}
	if f.inString {
		switch {
		case f.escaped:
			f.escaped = false
		case c == '\\':
			f.escaped = true
		case c == '"':
			f.inString = false
			if f.inKey {
				f.inKey = false
				f.afterKey = true
			}
			return
		}
		if f.inKey {
			if len(f.key) < 8 {
				f.key = append(f.key, c)
			} else {
				f.key = append(f.key[:0], '#') // longer than "id"
			}
		}
		return
	}
	switch c {
	case '"':
		f.inString = true
		if f.depth == 1 && !f.afterKey {
			f.inKey, f.key = true, f.key[:0]
		}
	case ':':
		if f.depth == 1 && f.afterKey {
			f.afterKey = false
			if string(f.key) == "id" && f.found == nil {
				f.isID, f.value = true, f.value[:0]
			}
		}
	case '{', '[':
		f.depth++
	case '}', ']':
		f.depth--
	case ',':
		f.afterKey = false
	}
}

// readID reads the id's value: a number or a string.
func (f *idFinder) readID(c byte) {
	if len(f.value) == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
		return
	}
	str := len(f.value) > 0 && f.value[0] == '"'
	end := false
	switch {
	case str && f.escaped:
		f.escaped = false
	case str && c == '\\':
		f.escaped = true
	case str && c == '"' && len(f.value) > 0:
		f.value = append(f.value, c)
		end = true
	case !str && len(f.value) > 0 && (c == ',' || c == '}' || c == ' ' || c == '\n' || c == '\t' || c == '\r'):
		end = true
		if c == '}' {
			f.depth--
		}
	}
	if !end {
		if len(f.value) >= 80 {
			f.overflown = true
		}
		f.value = append(f.value, c)
		return
	}
	f.isID = false
	if !f.overflown && len(f.value) > 0 && (f.value[0] == '"' || f.value[0] == '-' || (f.value[0] >= '0' && f.value[0] <= '9')) {
		f.found = append([]byte(nil), f.value...)
	}
}

func (f *idFinder) id() []byte { return f.found }
