package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// logField is the value of key in a text log line, unquoted.
func logField(line, key string) string {
	m := regexp.MustCompile(`(?:^| )` + regexp.QuoteMeta(key) + `=("(?:[^"\\]|\\.)*"|\S+)`).FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	if v, err := strconv.Unquote(m[1]); err == nil {
		return v
	}
	return m[1]
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDotenv runs commands in a folder holding a .env file, as a Laravel
// user would after cp .env.example .env: the file is read, the real
// environment wins over it, ENV_FILE names another, and the first line
// says which file was read and where APP_KEY came from.
func TestDotenv(t *testing.T) {
	dir := t.TempDir()
	fromFile, fromEnv := filepath.Join(dir, "from-file.db"), filepath.Join(dir, "from-env.db")
	writeFile(t, filepath.Join(dir, ".env"), fmt.Sprintf("# made by the test\nDATABASE_URL=sqlite://%s\nBCRYPT_COST=4\nAPP_KEY=%s\n", fromFile, newAppKey()))
	envPath := filepath.Join(dir, ".env")

	for _, tc := range []struct {
		name                  string
		env                   []string
		args                  []string
		store, envFile, keyOf string
	}{
		{"the file alone", nil, []string{"migrate"}, fromFile, envPath, "APP_KEY in " + envPath},
		{"every command reads it", nil, []string{"admin", "list"}, fromFile, envPath, "APP_KEY in " + envPath},
		{"the environment wins", []string{"DATABASE_URL=sqlite://" + fromEnv, "APP_KEY=" + newAppKey()}, []string{"migrate"}, fromEnv, envPath, "APP_KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runInkwell(t, dir, tc.env, tc.args...)
			if got.code != 0 {
				t.Fatalf("exit %d, stderr %q", got.code, got.stderr)
			}
			line, _, _ := strings.Cut(got.stderr, "\n")
			store, _ := startLine(got.stderr)
			if store != tc.store || logField(line, "env_file") != tc.envFile || logField(line, "app_key") != tc.keyOf {
				t.Errorf("first line %q: want store=%s env_file=%s app_key=%q", line, tc.store, tc.envFile, tc.keyOf)
			}
			if _, err := os.Stat(tc.store); err != nil {
				t.Errorf("the store: %v", err)
			}
		})
	}

	t.Run("ENV_FILE", func(t *testing.T) {
		other := filepath.Join(dir, "other.db")
		writeFile(t, filepath.Join(dir, "other.env"), "DATABASE_URL=sqlite://"+other+"\n")
		got := runInkwell(t, dir, []string{"ENV_FILE=other.env", "APP_KEY=" + newAppKey()}, "migrate")
		line, _, _ := strings.Cut(got.stderr, "\n")
		if store, _ := startLine(got.stderr); got.code != 0 || store != other || logField(line, "env_file") != filepath.Join(dir, "other.env") {
			t.Errorf("got exit %d, stderr %q; want 0, store %s read from other.env", got.code, got.stderr, other)
		}
	})

	t.Run("no file", func(t *testing.T) {
		empty := t.TempDir()
		got := runInkwell(t, empty, []string{"DATABASE_URL=sqlite://" + filepath.Join(empty, "x.db"), "APP_KEY=" + newAppKey()}, "migrate")
		line, _, _ := strings.Cut(got.stderr, "\n")
		if got.code != 0 || logField(line, "env_file") != "none" {
			t.Errorf("got exit %d, stderr %q; want 0 and env_file=none", got.code, got.stderr)
		}
	})

	for _, tc := range []struct {
		name, file, env, want string
	}{
		{"ENV_FILE missing", "", "ENV_FILE=missing.env", "inkwell: ENV_FILE: missing.env does not exist; fix ENV_FILE, or unset it to read .env\n"},
		{"quote not closed", "PORT=3000\nAPP_KEY=\"base64:hunter2\nBCRYPT_COST=4\n", "", "inkwell: .env: not a file of KEY=VALUE lines: a quoted value has no closing quote\n"},
		{"not a key", "PORT=3000\nhunter 2\n", "", "inkwell: .env: not a file of KEY=VALUE lines: a line is neither a comment nor NAME=value with a NAME of letters, digits, _ and .\n"},
		{"a bad value", "REQUEST_TIMEOUT=10\n", "", "inkwell: REQUEST_TIMEOUT: \"10\" is not a duration; add a unit, e.g. 10s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := t.TempDir()
			if tc.file != "" {
				writeFile(t, filepath.Join(bad, ".env"), tc.file)
			}
			var env []string
			if tc.env != "" {
				env = append(env, tc.env)
			}
			got := runInkwell(t, bad, env, "migrate")
			if got.code != 1 || got.stderr != tc.want {
				t.Errorf("got exit %d, stderr %q; want 1 and %q", got.code, got.stderr, tc.want)
			}
			if entries, _ := os.ReadDir(bad); len(entries) > 1 || (tc.file == "" && len(entries) > 0) {
				t.Errorf("the refused start left %v", entries)
			}
		})
	}
}

