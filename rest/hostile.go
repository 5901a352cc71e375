package rest

import (
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/contentneg/contentneg/shaping"
)

// What a browser's page may not do (contract section 8, "Cross-site
// requests"): reach a loopback server under a name it does not answer (DNS
// rebinding), run a tool or a prompt with a body that is not
// application/json (a "simple" request, sent without a preflight), run one
// from a page of an origin CORS does not allow; and what no client may do:
// hold a handler by trickling a body.

// rebound returns the 403 for a request that reached a loopback address
// under a name that is not loopback nor in Options.Hosts; nil for one the
// handler answers. The local address is the one net/http puts in the
// request's context (http.LocalAddrContextKey); without it (a handler
// called directly) there is nothing to check.
func (h *handler) rebound(r *http.Request) *Error {
	if h.hosts.Allows(r) {
		return nil
	}
	return newError(http.StatusForbidden, codeForbidden,
		"refused: this server answers loopback host names only, and the request names "+strconvQuote(r.Host)+
			" (a page of another name that resolves to this machine: DNS rebinding); Options.Hosts may allow it")
}

// crossSite returns the 403 for a POST that a browser may have sent from a
// page of another origin; nil for one the handler may serve. A POST must
// carry its body as application/json, which a browser sends to another
// origin only after a preflight that CORS governs, and must not come, as the
// browser says in Origin or Sec-Fetch-Site, from an origin that is neither
// this server's nor one Options.CORS allows. The one exception is the index
// page's own form (application/x-www-form-urlencoded), when the browser says
// it comes from this server's origin.
func (h *handler) crossSite(r *http.Request) *Error {
	origin := r.Header.Get("Origin")
	site := strings.ToLower(r.Header.Get("Sec-Fetch-Site"))
	listed := h.corsOrigins.allows(origin)
	here := origin != "" && sameHost(origin, r.Host)
	switch {
	case (site == "cross-site" || site == "same-site") && !listed:
		return refused("the browser says this request comes from a page of another site (Sec-Fetch-Site: " + site + "), and Options.CORS does not allow its origin")
	case origin != "" && !here && !listed:
		return refused("the request comes from a page of another origin (" + clip(origin) + "), which Options.CORS does not allow")
	}
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case err == nil && ct == shaping.JSON.MediaType:
		return nil
	case err == nil && ct == mediaForm && (site == "same-origin" || site == "" && here):
		return nil // the index page's form, from this origin as the browser says
	}
	return refused("a request that runs a tool or a prompt must send its body as application/json (Content-Type: application/json); a page of another site can send other types without asking")
}

// sameHost reports whether origin ("http://host:port") names host (a Host
// header).
func sameHost(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, host)
}

func refused(why string) *Error {
	return newError(http.StatusForbidden, codeForbidden, "refused: "+why)
}

// timedBody is a request body read under a deadline on its connection:
// set when the handler sees the request, lifted once the body has been read
// whole (or failed), so that a long call after it is not cut. A read past
// the deadline fails with an error for which isTimeout holds.
type timedBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	once sync.Once
}

// timeBody sets the body deadline of r, when it has a body and the
// handler has a timeout; it returns the body to read in its place, or nil
// when there is none to set (or the ResponseWriter cannot). A server whose
// ReadTimeout is no longer than the handler's has set an earlier deadline
// on the connection already (from the start of the request), which a later
// one would replace: then the server's stands.
func (h *handler) timeBody(w http.ResponseWriter, r *http.Request) io.ReadCloser {
	if h.bodyTimeout <= 0 || r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return nil
	}
	if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ReadTimeout > 0 && srv.ReadTimeout <= h.bodyTimeout {
		return nil
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(h.bodyTimeout)) != nil {
		return nil // not supported: the server's ReadTimeout bounds the body
	}
	return &timedBody{ReadCloser: r.Body, rc: rc}
}

// Read reads the body, and lifts the deadline at its end.
func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !isTimeout(err) {
		b.lift()
	}
	return n, err
}

// lift takes the deadline off the connection: net/http's own read after
// the body (which notices a client that went away) must not time out.
func (b *timedBody) lift() { b.once.Do(func() { _ = b.rc.SetReadDeadline(time.Time{}) }) }

// isTimeout reports whether err is a read that ran past its deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// bodyTimedOut is the 408 for a body that did not arrive in time; the
// connection is closed after it.
func bodyTimedOut(w http.ResponseWriter, limit time.Duration) *Error {
	w.Header().Set("Connection", "close")
	return newError(http.StatusRequestTimeout, codeTimeout, "the request body did not arrive within "+limit.String())
}
