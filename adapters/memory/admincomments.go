package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.AdminRepository. The total counts every match
// up to countTo + 1, as the SQL stores bound theirs.
func (r admin) Comments(ctx context.Context, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error) {
	var all []ports.AdminComment
	posts := q.Posts()
	err := r.u.read(ctx, func(s *state) error {
		for _, c := range s.comments {
			if (posts != nil && !slices.Contains(posts, c.PostID)) || (q.UserID > 0 && c.UserID != q.UserID) {
				continue
			}
			all = append(all, ports.AdminComment{
				Comment:     cloneComment(c),
				AuthorEmail: s.users[c.UserID].Email,
				PostTitle:   s.posts[c.PostID].Title,
			})
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(all, func(a, b ports.AdminComment) int { return cmp.Compare(b.Comment.ID, a.Comment.ID) })
	if q.Sort == ports.AdminSortOldest {
		slices.Reverse(all)
	}
	return paged(all, q.Page), min(len(all), max(countTo, 0)+1), nil
}
