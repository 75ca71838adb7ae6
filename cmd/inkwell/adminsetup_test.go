package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/sqlite"
)

// runInkwellWithInput is runInkwell with stdin as the command's standard
// input, a pipe, as a script gives it.
func runInkwellWithInput(t *testing.T, dir string, env []string, stdin string, args ...string) ran {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(withoutSettings(os.Environ()), "INKWELL_RUN_MAIN=1"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("inkwell %s: %v", strings.Join(args, " "), err)
	}
	return ran{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
}

// admin create makes a verified admin whose password is the first line of
// standard input, and refuses an address in use, a bad password, no
// password and a missing flag.
func TestAdminCreate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "inkwell.db")
	env := []string{"DATABASE_URL=sqlite://" + path}
	create := []string{"admin", "create", "--email", "Ann@Example.com", "--name", "Ann"}
	// Only serve, migrate and seed make a store; admin create needs one.
	if got := runInkwell(t, dir, env, "migrate"); got.code != 0 {
		t.Fatalf("migrate: exit %d, stderr %q", got.code, got.stderr)
	}
	got := runInkwellWithInput(t, dir, env, "a long secret\nignored line\n", create...)
	if got.code != 0 || got.stdout != "Ann@Example.com is an admin\n" {
		t.Fatalf("admin create: exit %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
	store, closeStore, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	u, err := store.Repos().Users.ByEmail(context.Background(), "ann@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if !u.IsAdmin || u.EmailVerifiedAt == nil || u.Name != "Ann" {
		t.Errorf("the new admin: admin %v, verified %v, name %q", u.IsAdmin, u.EmailVerifiedAt, u.Name)
	}
	if ok, err := passwords.NewBcrypt(passwords.Config{Cost: 4}).Check(u.PasswordHash, "a long secret"); !ok || err != nil {
		t.Errorf("the password is not the first line of standard input: %v %v", ok, err)
	}

	refusals := []struct {
		name, stdin string
		args        []string
		code        int
		stderr      string
	}{
		{"address in use", "another secret\n", []string{"admin", "create", "--email", "ANN@example.com", "--name", "Ann"}, 1, "inkwell admin grant --email ANN@example.com"},
		{"short password", "short\n", []string{"admin", "create", "--email", "bob@example.com", "--name", "Bob"}, 1, "the password breaks min:8"},
		{"no password", "", []string{"admin", "create", "--email", "bob@example.com", "--name", "Bob"}, 1, "no password on standard input"},
		{"no name", "a long secret\n", []string{"admin", "create", "--email", "bob@example.com"}, 2, "--name is required"},
		{"no e-mail", "a long secret\n", []string{"admin", "create", "--name", "Bob"}, 2, "--email is required"},
	}
	for _, r := range refusals {
		got := runInkwellWithInput(t, dir, env, r.stdin, r.args...)
		if got.code != r.code || !strings.Contains(got.stderr, r.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", r.name, got.code, got.stderr, r.code, r.stderr)
		}
	}
	admins := runInkwell(t, dir, env, "admin", "list")
	if strings.Count(admins.stdout, "\n") != 1 {
		t.Errorf("admins after the refusals: %q", admins.stdout)
	}
}

// serve logs the setup link while no account has admin rights: it opens
// the setup form, and once inkwell admin create has made an admin it
// answers 410; a serve started then logs none.
func TestServeLogsTheSetupLink(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	env := []string{"DATABASE_URL=sqlite://" + filepath.Join(dir, "inkwell.db"), "PORT=" + strconv.Itoa(port)}

	link, stop := serveLogging(t, dir, env)
	if link == "" {
		t.Fatal("serve logged no setup link")
	}
	if want := "http://127.0.0.1:" + strconv.Itoa(port) + "/admin/setup?expires="; !strings.HasPrefix(link, want) {
		t.Errorf("setup link %q, want it to begin %q", link, want)
	}
	status, body := getPage(t, link)
	if status != http.StatusOK || !strings.Contains(body, `id="setup"`) {
		t.Errorf("the setup link: %d %.300s", status, body)
	}
	if got := runInkwellWithInput(t, dir, env, "a long secret\n", "admin", "create", "--email", "ann@example.com", "--name", "Ann"); got.code != 0 {
		t.Fatalf("admin create: %d %s", got.code, got.stderr)
	}
	if status, _ := getPage(t, link); status != http.StatusGone {
		t.Errorf("the setup link once an admin exists: %d, want 410", status)
	}
	stop()

	link, stop = serveLogging(t, dir, env)
	stop()
	if link != "" {
		t.Errorf("serve logged a setup link with an admin: %s", link)
	}
}

// serveLogging starts inkwell serve in dir and reads its log until it
// serves, returning the setup link it logged by then ("" if none) and a
// function that stops it.
func serveLogging(t *testing.T, dir string, env []string) (string, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "serve")
	cmd.Dir = dir
	cmd.Env = append(append(withoutSettings(os.Environ()), "INKWELL_RUN_MAIN=1"), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stderr)
	}()
	urlAttr := regexp.MustCompile(`url="?([^"\s]+)`)
	timeout := time.After(20 * time.Second)
	for serving := false; !serving; {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("serve ended before serving")
			}
			serving = strings.Contains(line, "msg=serving")
		case <-timeout:
			stop()
			t.Fatal("serve did not start")
		}
	}
	// The setup link, when there is one, is logged right after.
	link := ""
	select {
	case line := <-lines:
		if m := urlAttr.FindStringSubmatch(line); m != nil && strings.Contains(line, "/admin/setup?") {
			link = m[1]
		}
	case <-time.After(2 * time.Second):
	}
	go func() {
		for range lines {
		}
	}()
	return link, stop
}

// getPage GETs url as a browser and returns the status and body.
func getPage(t *testing.T, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
