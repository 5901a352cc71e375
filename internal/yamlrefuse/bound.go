package yamlrefuse

import (
	"errors"
	"fmt"
)

// The bounds [Bound] holds a YAML file to before any parser sees it. The
// YAML parser the project uses (goccy/go-yaml) allocates in proportion to
// the number of tokens times their nesting depth: 32 KB of "[" took
// 1.6 GB (issue 28). Within these bounds its cost is linear in the file
// (docs/decisions.md gives the figure measured).
const (
	// MaxDepth is the deepest nesting of collections: flow sequences and
	// mappings ("[", "{") and block ones (indentation, "- ").
	MaxDepth = 64
	// MaxNodes is the most tokens: scalars, indicators ("-", ":", "?",
	// ","), and the brackets of flow collections.
	MaxNodes = 100_000
	// MaxIndirections is the most anchors, aliases and tags. The project's
	// files refuse every one of them once parsed, but the parser spends
	// more on each than on any other token (a run of anchors is nesting,
	// an alias is looked up): past a few, a file is refused before.
	MaxIndirections = 1000
	// MaxKeyCost bounds the keys of block mappings. The parser reads a
	// block mapping of n keys in time and memory that grow with n*n (each
	// key copies the entries after it): each key costs the number of keys
	// before it in its mapping, and the costs add up to at most this,
	// about one mapping of 2,000 keys, or 20 of 450.
	MaxKeyCost = 2_000_000
	// MaxDocuments is the most document markers ("---", "..."): the
	// parser copies the documents after each one.
	MaxDocuments = 16
)

// Errors of [Bound], for errors.Is.
var (
	// ErrTooDeep: collections are nested deeper than MaxDepth.
	ErrTooDeep = errors.New("nested deeper than " + fmt.Sprint(MaxDepth) + " levels")
	// ErrTooManyNodes: the file holds more than MaxNodes tokens.
	ErrTooManyNodes = errors.New("more than " + fmt.Sprint(MaxNodes) + " YAML nodes")
	// ErrTooManyIndirections: the file holds more than MaxIndirections
	// anchors, aliases and tags.
	ErrTooManyIndirections = errors.New("more than " + fmt.Sprint(MaxIndirections) + " YAML anchors, aliases and tags")
	// ErrTooManyKeys: the keys of the file's block mappings cost more than
	// MaxKeyCost.
	ErrTooManyKeys = errors.New("too many keys in block mappings (the parser's cost grows with the square of a mapping's keys: at most about 2,000 in one mapping, or 20 mappings of 450)")
	// ErrTooManyDocuments: the file has more than MaxDocuments document
	// markers.
	ErrTooManyDocuments = errors.New("more than " + fmt.Sprint(MaxDocuments) + " YAML document markers")
)

// BoundError is where a file first went past a bound of [Bound].
type BoundError struct {
	// Line and Column are 1-based; Column counts characters.
	Line, Column int
	// Err is one of the errors above: ErrTooDeep, ErrTooManyNodes, ...
	Err error
}

// Error reads "12:5: nested deeper than 64 levels".
func (e *BoundError) Error() string { return fmt.Sprintf("%d:%d: %v", e.Line, e.Column, e.Err) }

// Unwrap returns the bound crossed: ErrTooDeep, ErrTooManyNodes, ...
func (e *BoundError) Unwrap() error { return e.Err }

// Bound checks that data nests no deeper than [MaxDepth] and holds no more
// than [MaxNodes] tokens, [MaxIndirections] anchors, aliases and tags,
// [MaxDocuments] document markers, and block mappings whose keys cost no
// more than [MaxKeyCost], in one pass over its bytes with constant memory,
// so that a file past them never reaches the parser; the error is a
// *BoundError with the line and column where the bound was crossed.
//
// It reads just enough YAML to tell structure from text: comments, quoted
// scalars and the content of block scalars ("|", ">") are text, and so is
// the rest of a plain scalar in block context. Where YAML is ambiguous
// without a full parse it counts the text as structure, so that it may
// over-count, never under-count: a quoted scalar that starts a line must
// end on that line to be read as one (a line can also continue a plain
// scalar, where a quote is text), a block scalar's content must be
// indented deeper than the node it belongs to, and every bracket outside
// text counts, in block context too.
func Bound(data []byte) error {
	b := bounder{data: data, line: 1}
	for b.pos < len(data) {
		if err := b.scanLine(); err != nil {
			return err
		}
	}
	return nil
}

