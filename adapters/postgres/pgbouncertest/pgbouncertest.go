// Package pgbouncertest runs a real PgBouncer in transaction pooling for
// tests, on a free loopback port in front of a test's PostgreSQL database,
// configured from the repository's deploy/pgbouncer.ini.
//
// A test binary starts one PgBouncer per server and settings, on first
// use, and its tests share it: each reaches its own database through it,
// in a pool of that database's own, as replicas of several services would.
// Starting one per test cost more than most tests of the store. It ends
// with the test binary, however that ends.
//
// The binary is pgbouncer on PATH or Debian's /usr/sbin/pgbouncer, of
// version 1.21 or later (the first that keeps prepared statements in
// transaction pooling; make services builds one where Debian's is older).
// Without it the tests skip, unless REQUIRE_PGBOUNCER=1 (as CI sets), which makes
// them fail instead. PgBouncer refuses to run as root, so under root it runs
// as the postgres user (or nobody) through setpriv.
package pgbouncertest

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/internal/logtest"
)

// URL returns the URL of the database at direct (a postgres:// URL,
// typically from pgtest.URL) through the test binary's PgBouncer in front
// of its server, started on first use. It skips tb when PgBouncer is not
// installed (fails it under REQUIRE_PGBOUNCER=1).
func URL(tb testing.TB, direct string) string {
	tb.Helper()
	return URLWith(tb, direct, nil)
}

// URLWith is URL through a PgBouncer with some of deploy/pgbouncer.ini's
// settings changed, such as max_prepared_statements = 0 for a pooler that
// keeps no prepared statements; the tests asking for the same settings
// share it.
func URLWith(tb testing.TB, direct string, settings map[string]string) string {
	tb.Helper()
	u, err := url.Parse(direct)
	if err != nil {
		tb.Fatalf("pgbouncertest: parse %q: %v", direct, err)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "5432"
	}
	password, _ := u.User.Password()
	listen := shared(tb, server{host, port, u.User.Username(), password}, settings)
	pooled := *u
	pooled.Host = listen
	return pooled.String()
}

// server is what a PgBouncer passes its clients on to.
type server struct{ host, port, user, password string }

// running holds the test binary's PgBouncers by server and settings, and
// the pipes that keep them alive: each stops when its pipe closes, which
// the kernel does when the binary exits.
var running struct {
	sync.Mutex
	addrs map[string]string
	pipes []*os.File
}

// shared returns the address of the binary's PgBouncer for srv and
// settings, starting it if none runs.
func shared(tb testing.TB, srv server, settings map[string]string) string {
	tb.Helper()
	key := fmt.Sprint(srv, settings) // fmt prints a map's keys sorted
	running.Lock()
	defer running.Unlock()
	if addr, ok := running.addrs[key]; ok {
		return addr
	}
	addr, err := start(srv, settings)
	if err != nil {
		if errors.Is(err, errNoBinary) && os.Getenv("REQUIRE_PGBOUNCER") != "1" {
			tb.Skipf("pgbouncertest: %v; make services installs one", err)
		}
		tb.Fatalf("pgbouncertest: %v", err)
	}
	if running.addrs == nil {
		running.addrs = map[string]string{}
	}
	running.addrs[key] = addr
	return addr
}

// errNoBinary says that no PgBouncer fit to run was found.
var errNoBinary = errors.New("no PgBouncer")

