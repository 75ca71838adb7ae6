package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/internal/wakeup"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// eventQueries are sqlrepo.EventQueries. AppendEvent hands out ids in
// commit order and notifies every replica's listener at the commit.
type eventQueries struct{ q *db.Queries }

var _ sqlrepo.EventQueries = eventQueries{}

func (r eventQueries) AppendEvent(ctx context.Context, e domain.Event, payload []byte) (int64, error) {
	return r.q.AppendEvent(ctx, db.AppendEventParams(sqlrepo.NewEventOf[[]byte](values, e, payload)))
}

func (r eventQueries) EventsAfter(ctx context.Context, after int64, limit int, f ports.EventFilter) ([]sqlrepo.Stored[domain.Event], error) {
	if limit <= 0 {
		limit = 1 << 62
	}
	topics := f.Topics
	if topics == nil {
		topics = []string{}
	}
	rows, err := r.q.EventsAfter(ctx, db.EventsAfterParams{After: after, Topics: topics, PostID: f.PostID, RowLimit: int64(limit)})
	return sqlrepo.Rows(rows, func(row db.EventsAfterRow) sqlrepo.Stored[domain.Event] { return sqlrepo.EventOf(values, row) }), err
}

func (r eventQueries) LastEventID(ctx context.Context) (int64, error) {
	return r.q.LastEventID(ctx)
}

func (r eventQueries) PruneEvents(ctx context.Context, cutoff time.Time) (int64, error) {
	return r.q.PruneEvents(ctx, dbTime(cutoff))
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
