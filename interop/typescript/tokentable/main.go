// Command tokentable reads what interop/typescript/measure.mjs prints (one
// JSON object per line: the client, the server's configuration, the tool,
// the text the model reads) and prints, as markdown, the o200k tokens of
// each tool's text by configuration, for each client, and the rows where
// the two clients differ. The figures of docs/defaults.md come from it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/contentneg/contentneg/internal/tokens"
)

type record struct {
	Client     string `json:"client"`
	Config     string `json:"config"`
	Tool       string `json:"tool"`
	Text       string `json:"text"`
	IsError    bool   `json:"isError"`
	Structured bool   `json:"structured"`
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tokentable:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	var records []record
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("line %d: %w", len(records)+1, err)
		}
		records = append(records, r)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	var clients, configs, tools []string
	count := map[[3]string]string{}
	for _, r := range records {
		for _, list := range []*[]string{&clients, &configs, &tools} {
			v := map[*[]string]string{&clients: r.Client, &configs: r.Config, &tools: r.Tool}[list]
			if !slices.Contains(*list, v) {
				*list = append(*list, v)
			}
		}
		cell := fmt.Sprint(tokens.Count(r.Text))
		switch {
		case r.IsError:
			cell += " (error)"
		case r.Tool != "tools/list" && !r.Structured:
			cell += " †"
		}
		count[[3]string{r.Client, r.Config, r.Tool}] = cell
	}
	for _, c := range clients {
		fmt.Fprintf(out, "\nClient %s (o200k tokens of the text blocks):\n\n| configuration | %s |\n|---|%s\n", c, strings.Join(tools, " | "), strings.Repeat("---:|", len(tools)))
		for _, cfg := range configs {
			row := make([]string, len(tools))
			for i, t := range tools {
				row[i] = count[[3]string{c, cfg, t}]
				if row[i] == "" {
					row[i] = "-"
				}
			}
			fmt.Fprintf(out, "| %s | %s |\n", cfg, strings.Join(row, " | "))
		}
	}
	differ := 0
	for k, v := range count {
		for _, c := range clients {
			if c != k[0] && count[[3]string{c, k[1], k[2]}] != v {
				differ++
			}
		}
	}
	fmt.Fprintf(out, "\n%d cell(s) differ between the clients. †: no structuredContent in the result.\n", differ/2)
	return nil
}
