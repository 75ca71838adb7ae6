package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/domain"
)

// TestMain lets the tests run inkwell as operators do: when
// INKWELL_RUN_MAIN=1, the test binary is the inkwell command, and a test
// sees its exit status and both of its outputs.
func TestMain(m *testing.M) {
	if os.Getenv("INKWELL_RUN_MAIN") == "1" {
		main()
	}
	// The tests that run inkwell in this process use a key of their own
	// rather than make ./data/app.key in the source tree; the ones that
	// run it as a command (runInkwell) start without it.
	if os.Getenv("APP_KEY") == "" {
		os.Setenv("APP_KEY", newAppKey())
	}
	os.Exit(m.Run())
}

// ran is what one run of the inkwell command did.
type ran struct {
	stdout, stderr string
	code           int
}

// runInkwell runs the inkwell command with args in dir. Its environment is the
// test's without any key inkwell reads, plus env.
func runInkwell(t *testing.T, dir string, env []string, args ...string) ran {
	t.Helper()
	return runInkwellWithInput(t, dir, env, "", args...)
}

// withoutSettings drops from environ every variable that environment reads,
// and ENV_FILE.
func withoutSettings(environ []string) []string {
	keys := map[string]bool{"ENV_FILE": true}
	t := reflect.TypeFor[environment]()
	for i := range t.NumField() {
		keys[t.Field(i).Tag.Get("env")] = true
	}
	var kept []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !keys[k] {
			kept = append(kept, kv)
		}
	}
	return kept
}

// wantEmptyDir fails the test when dir holds anything: a command that only
// printed must not have created the default store's folder.
func wantEmptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("the command created %s", e.Name())
	}
}

// startLineRE matches the line every command that opens a store writes
// first on standard error, naming the store.
var startLineRE = regexp.MustCompile(`^time=\S+ level=INFO msg="inkwell [a-z ]+" store=("(?:[^"\\]|\\.)*"|\S+) env_file=`)

// startLine splits stderr into the store its first line names and what
// follows that line; store is empty, and rest all of stderr, when the first
// line names no store.
func startLine(stderr string) (store, rest string) {
	line, after, _ := strings.Cut(stderr, "\n")
	m := startLineRE.FindStringSubmatch(line)
	if m == nil {
		return "", stderr
	}
	store = m[1]
	if unquoted, err := strconv.Unquote(store); err == nil {
		store = unquoted
	}
	return store, after
}

// afterStoreLine checks that stderr starts with the line naming store and
// returns what follows it.
func afterStoreLine(t *testing.T, stderr, store string) string {
	t.Helper()
	got, rest := startLine(stderr)
	if got != store {
		t.Errorf("the first line of stderr %q names the store %q, want %q", stderr, got, store)
	}
	return rest
}