// start starts a PgBouncer in transaction pooling that passes every
// database of srv on, under the name the client asks for, and returns its
// address, 127.0.0.1:port. It runs under a shell that stops it once its
// standard input, a pipe this binary holds open, reaches its end.
// running.Mutex is held.
func start(srv server, settings map[string]string) (string, error) {
	bin, err := binary()
	if err != nil {
		return "", fmt.Errorf("%w: %v", errNoBinary, err)
	}
	template, err := DeployFile("pgbouncer.ini")
	if err != nil {
		return "", err
	}
	listen, err := freePort()
	if err != nil {
		return "", err
	}
	// The folder must be readable by the user PgBouncer runs as, which
	// the test's temporary folders are not when the test runs as root.
	// PgBouncer reads both files as it starts, so the folder goes then.
	dir, err := os.MkdirTemp("", "pgbouncertest-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	users := filepath.Join(dir, "userlist.txt")
	// With trust PgBouncer checks no client's password but wants the user
	// listed, with the password it logs in to the server with, which the
	// server checks.
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	line := quote(srv.user) + " " + quote(srv.password) + "\n"
	if err := os.WriteFile(users, []byte(line), 0o600); err != nil {
		return "", err
	}
	set := map[string]string{
		"*":           "host=" + srv.host + " port=" + srv.port,
		"listen_port": strconv.Itoa(listen),
		"auth_type":   "trust",
		"auth_file":   users,
		"logfile":     "",
		"pidfile":     "",
	}
	maps.Copy(set, settings)
	ini, err := SetINI(template, set)
	if err != nil {
		return "", fmt.Errorf("deploy/pgbouncer.ini: %v", err)
	}
	cfg := filepath.Join(dir, "pgbouncer.ini")
	if err := os.WriteFile(cfg, []byte(ini), 0o644); err != nil {
		return "", err
	}
	if err := handOver(users); err != nil {
		return "", err
	}

	cmd, err := command(bin, cfg)
	if err != nil {
		return "", err
	}
	keep, held, err := os.Pipe()
	if err != nil {
		return "", err
	}
	var out logtest.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = keep, &out, &out
	if err := cmd.Start(); err != nil {
		keep.Close()
		held.Close()
		return "", fmt.Errorf("start %s: %v", bin, err)
	}
	keep.Close()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	addr := "127.0.0.1:" + strconv.Itoa(listen)
	if err := waitUntilListening(addr, exited); err != nil {
		held.Close()
		return "", fmt.Errorf("pgbouncer on %s: %v; its output:\n%s", addr, err, out.String())
	}
	running.pipes = append(running.pipes, held)
	return addr, nil
}

// binary finds PgBouncer on PATH or where Debian installs it, and checks
// that it keeps prepared statements in transaction pooling (1.21 or later),
// as deploy/pgbouncer.ini and the store expect.
func binary() (string, error) {
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		const debian = "/usr/sbin/pgbouncer"
		fi, err := os.Stat(debian)
		if err != nil || fi.Mode()&0o111 == 0 {
			return "", errors.New("pgbouncer is neither on PATH nor at /usr/sbin/pgbouncer")
		}
		bin = debian
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v", bin, err)
	}
	major, minor, ok := version(string(out))
	if !ok {
		return "", fmt.Errorf("%s --version printed no version: %q", bin, out)
	}
	if major < 1 || major == 1 && minor < 21 {
		return "", fmt.Errorf("%s is PgBouncer %d.%d, older than 1.21, which keeps no prepared statements in transaction pooling (make services builds a newer one)", bin, major, minor)
	}
	return bin, nil
}

// version reads the major and minor version from the first line of
// pgbouncer --version, "PgBouncer 1.24.1".
func version(out string) (major, minor int, ok bool) {
	line, _, _ := strings.Cut(out, "\n")
	v, found := strings.CutPrefix(strings.TrimSpace(line), "PgBouncer ")
	if !found {
		return 0, 0, false
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}

// runAs is the user PgBouncer runs as when this process is root, since
// PgBouncer refuses to run as root.
func runAs() (*user.User, error) {
	for _, name := range []string{"postgres", "nobody"} {
		if u, err := user.Lookup(name); err == nil {
			return u, nil
		}
	}
	return nil, errors.New("running as root, and neither a postgres nor a nobody user exists to run pgbouncer as")
}

// handOver gives the file with the password to the user PgBouncer runs as,
// readable by it alone.
func handOver(path string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := runAs()
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(path, uid, gid)
}

// command runs PgBouncer on cfg under a shell that stops it when its
// standard input ends, as an unprivileged user when this process is root,
// since PgBouncer refuses to run as root. A shell's background job ignores
// SIGINT, so it stops PgBouncer with SIGTERM, which waits for the clients:
// by then they are gone with the binary.
func command(bin, cfg string) (*exec.Cmd, error) {
	shell := []string{"sh", "-c", `"$0" "$1" </dev/null & pid=$!; cat >/dev/null; kill -TERM $pid; wait $pid`, bin, cfg}
	if os.Geteuid() != 0 {
		return exec.Command(shell[0], shell[1:]...), nil
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return nil, errors.New("running as root, and setpriv, needed to run pgbouncer as another user, is missing")
	}
	u, err := runAs()
	if err != nil {
		return nil, err
	}
	return exec.Command(setpriv, append([]string{"--reuid=" + u.Uid, "--regid=" + u.Gid, "--clear-groups"}, shell...)...), nil
}

// DeployFile reads a file of the repository's deploy folder, found by
// walking up from the working directory (a test's package folder) to the
// module's go.mod.
func DeployFile(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			b, err := os.ReadFile(filepath.Join(dir, "deploy", name))
			return string(b), err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory to find deploy/%s", name)
		}
		dir = parent
	}
}

// SetINI gives keys of an INI text new values, wherever they are set
// ("key = value" lines, comments aside). Every key must be set in the text,
// so that a renamed key in the file fails loudly rather than going
// unchanged.
func SetINI(text string, values map[string]string) (string, error) {
	var b strings.Builder
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		key, _, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if value, known := values[key]; ok && known && !strings.HasPrefix(key, ";") {
			line = key + " = " + value
			seen[key] = true
		}
		b.WriteString(line + "\n")
	}
	for key := range values {
		if !seen[key] {
			return "", fmt.Errorf("%s is not set in the file", key)
		}
	}
	return b.String(), sc.Err()
}

// freePort asks the kernel for a free loopback port. Another process could
// take it before PgBouncer binds it; the start then fails with PgBouncer's
// own message.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitUntilListening polls addr until it accepts a connection.
func waitUntilListening(addr string, exited <-chan struct{}) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-exited:
			return errors.New("exited before listening")
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return errors.New("not listening within 10 seconds: " + err.Error())
		}
	}
}
