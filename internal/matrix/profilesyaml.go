package matrix

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/contentneg/contentneg/internal/yamlrefuse"
)

// parseYAML reads a YAML profiles file from its syntax tree, keeping the
// order of its keys. Anchors, aliases and explicit tags are refused: a
// profiles file needs none, and refusing aliases rules out expansion bombs.
// A file nested deeper than yamlrefuse.MaxDepth or holding more than
// yamlrefuse.MaxNodes tokens is refused before the parser sees it
// (yamlrefuse.Bound): the parser's cost grows with the nesting times the
// size.
func parseYAML(data []byte) ([]Profile, error) {
	if err := yamlrefuse.Bound(data); err != nil {
		if be, ok := errors.AsType[*yamlrefuse.BoundError](err); ok {
			return nil, fmt.Errorf("%w: line %d, column %d: %w", ErrTooLarge, be.Line, be.Column, be.Err)
		}
		return nil, fmt.Errorf("%w: %w", ErrTooLarge, err)
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		if tagErr := unquotedTag(data); tagErr != nil {
			return nil, tagErr
		}
		return nil, fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	var docs []ast.Node
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d.Body)
		}
	}
	switch len(docs) {
	case 0:
		return nil, fmt.Errorf("%w: the document is empty", ErrNoProfiles)
	case 1:
	default:
		return nil, fmt.Errorf("%w: the file holds %d YAML documents, want one", ErrNotAMap, len(docs))
	}
	if err := refuseIndirection(docs[0]); err != nil {
		return nil, err
	}
	var pairs []*ast.MappingValueNode
	switch body := docs[0].(type) {
	case *ast.MappingNode:
		pairs = body.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{body}
	case *ast.NullNode:
		return nil, fmt.Errorf("%w: the document is empty", ErrNoProfiles)
	default:
		return nil, fmt.Errorf("%w: line %d: the document is %s", ErrNotAMap, yamlLine(body), yamlKind(body))
	}
	var c collector
	for _, pair := range pairs {
		where := fmt.Sprintf("line %d", yamlLine(pair.Key))
		name, err := yamlName(pair.Key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		tags, err := yamlTags(pair.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: profile %q: %w", where, name, err)
		}
		if err := c.add(name, tags, where); err != nil {
			return nil, err
		}
	}
	return c.result()
}

// errIndirection is the error for an anchor or alias.
var errIndirection = errors.New("YAML anchors, aliases and tags are not supported in a profiles file")

// refuseIndirection fails on the first anchor, alias or tag under n (a tag
// is most likely a negated feature tag written unquoted).
func refuseIndirection(n ast.Node) error {
	var found error
	yamlrefuse.Walk(n, func(n ast.Node, tag string) bool {
		if tag != "" {
			found = fmt.Errorf("%w: line %d: %s", ErrBadTags, yamlLine(n), yamlrefuse.TagMessage(tag))
		} else {
			found = fmt.Errorf("%w: line %d: %w", ErrSyntax, yamlLine(n), errIndirection)
		}
		return false
	})
	return found
}

// unquotedTag returns the error for the first YAML tag in data, or nil when
// there is none (yamlrefuse.FirstTag: for a file that does not parse).
func unquotedTag(data []byte) error {
	tk, tag := yamlrefuse.FirstTag(data)
	if tk == nil {
		return nil
	}
	line := 0
	if tk.Position != nil {
		line = tk.Position.Line
	}
	return fmt.Errorf("%w: line %d: %s", ErrBadTags, line, yamlrefuse.TagMessage(tag))
}

// yamlName reads a profile name: a string scalar.
func yamlName(key ast.MapKeyNode) (string, error) {
	if s, ok := key.(*ast.StringNode); ok {
		return s.Value, nil
	}
	if key == nil {
		return "", fmt.Errorf("%w: missing", ErrBadName)
	}
	// A number or a boolean as a name: take its text, as a person wrote it.
	switch key.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return key.GetToken().Value, nil
	}
	return "", fmt.Errorf("%w: the key is %s", ErrBadName, yamlKind(key))
}

// yamlTags reads one profile's value: null or a sequence of strings.
func yamlTags(n ast.Node) ([]string, error) {
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return nil, nil
	case *ast.SequenceNode:
		tags := make([]string, 0, len(v.Values))
		for i, e := range v.Values {
			s, ok := e.(*ast.StringNode)
			if !ok {
				return nil, fmt.Errorf("%w: line %d: tag %d is %s; quote it", ErrBadTags, yamlLine(e), i+1, yamlKind(e))
			}
			tags = append(tags, s.Value)
		}
		return tags, nil
	default:
		return nil, fmt.Errorf("%w: got %s", ErrBadTags, yamlKind(n))
	}
}

// yamlKind names a node's type for errors: "a mapping", "an integer" ...
func yamlKind(n ast.Node) string {
	if n == nil {
		return "nothing"
	}
	kind := strings.ToLower(n.Type().String())
	switch kind {
	case "null":
		return kind
	case "":
		return "an unknown node"
	}
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// yamlLine returns a node's line, or 0 when it has no position.
func yamlLine(n ast.Node) int {
	if n == nil {
		return 0
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 0
	}
	return tk.Position.Line
}
