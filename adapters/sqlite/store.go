// Package sqlite is the embedded store: ports.Store on a single SQLite file,
// through modernc.org/sqlite (pure Go, no cgo) and the queries sqlc generates
// into internal/db.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/inkwell/inkwell/adapters/internal/searchtotal"
	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/internal/wakeup"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// connParams configure every connection, with the synchronous setting Open
// adds. WAL lets readers work while a writer commits; foreign keys are off
// by default in SQLite and the schema relies on them for ON DELETE CASCADE;
// the busy timeout makes a connection wait for the file lock instead of
// failing at once; _txlock=immediate makes BEGIN take the write lock at
// once, so a transaction that reads and then writes never fails half-way
// with SQLITE_BUSY when another connection wrote in between.
const connParams = "_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_txlock=immediate"

// readerParams additionally make the reader connections refuse writes, so a
// write sent to the wrong pool fails loudly instead of contending for the lock.
const readerParams = connParams + "&_pragma=query_only(1)"

// Synchronous is SQLite's synchronous setting: how far a commit waits for
// the disk.
type Synchronous string

const (
	// SynchronousFull syncs the write-ahead log at every commit, so that a
	// write the store acknowledged survives a power loss. Open's default.
	SynchronousFull Synchronous = "FULL"
	// SynchronousNormal syncs the log only at checkpoints: a commit costs
	// less, and survives a crash of the process, but a power loss may undo
	// the last commits (without corrupting the file).
	SynchronousNormal Synchronous = "NORMAL"
)

// Option changes how Open sets up the database.
type Option func(*options)

type options struct {
	synchronous      Synchronous
	noAutoCheckpoint bool
}

// WithSynchronous sets the synchronous setting of every connection.
func WithSynchronous(s Synchronous) Option {
	return func(o *options) { o.synchronous = s }
}

// WithoutAutoCheckpoint stops the writer from checkpointing the WAL after
// its commits, for a file whose checkpoints something else runs: the
// continuous backup (adapters/litestream) checkpoints itself, once it has
// copied the frames, and holds a read transaction between its syncs that
// pins the WAL. SQLite's automatic checkpoint after every commit past 1,000
// WAL pages cannot get past that reader, yet sorts every frame of the WAL
// before finding so, on the one writer connection: a cost that grows with
// the WAL and that every writer waits for.
func WithoutAutoCheckpoint() Option {
	return func(o *options) { o.noAutoCheckpoint = true }
}

// Store is ports.Store on one SQLite file.
//
// It keeps two pools on that file. SQLite admits one writer at a time, and
// connections that wait for its lock poll with growing sleeps, unfairly; so
// every write, and every transaction, goes through a pool of exactly one
// connection, where database/sql queues writers in order and a waiting writer
// gives up when its context ends. Reads outside transactions go to a second
// pool sized to the processors (at least four): in WAL mode they run in
// parallel with each other and with the writer, each on its own snapshot.
// The busy timeout still matters for other processes using the same file,
// such as a command-line run beside the server.
//
// A transaction holds the only writer connection, so code inside InTx must
// use the Repos it is given: writing through Store.Repos there would wait for
// the very connection the transaction holds, until its context ends.
type Store struct {
	writer  *sql.DB
	reader  *sql.DB
	queries atomic.Int64 // statements sent, see Queries
	repos   ports.Repos
	// waker wakes the outbox's readers after a commit that appended events.
	waker wakeup.Broadcaster
}

var _ ports.Store = (*Store)(nil)

