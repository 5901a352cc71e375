package featuretags

import (
	"strconv"
	"strings"

	"github.com/contentneg/contentneg/internal/tagspec"
)

// Problem says what a [Diagnostic] is about: its String describes it in a
// few words, and Malformed says whether it makes a declaration malformed.
// The zero Problem is none.
type Problem uint8

var problemText = [...]string{
	tagspec.Trimmed:            "surrounding white space trimmed",
	tagspec.Invalid:            "not a valid feature tag; ignored",
	tagspec.TooLong:            "longer than " + strconv.Itoa(maxTagLen) + " bytes; ignored",
	tagspec.TooMany:            "more than " + strconv.Itoa(maxTags) + " tags; this one and the rest are ignored",
	tagspec.NotAString:         "not a string; ignored",
	tagspec.NotAList:           "features is neither an array nor a string; no tag read",
	tagspec.Contradiction:      "contradicted by a negation, which wins; dropped",
	tagspec.ConflictingValue:   "a second value for a registry key; the first wins, this one is dropped",
	tagspec.UnknownValue:       "not a value the registry lists for this key; ignored",
	tagspec.WrongForm:          "a registry name in a form it does not take; ignored",
	tagspec.BothAudiences:      "agent and human both given; the audience is unknown",
	tagspec.NotAnObject:        "the settings are not an object; no tag read, read as !interactive",
	tagspec.MissingVersion:     "no version; 1.0 assumed",
	tagspec.BadVersion:         "version is not a version string; no tag read, read as !interactive",
	tagspec.UnsupportedVersion: "unsupported major version; extension not declared",
	tagspec.CommaList:          "features is a string, not an array; read as a comma-separated list",
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
// name, a tag past 128 bytes, tags past the 64th, an element that is not
// a string, a features value or settings of the wrong JSON type, a version
// that is not a version string). A declared client whose settings are
// malformed is treated as "!interactive" (contract section 2): consent never
// rests on a declaration the server could not read. Trimmed white space,
// contradictions, conflicting or unknown values of registry keys, both
// audiences, a missing version and an unsupported major version are read
// fine and are not malformed.
func (p Problem) Malformed() bool {
	switch p {
	case tagspec.Invalid, tagspec.TooLong, tagspec.TooMany, tagspec.NotAString, tagspec.NotAList,
		tagspec.WrongForm, tagspec.NotAnObject, tagspec.BadVersion, tagspec.CommaList:
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
	// Related is the position of the other element involved, or -1: the
	// element that won when a tag contradicts another, gives a registry key
	// a second value, or names the other audience.
	Related int
	// Problem says what was wrong.
	Problem Problem
	// Tag is the offending input as given, cut to at most 128 bytes. It
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
	if d.Tag != "" || d.Index >= 0 && d.Problem != tagspec.NotAString {
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

// clip cuts s to at most maxTagLen bytes without copying it.
func clip(s string) string {
	if len(s) > maxTagLen {
		return s[:maxTagLen]
	}
	return s
}
