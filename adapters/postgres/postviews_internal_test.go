package postgres

import (
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// A page batch reads the page twice; when a post written in between shifts
// the second read, the posts it missed must be read again rather than shown
// without tags.
func TestAssignPageTags(t *testing.T) {
	view := func(id int64) ports.PostView {
		return ports.PostView{Post: domain.RestorePost(domain.PostState{ID: id})}
	}
	tagged := []domain.Tag{{ID: 7, Name: "go", Slug: "go"}}

	t.Run("same page", func(t *testing.T) {
		views := []ports.PostView{view(3), view(2), view(1)}
		missed := assignPageTags(views, map[int64][]domain.Tag{3: tagged, 2: {}, 1: tagged})
		if len(missed) != 0 {
			t.Fatalf("missed %d posts, want none", len(missed))
		}
		if len(views[0].Tags) != 1 || views[1].Tags == nil || len(views[1].Tags) != 0 || len(views[2].Tags) != 1 {
			t.Fatalf("tags = %v, %v, %v", views[0].Tags, views[1].Tags, views[2].Tags)
		}
	})
	t.Run("shifted by a new post", func(t *testing.T) {
		// The second read saw post 4 first, and post 1 fell off its end.
		views := []ports.PostView{view(3), view(2), view(1)}
		missed := assignPageTags(views, map[int64][]domain.Tag{4: {}, 3: tagged, 2: {}})
		if len(missed) != 1 || missed[0].Post.ID() != 1 {
			t.Fatalf("missed %v, want post 1", missed)
		}
		if len(views[0].Tags) != 1 {
			t.Fatalf("post 3's tags = %v", views[0].Tags)
		}
	})
	t.Run("shifted by a deleted post", func(t *testing.T) {
		views := []ports.PostView{view(3), view(2), view(1)}
		missed := assignPageTags(views, map[int64][]domain.Tag{2: {}, 1: tagged, 0: {}})
		if len(missed) != 3 {
			t.Fatalf("missed %d posts, want all 3", len(missed))
		}
	})
}
