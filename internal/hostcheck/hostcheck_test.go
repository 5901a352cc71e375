package hostcheck_test

import (
	"context"
	"net"
	"net/http"
	"testing"

	"github.com/contentneg/contentneg/internal/hostcheck"
)

func TestAllows(t *testing.T) {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	public := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 8080}
	tests := []struct {
		name  string
		hosts []string
		local net.Addr
		host  string
		want  bool
	}{
		{"loopback name", nil, loop, "localhost:8080", true},
		{"loopback v4", nil, loop, "127.0.0.1:8080", true},
		{"loopback v6", nil, loop, "[::1]:8080", true},
		{"rebinding", nil, loop, "rebind.attacker.example", false},
		{"rebinding with a port", nil, loop, "rebind.attacker.example:8080", false},
		{"allowed, any case, any port", []string{" MCP.example.org:443 "}, loop, "mcp.EXAMPLE.org:8080", true},
		{"another name than the allowed", []string{"mcp.example.org"}, loop, "evil.example.org", false},
		{"any", []string{"*"}, loop, "evil.example.org", true},
		{"not a loopback bind", nil, public, "evil.example.org", true},
		{"no local address (a handler called directly)", nil, nil, "evil.example.org", true},
		{"empty Host", nil, loop, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := http.NewRequest(http.MethodGet, "http://x/", nil)
			r.Host = tt.host
			if tt.local != nil {
				r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, tt.local))
			}
			if got := hostcheck.New(tt.hosts).Allows(r); got != tt.want {
				t.Errorf("Allows = %v, want %v", got, tt.want)
			}
		})
	}
}
