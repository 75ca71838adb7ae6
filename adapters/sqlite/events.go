package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/eventpayload"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// events is ports.EventRepository. SQLite has one writer at a time, so
// events commit in the order of their ids.
type events struct{ c conns }

func (r events) Append(ctx context.Context, e *domain.Event) error {
	payload, err := eventpayload.Marshal(e.Payload)
	if err != nil {
		return fmt.Errorf("append event: %w", err)
	}
	id, err := r.c.write.AppendEvent(ctx, db.AppendEventParams{
		Type:            string(e.Type),
		Topic:           e.Type.Topic(),
		CreatedAt:       dbTime(e.CreatedAt),
		PostID:          e.PostID,
		PostAuthorID:    e.PostAuthorID,
		CommentAuthorID: e.CommentAuthorID,
		Draft:           dbBool(e.Draft),
		Payload:         string(payload),
	})
	if err != nil {
		return storeError("append event", err)
	}
	e.ID = id
	r.c.appended()
	return nil
}

func (r events) After(ctx context.Context, after int64, limit int, f ports.EventFilter) ([]domain.Event, error) {
	const op = "read events"
	topics := ""
	if len(f.Topics) > 0 {
		topics = "," + strings.Join(f.Topics, ",") + ","
	}
	if limit <= 0 {
		limit = -1 // SQLite's LIMIT -1 has no limit
	}
	rows, err := r.c.read.EventsAfter(ctx, db.EventsAfterParams{After: after, Topics: topics, PostID: f.PostID, RowLimit: int64(limit)})
	if err != nil {
		return nil, storeError(op, err)
	}
	out := make([]domain.Event, len(rows))
	for i, row := range rows {
		out[i] = domain.Event{
			ID:              row.ID,
			Type:            domain.EventType(row.Type),
			CreatedAt:       timeOf(row.CreatedAt),
			PostID:          row.PostID,
			PostAuthorID:    row.PostAuthorID,
			CommentAuthorID: row.CommentAuthorID,
			Draft:           row.Draft != 0,
		}
		var err error
		if out[i].Payload, err = eventpayload.Unmarshal([]byte(row.Payload)); err != nil {
			return nil, fmt.Errorf("%s: event %d: %w", op, row.ID, err)
		}
	}
	return out, nil
}

// Last reads the newest id AUTOINCREMENT handed out, which sqlite_sequence
// keeps after its event was pruned; sqlc's catalogue of SQLite has no
// sqlite_sequence, so the query is written here.
func (r events) Last(ctx context.Context) (int64, error) {
	var last int64
	err := r.c.readDB.QueryRowContext(ctx, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)`).Scan(&last)
	if err != nil {
		return 0, storeError("read the last event id", err)
	}
	return last, nil
}

func (r events) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := r.c.write.PruneEvents(ctx, dbTime(cutoff))
	if err != nil {
		return 0, storeError("prune events", err)
	}
	return n, nil
}

func dbBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
