package memory

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var _ demo.Seeder = (*Store)(nil)

// seedReport is how many rows pass between two progress reports.
const seedReport = 1000

// Seed implements demo.Seeder with the repositories' own inserts in one
// transaction: the memory store serves tests and demos, whose plans are
// small, and going through the repositories keeps every index of the state
// right without a second way of writing it.
func (s *Store) Seed(ctx context.Context, plan demo.Plan, progress func(done, total int)) error {
	if err := plan.Validate(); err != nil {
		return err
	}
	total, done := plan.Rows(), 0
	report := func(n int) {
		before := done
		done += n
		if progress != nil && (done/seedReport != before/seedReport || done == total) {
			progress(done, total)
		}
	}
	return s.InTx(ctx, func(r ports.Repos) error {
		// The transaction's unit holds the copy being written, so the check
		// and the inserts see the same state.
		ur, ok := r.Users.(users)
		if !ok {
			return fmt.Errorf("seed: unexpected user repository %T", r.Users)
		}
		err := ur.u.read(ctx, func(st *state) error {
			if len(st.users)+len(st.tags)+len(st.posts)+len(st.comments) > 0 {
				return demo.ErrNotEmpty
			}
			return nil
		})
		if err != nil {
			return err
		}

		userIDs := make([]int64, plan.Users)
		for i := range plan.Users {
			g := plan.User(i)
			verified := g.EmailVerifiedAt
			u := domain.User{Name: g.Name, Email: g.Email, PasswordHash: g.PasswordHash,
				EmailVerifiedAt: &verified, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
			if err := r.Users.Create(ctx, &u); err != nil {
				return fmt.Errorf("seed user %d: %w", i+1, err)
			}
			userIDs[i] = u.ID
			report(1)
		}
		tagIDs := make([]int64, plan.Tags)
		for i := range plan.Tags {
			g := plan.Tag(i)
			t := domain.Tag{Name: g.Name, Slug: g.Slug, CreatedAt: g.CreatedAt, UpdatedAt: g.CreatedAt}
			if err := r.Tags.Create(ctx, &t); err != nil {
				return fmt.Errorf("seed tag %d: %w", i+1, err)
			}
			tagIDs[i] = t.ID
			report(1)
		}
		postIDs := make([]int64, plan.Posts)
		for i := range plan.Posts {
			g := plan.Post(i)
			p := domain.RestorePost(domain.PostState{
				AuthorID: userIDs[g.Author], Title: g.Title, Slug: g.Slug, Excerpt: g.Excerpt, Body: g.Body,
				Status: g.Status, PublishedAt: g.PublishedAt, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt,
			})
			if err := r.Posts.Create(ctx, &p); err != nil {
				return fmt.Errorf("seed post %d: %w", i+1, err)
			}
			postIDs[i] = p.ID()
			if len(g.Tags) > 0 {
				ids := make([]int64, len(g.Tags))
				for k, t := range g.Tags {
					ids[k] = tagIDs[t]
				}
				if err := r.Posts.SetTags(ctx, p.ID(), ids); err != nil {
					return fmt.Errorf("seed tags of post %d: %w", i+1, err)
				}
			}
			report(1 + len(g.Tags))
		}
		for i := range plan.Comments {
			g := plan.Comment(i)
			c := domain.Comment{PostID: postIDs[g.Post], UserID: userIDs[g.User], Body: g.Body, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
			if err := r.Comments.Create(ctx, &c); err != nil {
				return fmt.Errorf("seed comment %d: %w", i+1, err)
			}
			report(1)
		}
		if total == 0 && progress != nil {
			progress(0, 0)
		}
		return nil
	})
}