// TestCommandsRefuseAMissingStore runs every command that opens the store
// but may not make one where the SQLite file does not exist: each exits 1
// with one line naming the file and DATABASE_URL, and leaves the folder as
// it was, without a database, its folder or an app key.
func TestCommandsRefuseAMissingStore(t *testing.T) {
	commands := [][]string{
		{"tokens", "revoke", "--email", "ann@example.com", "--all"},
		{"tokens", "prune"},
		{"admin", "grant", "--email", "ann@example.com"},
		{"admin", "revoke", "--email", "ann@example.com"},
		{"admin", "list"},
	}
	for _, args := range commands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			for _, tc := range []struct {
				env  []string
				want string
			}{
				{nil, fmt.Sprintf("inkwell: DATABASE_URL: not set, and the default SQLite file %s does not exist; run inkwell in the project's folder, set DATABASE_URL, or make the store with inkwell migrate\n", filepath.Join(dir, "data", "inkwell.db"))},
				{[]string{"DATABASE_URL=sqlite://" + filepath.Join(dir, "inkwell.db")},
					fmt.Sprintf("inkwell: DATABASE_URL: the SQLite file %s does not exist; fix DATABASE_URL, or make the store with inkwell migrate\n", filepath.Join(dir, "inkwell.db"))},
				{[]string{"DATABASE_URL=sqlite://" + filepath.Join(dir, "sub", "inkwell.db")},
					fmt.Sprintf("inkwell: DATABASE_URL: the SQLite file %s does not exist; fix DATABASE_URL, or make the store with inkwell migrate\n", filepath.Join(dir, "sub", "inkwell.db"))},
			} {
				got := runInkwell(t, dir, tc.env, args...)
				if got.code != 1 || got.stdout != "" || got.stderr != tc.want {
					t.Errorf("%v: got exit %d, stdout %q, stderr %q; want 1, nothing, %q", tc.env, got.code, got.stdout, got.stderr, tc.want)
				}
				wantEmptyDir(t, dir)
			}
		})
	}
}

// TestOnlyServeMigrateAndSeedMakeAStore keeps the rule as commands are
// added: a command that does not declare otherwise may not make a store.
func TestOnlyServeMigrateAndSeedMakeAStore(t *testing.T) {
	var leaves func(c *command) []*command
	leaves = func(c *command) []*command {
		if c.subs == nil {
			return []*command{c}
		}
		var out []*command
		for _, s := range c.subs {
			out = append(out, leaves(s)...)
		}
		return out
	}
	var creators []string
	for _, c := range leaves(root) {
		if !c.bare && c.store == storeCreate {
			creators = append(creators, c.name)
		}
	}
	if got := strings.Join(creators, ","); got != "serve,migrate,seed" {
		t.Errorf("commands that may make a store: %s; want serve,migrate,seed", got)
	}
}

