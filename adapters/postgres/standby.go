package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/inkwell/inkwell/adapters/internal/searchtotal"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Standby is a hot standby of the primary database (streaming
// replication), or a pooler or balancer in front of several, that may
// answer the reads whose context tolerates staleness
// (ports.AllowStaleReads): the post views and the tag list, outside
// transactions. Everything else reads and writes the primary.
type Standby struct {
	// URL reaches the standby, as the primary's URL reaches the primary.
	URL string
	// MaxLag is the most the standby may lag behind the primary; further
	// behind, or unreachable, it is skipped until it is back within the
	// limit. DefaultMaxLag when zero.
	MaxLag time.Duration
	// Log hears when the standby is skipped and when it is back; nil
	// discards.
	Log *slog.Logger
}

// DefaultMaxLag is the most a standby may lag behind the primary when
// Standby.MaxLag is zero.
const DefaultMaxLag = 2 * time.Second

// Option changes how Open and OpenPooled open the store.
type Option func(*options)

type options struct {
	standby *Standby
}

// WithStandby sends the reads that tolerate staleness to s while it keeps
// within s.MaxLag of the primary. Opening the store does not wait for the
// standby: one that cannot be reached is simply not used until it can.
func WithStandby(s Standby) Option {
	return func(o *options) { o.standby = &s }
}

// target is a database a routed read runs on: its pool, the queries on it
// and the totals of title searches read there.
type target struct {
	conn   *pgxpool.Pool
	q      *db.Queries
	totals *searchtotal.Cache
}

// reads chooses, for each read that may be routed, the database that runs
// it, and counts where reads went. Without a standby every read goes to
// the primary.
type reads struct {
	primary              target
	standby              *standby // nil without one
	toPrimary, toStandby atomic.Int64
}

// run runs read on the standby when ctx tolerates staleness and the
// standby is fresh, and on the primary otherwise. A read the standby fails
// because it cannot serve (unreachable, shutting down, a conflict with
// replay) marks it unusable until its next good check, and runs again on
// the primary: a read is safe to repeat, and the caller should not see the
// standby's trouble.
func (rd *reads) run(ctx context.Context, read func(target) error) error {
	if sb := rd.standby; sb != nil && ports.StaleReadsAllowed(ctx) && sb.fresh(time.Now()) {
		rd.toStandby.Add(1)
		err := read(sb.target)
		if err == nil || !sb.failed(ctx, err) {
			return err
		}
	}
	rd.toPrimary.Add(1)
	return read(rd.primary)
}

// stats reports the reads and the standby's state.
func (rd *reads) stats() ports.ReadStats {
	st := ports.ReadStats{Primary: rd.toPrimary.Load(), Standby: rd.toStandby.Load()}
	if sb := rd.standby; sb != nil {
		st.HasStandby = true
		st.Usable = sb.fresh(time.Now())
		if since := sb.lagSince.Load(); since >= 0 {
			st.Lag, st.LagKnown = time.Since(time.Unix(0, since)), true
		}
	}
	return st
}

var _ ports.ReadReporter = (*Store)(nil)

// ReadStats implements ports.ReadReporter.
func (s *Store) ReadStats() ports.ReadStats { return s.reads.stats() }

// walSample is the primary's WAL write position at a moment: every
// transaction committed by then is in the WAL before lsn. (A transaction
// committed with synchronous_commit off may not be written yet, for up to
// the primary's wal_writer_delay; the lag measured then is short by as
// much.)
type walSample struct {
	at  time.Time
	lsn int64
}

