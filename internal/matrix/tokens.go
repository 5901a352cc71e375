package matrix

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Tokenizer names the encoding of the token estimates: the one of OpenAI's
// GPT-4o and later models. Other models count differently; the estimate is
// for comparing renderings, not for billing.
const Tokenizer = "o200k_base"

// MaxTokenizeBytes bounds the text CountTokens encodes. Longer texts are
// estimated from their first MaxTokenizeBytes bytes.
const MaxTokenizeBytes = 1 << 20

// codec is built once, on first use, from the vocabulary that
// github.com/tiktoken-go/tokenizer compiles into the binary: nothing is
// read or downloaded at run time.
var codec struct {
	once sync.Once
	enc  tokenizer.Codec
	err  error
}

// encoder returns the o200k_base codec. Invalid UTF-8 is counted as U+FFFD,
// as tiktoken's errors="replace" does, rather than refused.
func encoder() (tokenizer.Codec, error) {
	codec.once.Do(func() {
		enc, err := tokenizer.Get(tokenizer.O200kBase)
		if err != nil {
			codec.err = fmt.Errorf("load the %s tokenizer: %w", Tokenizer, err)
			return
		}
		enc.SetErrorMode(tokenizer.ErrorModeReplace)
		codec.enc = enc
	})
	return codec.enc, codec.err
}

// CountTokens estimates the number of o200k_base tokens in text, offline.
// Special tokens such as "<|endoftext|>" count as ordinary text. For a text
// longer than MaxTokenizeBytes, the count of its first MaxTokenizeBytes bytes
// is scaled to its length and approx is true.
func CountTokens(text string) (n int, approx bool, err error) {
	return countTokens(text, MaxTokenizeBytes)
}

// countTokens is CountTokens with the bound as a parameter.
func countTokens(text string, limit int) (n int, approx bool, err error) {
	enc, err := encoder()
	if err != nil {
		return 0, false, err
	}
	sample := text
	if len(text) > limit {
		sample = clipBytes(text, limit)
		approx = true
	}
	defer func() {
		if r := recover(); r != nil {
			n, approx, err = 0, false, fmt.Errorf("count tokens: tokenizer panicked: %v", r)
		}
	}()
	if n, err = enc.Count(sample); err != nil {
		return 0, false, fmt.Errorf("count tokens: %w", err)
	}
	if approx && len(sample) > 0 {
		n = int(int64(n) * int64(len(text)) / int64(len(sample)))
	}
	return n, approx, nil
}