// Open opens (creating it and its folder when missing) the SQLite database at
// path, applies the pending migrations and returns the store with a cleanup
// function that closes it.
func Open(ctx context.Context, path string, opts ...Option) (*Store, func(), error) {
	o := options{synchronous: SynchronousFull}
	for _, opt := range opts {
		opt(&o)
	}
	if o.synchronous != SynchronousFull && o.synchronous != SynchronousNormal {
		return nil, nil, fmt.Errorf("sqlite: synchronous %q is neither %s nor %s", o.synchronous, SynchronousFull, SynchronousNormal)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, nil, fmt.Errorf("sqlite: create folder of %s: %w", path, err)
	}
	synchronous := "&_pragma=synchronous(" + string(o.synchronous) + ")"
	writerParams := connParams + synchronous
	if o.noAutoCheckpoint {
		writerParams += "&_pragma=wal_autocheckpoint(0)"
	}
	writer, err := openPool(path, writerParams)
	if err != nil {
		return nil, nil, err
	}
	writer.SetMaxOpenConns(1)
	if err := migrate(ctx, writer); err != nil {
		writer.Close()
		return nil, nil, fmt.Errorf("sqlite: migrate %s: %w", path, err)
	}

	reader, err := openPool(path, readerParams+synchronous)
	if err != nil {
		writer.Close()
		return nil, nil, err
	}
	readers := max(4, runtime.GOMAXPROCS(0))
	reader.SetMaxOpenConns(readers)
	// Idle readers stay open: a new connection costs a file open, the pragmas
	// and a cold page cache, and each one keeps its prepared statements
	// (stmtcache.go).
	reader.SetMaxIdleConns(readers)
	if err := reader.PingContext(ctx); err != nil {
		reader.Close()
		writer.Close()
		return nil, nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}

	s := &Store{writer: writer, reader: reader}
	s.repos = conns{
		read:    db.New(s.count(reader)),
		write:   db.New(s.count(writer)),
		readDB:  s.count(reader),
		readTx:  s.readTx,
		begin:   s.inTx,
		waker:   &s.waker,
		totals:  searchtotal.New(),
		batches: &batchCache{},
	}.repos()
	cleanup := func() {
		reader.Close()
		writer.Close()
	}
	return s, cleanup, nil
}

// openPool opens a database/sql pool on path whose connections keep their
// statements prepared (see stmtcache.go).
func openPool(path, params string) (*sql.DB, error) {
	c, err := newConnector(dsn(path, params))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return sql.OpenDB(c), nil
}

// dsn builds the driver's URI for path. SQLite decodes percent escapes in a
// "file:" URI, so the characters that would end the path are escaped.
func dsn(path, params string) string {
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + escaped + "?" + params
}

// Repos returns repositories that work outside a transaction.
func (s *Store) Repos() ports.Repos {
	return s.repos
}

// InTx runs fn in one immediate transaction on the writer connection and
// commits when fn returns nil. fn's own error is returned as it is.
func (s *Store) InTx(ctx context.Context, fn func(ports.Repos) error) error {
	return s.inTx(ctx, func(c conns) error { return fn(c.repos()) })
}

// Queries returns how many SQL statements the store's repositories have sent
// since Open: reads, writes and the statements inside transactions alike,
// counted where they pass to database/sql. The BEGIN and COMMIT of a
// transaction, the migrations and Ping are not counted. It lets tests show
// that a page of posts costs a fixed number of statements, whatever its size;
// an atomic add per statement is cheap enough to keep in production.
func (s *Store) Queries() int64 {
	return s.queries.Load()
}

// count wraps conn so that its statements add to Queries.
func (s *Store) count(conn db.DBTX) db.DBTX {
	return counted{conn: conn, n: &s.queries}
}

// inTx runs fn on the connections of one immediate transaction, as InTx
// describes. Those connections open no transaction of their own: their
// writes that must be atomic are atomic within this one.
func (s *Store) inTx(ctx context.Context, fn func(conns) error) error {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return storeError("begin transaction", err)
	}
	done := false
	defer func() {
		if !done {
			// A panic in fn must not leave the writer connection inside an open
			// transaction; the panic itself goes on unwinding.
			_ = tx.Rollback()
		}
	}()

	conn := s.count(tx)
	q := db.New(conn)
	notes := &txNotes{}
	err = fn(conns{read: q, write: q, readDB: conn, waker: &s.waker, notes: notes})
	done = true
	if err != nil {
		// The rollback error, if any, says less than fn's: the transaction is
		// discarded either way.
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return storeError("commit", err)
	}
	if notes.appended {
		s.waker.Wake()
	}
	return nil
}

