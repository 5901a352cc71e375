package featuretags

import (
	"strconv"
	"strings"
)

// Problem says what a [Diagnostic] is about.
type Problem uint8

// The problems a parse reports. The last four concern the settings object
// around the tags; package featuretags never reports them, package
// negotiation does, so that one extension has one kind of diagnostic.
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
	// NotAList: the features value is not an array; no tag was read.
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
	// counts as not declared.
	NotAnObject
	// MissingVersion: the settings have no version; "1.0" is assumed.
	MissingVersion
	// BadVersion: the version is not a version string; the extension counts
	// as not declared.
	BadVersion
	// UnsupportedVersion: the major version is not 1; the extension counts as
	// not declared.
	UnsupportedVersion
)

var problemText = [...]string{
	Trimmed:            "surrounding white space trimmed",
	Invalid:            "not a valid feature tag; ignored",
	TooLong:            "longer than " + strconv.Itoa(MaxTagLen) + " bytes; ignored",
	TooMany:            "more than " + strconv.Itoa(MaxTags) + " tags; this one and the rest are ignored",
	NotAString:         "not a string; ignored",
	NotAList:           "features is not an array; no tag read",
	Contradiction:      "contradicted by a negation, which wins; dropped",
	ConflictingValue:   "a second value for a registry key; the first wins, this one is dropped",
	UnknownValue:       "not a value the registry lists for this key; ignored",
	WrongForm:          "a registry name in a form it does not take; ignored",
	BothAudiences:      "agent and human both given; the audience is unknown",
	NotAnObject:        "the settings are not an object; extension not declared",
	MissingVersion:     "no version; 1.0 assumed",
	BadVersion:         "version is not a version string; extension not declared",
	UnsupportedVersion: "unsupported major version; extension not declared",
}

// String describes the problem in a few words.
func (p Problem) String() string {
	if int(p) < len(problemText) && problemText[p] != "" {
		return problemText[p]
	}
	return "problem " + strconv.Itoa(int(p))
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
