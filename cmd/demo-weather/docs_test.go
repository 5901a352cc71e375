package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/serve/servetest"
)

// TestRESTDocExamples: every "$ curl -s ..." session in docs/rest.md (those
// without -i, -o, pipes or an API key) prints what the doc shows, run
// against the demo with the doc's clock. Regenerate an example with the
// command beside it after
// CONTENTNEG_NOW=2026-11-20T13:00:00Z go run ./cmd/demo-weather -rest 127.0.0.1:18081.
func TestRESTDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rest.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CONTENTNEG_NOW", "2026-11-20T13:00:00Z")
	base, _ := servetest.REST(t, app(), "-rest", "127.0.0.1:0")
	execID := regexp.MustCompile(`exec-[0-9a-f]{32}`)
	ran := 0
	for _, ex := range curlExamples(string(doc)) {
		req, ok := ex.request(base)
		if !ok {
			continue
		}
		ran++
		t.Run(ex.command, func(t *testing.T) {
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			got := strings.TrimRight(execID.ReplaceAllString(string(body), "exec-ID"), "\n")
			want := strings.TrimRight(execID.ReplaceAllString(ex.output, "exec-ID"), "\n")
			if got != want {
				t.Errorf("docs/rest.md shows:\n%s\n---- the command prints:\n%s", want, got)
			}
		})
	}
	if ran < 10 {
		t.Errorf("only %d examples ran: has docs/rest.md changed its form?", ran)
	}
}

type curlExample struct{ command, output string }

// curlExamples returns the "$ curl -s" commands of the doc's code blocks,
// each with the lines up to the next command or the end of the block.
func curlExamples(doc string) []curlExample {
	var out []curlExample
	var cur *curlExample
	inBlock := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock = !inBlock
			cur = nil
		case inBlock && strings.HasPrefix(line, "$ "):
			out = append(out, curlExample{command: strings.TrimPrefix(line, "$ ")})
			cur = &out[len(out)-1]
		case inBlock && cur != nil:
			cur.output += line + "\n"
		}
	}
	return out
}

// request turns a simple curl command line into a request: -s, -H, -d and
// -X with single- or double-quoted arguments, $B the base URL. Commands it
// cannot run faithfully (-i, -o, pipes, files, keys) give false.
func (ex curlExample) request(base string) (*http.Request, bool) {
	if !strings.HasPrefix(ex.command, "curl -s ") || strings.ContainsAny(ex.command, "|#@") || strings.Contains(ex.command, "Authorization") {
		return nil, false
	}
	args, ok := shellWords(strings.TrimPrefix(ex.command, "curl -s "))
	if !ok {
		return nil, false
	}
	method, url, body := "GET", "", ""
	header := http.Header{}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case (a == "-H" || a == "-d" || a == "-X") && i+1 < len(args):
			i++
			switch a {
			case "-H":
				k, v, _ := strings.Cut(args[i], ":")
				header.Set(k, strings.TrimSpace(v))
			case "-d":
				body, method = args[i], "POST"
				if header.Get("Content-Type") == "" {
					header.Set("Content-Type", "application/x-www-form-urlencoded") // as curl sends it
				}
			case "-X":
				method = args[i]
			}
		case strings.HasPrefix(a, "-"):
			return nil, false
		default:
			url = strings.ReplaceAll(a, "$B", base)
		}
	}
	req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	if err != nil || url == "" {
		return nil, false
	}
	req.Header = header
	return req, true
}

// shellWords splits a command line as a POSIX shell does for quoted words.
func shellWords(s string) ([]string, bool) {
	var out []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ':
			if inWord {
				out = append(out, w.String())
				w.Reset()
				inWord = false
			}
		case '\'', '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, false
			}
			w.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, w.String())
	}
	return out, true
}