// readTx runs fn in a read transaction on the reader pool: every statement
// fn sends through its argument reads the same snapshot. The transaction is
// deferred (ReadOnly keeps the driver from beginning it IMMEDIATE), so it
// takes no lock but the snapshot, and it is rolled back, having nothing to
// commit.
func (s *Store) readTx(ctx context.Context, fn func(db.DBTX) error) error {
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return storeError("begin read transaction", err)
	}
	defer tx.Rollback() // nothing to commit
	return fn(s.count(tx))
}

// Subscribe implements ports.EventWaker.
func (s *Store) Subscribe() (<-chan struct{}, func()) { return s.waker.Subscribe() }

// Ping reports whether the database can be reached; a failure is of kind
// domain.Unavailable. It asks the reader pool only: the writer connection may
// be held by a long transaction, and a readiness probe must not queue behind it.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.reader.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w: %w", domain.ErrUnavailable, err)
	}
	return nil
}

// conns are the connections one set of repositories uses. Outside a
// transaction read is the reader pool and write the writer connection; inside
// one both are the transaction, so reads see its own writes.
type conns struct {
	read  *db.Queries
	write *db.Queries
	// readDB runs the queries sqlc cannot express: the lists of posts and
	// of people, built from fragments.
	readDB db.DBTX
	// readTx runs a function of several reads on one snapshot (Store.readTx);
	// it is nil inside a transaction, whose reads share one already.
	readTx func(ctx context.Context, fn func(db.DBTX) error) error
	// begin opens a transaction on the writer; it is nil inside one.
	begin func(ctx context.Context, fn func(conns) error) error
	// totals keeps the totals of title searches between changes of the
	// published titles (searchPage); it is nil inside a transaction, whose
	// reads may see its own uncommitted writes.
	totals *searchtotal.Cache
	// batches keeps the bounds of the batches title searches walk
	// (searchPage) beside totals, and is nil where it is.
	batches *batchCache
	// waker is the store's; notes, nil outside a transaction, what the
	// transaction did that matters after its commit.
	waker *wakeup.Broadcaster
	notes *txNotes
}

// txNotes is what a transaction did that matters once it commits.
type txNotes struct {
	appended bool // events were appended
}

// appended notes that events were appended: their readers are woken at
// once outside a transaction, where the write has committed, and at the
// commit inside one.
func (c conns) appended() {
	if c.notes == nil {
		c.waker.Wake()
		return
	}
	c.notes.appended = true
}

// atomically runs fn as one unit of work: inside InTx on the transaction's
// connections, where fn's statements stand or fall with that transaction, and
// outside in an immediate transaction of its own, which commits them all or
// none.
func (c conns) atomically(ctx context.Context, fn func(conns) error) error {
	if c.begin == nil {
		return fn(c)
	}
	return c.begin(ctx, fn)
}

func (c conns) repos() ports.Repos {
	return ports.Repos{
		Users:          sqlrepo.Users{Q: userQueries{c}, B: border},
		Tokens:         sqlrepo.Tokens{Q: tokenQueries{c}, B: border},
		RateLimits:     sqlrepo.RateLimits{Q: rateLimitQueries{c}, B: border},
		Idempotency:    sqlrepo.Idempotency{Q: idempotencyQueries{c}, B: border},
		People:         sqlrepo.People{Q: personQueries{c}, B: border},
		Products:       sqlrepo.Products{Q: productQueries{c}, B: border},
		Posts:          sqlrepo.Posts{Q: postQueries{c}, B: border},
		PostViews:      postViews{c},
		Tags:           sqlrepo.Tags{Q: tagQueries{c}, B: border},
		Comments:       sqlrepo.Comments{Q: commentQueries{c}, B: border},
		Sessions:       sqlrepo.Sessions{Q: sessionQueries{c}, B: border},
		Events:         sqlrepo.Events{Q: eventQueries{c}, B: border},
		Webhooks:       sqlrepo.Webhooks{Q: webhookQueries{c}, B: border},
		Deliveries:     sqlrepo.Deliveries{Q: webhookQueries{c}, B: border},
		Mails:          sqlrepo.Mails{Q: mailQueries{c}, B: border},
		PasswordResets: sqlrepo.PasswordResets{Q: passwordResetQueries{c}, B: border},
		Admin:          sqlrepo.Admin{Q: admin{c}, B: border},
		Trash:          trash{c},
	}
}