func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string // the start of the output, then text it contains
	}{
		{[]string{"--help"}, []string{"usage: inkwell [command] [flags]\n", "  serve ", "  migrate ", "  seed ", "  tokens revoke ", "  tokens prune ", "  version ", ".env"}},
		{[]string{"-h"}, []string{"usage: inkwell [command] [flags]\n"}},
		{[]string{"help"}, []string{"usage: inkwell [command] [flags]\n"}},
		{[]string{"help", "serve"}, []string{"usage: inkwell [serve]\n", "HOST"}},
		{[]string{"serve", "--help"}, []string{"usage: inkwell [serve]\n"}},
		{[]string{"migrate", "-h"}, []string{"usage: inkwell migrate\n"}},
		{[]string{"help", "migrate"}, []string{"usage: inkwell migrate\n"}},
		{[]string{"seed", "--help"}, []string{"usage: inkwell seed ", "  -posts number\n", `contain the word "inkwell"`, "About 85% of"}},
		{[]string{"tokens", "--help"}, []string{"usage: inkwell tokens revoke ", "       inkwell tokens prune\n", "  tokens prune "}},
		{[]string{"help", "tokens"}, []string{"usage: inkwell tokens revoke "}},
		{[]string{"tokens", "revoke", "--help"}, []string{"usage: inkwell tokens revoke --email E (--name N | --all)\n", "  -email address\n", "  -all\n"}},
		{[]string{"help", "tokens", "revoke"}, []string{"usage: inkwell tokens revoke --email E"}},
		{[]string{"tokens", "prune", "--help"}, []string{"usage: inkwell tokens prune\n"}},
		{[]string{"key", "generate", "--help"}, []string{"usage: inkwell key generate\n", "APP_KEY"}},
		{[]string{"help", "version"}, []string{"usage: inkwell version\n", "vcs.revision"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			// A setting that would stop any start shows that help reads
			// no configuration.
			got := runInkwell(t, dir, []string{"REQUEST_TIMEOUT=never"}, tc.args...)
			if got.code != 0 || got.stderr != "" {
				t.Errorf("got exit %d, stderr %q; want 0 and nothing", got.code, got.stderr)
			}
			if !strings.HasPrefix(got.stdout, tc.want[0]) {
				t.Errorf("got %q, want it to start with %q", got.stdout, tc.want[0])
			}
			for _, want := range tc.want[1:] {
				if !strings.Contains(got.stdout, want) {
					t.Errorf("got %q, want it to contain %q", got.stdout, want)
				}
			}
			if tc.args[0] == "tokens" && tc.args[1] == "prune" && strings.Contains(got.stdout, "-email") {
				t.Errorf("prune's help shows revoke's flags: %q", got.stdout)
			}
			wantEmptyDir(t, dir)
		})
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		wantLine  string
		wantUsage string
	}{
		{[]string{"serve", "--bogus"}, "inkwell: serve: flag provided but not defined: -bogus", "usage: inkwell [serve]\n"},
		{[]string{"--port", "3000"}, "inkwell: flag provided but not defined: --port", "usage: inkwell [command] [flags]\n"},
		{[]string{"frobnicate"}, `inkwell: unknown command "frobnicate"`, "usage: inkwell [command] [flags]\n"},
		{[]string{"help", "frobnicate"}, `inkwell: unknown command "frobnicate"`, "usage: inkwell [command] [flags]\n"},
		{[]string{"migrate", "now"}, `inkwell: migrate: unexpected argument "now"`, "usage: inkwell migrate\n"},
		{[]string{"tokens"}, "inkwell: tokens: missing command", "usage: inkwell tokens revoke "},
		{[]string{"tokens", "list"}, `inkwell: tokens: unknown command "list"`, "usage: inkwell tokens revoke "},
		{[]string{"tokens", "prune", "--email", "ann@example.com"}, "inkwell: tokens prune: flag provided but not defined: -email", "usage: inkwell tokens prune\n"},
		{[]string{"tokens", "revoke", "--name", "ci"}, "inkwell: tokens revoke: --email is required", "usage: inkwell tokens revoke "},
		{[]string{"tokens", "revoke", "--email", "ann@example.com"}, "inkwell: tokens revoke: give either --name or --all", "usage: inkwell tokens revoke "},
		{[]string{"tokens", "revoke", "--email", "ann@example.com", "--all", "--name", "ci"}, "inkwell: tokens revoke: give either --name or --all", "usage: inkwell tokens revoke "},
		{[]string{"seed", "--posts", "many"}, `inkwell: seed: invalid value "many" for flag -posts: parse error`, "usage: inkwell seed "},
		{[]string{"seed", "--posts", "-1"}, "inkwell: seed: demo plan: counts must not be negative", "usage: inkwell seed "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			got := runInkwell(t, dir, nil, tc.args...)
			line, usage, _ := strings.Cut(got.stderr, "\n")
			if got.code != 2 || got.stdout != "" || line != tc.wantLine || !strings.HasPrefix(usage, tc.wantUsage) {
				t.Errorf("got exit %d, stdout %q, stderr %q; want 2, nothing, and %q with %q", got.code, got.stdout, got.stderr, tc.wantLine, tc.wantUsage)
			}
			wantEmptyDir(t, dir)
		})
	}
}

