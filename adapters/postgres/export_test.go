package postgres

import (
	"context"

	"github.com/inkwell/inkwell/ports"
)

// CountPosts returns how many posts f matches through r's views, the count
// whose counters and statements the tests measure on their own.
func CountPosts(ctx context.Context, r ports.Repos, f ports.PostFilter) (int, error) {
	return r.PostViews.(postViews).count(ctx, f)
}

// JoinedTitle is the expression the title searches ask
// posts_title_joined_trgm about.
var JoinedTitle = joinedTitle
