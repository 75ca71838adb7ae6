package app_test

import (
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The Trash page's posts come from every account, each with its own author
// and e-mail and its own tags, read for the whole page at once.
func TestAdminTrashedPostsOfSeveralAuthors(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			bob := domain.Actor{User: w.bob}
			tag, err := w.svc.Tags.Create(ctx, bob, "go")
			if err != nil {
				t.Fatal(err)
			}
			bobs, err := w.svc.Posts.Create(ctx, bob, ports.PostInput{Title: "Bob's", Body: "b", Status: domain.StatusPublished, TagIDs: []int64{tag.ID}})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range []struct {
				actor domain.Actor
				id    int64
			}{{domain.Actor{User: w.ann}, w.published.ID()}, {bob, bobs.Post.ID()}} {
				if err := w.svc.Posts.Delete(ctx, domain.ByOwnRight(d.actor), d.id, ports.Precondition{}); err != nil {
					t.Fatalf("trash post %d: %v", d.id, err)
				}
			}
			got, err := w.svc.Admin.TrashedPosts(ctx, w.caller(), ports.Page{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != 2 || len(got.Rows) != 2 {
				t.Fatalf("TrashedPosts: %d rows of %d, want 2 of 2", len(got.Rows), got.Total)
			}
			want := map[int64]struct {
				author domain.User
				tags   int
			}{w.published.ID(): {w.ann, 0}, bobs.Post.ID(): {w.bob, 1}}
			for _, row := range got.Rows {
				wp, ok := want[row.Post.ID()]
				if !ok {
					t.Fatalf("TrashedPosts: unexpected post %d", row.Post.ID())
				}
				if row.Author != wp.author.Author() || row.AuthorEmail != wp.author.Email {
					t.Errorf("post %d: author %+v <%s>, want %+v <%s>", row.Post.ID(), row.Author, row.AuthorEmail, wp.author.Author(), wp.author.Email)
				}
				if len(row.Tags) != wp.tags || row.DeletedAt == nil {
					t.Errorf("post %d: tags %v, deleted at %v; want %d tags and a time", row.Post.ID(), row.Tags, row.DeletedAt, wp.tags)
				}
			}
		})
	}
}
