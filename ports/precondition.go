package ports

import (
	"slices"
	"time"
)

// Precondition is what a conditional write (If-Match) expects of the stored
// resource: that it is still at one of the versions the caller read. A
// resource's version is its UpdatedAt, which every change moves. The zero
// value expects nothing.
type Precondition struct {
	versions []time.Time
	set      bool
}

// IfVersion expects the resource at one of versions; with none, no version
// satisfies it.
func IfVersion(versions ...time.Time) Precondition {
	return Precondition{versions: versions, set: true}
}

// Allows reports whether a resource at version satisfies p.
func (p Precondition) Allows(version time.Time) bool {
	return !p.set || slices.ContainsFunc(p.versions, version.Equal)
}
