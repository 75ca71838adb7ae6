package sqlite

import (
	"context"
	"strings"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// eventQueries are sqlrepo.EventQueries. SQLite has one writer at a time,
// so events commit in the order of their ids.
type eventQueries struct{ c conns }

var _ sqlrepo.EventQueries = eventQueries{}

// AppendEvent notes the append, so that the outbox's readers are woken
// once the transaction commits.
func (q eventQueries) AppendEvent(ctx context.Context, e domain.Event, payload []byte) (int64, error) {
	id, err := q.c.write.AppendEvent(ctx, db.AppendEventParams(sqlrepo.NewEventOf[string](values, e, payload)))
	if err == nil {
		q.c.appended()
	}
	return id, err
}

func (q eventQueries) EventsAfter(ctx context.Context, after int64, limit int, f ports.EventFilter) ([]sqlrepo.Stored[domain.Event], error) {
	topics := ""
	if len(f.Topics) > 0 {
		topics = "," + strings.Join(f.Topics, ",") + ","
	}
	if limit <= 0 {
		limit = -1 // SQLite's LIMIT -1 has no limit
	}
	rows, err := q.c.read.EventsAfter(ctx, db.EventsAfterParams{After: after, Topics: topics, PostID: f.PostID, RowLimit: int64(limit)})
	return sqlrepo.Rows(rows, func(row db.EventsAfterRow) sqlrepo.Stored[domain.Event] { return sqlrepo.EventOf(values, row) }), err
}

// LastEventID reads the newest id AUTOINCREMENT handed out, which
// sqlite_sequence keeps after its event was pruned; sqlc's catalogue of
// SQLite has no sqlite_sequence, so the query is written here.
func (q eventQueries) LastEventID(ctx context.Context) (int64, error) {
	var last int64
	err := q.c.readDB.QueryRowContext(ctx, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)`).Scan(&last)
	return last, err
}

func (q eventQueries) PruneEvents(ctx context.Context, cutoff time.Time) (int64, error) {
	return q.c.write.PruneEvents(ctx, dbTime(cutoff))
}

func dbBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
