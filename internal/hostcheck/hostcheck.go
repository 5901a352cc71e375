// Package hostcheck refuses DNS rebinding: a server bound to a loopback
// address answers only the Host names that are loopback ("localhost",
// "127.0.0.1", "[::1]", with any port) and those its operator allows. The
// REST binding and the gateway's streamable-HTTP endpoint both ask it.
package hostcheck

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Hosts is a set of allowed Host names besides the loopback ones; "*"
// allows every name. The zero value allows none.
type Hosts struct {
	any   bool
	names map[string]bool
}

// New returns the set of names (with or without a port; case and IPv6
// brackets do not matter).
func New(names []string) Hosts {
	var hs Hosts
	for _, h := range names {
		switch h = Name(strings.TrimSpace(h)); h {
		case "":
		case "*":
			hs.any = true
		default:
			if hs.names == nil {
				hs.names = make(map[string]bool, len(names))
			}
			hs.names[h] = true
		}
	}
	return hs
}

// Name is the host of a Host header or an address, lower-case, without
// port or IPv6 brackets.
func Name(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		hostport = h
	}
	return strings.ToLower(strings.Trim(hostport, "[]"))
}

// Loopback reports whether name (see [Name]) is "localhost" or a loopback
// IP address.
func Loopback(name string) bool {
	if name == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(name)
	return err == nil && ip.IsLoopback()
}

// Allows reports whether the server answers r: always when r did not reach
// a loopback address (as net/http's http.LocalAddrContextKey says; a
// handler called directly has none), else when r's Host is loopback or
// allowed.
func (hs Hosts) Allows(r *http.Request) bool {
	if hs.any {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !Loopback(Name(local.String())) {
		return true
	}
	name := Name(r.Host)
	return Loopback(name) || hs.names[name]
}
