package cmdline

import "strings"

// SplitList splits a flag's comma-separated list ("human, format=markdown",
// the default tags of the project's commands) into its items, white space
// around each trimmed and empty ones skipped: nil for an empty list.
func SplitList(list string) []string {
	var out []string
	for item := range strings.SplitSeq(list, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
