// Package tokens counts o200k tokens (the encoding of OpenAI's GPT-4o and
// later models), offline: the vocabulary is embedded by
// github.com/tiktoken-go/tokenizer. The demos and measuring commands use it
// to show what a rendering costs a model; the renderers use it only where a
// compact text's bytes come close to its JSON's, to send the JSON where the
// text would be more tokens (the vocabulary is loaded on first use).
package tokens

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

var codec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

// Count returns the number of o200k tokens of s, or -1 if the embedded
// vocabulary cannot be loaded.
func Count(s string) int {
	c, err := codec()
	if err != nil {
		return -1
	}
	n, err := c.Count(s)
	if err != nil {
		return -1
	}
	return n
}