// standby watches a standby's replay from a goroutine of its own and says
// whether reads may go there.
//
// Each check reads the primary's pg_current_wal_lsn() and notes when it
// asked, keeping these samples for a while, then the standby's
// pg_last_wal_replay_lsn(). The newest sample whose position the standby
// has replayed tells how fresh the standby is: it holds every transaction
// the primary had committed at that sample's time. So the standby's lag is
// now minus that time, and it may answer reads until that time plus the
// limit, when it would be older than allowed; the next check, a quarter of
// the limit (at most a second) later, moves that moment on while replay
// keeps up. A primary without writes keeps its position, which the
// standby has replayed, so the newest sample, just taken, counts and there
// is no lag; paused or slow
// replay under writes leaves the samples behind and the lag grows with
// the time since the last one replayed.
type standby struct {
	target
	primary *pgxpool.Pool // the checks' own connection to the primary
	check   *pgxpool.Pool // the checks' own connection to the standby
	maxLag  time.Duration
	every   time.Duration
	log     *slog.Logger

	// freshUntil is when, in Unix nanoseconds, the standby's data becomes
	// older than maxLag; 0 while it may not be read.
	freshUntil atomic.Int64
	// lagSince is when the newest commit the standby holds for certain was
	// made, in Unix nanoseconds, as the last check found it; -1 when it is
	// not known. The lag reported is the time since then, read when it is
	// reported, so that it agrees with fresh, which turns false once that
	// time is further back than the limit.
	lagSince atomic.Int64

	samples []walSample // the check goroutine's alone
	usable  bool        // what the last check logged
	stop    context.CancelFunc
	done    sync.WaitGroup
}

// openStandby prepares the standby's pools and starts its checks, the first
// of them before it returns, so that a standby that is there serves from
// the start.
func openStandby(ctx context.Context, sb Standby, primaryURL string, tracer *statementCounter) (*standby, error) {
	if sb.MaxLag <= 0 {
		sb.MaxLag = DefaultMaxLag
	}
	if sb.Log == nil {
		sb.Log = slog.New(slog.DiscardHandler)
	}
	cfg, err := pgxpool.ParseConfig(sb.URL)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse standby url: %w", err)
	}
	configurePool(cfg, sb.URL)
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, storeError("postgres: create standby pool", err)
	}
	// The checks have connections of their own, one to each server, so
	// that a busy pool delays no check and the checks count among no
	// request's statements.
	checkPool := func(url string) (*pgxpool.Pool, error) {
		cfg, err := pgxpool.ParseConfig(url)
		if err != nil {
			return nil, err
		}
		configurePool(cfg, url)
		cfg.MaxConns = 1
		return pgxpool.NewWithConfig(ctx, cfg)
	}
	primary, err := checkPool(primaryURL)
	if err != nil {
		pool.Close()
		return nil, storeError("postgres: create standby check pool", err)
	}
	check, err := checkPool(sb.URL)
	if err != nil {
		pool.Close()
		primary.Close()
		return nil, storeError("postgres: create standby check pool", err)
	}
	s := &standby{
		target:  target{conn: pool, q: db.New(pool), totals: searchtotal.New()},
		primary: primary,
		check:   check,
		maxLag:  sb.MaxLag,
		every:   min(max(sb.MaxLag/4, 10*time.Millisecond), time.Second),
		log:     sb.Log,
	}
	s.lagSince.Store(-1)
	s.tick(ctx)
	loop, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	s.done.Add(1)
	go s.run(loop)
	return s, nil
}

// close stops the checks and closes the pools.
func (s *standby) close() {
	s.stop()
	s.done.Wait()
	s.conn.Close()
	s.primary.Close()
	s.check.Close()
}

// run checks the standby every s.every until ctx ends.
func (s *standby) run(ctx context.Context) {
	defer s.done.Done()
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.tick(ctx)
		}
	}
}

// fresh reports whether the standby may answer a read at now.
func (s *standby) fresh(now time.Time) bool {
	return now.UnixNano() < s.freshUntil.Load()
}

