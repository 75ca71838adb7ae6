// Package standbytest runs a PostgreSQL primary and a hot standby of its
// own for a test: two servers of Debian's PostgreSQL binaries, each in a
// temporary folder and on a free loopback port, the standby made with
// pg_basebackup -R and fed by streaming replication. The machine's own
// cluster is not touched.
//
// The binaries are those of /usr/lib/postgresql/<version>/bin (the newest
// version there), or of the folder PG_BINDIR names. Without them the tests
// skip, unless REQUIRE_POSTGRES=1 (as CI sets), which makes them fail
// instead. PostgreSQL refuses to run as root, so under root the servers
// run as the postgres user through setpriv, as pgbouncertest runs
// PgBouncer.
package standbytest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/inkwell/inkwell/internal/logtest"
)

// Pair is a primary and its hot standby.
type Pair struct {
	// PrimaryURL and StandbyURL reach the database postgres on each server
	// as the superuser postgres, without a password.
	PrimaryURL, StandbyURL string
	standby                *server
}

// Start starts a primary and a standby streaming from it, both stopped
// when tb ends. It skips tb when the PostgreSQL binaries are missing
// (fails it under REQUIRE_POSTGRES=1).
func Start(tb testing.TB) *Pair {
	tb.Helper()
	bin, err := binDir()
	if err != nil {
		if os.Getenv("REQUIRE_POSTGRES") == "1" {
			tb.Fatalf("standbytest: REQUIRE_POSTGRES=1 but %v", err)
		}
		tb.Skipf("standbytest: %v; install Debian's postgresql package", err)
	}
	runAs, err := runner()
	if err != nil {
		tb.Fatalf("standbytest: %v", err)
	}
	// The folder must be writable by the user the servers run as, which
	// tb.TempDir's parents are not when the test runs as root.
	dir, err := os.MkdirTemp("", "standbytest-")
	if err != nil {
		tb.Fatalf("standbytest: %v", err)
	}
	tb.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := runAs.own(dir); err != nil {
		tb.Fatalf("standbytest: %v", err)
	}

	primaryDir := filepath.Join(dir, "primary")
	if out, err := runAs.command(filepath.Join(bin, "initdb"), "-D", primaryDir, "-U", "postgres",
		"--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync").CombinedOutput(); err != nil {
		tb.Fatalf("standbytest: initdb: %v\n%s", err, out)
	}
	primary := startServer(tb, runAs, bin, primaryDir, dir)

	standbyDir := filepath.Join(dir, "standby")
	// -R writes standby.signal and primary_conninfo: the copy starts as a
	// hot standby streaming from the primary.
	if out, err := runAs.command(filepath.Join(bin, "pg_basebackup"), "-h", "127.0.0.1", "-p", strconv.Itoa(primary.port),
		"-U", "postgres", "-D", standbyDir, "-R", "-X", "stream", "-c", "fast", "--no-sync").CombinedOutput(); err != nil {
		tb.Fatalf("standbytest: pg_basebackup: %v\n%s", err, out)
	}
	standby := startServer(tb, runAs, bin, standbyDir, dir)
	return &Pair{PrimaryURL: primary.url(), StandbyURL: standby.url(), standby: standby}
}

// StopStandby stops the standby at once, as a crash or a lost network
// would take it away.
func (p *Pair) StopStandby(tb testing.TB) {
	tb.Helper()
	p.standby.stop()
}

// PauseReplay stops the standby applying the WAL it receives, so that it
// falls behind the primary's writes; ResumeReplay lets it catch up.
func (p *Pair) PauseReplay(tb testing.TB) {
	tb.Helper()
	p.exec(tb, "SELECT pg_wal_replay_pause()")
}

// ResumeReplay undoes PauseReplay.
func (p *Pair) ResumeReplay(tb testing.TB) {
	tb.Helper()
	p.exec(tb, "SELECT pg_wal_replay_resume()")
}

func (p *Pair) exec(tb testing.TB, sql string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, p.StandbyURL)
	if err != nil {
		tb.Fatalf("standbytest: connect to the standby: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		tb.Fatalf("standbytest: %s on the standby: %v", sql, err)
	}
}

