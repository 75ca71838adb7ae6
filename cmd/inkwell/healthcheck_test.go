package main

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestHealthcheck runs inkwell healthcheck against a server of this
// process: 0 when /readyz answers 200, 1 with one line when nothing
// listens or the URL answers anything but 200. It needs no store: the one
// DATABASE_URL names does not exist and is not made.
func TestHealthcheck(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
	base, stop := serveFor(t)
	defer stop()
	port := base[len("http://127.0.0.1:"):]
	closed := freePort(t)

	dir := t.TempDir()
	env := []string{
		"PORT=" + port,
		"APP_KEY=" + newAppKey(),
		"DATABASE_URL=sqlite://" + filepath.Join(dir, "missing", "inkwell.db"),
	}
	for _, tc := range []struct {
		name       string
		env        []string
		args       []string
		code       int
		out, errln string
	}{
		{"ready", nil, nil, 0, base + "/readyz answered 200 OK\n", ""},
		{"HOST every interface", []string{"HOST=0.0.0.0"}, nil, 0, base + "/readyz answered 200 OK\n", ""},
		{"production", []string{"APP_ENV=production"}, nil, 0, base + "/readyz answered 200 OK\n", ""},
		{"url", nil, []string{"--url", base + "/healthz"}, 0, base + "/healthz answered 200 OK\n", ""},
		{"nothing listening", []string{fmt.Sprint("PORT=", closed)}, nil, 1, "",
			fmt.Sprintf("inkwell: healthcheck: http://127.0.0.1:%d/readyz: connection refused; is inkwell serving there?\n", closed)},
		{"not found", nil, []string{"--url", base + "/ready"}, 1, "",
			"inkwell: healthcheck: " + base + "/ready answered 404 Not Found, want 200\n"},
		{"redirect", nil, []string{"--url", base + "/"}, 1, "",
			"inkwell: healthcheck: " + base + "/ answered 302 Found, want 200\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runInkwell(t, dir, append(env, tc.env...), append([]string{"healthcheck"}, tc.args...)...)
			if got.code != tc.code || got.stdout != tc.out || got.stderr != tc.errln {
				t.Errorf("got exit %d, stdout %q, stderr %q; want %d, %q, %q", got.code, got.stdout, got.stderr, tc.code, tc.out, tc.errln)
			}
		})
	}
	wantEmptyDir(t, dir)

	got := runInkwell(t, dir, env, "healthcheck", "--url", "127.0.0.1:3000/readyz")
	if want := "inkwell: healthcheck: --url: \"127.0.0.1:3000/readyz\" is not an absolute http(s) URL\n"; got.code != 2 || got.stderr[:min(len(want), len(got.stderr))] != want {
		t.Errorf("a URL without a scheme: got exit %d, stderr %q; want 2 and %q first", got.code, got.stderr, want)
	}
}

func TestReadyURL(t *testing.T) {
	for _, tc := range []struct {
		env  environment
		want string
	}{
		{environment{AppEnv: "development", Port: 3000}, "http://127.0.0.1:3000/readyz"},
		{environment{AppEnv: "production", Port: 3000}, "http://127.0.0.1:3000/readyz"},
		{environment{AppEnv: "production", Host: "0.0.0.0", Port: 8080}, "http://127.0.0.1:8080/readyz"},
		{environment{AppEnv: "production", Host: "::", Port: 3000}, "http://[::1]:3000/readyz"},
		{environment{AppEnv: "production", Host: "[::1]", Port: 3000}, "http://[::1]:3000/readyz"},
		{environment{AppEnv: "production", Host: "10.1.2.3", Port: 3000}, "http://10.1.2.3:3000/readyz"},
	} {
		if got := tc.env.readyURL(); got != tc.want {
			t.Errorf("HOST %q, APP_ENV %s: got %s, want %s", tc.env.Host, tc.env.AppEnv, got, tc.want)
		}
	}
}
