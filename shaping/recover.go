package shaping

import (
	"fmt"
	"runtime/debug"

	"go.uber.org/zap"
)

// recovered logs a panic recovered from a request handler (one error line
// with the method, the name, the panic's value and the stack) and returns
// the message to give the client in its place: it names the tool, prompt
// or resource, and never the panic's value, which may hold the server's
// internals. The Serve functions call it in their deferred recover when the
// server asked for recovery ([Options.Recover]; off by default: an SDK that
// recovers nothing lets a panic end the process).
func (s *Shaper) recovered(method, name string, v any) string {
	s.log.Error("handler panicked; the request failed and the server goes on",
		zap.String("method", method),
		zap.String("name", name),
		zap.String("panic", fmt.Sprint(v)),
		zap.ByteString("stack", debug.Stack()),
	)
	if name == "" {
		return fmt.Sprintf("%s failed: internal error", method)
	}
	return fmt.Sprintf("%q failed: internal error", name)
}
