package shaping

import "github.com/contentneg/contentneg/internal/notfound"

// ErrNotFound marks a resource that does not exist. A resource handler may
// wrap it (fmt.Errorf("city %q: %w", slug, shaping.ErrNotFound)); the
// core turns it, like every other form of "not found" (fs.ErrNotExist, the
// earlier specifications' -32002, an empty list of contents), into the
// error the contract prescribes, through [ResourcePort] NotFound.
var ErrNotFound = notfound.ErrNotFound
