package gateway

import (
	"context"
	"errors"
)

// HTTPUpstream is a placeholder until the HTTP upstream lands.
type HTTPUpstream struct{ URL string }

// Dial is a placeholder.
func (h *HTTPUpstream) Dial(context.Context, int) (Conn, error) { return nil, errors.New("todo") }
