package matrix

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Tokenizer names the encoding of the token estimates: the one of OpenAI's
// GPT-4o and later models. Other models count differently; the estimate is
// for comparing renderings, not for billing.
const Tokenizer = "o200k_base"

// MaxTokenizeBytes bounds the text CountTokens encodes. Longer texts are
// estimated from their first MaxTokenizeBytes bytes.
const MaxTokenizeBytes = 1 << 20

// tokenizer is loaded once, from the encoding files embedded in the binary.
var tokenizer struct {
	once sync.Once
	enc  *tiktoken.Tiktoken
	err  error
}

// encoder returns the o200k_base encoder. The BPE loader is set to the
// offline loader before the first encoding is loaded, so the ranks come from
// the files tiktoken-go-loader embeds: nothing is downloaded, ever. (The
// default loader fetches them over HTTPS at run time.)
func encoder() (*tiktoken.Tiktoken, error) {
	tokenizer.once.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		tokenizer.enc, tokenizer.err = tiktoken.GetEncoding(Tokenizer)
		if tokenizer.err != nil {
			tokenizer.err = fmt.Errorf("load the %s tokenizer: %w", Tokenizer, tokenizer.err)
		}
	})
	return tokenizer.enc, tokenizer.err
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
	n = len(enc.EncodeOrdinary(sample))
	if approx && len(sample) > 0 {
		n = int(int64(n) * int64(len(text)) / int64(len(sample)))
	}
	return n, approx, nil
}
