package main

import (
	"testing"

	"github.com/contentneg/contentneg/examples/weather/weathermcp/weathermcptest"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
)

func options(c weathermcptest.Client, legacy bool) *client.Options {
	return &client.Options{Settings: c.Settings, Legacy: legacy, Client: c.Options}
}

func TestElicitationOverStdio(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		era := map[bool]string{false: "stateless", true: "legacy"}[legacy]
		for _, c := range weathermcptest.CannotAnswer(t) {
			t.Run(era+"/never asked/"+c.Name, func(t *testing.T) {
				weathermcptest.CheckNeverAsked(t, servetest.Stdio(t, app(), options(c, legacy)))
			})
		}
		t.Run(era+"/asked", func(t *testing.T) {
			c, asked := weathermcptest.CanAnswer()
			weathermcptest.CheckAsked(t, servetest.Stdio(t, app(), options(c, legacy)), asked)
		})
	}
}

func TestElicitationOverHTTP(t *testing.T) {
	modes := []struct {
		name      string
		stateless bool
		legacy    bool
		canAsk    bool // whether the mode can put a question to a client at all
	}{
		{"stateful", false, false, true}, // the client falls back to the legacy era
		{"stateless", true, false, true},
		// The stateless handler cannot reach a legacy client: no profile is
		// recovered and the SDK refuses server-to-client requests at once.
		{"stateless, legacy client", true, true, false},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			url := servetest.HTTP(t, app(), m.stateless)
			// The clients that cannot answer go first: the server's alerts
			// are shared, and the answering client sets one.
			for _, c := range weathermcptest.CannotAnswer(t) {
				t.Run("never asked/"+c.Name, func(t *testing.T) {
					weathermcptest.CheckNeverAsked(t, servetest.HTTPSession(t, url, options(c, m.legacy)))
				})
			}
			if !m.canAsk {
				return
			}
			t.Run("asked", func(t *testing.T) {
				c, asked := weathermcptest.CanAnswer()
				weathermcptest.CheckAsked(t, servetest.HTTPSession(t, url, options(c, m.legacy)), asked)
			})
		})
	}
}
