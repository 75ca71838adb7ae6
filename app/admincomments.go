package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.Admin. The total is bounded
// (ports.AdminListCountBound) rather than exact: PostgreSQL keeps no
// count of comments, and an exact one would read every comment on every
// page.
func (a *Admin) Comments(ctx context.Context, c ports.AdminCaller, q ports.AdminCommentQuery) ([]ports.AdminComment, int, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	q.Page = capped(q.Page)
	comments, total, err := r.Admin.Comments(ctx, q, ports.AdminListCountBound(q.Page))
	if err != nil {
		return nil, 0, fmt.Errorf("admin comments: %w", err)
	}
	return comments, total, nil
}
