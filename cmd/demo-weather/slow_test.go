package main

import (
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/contentneg/contentneg/internal/httpserve"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(r) // ends the check; recovered by check
}

// TestCheckSlowClient: the slow client's check of TestRESTConcurrent
// accepts only the documented outcomes. The planted faults are servers
// that answer 408, 500, JSON or another city's weather, or close the
// connection without a reply before their read-header timeout; the check
// once accepted all of them but the 500.
func TestCheckSlowClient(t *testing.T) {
	const textBern = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 27\r\nConnection: close\r\n\r\nBern: 21 C, humidity 40 %\r\n"
	early, late := time.Second, httpserve.Bounded.ReadHeader+time.Second
	tests := []struct {
		name     string
		reply    string // "" closes the connection without one
		elapsed  time.Duration
		wantFail bool
	}{
		{name: "200 text/plain", reply: textBern, elapsed: early},
		{name: "no reply after the timeout", reply: "", elapsed: late},
		{name: "no reply before the timeout", reply: "", elapsed: early, wantFail: true},
		{name: "408", reply: "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", elapsed: late, wantFail: true},
		{name: "500", reply: "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", elapsed: early, wantFail: true},
		{name: "200 JSON", reply: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{\"city\":\"Bern\"}\n", elapsed: early, wantFail: true},
		{name: "200 text/plain of another city", reply: "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 27\r\nConnection: close\r\n\r\nLima: 21 C, humidity 40 %\r\n", elapsed: early, wantFail: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
				if tt.reply == "" {
					return
				}
				buf := make([]byte, 4096)
				_, _ = c.Read(buf)
				_, _ = c.Write([]byte(tt.reply))
			}()
			slow, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer slow.Close()
			r := &recorder{TB: t}
			func() {
				defer func() {
					if p := recover(); p != nil && p != any(r) {
						panic(p)
					}
				}()
				checkSlowClient(r, slow, tt.elapsed, "xt/plain\r\nContent-Length: 2\r\n\r\n{}")
			}()
			if failed := len(r.failed) > 0; failed != tt.wantFail {
				t.Errorf("the check failed: %v %q, want %v", failed, r.failed, tt.wantFail)
			}
		})
	}
}
