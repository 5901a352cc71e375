// Package yamlrefuse finds what the project's YAML files (the gateway's
// config file, profile-matrix's profiles) refuse: anchors, aliases and
// tags. A tag there is most likely a negated feature tag written unquoted
// (- !interactive), which YAML reads as a tag, so the message for one says
// to quote it.
package yamlrefuse

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// TagMessage is the message for a YAML tag: the feature tag it most likely
// is, and how to write it.
func TagMessage(tag string) string {
	return fmt.Sprintf("YAML reads %s as a tag; quote a negated feature tag: \"%s\"", tag, tag)
}

// FirstTag returns the first tag token in data and the tag as written, or
// nil. It reads tokens, not the syntax tree, so that a file that does not
// parse is told about its tag: in a flow sequence, [agent, !interactive]
// reads as a tag swallowing the "]", and the parser's own error ("sequence
// end token ']' not found") would not say that the negation needs quotes.
func FirstTag(data []byte) (*token.Token, string) {
	for _, tk := range lexer.Tokenize(string(data)) {
		if tk.Type == token.TagType {
			return tk, strings.TrimRight(tk.Value, "],} \t")
		}
	}
	return nil, ""
}

// Walk calls found for every anchor, alias and tag under n, in document
// order, with the tag's text for a tag ("" for an anchor or alias), until
// found returns false.
func Walk(n ast.Node, found func(n ast.Node, tag string) bool) {
	more := true
	ast.Walk(visitor(func(n ast.Node) bool {
		if !more {
			return false
		}
		switch v := n.(type) {
		case *ast.TagNode:
			more = found(v, v.Start.Value)
		case *ast.AnchorNode, *ast.AliasNode:
			more = found(v, "")
		}
		return more
	}), n)
}

// visitor adapts a function to ast.Visitor; it skips the nodes below one
// for which it returns false.
type visitor func(ast.Node) bool

// Visit implements ast.Visitor.
func (v visitor) Visit(n ast.Node) ast.Visitor {
	if n == nil || !v(n) {
		return nil
	}
	return v
}
