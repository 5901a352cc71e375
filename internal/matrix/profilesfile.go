package matrix

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a profiles file.
const (
	// MaxProfilesFileSize is the largest profiles file LoadProfiles reads.
	MaxProfilesFileSize = 1 << 20
	// MaxProfiles is the most profiles a file may hold.
	MaxProfiles = 64
	// MaxTagsPerProfile is the most tags one profile may list. It is above
	// the grammar's own limit so that a file can test how a server treats
	// too many tags.
	MaxTagsPerProfile = 256
	// MaxTagLen is the longest tag a file may hold, in bytes.
	MaxTagLen = 1024
	// MaxNameLen is the longest profile name, in bytes.
	MaxNameLen = 64
)

// Errors of LoadProfiles, for errors.Is. The returned errors wrap one of
// them and say where the problem is.
var (
	// ErrTooLarge: the file is larger than MaxProfilesFileSize, or holds too
	// many profiles or tags, or a name or tag that is too long.
	ErrTooLarge = errors.New("too large")
	// ErrUnknownFormat: the file's extension is neither .json, .yaml nor
	// .yml (files without an extension are recognised by their content).
	ErrUnknownFormat = errors.New("unknown file format")
	// ErrSyntax: the file is not valid JSON or YAML.
	ErrSyntax = errors.New("syntax error")
	// ErrNotAMap: the document is not a map of profile names to tag lists.
	ErrNotAMap = errors.New("not a map of profile names to tag lists")
	// ErrBadTags: a profile's value is neither a list of strings nor null.
	ErrBadTags = errors.New("tags must be a list of strings, or null")
	// ErrBadName: a profile name is empty, not a string, repeated or holds
	// control characters.
	ErrBadName = errors.New("bad profile name")
	// ErrNoProfiles: the file holds no profile.
	ErrNoProfiles = errors.New("no profiles")
)

// LoadProfiles reads a profiles file: a map from profile name to the list of
// tags that profile declares, in JSON (.json) or YAML (.yaml, .yml); a file
// without an extension is read as JSON when it starts with "{" and as YAML
// otherwise. A null value declares nothing (the extension is not declared),
// an empty list declares the extension with no features. Profiles keep the
// file's order.
func LoadProfiles(path string) ([]Profile, error) {
	profiles, err := loadProfiles(path)
	if err != nil {
		return nil, fmt.Errorf("profiles file %s: %w", path, err)
	}
	return profiles, nil
}

func loadProfiles(path string) ([]Profile, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".json", ".yaml", ".yml", "":
	default:
		return nil, fmt.Errorf("%w %q: want .json, .yaml or .yml", ErrUnknownFormat, ext)
	}
	data, err := readBounded(path, MaxProfilesFileSize)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrNoProfiles)
	}
	if ext == ".json" || (ext == "" && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))) {
		return parseJSON(data)
	}
	return parseYAML(data)
}

// readBounded reads at most limit bytes of the file at path, and fails if
// there are more.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrTooLarge, limit)
	}
	return data, nil
}

// collector checks and gathers the profiles of a file, whatever its format.
type collector struct {
	profiles []Profile
	seen     map[string]bool
}

// add appends one profile; where says where it is in the file, for errors.
func (c *collector) add(name string, tags []string, where string) error {
	switch {
	case name == "":
		return fmt.Errorf("%s: %w: empty", where, ErrBadName)
	case len(name) > MaxNameLen:
		return fmt.Errorf("%s: %w: name longer than %d bytes", where, ErrTooLarge, MaxNameLen)
	case !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("%s: %w: %q holds control characters or invalid UTF-8", where, ErrBadName, name)
	case c.seen[name]:
		return fmt.Errorf("%s: %w: %q appears twice", where, ErrBadName, name)
	case len(c.profiles) >= MaxProfiles:
		return fmt.Errorf("%s: %w: more than %d profiles", where, ErrTooLarge, MaxProfiles)
	case len(tags) > MaxTagsPerProfile:
		return fmt.Errorf("%s: %w: profile %q has more than %d tags", where, ErrTooLarge, name, MaxTagsPerProfile)
	}
	for i, t := range tags {
		if len(t) > MaxTagLen {
			return fmt.Errorf("%s: %w: tag %d of profile %q is longer than %d bytes", where, ErrTooLarge, i+1, name, MaxTagLen)
		}
	}
	if c.seen == nil {
		c.seen = make(map[string]bool)
	}
	c.seen[name] = true
	c.profiles = append(c.profiles, Profile{Name: name, Tags: tags})
	return nil
}

func (c *collector) result() ([]Profile, error) {
	if len(c.profiles) == 0 {
		return nil, fmt.Errorf("%w: the map is empty", ErrNoProfiles)
	}
	return c.profiles, nil
}