// TestStartErrors runs the starts an operator gets wrong and wants each
// answered with one line that names the setting.
func TestStartErrors(t *testing.T) {
	closed := freePort(t)
	busy, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port

	dir := t.TempDir()
	missing := filepath.Join(dir, "missing", "dir")
	sqliteURL := "DATABASE_URL=sqlite://" + filepath.Join(dir, "inkwell.db")
	dbFile := filepath.Join(dir, "inkwell.db")
	closedURL := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/inkwell?sslmode=disable", closed)
	// store is the store the first line names, for the failures that come
	// once it is known; the others stop before.
	for _, tc := range []struct {
		name  string
		env   []string
		args  []string
		want  string
		store string
	}{
		{"port in use", []string{sqliteURL, fmt.Sprint("PORT=", busyPort)}, nil,
			fmt.Sprintf("PORT %d: address already in use on 127.0.0.1; choose another PORT or stop the process using it", busyPort), dbFile},
		{"PostgreSQL unreachable", []string{fmt.Sprintf("DATABASE_URL=postgres://postgres@127.0.0.1:%d/inkwell?sslmode=disable", closed)}, []string{"migrate"},
			fmt.Sprintf("DATABASE_URL: cannot reach PostgreSQL at 127.0.0.1:%d: connection refused; start it or fix DATABASE_URL", closed), closedURL},
		{"standby URL malformed", []string{fmt.Sprintf("DATABASE_URL=postgres://postgres@127.0.0.1:%d/inkwell?sslmode=disable", closed),
			"DATABASE_READ_URL=postgres://postgres:secret@127.0.0.1:port/inkwell"}, nil,
			"DATABASE_READ_URL: cannot parse `postgres://postgres:xxxxx@127.0.0.1:port/inkwell`: invalid port", closedURL},
		{"SQLite folder missing", []string{"DATABASE_URL=sqlite://" + filepath.Join(missing, "inkwell.db")}, []string{"migrate"},
			fmt.Sprintf("DATABASE_URL: the folder %s of %s does not exist; create it or fix DATABASE_URL", missing, filepath.Join(missing, "inkwell.db")),
			filepath.Join(missing, "inkwell.db")},
		{"duration without a unit", []string{"REQUEST_TIMEOUT=10"}, nil,
			`REQUEST_TIMEOUT: "10" is not a duration; add a unit, e.g. 10s`, ""},
		{"duration of words", []string{"REQUEST_TIMEOUT=soon"}, nil,
			`REQUEST_TIMEOUT: "soon" is not a duration; write a number and a unit, e.g. 10s, 500ms or 2m`, ""},
		{"number of words", []string{"BCRYPT_COST=high"}, nil, `BCRYPT_COST: "high" is not a whole number`, ""},
		{"flag of words", []string{"BENCH_ENDPOINTS=maybe"}, nil, `BENCH_ENDPOINTS: "maybe" is neither true nor false`, ""},
		{"SQLite synchronous off", []string{"SQLITE_SYNCHRONOUS=off"}, nil, `SQLITE_SYNCHRONOUS: "off" is neither full nor normal`, ""},
		{"HOST a name", []string{"HOST=localhost"}, nil,
			`HOST: "localhost" is not an IP address; write one such as 127.0.0.1, ::1 or 0.0.0.0, or leave HOST empty`, ""},
		{"production without APP_KEY", []string{sqliteURL, "APP_ENV=production"}, nil,
			"APP_KEY: required in production; make one with inkwell key generate", ""},
		{"APP_KEY not base64:", []string{sqliteURL, "APP_KEY=" + strings.Repeat("k", 32)}, nil,
			`APP_KEY: the value does not start with "base64:"; make one with inkwell key generate`, ""},
		{"APP_KEY of 16 bytes", []string{sqliteURL, "APP_KEY=base64:" + base64.StdEncoding.EncodeToString(make([]byte, 16))}, nil,
			"APP_KEY: the value holds 16 bytes, want 32; make one with inkwell key generate", ""},
		{"APP_KEY not base64", []string{sqliteURL, "APP_ENV=production", "APP_KEY=base64:not*base64"}, nil,
			"APP_KEY: the value is not valid base64 after its prefix; make one with inkwell key generate", ""},
		{"CORS wildcard in production", []string{sqliteURL, "APP_ENV=production", "APP_KEY=" + newAppKey(), "CORS_ALLOWED_ORIGINS=https://app.example.com, *"}, nil,
			"CORS_ALLOWED_ORIGINS: * in production would let every site call the API with its visitors' cookies; list the front ends' origins", ""},
		{"HOST not of this machine", []string{sqliteURL, "HOST=203.0.113.254", fmt.Sprint("PORT=", closed)}, nil,
			"HOST 203.0.113.254: this machine has no such address; use one of its addresses, or leave HOST empty", dbFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runInkwell(t, dir, tc.env, tc.args...)
			stderr := afterStoreLine(t, got.stderr, tc.store)
			if want := "inkwell: " + tc.want + "\n"; got.code != 1 || stderr != want {
				t.Errorf("got exit %d, stderr %q; want 1 and %q", got.code, got.stderr, want)
			}
		})
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the missing SQLite folder: got %v, want it still missing", err)
	}
}

