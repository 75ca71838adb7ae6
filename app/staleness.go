package app

import (
	"context"

	"github.com/inkwell/inkwell/ports"
)

// readBy returns the context for a read of area A's posts or tags by
// viewer (0: anonymous). A caller with neither token nor session cannot
// have written in area A, so nothing it did can be missing from a copy of
// the store that lags a little: its reads may go to a standby
// (ports.AllowStaleReads), and see the store as it was up to the store's
// lag limit ago. Everybody else reads the primary, so that a caller who
// could have written always reads its own writes. A read whose answer is
// kept for others (ports.RequireFreshReads) reads the primary too.
func readBy(ctx context.Context, viewer int64) context.Context {
	if viewer != 0 || ports.FreshReadsRequired(ctx) {
		return ctx
	}
	return ports.AllowStaleReads(ctx)
}
