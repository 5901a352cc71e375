// Package cmdline splits a command line given as one string, such as the
// -command flag of the project's commands, into words as a POSIX shell
// quotes them. It never expands anything and never runs anything.
package cmdline

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnterminated is wrapped by the error of Split for a line that ends inside quotes or after a backslash.
var ErrUnterminated = errors.New("unterminated quote or escape")

// Split splits a command line into words the way a POSIX shell does
// for quoting: blanks separate words; single quotes keep everything up to
// the next single quote; double quotes keep everything but let a backslash
// escape $, `, ", \ and newline; a backslash outside quotes escapes the next
// character. There is no expansion of any kind: $HOME stays $HOME.
func Split(s string) ([]string, error) {
	var (
		words   []string
		word    strings.Builder
		inWord  bool
		quote   rune // 0, '\'' or '"'
		escaped bool
	)
	for _, r := range s {
		switch {
		case escaped:
			if quote == '"' && !strings.ContainsRune("$`\"\\\n", r) {
				word.WriteRune('\\')
			}
			if r != '\n' {
				word.WriteRune(r)
			}
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				word.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				word.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, fmt.Errorf("cmdline: split %q: %w", s, ErrUnterminated)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}
