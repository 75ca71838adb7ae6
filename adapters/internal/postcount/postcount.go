// Package postcount says how the number of posts a filter matches adds up
// from counts of posts by status and author. The SQL stores keep those
// counts in tables that triggers update as posts are written, so that the
// total of a list is a small read whatever the number of posts; which
// counts a filter needs is the same for every such store, and is decided
// here once.
package postcount

import (
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Tally says which counts the number of posts a filter matches adds up
// from: the published posts of every author when Published, and Author's
// published posts and drafts when AuthorPublished and AuthorDrafts say so.
// The zero Tally adds up to no post at all.
type Tally struct {
	Published       bool
	Author          int64
	AuthorPublished bool
	AuthorDrafts    bool
}

// Of returns how the number of posts f matches adds up from counts of
// posts by status and author, and false when it does not: a search or a tag
// keeps posts for what they hold, which only the posts can tell, and a
// status other than published or draft matches nothing the counts know.
func Of(f ports.PostFilter) (Tally, bool) {
	if f.Search != "" || f.TagSlug != "" {
		return Tally{}, false
	}
	// Drafts are visible to their author only, so the drafts f can match
	// are the viewer's, and only if the author filter keeps the viewer.
	ownDrafts := f.Viewer != 0 && (f.AuthorID == 0 || f.AuthorID == f.Viewer)
	switch {
	case f.Status == domain.StatusPublished && f.AuthorID == 0:
		return Tally{Published: true}, true
	case f.Status == domain.StatusPublished:
		return Tally{Author: f.AuthorID, AuthorPublished: true}, true
	case f.Status == domain.StatusDraft && ownDrafts:
		return Tally{Author: f.Viewer, AuthorDrafts: true}, true
	case f.Status == domain.StatusDraft:
		return Tally{}, true
	case f.Status != "":
		return Tally{}, false
	case f.AuthorID != 0:
		return Tally{Author: f.AuthorID, AuthorPublished: true, AuthorDrafts: ownDrafts}, true
	case ownDrafts:
		return Tally{Published: true, Author: f.Viewer, AuthorDrafts: true}, true
	default:
		return Tally{Published: true}, true
	}
}

// Counted reports whether t needs any count; when it does not, the filter
// matches no post.
func (t Tally) Counted() bool {
	return t.Published || t.AuthorPublished || t.AuthorDrafts
}

// Sum adds up the counts t names out of the number of published posts and
// the numbers of t.Author's published posts and drafts.
func (t Tally) Sum(published, authorPublished, authorDrafts int64) int64 {
	var n int64
	if t.Published {
		n += published
	}
	if t.AuthorPublished {
		n += authorPublished
	}
	if t.AuthorDrafts {
		n += authorDrafts
	}
	return n
}

// Walk says how to read a page of a list whose length is known from the
// end nearer to it: skip Skip entries and take Take, from the start of the
// list, or from its end when Backward (the page is then read in reverse).
// A deep page is found by skipping entries one by one, so starting from
// the nearer end halves the longest skip.
type Walk struct {
	Skip, Take int
	Backward   bool
}

// WalkTo returns the walk to the page of up to limit entries at offset in
// a list of total entries, and false when the page holds none.
func WalkTo(total, offset, limit int) (Walk, bool) {
	offset = max(offset, 0)
	if limit <= 0 || offset >= total {
		return Walk{}, false
	}
	take := min(limit, total-offset)
	if offset <= total/2 {
		return Walk{Skip: offset, Take: take}, true
	}
	return Walk{Skip: total - offset - take, Take: take, Backward: true}, true
}
