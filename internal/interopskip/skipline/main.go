// Command skipline prints the one line that says how many interop tests a
// run skipped and why, from the file the test binaries appended their
// skips to (interopskip.LogEnv): .ci/run runs it after go test.
//
//	go run ./internal/interopskip/skipline FILE
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/contentneg/contentneg/internal/interopskip"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: skipline FILE")
		os.Exit(2)
	}
	line, err := summarize(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "skipline: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(line)
}

// summarize reads the skips file (a missing file is no skip) and returns
// the line.
func summarize(file string) (string, error) {
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return interopskip.Line(0, nil, nil), nil
	}
	if err != nil {
		return "", fmt.Errorf("open: %w", err)
	}
	defer f.Close()
	return read(f)
}

func read(r io.Reader) (string, error) {
	var binaries, reasons []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		bin, reason, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			return "", fmt.Errorf("line %q: want BINARY<tab>REASON", sc.Text())
		}
		binaries, reasons = append(binaries, bin), append(reasons, reason)
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	return interopskip.Line(len(reasons), binaries, reasons), nil
}
