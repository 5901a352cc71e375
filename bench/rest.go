package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

// errNotApplicable marks a row a front end has no request for (a REST
// client always declares a format, so it is never unwrapped or undeclared).
var errNotApplicable = errors.New("not applicable")

// restRequest is the REST request of a profile's tags: the Accept header
// and the query (the verbosity).
func restRequest(tags []string) (accept, query string) {
	accept = "application/json"
	for _, t := range tags {
		switch t {
		case "format=markdown":
			accept = "text/markdown"
		case "format=text":
			accept = "text/plain"
		case "verbosity=compact":
			query = "?verbosity=compact"
		}
	}
	return accept, query
}

// poster serves h on a loopback socket and returns a call that POSTs the
// get_weather execution to it, as a REST client does.
func poster(h http.Handler, tags []string) (func() error, func()) {
	srv := httptest.NewServer(h)
	accept, query := restRequest(tags)
	url := srv.URL + "/mcp/v1/tools/get_weather/execute" + query
	body := []byte(`{"arguments":{"city":"Bern"}}`)
	c := srv.Client()
	call := func() error {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Accept", accept)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	return call, srv.Close
}

func benchServer(negotiated bool) *mcp.Server {
	s := weathermcp.NewServer(weather.NewService(func() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }))
	if negotiated {
		middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	}
	return s
}

// bareHTTP is the baseline of the REST binding: the same MCP call (a client
// session declaring the profile's tags) behind a bare net/http handler that
// decodes the body and writes the result's JSON, over the same socket.
func bareHTTP(negotiated bool, tags []string, legacy bool) (func() error, func(), error) {
	if !negotiated || tags == nil {
		return nil, nil, errNotApplicable
	}
	s := benchServer(true)
	opts := &client.Options{Legacy: legacy, Settings: client.Declare(append(tags, "!interactive")...)}
	ctx := context.Background()
	cs, closeSessions, err := connect(ctx, s, opts)
	if err != nil {
		return nil, nil, err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Arguments map[string]any `json:"arguments"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := cs.CallTool(r.Context(), &mcp.CallToolParams{Name: "get_weather", Arguments: in.Arguments})
		if err != nil || res.IsError {
			http.Error(w, "call failed", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(res)
	})
	call, stop := poster(h, tags)
	return call, func() { stop(); closeSessions() }, nil
}

// restBinding is the REST binding over the negotiating server, through
// its in-memory backend session, over a loopback socket.
func restBinding(negotiated bool, tags []string, legacy bool) (func() error, func(), error) {
	if !negotiated || tags == nil || strings.Join(tags, ",") == "" {
		return nil, nil, errNotApplicable
	}
	var bo *gosdkbackend.Options
	if legacy {
		bo = &gosdkbackend.Options{ProtocolVersion: "2025-11-25"}
	}
	b, err := gosdkbackend.New(context.Background(), benchServer(true), bo)
	if err != nil {
		return nil, nil, err
	}
	call, stop := poster(rest.New(b, &rest.Options{BasePath: "/mcp/v1"}), tags)
	return call, func() { stop(); _ = b.Close() }, nil
}
