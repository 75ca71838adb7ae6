package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.Admin. The total is bounded (listBound) rather
// than exact: PostgreSQL keeps no count of comments, and an exact one
// would read every comment on every page. An author's e-mail is read
// through the accounts' unique key and becomes the author's id, so the
// store walks the same index as for a filter by author.
func (a *Admin) Comments(ctx context.Context, c ports.AdminCaller, q ports.AdminCommentQuery) (ports.Counted[ports.AdminComment], error) {
	var none ports.Counted[ports.AdminComment]
	r, err := a.reads(ctx, c)
	if err != nil {
		return none, err
	}
	if q.AuthorEmail != "" {
		if rules := domain.CheckEmail(q.AuthorEmail); rules != nil {
			return none, domain.InvalidField("email", rules...)
		}
		u, err := r.Users.ByEmail(ctx, q.AuthorEmail)
		if errors.Is(err, domain.ErrNotFound) || (err == nil && q.UserID > 0 && q.UserID != u.ID) {
			return none, nil
		}
		if err != nil {
			return none, fmt.Errorf("admin comments: %w", err)
		}
		q.UserID, q.AuthorEmail = u.ID, ""
	}
	q.Page = capped(q.Page)
	bound := listBound(q.Page)
	comments, total, err := r.Admin.Comments(ctx, q, bound)
	if err != nil {
		return none, fmt.Errorf("admin comments: %w", err)
	}
	return ports.CountedUpTo(comments, total, bound), nil
}