// bounder is the state of one [Bound].
type bounder struct {
	data []byte
	pos  int // the start of the line being read
	line int

	flow   int     // flow depth: "[" and "{" not closed
	levels []level // the block collections open, innermost last
	keys   int     // the cost of the keys of block mappings so far
	docs   int     // document markers
	props  int     // node properties ("&anchor", "!tag") in a row: the parser nests them
	nodes  int
	indirs int // anchors, aliases and tags

	cur       []byte // the line being read
	quote     byte   // '\'' or '"' while in a quoted scalar that spans lines
	block     bool   // in the content of a block scalar
	blockOver int    // its content is indented deeper than this
}

// level is a block collection open: the indentation of its entries, and
// how many keys it has (when it is a mapping).
type level struct {
	indent, keys int
}

// scanLine reads one line from b.pos.
func (b *bounder) scanLine() error {
	end := b.pos
	for end < len(b.data) && b.data[end] != '\n' {
		end++
	}
	line := b.data[b.pos:end]
	b.cur = line
	defer func() { b.pos, b.line = end+1, b.line+1 }()

	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	blank := true
	for _, c := range line[indent:] {
		if c != ' ' && c != '\t' && c != '\r' {
			blank = false
			break
		}
	}
	if b.block {
		if blank || indent > b.blockOver {
			return nil
		}
		b.block = false
	}
	i := 0
	if b.quote != 0 {
		if i = b.skipQuote(line, 0, b.quote); i < 0 {
			return nil // the quote goes on past this line
		}
		b.quote = 0
	} else {
		if blank {
			return nil
		}
		i = indent
	}
	return b.scanTokens(line, i, indent)
}

// scanTokens reads the structure of line from i: indent is the line's
// indentation.
func (b *bounder) scanTokens(line []byte, i, indent int) error {
	var (
		tokenStart  = true // the next character starts a token
		lineFirst   = i == indent && b.flow == 0
		inPlain     = false // in a plain scalar
		lastNodeCol = -1    // the column of the last node started on this line, for block scalars
	)
	for ; i < len(line); i++ {
		c := line[i]
		if c == ' ' || c == '\t' || c == '\r' {
			if !inPlain {
				tokenStart = true
			}
			continue
		}
		if c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return nil // a comment, to the end of the line
		}
		spaceBefore := i == 0 || line[i-1] == ' ' || line[i-1] == '\t'
		if inPlain {
			// A plain scalar ends at ": " and, in flow context, at a
			// flow indicator; other characters are its text. Each word
			// counts as a node all the same (anchors and tags are words).
			switch {
			case c == ':' && (i+1 == len(line) || isSpace(line[i+1]) || b.flow > 0 && isFlowIndicator(line[i+1])):
				inPlain = false
			case b.flow > 0 && isFlowIndicator(c):
				inPlain = false
			case c == '[' || c == '{' || c == ']' || c == '}':
				// Text in block context, but counted as structure: see Bound.
			default:
				if spaceBefore {
					if err := b.node(i); err != nil {
						return err
					}
					b.props = 0
				}
				continue
			}
		}
		if lineFirst && b.flow == 0 {
			// The first token of a block line: the collections deeper
			// than it are closed, and it opens one at its column.
			for len(b.levels) > 0 && b.levels[len(b.levels)-1].indent > indent {
				b.levels = b.levels[:len(b.levels)-1]
			}
			if indent == 0 && (hasPrefixMarker(line, "---") || hasPrefixMarker(line, "...")) {
				if b.docs++; b.docs > MaxDocuments {
					return b.fail(i, ErrTooManyDocuments)
				}
				b.levels = b.levels[:0] // a new document
			}
			if err := b.open(i, indent); err != nil {
				return err
			}
			lineFirst = false
		}
		switch {
		case c == '[' || c == '{':
			b.flow++
			if err := b.nodeAt(i); err != nil {
				return err
			}
			tokenStart = true
		case c == ']' || c == '}':
			if b.flow > 0 {
				b.flow--
			}
			if err := b.node(i); err != nil {
				return err
			}
			tokenStart = true
		case c == ',' && b.flow > 0:
			if err := b.node(i); err != nil {
				return err
			}
			tokenStart = true
		case (c == '-' || c == '?') && tokenStart && (i+1 == len(line) || isSpace(line[i+1])):
			// A block sequence entry or a complex key: what follows on the
			// line is nested in it.
			if err := b.node(i); err != nil {
				return err
			}
			if c == '?' {
				if err := b.key(i); err != nil {
					return err
				}
			}
			if b.flow == 0 {
				lastNodeCol = i
				if err := b.open(i, i+2); err != nil {
					return err
				}
			}
			tokenStart = true
		case c == ':' && (i+1 == len(line) || isSpace(line[i+1]) || b.flow > 0):
			if err := b.node(i); err != nil {
				return err
			}
			if err := b.key(i); err != nil {
				return err
			}
			tokenStart = true
		case (c == '|' || c == '>') && tokenStart && b.flow == 0 && blockHeader(line[i+1:]):
			if err := b.node(i); err != nil {
				return err
			}
			b.block = true
			b.blockOver = indent
			if lastNodeCol > indent {
				b.blockOver = lastNodeCol
			}
			return nil
		case (c == '\'' || c == '"') && tokenStart:
			if err := b.node(i); err != nil {
				return err
			}
			end := b.skipQuote(line, i+1, c)
			switch {
			case end >= 0:
				i = end - 1
				tokenStart = false
			case i == indent:
				// A quote that starts a line may be the text of a plain
				// scalar that goes on from the line before: it is one only
				// when it ends on its line (see Bound).
				inPlain = true
				tokenStart = false
			default:
				b.quote = c
				return nil
			}
		case (c == '&' || c == '!' || c == '*') && (tokenStart || spaceBefore):
			// A node property or an alias. The parser nests the node a
			// property belongs to in it, so a run of them is nesting.
			if err := b.node(i); err != nil {
				return err
			}
			if b.indirs++; b.indirs > MaxIndirections {
				return b.fail(i, ErrTooManyIndirections)
			}
			if c != '*' {
				b.props++
			}
			if err := b.depth(i); err != nil {
				return err
			}
			for i+1 < len(line) && !isSpace(line[i+1]) && !(b.flow > 0 && isFlowIndicator(line[i+1])) {
				i++ // the property's name
			}
			tokenStart = false
		default:
			if tokenStart || spaceBefore {
				if err := b.node(i); err != nil {
					return err
				}
				b.props = 0
			}
			if tokenStart {
				lastNodeCol = i
			}
			inPlain = true
			tokenStart = false
		}
	}
	return nil
}

