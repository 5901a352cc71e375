// Command corpus-sizes measures the generic renderings of the corpus in testdata/corpus: for each
// tool result it prints the size in bytes and in o200k tokens of the minified JSON, of markdown and
// text at compact, standard and verbose verbosity, and of TOON, each as a share of the JSON, and
// writes a PNG chart of the token shares (docs/renderers.md shows it).
//
//	go run ./cmd/corpus-sizes                        # table on stdout, chart to docs/corpus-sizes.png
//	go run ./cmd/corpus-sizes -chart ""              # table only
//	go run ./cmd/corpus-sizes -generate              # rewrite weather, forecast and journey first
//	go run ./cmd/corpus-sizes -record interop/servers # rewrite the recorded servers' items first
//	go run ./cmd/corpus-sizes -check                 # check the size budgets
//
// Items NAME.json may have an output schema NAME.schema.json beside them; the schema's "unit",
// "title" and "description" keywords are what the renderers use. -generate produces the weather,
// forecast and journey items from examples/weather and examples/journey/journey on a fixed clock.
// -record runs the open-source MCP servers installed (npm ci) in the folder it names over stdio with
// node, makes a fixed set of calls and writes each result's canonical value and the tool's output
// schema (testdata/corpus/SOURCES.md lists them).
//
// -check prints one line per size budget instead of the table, naming every item that misses one
// and by how many tokens: TOON and compact text at most 100% of the minified JSON's tokens for every
// item and 65% over the whole corpus, markdown (compact and standard) at most 110% over the corpus,
// standard text at most 110% of the JSON's bytes for every item.
//
// Exit codes: 0 on success, 1 when an item cannot be read or rendered or (with -check) a budget is
// missed, 2 for a usage error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("corpus-sizes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "testdata/corpus", "corpus directory")
	chart := fs.String("chart", "docs/corpus-sizes.png", "PNG chart to write; empty for none")
	generate := fs.Bool("generate", false, "rewrite the weather, forecast and journey items from the examples first")
	check := fs.Bool("check", false, "check the size budgets instead of printing the table: exit 1 when one is missed")
	record := fs.String("record", "", "rewrite the recorded items first, running the MCP servers installed in this folder (needs node and npm ci there)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "corpus-sizes: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *generate {
		if err := generateItems(*dir); err != nil {
			fmt.Fprintf(stderr, "corpus-sizes: %v\n", err)
			return 1
		}
	}
	if *record != "" {
		if err := recordItems(context.Background(), *record, *dir); err != nil {
			fmt.Fprintf(stderr, "corpus-sizes: %v\n", err)
			return 1
		}
	}
	items, err := loadCorpus(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "corpus-sizes: %v\n", err)
		return 1
	}
	sizes, err := measure(items)
	if err != nil {
		fmt.Fprintf(stderr, "corpus-sizes: %v\n", err)
		return 1
	}
	if *check {
		if !writeCheck(stdout, sizes) {
			return 1
		}
		return 0
	}
	writeTable(stdout, sizes)
	if *chart != "" {
		if err := writeChart(*chart, sizes); err != nil {
			fmt.Fprintf(stderr, "corpus-sizes: %v\n", err)
			return 1
		}
	}
	return 0
}