// WaitForReplay waits until the standby has replayed everything the
// primary had written when it was called.
func (p *Pair) WaitForReplay(tb testing.TB) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var lsn string
	if err := queryRow(ctx, p.PrimaryURL, "SELECT pg_current_wal_lsn()::text", &lsn); err != nil {
		tb.Fatalf("standbytest: read the primary's WAL position: %v", err)
	}
	for {
		var done bool
		err := queryRow(ctx, p.StandbyURL, "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", &done, lsn)
		if err == nil && done {
			return
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("standbytest: the standby did not replay up to %s within 30s (last error: %v)", lsn, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func queryRow(ctx context.Context, url, sql string, dst any, args ...any) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return conn.QueryRow(ctx, sql, args...).Scan(dst)
}

// server is one running PostgreSQL server.
type server struct {
	port   int
	exited chan struct{}
	cmd    *exec.Cmd
}

func (s *server) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// stop shuts the server down at once (SIGQUIT, PostgreSQL's immediate
// shutdown) and waits for it to exit; stopping a stopped server does
// nothing.
func (s *server) stop() {
	select {
	case <-s.exited:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// startServer runs postgres on the data folder dataDir, listening on a free
// loopback port and on a socket in sockets, until tb ends.
func startServer(tb testing.TB, runAs *account, bin, dataDir, sockets string) *server {
	tb.Helper()
	port, err := freePort()
	if err != nil {
		tb.Fatalf("standbytest: %v", err)
	}
	cmd := runAs.command(filepath.Join(bin, "postgres"), "-D", dataDir, "-p", strconv.Itoa(port), "-k", sockets,
		"-c", "listen_addresses=127.0.0.1",
		// A test's server needs no durability, and few resources. Commits
		// stay synchronous, as they are in production: the WAL position
		// WaitForReplay and the store's lag checks read must hold every
		// transaction committed before it, which an asynchronous commit
		// may not have written yet.
		"-c", "fsync=off", "-c", "full_page_writes=off",
		"-c", "shared_buffers=16MB", "-c", "max_connections=60",
		"-c", "wal_level=replica", "-c", "hot_standby=on",
	)
	var out logtest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		tb.Fatalf("standbytest: start postgres: %v", err)
	}
	s := &server{port: port, exited: make(chan struct{}), cmd: cmd}
	go func() { _ = cmd.Wait(); close(s.exited) }()
	tb.Cleanup(s.stop)
	if err := waitUntilReady(s); err != nil {
		tb.Fatalf("standbytest: postgres on port %d: %v; its output:\n%s", port, err, out.String())
	}
	return s
}

// waitUntilReady polls the server until it accepts a query.
func waitUntilReady(s *server) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		var one int
		err := queryRow(ctx, s.url(), "SELECT 1", &one)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.exited:
			return errors.New("exited before accepting connections")
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return errors.New("not ready within 30 seconds: " + err.Error())
		}
	}
}

// binDir finds the folder of Debian's PostgreSQL binaries: PG_BINDIR, or
// the newest /usr/lib/postgresql/<version>/bin that has what is needed.
func binDir() (string, error) {
	need := []string{"initdb", "postgres", "pg_basebackup"}
	has := func(dir string) bool {
		for _, name := range need {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode()&0o111 == 0 {
				return false
			}
		}
		return true
	}
	if dir := os.Getenv("PG_BINDIR"); dir != "" {
		if !has(dir) {
			return "", fmt.Errorf("PG_BINDIR=%s lacks one of %s", dir, strings.Join(need, ", "))
		}
		return dir, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, dir := range dirs {
		if has(dir) {
			return dir, nil
		}
	}
	return "", fmt.Errorf("no /usr/lib/postgresql/*/bin holds %s", strings.Join(need, ", "))
}

// account is the user the PostgreSQL programs run as.
type account struct {
	u *user.User // nil: as this process's user
}

// runner returns the account to run the programs as: this process's user,
// or postgres when this process is root.
func runner() (*account, error) {
	if os.Geteuid() != 0 {
		return &account{}, nil
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		return nil, errors.New("running as root, and setpriv, needed to run PostgreSQL as the postgres user, is missing")
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New("running as root, and no postgres user exists to run PostgreSQL as")
	}
	return &account{u: u}, nil
}

// command runs bin with args as the account's user. Through setpriv, when
// there is one, the program gets SIGQUIT (PostgreSQL's immediate shutdown)
// should the test process die, so that no server outlives it.
func (r *account) command(bin string, args ...string) *exec.Cmd {
	var opts []string
	if r.u != nil {
		opts = []string{"--reuid=" + r.u.Uid, "--regid=" + r.u.Gid, "--clear-groups"}
	} else if _, err := exec.LookPath("setpriv"); err != nil {
		return exec.Command(bin, args...)
	}
	opts = append(opts, "--pdeathsig", "SIGQUIT", bin)
	return exec.Command("setpriv", append(opts, args...)...)
}

// own gives dir to the runner's user.
func (r *account) own(dir string) error {
	if r.u == nil {
		return nil
	}
	uid, _ := strconv.Atoi(r.u.Uid)
	gid, _ := strconv.Atoi(r.u.Gid)
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	return os.Chown(dir, uid, gid)
}

// freePort asks the kernel for a free loopback port. Another process could
// take it before the server binds it; the start then fails with the
// server's own message.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
