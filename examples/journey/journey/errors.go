package journey

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidInput is wrapped by every error about the arguments of
// [Planner.Find] and [Planner.Station]: the caller should change its input.
var ErrInvalidInput = errors.New("invalid input")

// ErrUnknownStation is matched by an [*UnknownStationError].
var ErrUnknownStation = errors.New("unknown station")

// UnknownStationError reports a station name that names no station, or
// more than one. It matches both [ErrUnknownStation] and [ErrInvalidInput]
// with [errors.Is].
type UnknownStationError struct {
	// Name is the name as given, trimmed of surrounding white space.
	Name string
	// Suggestions are up to three station names, the closest first: the
	// stations the name is a prefix of when Ambiguous, else the stations
	// with the smallest edit distance.
	Suggestions []string
	// Ambiguous is set when Name is a prefix of several stations.
	Ambiguous bool
}

// Error says which name was wrong and which names to try instead.
func (e *UnknownStationError) Error() string {
	var b strings.Builder
	if e.Ambiguous {
		fmt.Fprintf(&b, "station %q is ambiguous", e.Name)
	} else {
		fmt.Fprintf(&b, "unknown station %q", e.Name)
	}
	if len(e.Suggestions) > 0 {
		b.WriteString("; did you mean ")
		for i, s := range e.Suggestions {
			switch {
			case i == 0:
			case i == len(e.Suggestions)-1:
				b.WriteString(" or ")
			default:
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", s)
		}
		b.WriteString("?")
	}
	return b.String()
}

// Unwrap returns [ErrUnknownStation] and [ErrInvalidInput], for [errors.Is].
func (e *UnknownStationError) Unwrap() []error {
	return []error{ErrUnknownStation, ErrInvalidInput}
}

// invalid returns an error wrapping [ErrInvalidInput] with a message
// formatted like [fmt.Sprintf]; it reads "invalid input: <message>".
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidInput}, args...)...)
}
