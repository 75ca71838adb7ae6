package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite"
)

// freePort returns a port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// serveFor runs `inkwell serve` until the returned stop is called, and
// returns its address on 127.0.0.1.
func serveFor(t *testing.T) (base string, stop func()) {
	t.Helper()
	port, stop := serveAt(t, "127.0.0.1")
	return fmt.Sprintf("http://127.0.0.1:%d", port), stop
}

// serveAt runs `inkwell serve` on a free port until the returned stop is
// called, once it answers on host.
func serveAt(t *testing.T, host string) (port int, stop func()) {
	t.Helper()
	port = freePort(t)
	t.Setenv("PORT", strconv.Itoa(port))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, &bytes.Buffer{}) }()
	deadline := time.Now().Add(10 * time.Second)
	for !answers(host, port) {
		select {
		case err := <-done:
			t.Fatalf("serve: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start on %s", host)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return port, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}
}

// answers reports whether the server answers GET /healthz on host and port.
func answers(host string, port int) bool {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get("http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/healthz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func postJSON(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func TestAccountSurvivesRestart(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
	t.Setenv("BCRYPT_COST", "4")

	base, stop := serveFor(t)
	status, _ := postJSON(t, base+"/api/v1/register", map[string]any{
		"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1",
	})
	stop()
	if status != http.StatusCreated {
		t.Fatalf("register: got %d, want 201", status)
	}

	base, stop = serveFor(t)
	defer stop()
	status, body := postJSON(t, base+"/api/v1/login", map[string]any{"email": "ann@example.com", "password": "password1"})
	if status != http.StatusOK || body["token"] == nil {
		t.Fatalf("login after restart: got %d %v, want 200 with a token", status, body)
	}
}

func TestTokenCommands(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
	t.Setenv("BCRYPT_COST", "4")
	t.Setenv("TOKEN_EXPIRATION_MINUTES", "0")
	base, stop := serveFor(t)
	_, reg := postJSON(t, base+"/api/v1/register", map[string]any{
		"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1",
	})
	token := reg["token"].(string)
	for _, name := range []string{"ci", "ci", "laptop"} {
		req, _ := http.NewRequest("POST", base+"/api/v1/tokens", strings.NewReader(`{"name":"`+name+`"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("create token %s: %v %v", name, resp, err)
		}
		resp.Body.Close()
	}
	stop()

	for _, tc := range []struct {
		args    []string
		want    string
		wantErr bool
	}{
		{[]string{"tokens", "revoke", "--email", "ANN@example.com", "--name", "ci"}, "2 token(s) deleted\n", false},
		{[]string{"tokens", "revoke", "--email", "ann@example.com", "--all"}, "2 token(s) deleted\n", false},
		{[]string{"tokens", "prune"}, "0 token(s) deleted\n", false},
		{[]string{"tokens", "revoke", "--email", "nobody@example.com", "--all"}, "", true},
		{[]string{"tokens", "revoke", "--email", "ann@example.com"}, "", true},
		{[]string{"tokens", "revoke", "--email", "ann@example.com", "--all", "--name", "x"}, "", true},
		{[]string{"frobnicate"}, "", true},
		{[]string{"migrate"}, "migrations applied\n", false},
	} {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, &out)
		if (err != nil) != tc.wantErr || out.String() != tc.want {
			t.Errorf("inkwell %s: got %q, %v; want %q, error %v", strings.Join(tc.args, " "), out.String(), err, tc.want, tc.wantErr)
		}
	}
}

func TestBadConfigNamesTheKey(t *testing.T) {
	for _, tc := range []struct{ key, value string }{
		{"PORT", "70000"},
		{"PORT", "abc"},
		{"APP_ENV", "staging"},
		{"BCRYPT_COST", "99"},
		{"CRUD_AUTH", "maybe"},
		{"TOKEN_EXPIRATION_MINUTES", "-1"},
		{"DATABASE_URL", "mysql://x"},
		{"APP_URL", "example.com"},
		{"TRUSTED_PROXIES", "10.0.0.0/33"},
		{"TRUSTED_PROXIES", "10.0.0.0/8,proxy.internal"},
		{"LOG_LEVEL", "loud"},
		{"REQUEST_TIMEOUT", "soon"},
		{"REQUEST_TIMEOUT", "10"},
		{"BENCH_ENDPOINTS", "maybe"},
		{"SQLITE_SYNCHRONOUS", "off"},
		{"SQLITE_SYNCHRONOUS", "FULL"},
		{"HOST", "localhost"},
		{"HOST", "127.0.0.1:3000"},
		{"HOST", "[::1"},
		{"SESSION_LIFETIME_MINUTES", "0"},
		{"SESSION_LIFETIME_MINUTES", "two hours"},
		{"DATABASE_DIRECT_URL", "mysql://x"},
		{"DATABASE_READ_URL", "mysql://x"},
		{"DATABASE_READ_URL", "postgres://standby/db"}, // with the embedded SQLite store
		{"DATABASE_READ_MAX_LAG", "0s"},
		{"DATABASE_READ_MAX_LAG", "2"},
		{"HTTP_CACHE_MAX_BYTES", "-1"},
		{"HTTP_CACHE_MAX_BYTES", "64MB"},
		{"HTTP_CACHE_TTL", "0s"},
		{"HTTP_CACHE_TTL", "60"},
		{"HTTP_CACHE_PURGE_URL", "varnish.internal/purge"},
		{"FILESYSTEM_DISK", "ftp"},
		{"AWS_USE_PATH_STYLE_ENDPOINT", "maybe"},
		{"AWS_ENDPOINT", "s3.example.net"},
		{"APP_KEY", "base64:c2hvcnQ="},
		{"VERIFICATION_EXPIRE", "0"},
		{"VERIFICATION_EXPIRE", "1h"},
		{"REMEMBER_LIFETIME", "-5"},
		{"REQUIRE_VERIFIED_EMAIL", "sometimes"},
		{"MAIL_MAILER", "sendmail"},
		{"MAIL_PORT", "0"},
		{"MAIL_PORT", "smtp"},
		{"MAIL_SCHEME", "tls"},
		{"MAIL_FROM_ADDRESS", "not an address"},
		{"MAIL_FROM_ADDRESS", "Ann <ann@example.com>"},
		{"MAIL_FROM_NAME", "Ink\r\nBcc: x@example.com"},
		{"MAIL_RETRY_AFTER", "5"},
		{"MAIL_RETRY_AFTER", "0s"},
		{"MAIL_LEASE", "60"},
		{"MAIL_LEASE", "500ms"},
		{"PASSWORD_RESET_EXPIRE", "0"},
		{"PASSWORD_RESET_THROTTLE", "-1"},
		{"FRONTEND_URL", "app.example.com"},
	} {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.key, tc.value)
			_, err := loadConfig()
			if err == nil || !strings.Contains(err.Error(), tc.key) {
				t.Errorf("got %v, want an error naming %s", err, tc.key)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("got a multi-line error: %q", err)
			}
		})
	}
}

// TestMailSettings checks the mail keys' defaults and that MAIL_FROM_NAME
// falls back to APP_NAME.
func TestMailSettings(t *testing.T) {
	for _, k := range []string{"MAIL_MAILER", "MAIL_PORT", "MAIL_FROM_NAME", "APP_NAME", "MAIL_RETRY_AFTER", "MAIL_LEASE", "PASSWORD_RESET_EXPIRE"} {
		unsetEnv(t, k)
	}
	cfg, err := loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	svc := cfg.service()
	if svc.Mail.Mailer != "log" || svc.Mail.Port != 587 || svc.Mail.FromName != "Inkwell" || svc.MailQueue.RetryAfter != 5*time.Second || svc.MailQueue.Lease != time.Minute || svc.PasswordReset.Lifetime != time.Hour {
		t.Errorf("defaults: %+v, %+v, %+v", svc.Mail, svc.MailQueue, svc.PasswordReset)
	}
	t.Setenv("APP_NAME", "Quill")
	t.Setenv("MAIL_LEASE", "15s")
	if cfg, err = loadConfig(); err != nil {
		t.Fatal(err)
	}
	if got := cfg.service().Mail.FromName; got != "Quill" {
		t.Errorf("MAIL_FROM_NAME falls back to %q, want APP_NAME's Quill", got)
	}
	if got := cfg.service().MailQueue.Lease; got != 15*time.Second {
		t.Errorf("MAIL_LEASE=15s gives the outbox a lease of %s", got)
	}
}

// TestMailLogWarnsInProduction checks that MAIL_MAILER=log is worth a
// warning in production only.
func TestMailLogWarnsInProduction(t *testing.T) {
	for _, tc := range []struct {
		env, mailer string
		warn        bool
	}{
		{"development", "log", false},
		{"production", "log", true},
		{"production", "smtp", false},
	} {
		e := environment{AppEnv: tc.env, Mail: Mail{MailMailer: tc.mailer}}
		if got := e.mailWarning() != ""; got != tc.warn {
			t.Errorf("APP_ENV=%s MAIL_MAILER=%s: warning %v, want %v", tc.env, tc.mailer, got, tc.warn)
		}
	}
}

func TestSQLiteSynchronousSetting(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  sqlite.Synchronous
	}{
		{"", sqlite.SynchronousFull},
		{"full", sqlite.SynchronousFull},
		{"normal", sqlite.SynchronousNormal},
	} {
		t.Run(tc.value, func(t *testing.T) {
			if tc.value == "" {
				unsetEnv(t, "SQLITE_SYNCHRONOUS")
			} else {
				t.Setenv("SQLITE_SYNCHRONOUS", tc.value)
			}
			cfg, err := loadConfig()
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.service().Store.SQLiteSynchronous; got != tc.want {
				t.Errorf("the store gets %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEnvExampleListsEveryKey keeps .env.example the full list of settings
// that it says it is.
func TestEnvExampleListsEveryKey(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".env.example"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[environment]()) {
		key := f.Tag.Get("env")
		if key == "" {
			// A struct of settings embedded for its fields.
			continue
		}
		if !regexp.MustCompile(`(?m)^` + key + `=`).Match(data) {
			t.Errorf(".env.example does not document %s", key)
		}
	}
}

func TestTrustedProxies(t *testing.T) {
	t.Setenv("TRUSTED_PROXIES", "10.1.2.3/8, 127.0.0.1,,::1")
	e, err := loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range e.service().HTTP.TrustedProxies {
		got = append(got, n.String())
	}
	if want := []string{"10.0.0.0/8", "127.0.0.1/32", "::1/128"}; !slices.Equal(got, want) {
		t.Errorf("TRUSTED_PROXIES: got %q, want %q", got, want)
	}
}

func TestS3DiskNeedsItsKeys(t *testing.T) {
	t.Setenv("FILESYSTEM_DISK", "s3")
	for _, key := range []string{"AWS_BUCKET", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID"} {
		if _, err := loadConfig(); err == nil || !strings.HasPrefix(err.Error(), key+":") {
			t.Fatalf("got %v, want an error naming %s", err, key)
		}
		t.Setenv(key, "x")
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "y")
	cfg, err := loadConfig()
	if err != nil {
		t.Fatalf("with every key: %v", err)
	}
	if f := cfg.service().Files; f.Disk != "s3" || f.S3.Bucket != "x" || f.S3.SecretAccessKey != "y" {
		t.Errorf("files config: got %+v", f)
	}
}

// TestCORSAndStatefulSettings checks how the cross-origin and stateful keys
// reach the HTTP adapter: a wildcard origin is development's alone, added
// headers go through as they are, and STATEFUL_DOMAINS unset is left to
// the adapter's default (Sanctum's list with APP_URL's and FRONTEND_URL's
// hosts) rather than fixed to Sanctum's list here.
func TestCORSAndStatefulSettings(t *testing.T) {
	unsetEnv(t, "STATEFUL_DOMAINS")
	t.Setenv("CORS_ALLOWED_ORIGINS", "*")
	t.Setenv("CORS_ALLOWED_HEADERS", "X-Tenant")
	t.Setenv("CORS_EXPOSED_HEADERS", "X-Cache,X-Trace")
	cfg, err := loadConfig()
	if err != nil {
		t.Fatalf("a wildcard origin in development: %v", err)
	}
	got := cfg.service().HTTP
	if !equalStrings(got.CORS.AllowedHeaders, []string{"X-Tenant"}) || !equalStrings(got.CORS.ExposedHeaders, []string{"X-Cache", "X-Trace"}) {
		t.Errorf("CORS headers: got %q and %q", got.CORS.AllowedHeaders, got.CORS.ExposedHeaders)
	}
	if len(got.StatefulDomains) != 0 {
		t.Errorf("STATEFUL_DOMAINS unset: got %q, want the adapter's default", got.StatefulDomains)
	}
	t.Setenv("STATEFUL_DOMAINS", "app.example.com,api.example.com:8443")
	if cfg, err = loadConfig(); err != nil {
		t.Fatal(err)
	}
	if got := cfg.service().HTTP.StatefulDomains; !equalStrings(got, []string{"app.example.com", "api.example.com:8443"}) {
		t.Errorf("STATEFUL_DOMAINS: got %q", got)
	}
	t.Setenv("APP_ENV", "production")
	if _, err := loadConfig(); err == nil || !strings.HasPrefix(err.Error(), "CORS_ALLOWED_ORIGINS: ") {
		t.Errorf("a wildcard origin in production: got %v, want an error naming CORS_ALLOWED_ORIGINS", err)
	}
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}