// tick checks the standby once and publishes the outcome.
func (s *standby) tick(ctx context.Context) {
	// A check that takes longer than the limit could not show a usable
	// standby anyway.
	ctx, cancel := context.WithTimeout(ctx, s.maxLag)
	defer cancel()
	caughtUp, lag, err := s.measure(ctx)
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return // the store is closing
	}
	if errors.Is(err, errBehind) {
		s.freshUntil.Store(0)
		s.lagSince.Store(time.Now().Add(-lag).UnixNano())
		s.report(false, "postgres: standby skipped: it has not caught up", "lag_at_least", lag, "limit", s.maxLag)
		return
	}
	if err != nil {
		s.freshUntil.Store(0)
		s.lagSince.Store(-1)
		s.report(false, "postgres: standby skipped: cannot check it", "error", err)
		return
	}
	s.lagSince.Store(time.Now().Add(-lag).UnixNano())
	until := caughtUp.Add(s.maxLag)
	if lag > s.maxLag {
		s.freshUntil.Store(0)
		s.report(false, "postgres: standby skipped: it lags more than the limit", "lag", lag, "limit", s.maxLag)
		return
	}
	s.freshUntil.Store(until.UnixNano())
	s.report(true, "postgres: standby serves anonymous reads", "lag", lag)
}

// report logs a change of the standby's usability, once per change.
func (s *standby) report(usable bool, msg string, args ...any) {
	if usable == s.usable {
		return
	}
	s.usable = usable
	if usable {
		s.log.Info(msg, args...)
	} else {
		s.log.Warn(msg, args...)
	}
}

// measure takes a sample of the primary's WAL position, reads the
// standby's replay position, and returns the time of the newest sample
// the standby has replayed and its lag, now minus that time; errBehind,
// with a lag it exceeds, when no kept sample has been replayed.
func (s *standby) measure(ctx context.Context) (time.Time, time.Duration, error) {
	at := time.Now()
	var lsn int64
	if err := s.primary.QueryRow(ctx, `SELECT (pg_current_wal_lsn() - '0/0')::bigint`).Scan(&lsn); err != nil {
		return time.Time{}, 0, fmt.Errorf("read the primary's WAL position: %w", err)
	}
	s.samples = append(s.samples, walSample{at: at, lsn: lsn})
	if len(s.samples) > maxSamples {
		s.samples = slices.Delete(s.samples, 1, 2)
	}
	var replayed *int64
	if err := s.check.QueryRow(ctx, `SELECT (pg_last_wal_replay_lsn() - '0/0')::bigint`).Scan(&replayed); err != nil {
		return time.Time{}, 0, fmt.Errorf("read the standby's replay position: %w", err)
	}
	if replayed == nil {
		return time.Time{}, 0, errors.New("the standby is not in recovery: DATABASE_READ_URL names no standby")
	}
	now := time.Now()
	// The newest sample replayed is kept, with every sample after it, so
	// that the lag keeps growing while replay stands still; the older ones
	// can tell nothing more. A long pause thins the samples after it.
	for i := len(s.samples) - 1; i >= 0; i-- {
		if s.samples[i].lsn <= *replayed {
			s.samples = s.samples[i:]
			return s.samples[0].at, now.Sub(s.samples[0].at), nil
		}
	}
	// Even the oldest sample is not replayed yet (a standby still catching
	// up at the start, or one behind a balancer that lags its peers): the
	// lag is at least the time since then.
	return time.Time{}, now.Sub(s.samples[0].at), errBehind
}

// maxSamples bounds the samples kept while replay stands still or the
// standby cannot be reached; the oldest, which the standby has replayed,
// stays, and the others thin out from there.
const maxSamples = 1000

// errBehind says that the standby has not replayed the oldest sample kept:
// its lag is at least the time since that sample.
var errBehind = errors.New("the standby has not replayed the oldest position kept")

// failed reports whether err, which a read on the standby returned, says
// that the standby cannot serve rather than something about the read; it
// then marks the standby unusable until its next good check. A read whose
// context has ended is not repeated.
func (s *standby) failed(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var pgErr *pgconn.PgError
	switch {
	case domain.KindOf(err) == domain.Unavailable:
	case errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "40") || strings.HasPrefix(pgErr.Code, "57P")):
		// Class 40 is how a hot standby cancels a query that conflicts
		// with replay; 57P0x, a server shutting down.
	default:
		return false
	}
	s.freshUntil.Store(0)
	s.log.Warn("postgres: standby skipped until its next check: a read failed there", "error", err)
	return true
}
