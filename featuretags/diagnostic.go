package featuretags

import (
	"strconv"
	"strings"
)

// Problem says what a [Diagnostic] is about.
type Problem uint8

// The problems a parse reports. NotAnObject, MissingVersion, BadVersion
// and UnsupportedVersion concern the settings object around the tags;
// package featuretags never reports them, package negotiation does, so that
// one extension has one kind of diagnostic. [Problem.Malformed] says which
// of them make a declaration malformed.
const (
	// Trimmed: surrounding ASCII white space was removed; the tag was used.
	Trimmed Problem = iota + 1
	// Invalid: the tag does not match the grammar; it was ignored.
	Invalid
	// TooLong: the tag is longer than MaxTagLen bytes; it was ignored.
	TooLong
	// TooMany: more than MaxTags tags; this one and every later one were ignored.
	TooMany
	// NotAString: an element of the features array is not a string; it was ignored.
	NotAString
	// NotAList: the features value is neither an array nor a string; no
	// tag was read.
	NotAList
	// Contradiction: a tag and its negation (or key=v and key!=v) were both
	// given; the negation wins and the tag was dropped.
	Contradiction
	// ConflictingValue: a registry key got a second, different value; the
	// first valid value wins and this one was dropped.
	ConflictingValue
	// UnknownValue: a registry key got a value the registry does not list; it was ignored.
	UnknownValue
	// WrongForm: a registry name was used in a form it does not take
	// ("agent=yes", "!format"); it was ignored.
	WrongForm
	// BothAudiences: "agent" and "human" were both given; the audience is unknown.
	BothAudiences
	// NotAnObject: the extension settings are not an object; the extension
	// counts as declared, with no tag read, and malformed.
	NotAnObject
	// MissingVersion: the settings have no version; "1.0" is assumed.
	MissingVersion
	// BadVersion: the version is not a version string; the extension counts
	// as declared, with no tag read, and malformed.
	BadVersion
	// UnsupportedVersion: the major version is not 1; the extension counts as
	// not declared.
	UnsupportedVersion
	// CommaList: the features value is one string, not an array; it was
	// read as a comma-separated list ("human, !interactive"), the syntax
	// operators use for default tags. The indexes of the other diagnostics
	// are then positions in that list.
	CommaList
)

var problemText = [...]string{
	Trimmed:            "surrounding white space trimmed",
	Invalid:            "not a valid feature tag; ignored",
	TooLong:            "longer than " + strconv.Itoa(MaxTagLen) + " bytes; ignored",
	TooMany:            "more than " + strconv.Itoa(MaxTags) + " tags; this one and the rest are ignored",
	NotAString:         "not a string; ignored",
	NotAList:           "features is neither an array nor a string; no tag read",
	Contradiction:      "contradicted by a negation, which wins; dropped",
	ConflictingValue:   "a second value for a registry key; the first wins, this one is dropped",
	UnknownValue:       "not a value the registry lists for this key; ignored",
	WrongForm:          "a registry name in a form it does not take; ignored",
	BothAudiences:      "agent and human both given; the audience is unknown",
	NotAnObject:        "the settings are not an object; no tag read, read as !interactive",
	MissingVersion:     "no version; 1.0 assumed",
	BadVersion:         "version is not a version string; no tag read, read as !interactive",
	UnsupportedVersion: "unsupported major version; extension not declared",
	CommaList:          "features is a string, not an array; read as a comma-separated list",
}

// String describes the problem in a few words.
func (p Problem) String() string {
	if int(p) < len(problemText) && problemText[p] != "" {
		return problemText[p]
	}
	return "problem " + strconv.Itoa(int(p))
}

// Malformed reports whether the problem makes a declaration malformed: part
// of it could not be read (an invalid tag, a look-alike of a registered
// name, a tag past [MaxTagLen], tags past [MaxTags], an element that is not
// a string, a features value or settings of the wrong JSON type, a version
// that is not a version string). A declared client whose settings are
// malformed is treated as "!interactive" (contract section 2): consent never
// rests on a declaration the server could not read. Trimmed white space,
// contradictions, conflicting or unknown values of registry keys, both
// audiences, a missing version and an unsupported major version are read
// fine and are not malformed.
func (p Problem) Malformed() bool {
	switch p {
	case Invalid, TooLong, TooMany, NotAString, NotAList, WrongForm, NotAnObject, BadVersion, CommaList:
		return true
	default:
		return false
	}
}

// Diagnostic reports one thing that was wrong with a client's feature tags or
// settings. Diagnostics are values for the caller to inspect and log; they
// never fail a request.
type Diagnostic struct {
	// Index is the position of the element in the features array, or -1 when
	// the diagnostic concerns no single element.
	Index int
	// Related is the position of the other element involved in a
	// Contradiction, ConflictingValue or BothAudiences diagnostic (the one
	// that won), or -1.
	Related int
	// Problem says what was wrong.
	Problem Problem
	// Tag is the offending input as given, cut to at most MaxTagLen bytes. It
	// may hold any bytes: quote it before showing it (String does).
	Tag string
	// Detail adds a few words, such as the JSON type of a value that is not a
	// string ("number"), or the version that was refused. It may be empty.
	Detail string
}

// String formats the diagnostic on one line, with the tag quoted so that
// control bytes in it cannot forge log lines: features[3] "format==json": not
// a valid feature tag; ignored.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Index >= 0 {
		b.WriteString("features[")
		b.WriteString(strconv.Itoa(d.Index))
		b.WriteString("] ")
	}
	if d.Tag != "" || d.Index >= 0 && d.Problem != NotAString {
		b.WriteString(strconv.Quote(d.Tag))
		b.WriteString(": ")
	}
	b.WriteString(d.Problem.String())
	if d.Detail != "" {
		b.WriteString(" (")
		b.WriteString(strconv.Quote(d.Detail))
		b.WriteString(")")
	}
	if d.Related >= 0 {
		b.WriteString(" [see features[")
		b.WriteString(strconv.Itoa(d.Related))
		b.WriteString("]]")
	}
	return b.String()
}

// clip cuts s to at most MaxTagLen bytes without copying it.
func clip(s string) string {
	if len(s) > MaxTagLen {
		return s[:MaxTagLen]
	}
	return s
}
