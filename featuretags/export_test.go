package featuretags

import "github.com/contentneg/contentneg/internal/tagspec"

// What the package's external tests name: the limits, the registry keys
// and the problems, which are not part of its API.
const (
	MaxTags   = maxTags
	MaxTagLen = maxTagLen

	Format    = tagspec.Format
	Verbosity = tagspec.Verbosity

	Trimmed            Problem = tagspec.Trimmed
	Invalid            Problem = tagspec.Invalid
	TooLong            Problem = tagspec.TooLong
	TooMany            Problem = tagspec.TooMany
	NotAString         Problem = tagspec.NotAString
	NotAList           Problem = tagspec.NotAList
	Contradiction      Problem = tagspec.Contradiction
	ConflictingValue   Problem = tagspec.ConflictingValue
	UnknownValue       Problem = tagspec.UnknownValue
	WrongForm          Problem = tagspec.WrongForm
	BothAudiences      Problem = tagspec.BothAudiences
	UnsupportedVersion Problem = tagspec.UnsupportedVersion
	CommaList          Problem = tagspec.CommaList
)

// Contains reports whether the set holds a tag of the same name, form and
// value.
func (s Set) Contains(t Tag) bool { return s.find(t.Name, t.Value, t.Op) }
