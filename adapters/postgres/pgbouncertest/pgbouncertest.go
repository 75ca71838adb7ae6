// Package pgbouncertest runs a real PgBouncer in transaction pooling for
// tests, on a free loopback port in front of a test's PostgreSQL database,
// configured from the repository's deploy/pgbouncer.ini.
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
	"testing"
	"time"

	"github.com/inkwell/inkwell/internal/logtest"
)

// URL starts a PgBouncer in front of the database at direct (a postgres://
// URL, typically from pgtest.URL) and returns the URL of the same database
// through it. PgBouncer stops when tb ends. It skips tb when PgBouncer is
// not installed (fails it under REQUIRE_PGBOUNCER=1).
func URL(tb testing.TB, direct string) string {
	tb.Helper()
	return URLWith(tb, direct, nil)
}

// URLWith is URL with some of deploy/pgbouncer.ini's settings changed, such
// as max_prepared_statements = 0 for a pooler that keeps no prepared
// statements.
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
	listen := start(tb, host, port, u.User.Username(), password, settings)
	pooled := *u
	pooled.Host = listen
	return pooled.String()
}

// start starts a PgBouncer in transaction pooling that passes every
// database of the server at host:port on, under the name the client asks
// for, to user, and returns its address, 127.0.0.1:port. It stops when tb
// ends.
func start(tb testing.TB, host, port, user, password string, settings map[string]string) string {
	tb.Helper()
	bin, err := binary()
	if err != nil {
		if os.Getenv("REQUIRE_PGBOUNCER") == "1" {
			tb.Fatalf("pgbouncertest: REQUIRE_PGBOUNCER=1 but %v", err)
		}
		tb.Skipf("pgbouncertest: %v; make services installs one", err)
	}
	template, err := DeployFile("pgbouncer.ini")
	if err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}
	listen, err := freePort()
	if err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}
	// The folder must be readable by the user PgBouncer runs as, which
	// tb.TempDir's parents are not when the test runs as root.
	dir, err := os.MkdirTemp("", "pgbouncertest-")
	if err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}
	tb.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}
	users := filepath.Join(dir, "userlist.txt")
	// With trust PgBouncer checks no client's password but wants the user
	// listed, with the password it logs in to the server with, which the
	// server checks.
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	line := quote(user) + " " + quote(password) + "\n"
	if err := os.WriteFile(users, []byte(line), 0o600); err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}
	set := map[string]string{
		"*":           "host=" + host + " port=" + port,
		"listen_port": strconv.Itoa(listen),
		"auth_type":   "trust",
		"auth_file":   users,
		"logfile":     "",
		"pidfile":     "",
	}
	maps.Copy(set, settings)
	ini, err := SetINI(template, set)
	if err != nil {
		tb.Fatalf("pgbouncertest: deploy/pgbouncer.ini: %v", err)
	}
	cfg := filepath.Join(dir, "pgbouncer.ini")
	if err := os.WriteFile(cfg, []byte(ini), 0o644); err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}
	if err := handOver(users); err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}

	cmd, err := command(bin, cfg)
	if err != nil {
		tb.Fatalf("pgbouncertest: %v", err)
	}
	var out logtest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		tb.Fatalf("pgbouncertest: start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	tb.Cleanup(func() {
		// SIGINT is PgBouncer's safe shutdown: it waits for the clients'
		// transactions; SIGTERM stops at once, which is all a test needs.
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Signal(os.Kill)
			<-exited
		}
	})
	addr := "127.0.0.1:" + strconv.Itoa(listen)
	if err := waitUntilListening(addr, exited); err != nil {
		tb.Fatalf("pgbouncertest: pgbouncer on %s: %v; its output:\n%s", addr, err, out.String())
	}
	return addr
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

// command runs PgBouncer on cfg, as an unprivileged user when this process
// is root, since PgBouncer refuses to run as root.
func command(bin, cfg string) (*exec.Cmd, error) {
	if os.Geteuid() != 0 {
		return exec.Command(bin, cfg), nil
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return nil, errors.New("running as root, and setpriv, needed to run pgbouncer as another user, is missing")
	}
	u, err := runAs()
	if err != nil {
		return nil, err
	}
	return exec.Command(setpriv, "--reuid="+u.Uid, "--regid="+u.Gid, "--clear-groups", bin, cfg), nil
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
