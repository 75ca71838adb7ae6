package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/inkwell/inkwell/adapters/internal/eventpayload"
	"github.com/inkwell/inkwell/adapters/internal/wakeup"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// events implements ports.EventRepository. AppendEvent hands out ids in
// commit order and notifies every replica's listener at the commit.
type events struct{ q *db.Queries }

var _ ports.EventRepository = events{}

func (r events) Append(ctx context.Context, e *domain.Event) error {
	payload, err := eventpayload.Marshal(e.Payload)
	if err != nil {
		return fmt.Errorf("append event: %w", err)
	}
	id, err := r.q.AppendEvent(ctx, db.AppendEventParams{
		Type:            string(e.Type),
		Topic:           e.Type.Topic(),
		CreatedAt:       dbTime(e.CreatedAt),
		PostID:          e.PostID,
		PostAuthorID:    e.PostAuthorID,
		CommentAuthorID: e.CommentAuthorID,
		Draft:           e.Draft,
		Payload:         payload,
	})
	if err != nil {
		return storeError("append event", err)
	}
	e.ID = id
	return nil
}

func (r events) After(ctx context.Context, after int64, limit int, f ports.EventFilter) ([]domain.Event, error) {
	const op = "read events"
	if limit <= 0 {
		limit = 1 << 62
	}
	topics := f.Topics
	if topics == nil {
		topics = []string{}
	}
	rows, err := r.q.EventsAfter(ctx, db.EventsAfterParams{After: after, Topics: topics, PostID: f.PostID, RowLimit: int64(limit)})
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
			Draft:           row.Draft,
		}
		var err error
		if out[i].Payload, err = eventpayload.Unmarshal(row.Payload); err != nil {
			return nil, fmt.Errorf("%s: event %d: %w", op, row.ID, err)
		}
	}
	return out, nil
}

func (r events) Last(ctx context.Context) (int64, error) {
	last, err := r.q.LastEventID(ctx)
	if err != nil {
		return 0, storeError("read the last event id", err)
	}
	return last, nil
}

func (r events) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := r.q.PruneEvents(ctx, dbTime(cutoff))
	if err != nil {
		return 0, storeError("prune events", err)
	}
	return n, nil
}

// eventChannel is the channel AppendEvent notifies.
const eventChannel = "inkwell_events"

// listener holds one connection per replica that LISTENs on eventChannel
// and wakes the replica's subscribers on every notification. LISTEN binds a
// session, so the connection must reach PostgreSQL itself, never a pooler
// in transaction mode. It starts with the first subscription and keeps
// reconnecting until the store closes; after each (re)connect it wakes
// everybody once, since notifications sent while it was away are lost.
type listener struct {
	url   string
	waker wakeup.Broadcaster
	once  sync.Once
	stop  context.CancelFunc
	done  chan struct{}
	mu    sync.Mutex // guards stop and done against Close
}

// Subscribe implements ports.EventWaker.
func (s *Store) Subscribe() (<-chan struct{}, func()) {
	s.listen.once.Do(s.listen.start)
	return s.listen.waker.Subscribe()
}

func (l *listener) start() {
	ctx, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	l.stop, l.done = cancel, make(chan struct{})
	l.mu.Unlock()
	go func() {
		defer close(l.done)
		backoff := 100 * time.Millisecond
		for ctx.Err() == nil {
			if err := l.run(ctx); err == nil || ctx.Err() != nil {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 5*time.Second)
		}
	}()
}

// run listens on one connection until it fails or ctx ends.
func (l *listener) run(ctx context.Context) error {
	cfg, err := pgxpool.ParseConfig(l.url)
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+eventChannel); err != nil {
		return err
	}
	l.waker.Wake()
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		l.waker.Wake()
	}
}

// close ends the listener, if it started, and waits for it.
func (l *listener) close() {
	l.once.Do(func() {}) // a listener that never started never will
	l.mu.Lock()
	stop, done := l.stop, l.done
	l.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}