// open records a block collection whose lines are indented indent
// spaces, for the token at b.cur[i], and fails past MaxDepth.
func (b *bounder) open(i, indent int) error {
	if n := len(b.levels); n == 0 || b.levels[n-1].indent < indent {
		b.levels = append(b.levels, level{indent: indent})
	}
	return b.depth(i)
}

// key counts a key of the innermost block mapping, in block context.
func (b *bounder) key(i int) error {
	if n := len(b.levels); b.flow == 0 && n > 0 {
		b.keys += b.levels[n-1].keys
		if b.levels[n-1].keys++; b.keys > MaxKeyCost {
			return b.fail(i, ErrTooManyKeys)
		}
	}
	return nil
}

// nodeAt counts the node at b.cur[i] that opens a flow collection, and
// checks the depth.
func (b *bounder) nodeAt(i int) error {
	if err := b.node(i); err != nil {
		return err
	}
	return b.depth(i)
}

func (b *bounder) depth(i int) error {
	if b.flow+len(b.levels)+b.props > MaxDepth {
		return b.fail(i, ErrTooDeep)
	}
	return nil
}

func (b *bounder) node(i int) error {
	b.nodes++
	if b.nodes > MaxNodes {
		return b.fail(i, ErrTooManyNodes)
	}
	return nil
}

// fail is the error err at b.cur[i]; the column counts characters (the
// bytes that start one), counted only here, once.
func (b *bounder) fail(i int, err error) error {
	col := 1
	for _, c := range b.cur[:i] {
		if c&0xC0 != 0x80 {
			col++
		}
	}
	return &BoundError{Line: b.line, Column: col, Err: err}
}

// skipQuote returns the index just past the quote that closes a quoted
// scalar whose text starts at line[i], or -1 when it does not close on
// this line.
func (b *bounder) skipQuote(line []byte, i int, quote byte) int {
	for ; i < len(line); i++ {
		switch c := line[i]; {
		case quote == '"' && c == '\\':
			i++ // an escaped character
		case c == quote && quote == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++ // '' is a quote in a single-quoted scalar
		case c == quote:
			return i + 1
		}
	}
	return -1
}

// blockHeader reports whether rest, what follows "|" or ">", is the rest
// of a block scalar header: indentation and chomping indicators, then
// nothing but white space or a comment.
func blockHeader(rest []byte) bool {
	i := 0
	for i < len(rest) && i < 2 && (rest[i] == '+' || rest[i] == '-' || '1' <= rest[i] && rest[i] <= '9') {
		i++
	}
	for ; i < len(rest); i++ {
		switch rest[i] {
		case ' ', '\t', '\r':
		case '#':
			return i > 0 && (rest[i-1] == ' ' || rest[i-1] == '\t')
		default:
			return false
		}
	}
	return true
}

// hasPrefixMarker reports whether line starts with the document marker
// ("---" or "...") alone or followed by white space.
func hasPrefixMarker(line []byte, marker string) bool {
	return len(line) >= 3 && string(line[:3]) == marker && (len(line) == 3 || isSpace(line[3]))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}