// TestKeyGenerate runs inkwell key generate where no start could succeed,
// in production without APP_KEY, and wants a fresh usable key each time.
func TestKeyGenerate(t *testing.T) {
	seen := map[string]bool{}
	for range 3 {
		dir := t.TempDir()
		got := runInkwell(t, dir, []string{"APP_ENV=production", "REQUEST_TIMEOUT=never"}, "key", "generate")
		if got.code != 0 || got.stderr != "" {
			t.Fatalf("got exit %d, stderr %q; want 0 and nothing", got.code, got.stderr)
		}
		line, ok := strings.CutSuffix(got.stdout, "\n")
		if _, err := parseAppKey(line); !ok || err != nil || strings.Contains(line, "\n") {
			t.Errorf("got %q (%v), want one line holding a key", got.stdout, err)
		}
		if seen[line] {
			t.Errorf("got %q twice", line)
		}
		seen[line] = true
		wantEmptyDir(t, dir)
	}
}

// TestDevelopmentKeepsItsKey starts development without APP_KEY twice in one
// folder: the first start makes ./data/app.key, readable by its owner
// only, and the second uses the same key.
func TestDevelopmentKeepsItsKey(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite://" + filepath.Join(dir, "inkwell.db")}
	var keys []string
	for range 2 {
		if got := runInkwell(t, dir, env, "migrate"); got.code != 0 {
			t.Fatalf("migrate: exit %d, %s", got.code, got.stderr)
		}
		path := filepath.Join(dir, "data", "app.key")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parseAppKey(string(raw)); err != nil {
			t.Errorf("data/app.key holds %q: %v", raw, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("data/app.key: %v, mode %v; want 0600", err, fi.Mode())
		}
		keys = append(keys, string(raw))
	}
	if keys[0] != keys[1] {
		t.Errorf("the second start changed the key: %q, then %q", keys[0], keys[1])
	}
	// A file that holds no key stops the start and says where it is.
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "data", "app.key"), []byte("secret\n"), 0o600))
	got := runInkwell(t, dir, env, "migrate")
	want := "inkwell: APP_KEY: empty, and the key in data/app.key does not start with \"base64:\"; delete the file to make a new one\n"
	if got.code != 1 || got.stderr != want {
		t.Errorf("got exit %d, stderr %q; want 1 and %q", got.code, got.stderr, want)
	}
}

func TestRevokeUnknownEmail(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite://" + filepath.Join(dir, "inkwell.db")}
	if got := runInkwell(t, dir, env, "migrate"); got.code != 0 {
		t.Fatalf("migrate: exit %d, %s", got.code, got.stderr)
	}
	for _, args := range [][]string{
		{"tokens", "revoke", "--email", "nobody@example.com", "--all"},
		{"tokens", "revoke", "--email", "nobody@example.com", "--name", "ci"},
	} {
		got := runInkwell(t, dir, env, args...)
		stderr := afterStoreLine(t, got.stderr, filepath.Join(dir, "inkwell.db"))
		if want := "inkwell: no user with e-mail nobody@example.com\n"; got.code != 1 || stderr != want {
			t.Errorf("inkwell %s: got exit %d, stderr %q; want 1 and %q", strings.Join(args, " "), got.code, got.stderr, want)
		}
	}
}