// TestStoreNamedWithoutPassword checks the first line of a command on
// PostgreSQL: the URL without its password, in the user part or the query,
// written before the connection fails.
func TestStoreNamedWithoutPassword(t *testing.T) {
	closed := freePort(t)
	dir := t.TempDir()
	url := fmt.Sprintf("postgres://ann:hunter2@127.0.0.1:%d/inkwell?password=hunter3&sslmode=disable", closed)
	got := runInkwell(t, dir, []string{"DATABASE_URL=" + url}, "tokens", "prune")
	want := fmt.Sprintf("postgres://ann@127.0.0.1:%d/inkwell?sslmode=disable", closed)
	if store, rest := startLine(got.stderr); got.code != 1 || store != want || strings.Contains(got.stderr, "hunter") || !strings.HasPrefix(rest, "inkwell: DATABASE_URL: cannot reach PostgreSQL") {
		t.Errorf("got exit %d, stderr %q; want 1, the store %s first, no password, then the failure", got.code, got.stderr, want)
	}
}

// TestServeSaysWhereItIs starts the binary as an operator does, with the
// log quieted, and follows its first lines: the store and APP_KEY's
// source, then the URL it listens on, /docs and /admin, each of which
// answers.
func TestServeSaysWhereItIs(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "inkwell.db")
	port := freePort(t)
	cmd := exec.Command(os.Args[0])
	cmd.Dir = dir
	cmd.Env = append(withoutSettings(os.Environ()), "INKWELL_RUN_MAIN=1", "DATABASE_URL=sqlite://"+db,
		fmt.Sprint("PORT=", port), "LOG_LEVEL=error", "BCRYPT_COST=4")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	for len(got) < 2 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended after %q", got)
			}
			got = append(got, l)
		case <-time.After(30 * time.Second):
			t.Fatalf("serve wrote %q in 30s", got)
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()

	if store, _ := startLine(got[0] + "\n"); store != db || logField(got[0], "msg") != "inkwell serve" ||
		logField(got[0], "env_file") != "none" || logField(got[0], "app_key") != filepath.Join(dir, "data", "app.key")+" (made now)" {
		t.Errorf("first line %q: want the store %s, env_file=none and the key made in data/app.key", got[0], db)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	want := map[string]string{"msg": "serving", "url": base, "docs": base + "/docs", "admin": base + "/admin"}
	for k, v := range want {
		if logField(got[1], k) != v {
			t.Errorf("second line %q: %s=%q, want %q", got[1], k, logField(got[1], k), v)
		}
	}

	client := http.Client{Timeout: 5 * time.Second}
	for path, status := range map[string]int{"": http.StatusOK, "/up": http.StatusOK, "/admin": http.StatusOK} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != status {
			t.Errorf("GET %s: got %d, want %d", base+path, resp.StatusCode, status)
		}
		if path == "" && resp.Request.URL.Path != "/docs" {
			t.Errorf("GET %s ended at %s, want /docs", base, resp.Request.URL)
		}
	}
}

// TestVersion checks that version and --version print the build
// information of the binary they run in: a test binary carries no VCS
// revision, so the line must say unknown rather than make one up, and a
// binary built from a repository must show its revision.
func TestVersion(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information")
	}
	want := versionLine(info) + "\n"
	shape := regexp.MustCompile(`^inkwell \S+ vcs\.revision=([0-9a-f]{40}|unknown)( vcs\.time=\S+)?( vcs\.modified=(true|false))?\n$`)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		dir := t.TempDir()
		got := runInkwell(t, dir, []string{"REQUEST_TIMEOUT=never", "ENV_FILE=missing.env"}, args...)
		if got.code != 0 || got.stderr != "" || got.stdout != want || !shape.MatchString(got.stdout) {
			t.Errorf("inkwell %s: got exit %d, stdout %q, stderr %q; want 0 and %q", args[0], got.code, got.stdout, got.stderr, want)
		}
		wantEmptyDir(t, dir)
	}

	built := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: strings.Repeat("ab", 20)},
		{Key: "vcs.time", Value: "2026-11-27T23:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	if got, want := versionLine(built), "inkwell v1.2.0 vcs.revision="+strings.Repeat("ab", 20)+" vcs.time=2026-11-27T23:00:00Z vcs.modified=true"; got != want {
		t.Errorf("a binary built from a repository: got %q, want %q", got, want)
	}
	if got := versionLine(&debug.BuildInfo{}); got != "inkwell (devel) vcs.revision=unknown" {
		t.Errorf("without build settings: got %q", got)
	}
}