// TestUnwritablePathsStopTheStart holds the start to one line naming the
// setting when the SQLite file or the storage folder cannot be written.
// The paths run under a regular file, or are a folder where a file is
// wanted, so that they are unwritable whatever the user, root included.
func TestUnwritablePathsStopTheStart(t *testing.T) {
	closed := freePort(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	folderDB := filepath.Join(dir, "folder.db")
	if err := os.Mkdir(folderDB, 0o755); err != nil {
		t.Fatal(err)
	}
	// A working directory whose "data" is a file: the default SQLite file
	// ./data/inkwell.db cannot be made.
	dataFile := t.TempDir()
	if err := os.WriteFile(filepath.Join(dataFile, "data"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sqliteURL := "DATABASE_URL=sqlite://" + filepath.Join(dir, "inkwell.db")
	port := fmt.Sprint("PORT=", closed)
	dbFile := filepath.Join(dir, "inkwell.db")
	for _, tc := range []struct {
		name  string
		cwd   string
		env   []string
		want  string
		store string // named on the first line, "" when the start stops before
	}{
		{"storage folder under a file", dir, []string{sqliteURL, port, "STORAGE_DIR=" + filepath.Join(file, "sub")},
			fmt.Sprintf("STORAGE_DIR: files cannot be written in %s: %s: not a directory; fix its permissions or STORAGE_DIR", filepath.Join(file, "sub"), filepath.Join(file, "sub")), dbFile},
		{"storage folder a file", dir, []string{sqliteURL, port, "STORAGE_DIR=" + file},
			fmt.Sprintf("STORAGE_DIR: files cannot be written in %s: %s is not a folder; fix its permissions or STORAGE_DIR", file, file), dbFile},
		{"SQLite file a folder", dir, []string{"DATABASE_URL=sqlite://" + folderDB, port},
			fmt.Sprintf("DATABASE_URL: the SQLite file %s cannot be written: %s: is a directory; fix its permissions or DATABASE_URL", folderDB, folderDB), folderDB},
		{"default SQLite folder a file", dataFile, []string{port, "APP_KEY=" + newAppKey()},
			"DATABASE_URL: not set, and the default SQLite file ./data/inkwell.db cannot be written: data is not a folder; set DATABASE_URL or fix that folder",
			filepath.Join(dataFile, "data", "inkwell.db")},
		// Without APP_KEY development keeps its key in ./data as well, and
		// that is read before the store opens.
		{"default key folder a file", dataFile, []string{port},
			"APP_KEY: empty, and data/app.key cannot be read: open data/app.key: not a directory", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runInkwell(t, tc.cwd, tc.env)
			stderr := afterStoreLine(t, got.stderr, tc.store)
			if want := "inkwell: " + tc.want + "\n"; got.code != 1 || stderr != want {
				t.Errorf("got exit %d, stderr %q; want 1 and %q", got.code, got.stderr, want)
			}
		})
	}
}

// TestAdminRights makes, lists and unmakes an admin with the command line,
// the only way to, and checks the account in the store after each step.
func TestAdminRights(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "inkwell.db")
	env := []string{"DATABASE_URL=sqlite://" + path}
	if got := runInkwell(t, dir, env, "migrate"); got.code != 0 {
		t.Fatalf("migrate: exit %d, %s", got.code, got.stderr)
	}
	ctx := context.Background()
	store, closeStore, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	now := time.Now().UTC()
	ann := domain.User{Name: "Ann", Email: "Ann@Example.com", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
	bob := domain.User{Name: "Bob", Email: "bob@example.com", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
	for _, u := range []*domain.User{&ann, &bob} {
		if err := store.Repos().Users.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	isAdmin := func(id int64) bool {
		t.Helper()
		u, err := store.Repos().Users.ByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return u.IsAdmin
	}

	steps := []struct {
		args       []string
		wantOut    string
		ann, bob   bool
		wantStderr string
		wantCode   int
	}{
		{[]string{"admin", "list"}, "", false, false, "", 0},
		{[]string{"admin", "grant", "--email", "ann@example.com"}, "Ann@Example.com is an admin\n", true, false, "", 0},
		{[]string{"admin", "grant", "--email", "BOB@example.com"}, "bob@example.com is an admin\n", true, true, "", 0},
		{[]string{"admin", "list"}, fmt.Sprintf("%d\tAnn@Example.com\tAnn\n%d\tbob@example.com\tBob\n", ann.ID, bob.ID), true, true, "", 0},
		{[]string{"admin", "revoke", "--email", "ann@example.com"}, "Ann@Example.com is not an admin\n", false, true, "", 0},
		{[]string{"admin", "list"}, fmt.Sprintf("%d\tbob@example.com\tBob\n", bob.ID), false, true, "", 0},
		{[]string{"admin", "grant", "--email", "nobody@example.com"}, "", false, true, "inkwell: no user with e-mail nobody@example.com\n", 1},
		{[]string{"admin", "revoke", "--email", "nobody@example.com"}, "", false, true, "inkwell: no user with e-mail nobody@example.com\n", 1},
	}
	for _, s := range steps {
		got := runInkwell(t, dir, env, s.args...)
		if stderr := afterStoreLine(t, got.stderr, path); got.code != s.wantCode || got.stdout != s.wantOut || stderr != s.wantStderr {
			t.Errorf("inkwell %s: got exit %d, stdout %q, stderr %q; want %d, %q, %q",
				strings.Join(s.args, " "), got.code, got.stdout, got.stderr, s.wantCode, s.wantOut, s.wantStderr)
		}
		if a, b := isAdmin(ann.ID), isAdmin(bob.ID); a != s.ann || b != s.bob {
			t.Errorf("after inkwell %s: ann admin %v, bob admin %v; want %v, %v", strings.Join(s.args, " "), a, b, s.ann, s.bob)
		}
	}
	if got := runInkwell(t, dir, env, "admin", "grant"); got.code != 2 || !strings.Contains(got.stderr, "inkwell: admin grant: --email is required") {
		t.Errorf("admin grant without --email: got exit %d, stderr %q", got.code, got.stderr)
	}
}
