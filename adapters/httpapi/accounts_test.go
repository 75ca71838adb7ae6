package httpapi_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/ports"
)

// plainToken is the Sanctum 4 format: id, "|", 40 characters and a CRC32.
var plainToken = regexp.MustCompile(`^[0-9]+\|[A-Za-z0-9]{40}[0-9a-f]{8}$`)

func TestRegister(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		r := h.do("POST", "/api/v1/register", map[string]any{
			"name": "  Ann Lee  ", "email": "Ann@Example.com", "password": "secret-password",
			"password_confirmation": "secret-password", "is_admin": true,
		})
		r.expect(t, http.StatusCreated, map[string]any{"message": "User registered successfully."})
		user := r.body["user"].(map[string]any)
		want := map[string]any{
			"name": "Ann Lee", "email": "Ann@Example.com", "email_verified_at": nil, "avatar_url": nil,
			"created_at": "2026-11-20T10:00:00.000000Z", "updated_at": "2026-11-20T10:00:00.000000Z",
		}
		for k, v := range want {
			if user[k] != v {
				t.Errorf("user.%s: got %v, want %v", k, user[k], v)
			}
		}
		for _, hidden := range []string{"password", "password_hash", "remember_token", "is_admin"} {
			if _, ok := user[hidden]; ok {
				t.Errorf("user carries %q: %s", hidden, r.raw)
			}
		}
		token := r.body["token"].(string)
		if !plainToken.MatchString(token) {
			t.Errorf("token %q is not in Sanctum's format", token)
		}
		me := h.do("GET", "/api/v1/user", nil, as(token)...)
		me.expect(t, http.StatusOK, map[string]any{"email": "Ann@Example.com", "id": user["id"]})

		// Registration grants every ability.
		list := h.do("GET", "/api/v1/tokens", nil, as(token)...)
		list.expect(t, http.StatusOK, nil)
		tokens := list.body["data"].([]any)
		if len(tokens) != 1 || !equalJSON(tokens[0].(map[string]any)["abilities"], []any{"*"}) {
			t.Errorf("tokens after register: got %s, want one with abilities [*]", list.raw)
		}
	})
}

func TestRegisterValidation(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.register("Taken", "taken@example.com", "password1")
		long := strings.Repeat("é", 256)
		for _, tc := range []struct {
			name string
			body any
			want map[string][]string
		}{
			{"empty", map[string]any{}, map[string][]string{
				"name":     {"The name field is required."},
				"email":    {"The email field is required."},
				"password": {"The password field is required."},
			}},
			{"blank strings count as missing", map[string]any{"name": "   ", "email": "", "password": "password1", "password_confirmation": "password1"}, map[string][]string{
				"name":  {"The name field is required."},
				"email": {"The email field is required."},
			}},
			{"wrong types", map[string]any{"name": 12, "email": []any{"a"}, "password": map[string]any{"x": 1}}, map[string][]string{
				"name":     {"The name field must be a string."},
				"email":    {"The email field must be a string."},
				"password": {"The password field must be a string."},
			}},
			{"too long and not an email", map[string]any{"name": long, "email": "not-an-email", "password": "short", "password_confirmation": "other"}, map[string][]string{
				"name":     {"The name field must not be greater than 255 characters."},
				"email":    {"The email field must be a valid email address."},
				"password": {"The password field must be at least 8 characters.", "The password field confirmation does not match."},
			}},
			{"taken ignoring case", map[string]any{"name": "Ann", "email": "TAKEN@example.com", "password": "password1", "password_confirmation": "password1"}, map[string][]string{
				"email": {"The email has already been taken."},
			}},
			{"password over 72 bytes", map[string]any{"name": "Ann", "email": "a@example.com", "password": strings.Repeat("ü", 37), "password_confirmation": strings.Repeat("ü", 37)}, map[string][]string{
				"password": {"The password field must not be greater than 72 bytes."},
			}},
			{"NUL byte", map[string]any{"name": "A\x00nn", "email": "b@example.com", "password": "password1", "password_confirmation": "password1"}, map[string][]string{
				"name": {"The name field must not contain null bytes."},
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.do("POST", "/api/v1/register", tc.body)
				r.expect(t, http.StatusUnprocessableEntity, map[string]any{"success": false, "message": "Validation failed.", "errors": tc.want})
			})
		}
		// 255 characters of a two-byte letter are within the limit.
		r := h.do("POST", "/api/v1/register", map[string]any{"name": strings.Repeat("é", 255), "email": "long@example.com", "password": "password1", "password_confirmation": "password1"})
		r.expect(t, http.StatusCreated, nil)
	})
}

func TestMalformedBodies(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	for _, tc := range []struct {
		name, body, contentType string
		wantStatus              int
		wantMessage             string
	}{
		{"truncated JSON", `{"name":`, "application/json", 400, "Malformed JSON body."},
		{"array", `[1,2]`, "application/json", 400, "Malformed JSON body."},
		{"trailing data", `{"name":"a"} {}`, "application/json", 400, "Malformed JSON body."},
		{"form body", `name=a`, "application/x-www-form-urlencoded", 400, "Unsupported content type."},
		{"JSON with a vendor type", `{}`, "application/vnd.api+json", 422, "Validation failed."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", "/api/v1/register", tc.body, "Content-Type", tc.contentType)
			r.expect(t, tc.wantStatus, map[string]any{"success": false, "message": tc.wantMessage})
		})
	}
}

func TestRegisterConcurrentlyOneEmail(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		var wg sync.WaitGroup
		statuses := make([]int, 20)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := h.do("POST", "/api/v1/register", map[string]any{
					"name": "Racer", "email": "race@example.com", "password": "password1", "password_confirmation": "password1",
				})
				statuses[i] = r.status
			}()
		}
		wg.Wait()
		count := map[int]int{}
		for _, s := range statuses {
			count[s]++
		}
		if count[201] != 1 || count[422] != 19 {
			t.Errorf("got statuses %v, want one 201 and nineteen 422", count)
		}
	})
}

func TestLogin(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		first := h.register("Ann", "ann@example.com", "password1")
		second := h.login("ANN@example.com", "password1")
		if !plainToken.MatchString(second) {
			t.Errorf("token %q is not in Sanctum's format", second)
		}
		// Login deletes earlier tokens.
		h.do("GET", "/api/v1/user", nil, as(first)...).expect(t, http.StatusUnauthorized, map[string]any{"success": false, "message": "Unauthenticated."})
		list := h.do("GET", "/api/v1/tokens", nil, as(second)...)
		list.expect(t, http.StatusOK, nil)
		tokens := list.body["data"].([]any)
		if len(tokens) != 1 || !equalJSON(tokens[0].(map[string]any)["abilities"], []any{"posts:read", "posts:write"}) {
			t.Errorf("tokens after login: got %s, want one with posts:read and posts:write", list.raw)
		}
		r := h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com", "password": "password1"})
		r.expect(t, http.StatusOK, map[string]any{"message": "Logged in successfully."})
		if r.body["user"].(map[string]any)["email"] != "ann@example.com" {
			t.Errorf("login user: got %s", r.raw)
		}
	})
}

func TestLoginFailures(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.register("Ann", "ann@example.com", "password1")
		bad := map[string]any{"success": false, "message": "Validation failed.",
			"errors": map[string]any{"email": []any{"The provided credentials are incorrect."}}}
		h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com", "password": "wrong-password"}).expect(t, 422, bad)
		h.do("POST", "/api/v1/login", map[string]any{"email": "nobody@example.com", "password": "password1"}).expect(t, 422, bad)
		h.do("POST", "/api/v1/login", map[string]any{"email": "not-an-email"}).expect(t, 422, map[string]any{
			"errors": map[string]any{"email": []any{"The email field must be a valid email address."}, "password": []any{"The password field is required."}},
		})
	})
}

func TestLoginThrottle(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.register("Ann", "ann@example.com", "password1")
		wrong := map[string]any{"email": "ann@example.com", "password": "wrong-password"}
		for i := range 5 {
			if r := h.do("POST", "/api/v1/login", wrong); r.status != 422 {
				t.Fatalf("attempt %d: got %d, want 422", i+1, r.status)
			}
		}
		r := h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com", "password": "password1"})
		r.expect(t, http.StatusTooManyRequests, map[string]any{"success": false, "message": "Too Many Attempts."})
		if got := r.header.Get("Retry-After"); got != "60" {
			t.Errorf("Retry-After: got %q, want 60", got)
		}
		// Another e-mail from the same address is not affected.
		h.register("Bob", "bob@example.com", "password1")
		h.login("bob@example.com", "password1")
		// The window ends, and a success clears the count.
		h.clock.Advance(61 * time.Second)
		h.login("ann@example.com", "password1")
		for i := range 4 {
			if r := h.do("POST", "/api/v1/login", wrong); r.status != 422 {
				t.Fatalf("attempt %d after reset: got %d, want 422", i+1, r.status)
			}
		}
		h.login("ann@example.com", "password1")
	})
}

// checkCounter wraps a password hasher and counts its password checks.
type checkCounter struct {
	ports.PasswordHasher
	checks atomic.Int64
}

func (h *checkCounter) Check(hash, password string) (bool, error) {
	h.checks.Add(1)
	return h.PasswordHasher.Check(hash, password)
}

// loginFlood sends n wrong logins for one e-mail at once, spread over
// servers in turn, and checks that the throttle let exactly limit of them
// reach the password check, answering 429 with Retry-After to the rest.
func loginFlood(t *testing.T, hasher *checkCounter, limit, n int, servers ...*harness) {
	t.Helper()
	servers[0].register("Ann", "ann@example.com", "password1")
	statuses := make([]int, n)
	retryAfter := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := servers[i%len(servers)].do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com", "password": "wrong-password"})
			statuses[i], retryAfter[i] = r.status, r.header.Get("Retry-After")
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for i, s := range statuses {
		count[s]++
		if s == http.StatusTooManyRequests && retryAfter[i] != "60" {
			t.Errorf("Retry-After of a 429: got %q, want 60", retryAfter[i])
		}
	}
	if count[422] != limit || count[429] != n-limit {
		t.Errorf("got statuses %v, want %d 422 and %d 429", count, limit, n-limit)
	}
	if got := hasher.checks.Load(); got != int64(limit) {
		t.Errorf("password checks: got %d, want %d", got, limit)
	}
}

func TestLoginThrottleConcurrent(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			hasher := &checkCounter{PasswordHasher: passwords.NewBcrypt(passwords.Config{Cost: bcrypt.MinCost})}
			h := newHarness(t, s.Open(t), options{hasher: hasher})
			loginFlood(t, hasher, 5, 30, h)
		})
	}
	// Replicas share the count through the store: two servers on one
	// PostgreSQL database check no more passwords than one.
	t.Run("postgres, two servers", func(t *testing.T) {
		t.Parallel()
		dbURL := pgtest.URL(t)
		hasher := &checkCounter{PasswordHasher: passwords.NewBcrypt(passwords.Config{Cost: bcrypt.MinCost})}
		var servers []*harness
		for range 2 {
			store, cleanup, err := postgres.Open(context.Background(), dbURL)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cleanup)
			servers = append(servers, newHarness(t, store, options{hasher: hasher}))
		}
		loginFlood(t, hasher, 5, 30, servers...)
	})
}

func TestLoginRehashesWhenCostChanges(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			store := s.Open(t)
			newHarness(t, store, options{bcryptCost: bcrypt.MinCost}).register("Ann", "ann@example.com", "password1")
			h := newHarness(t, store, options{bcryptCost: bcrypt.MinCost + 1})
			h.login("ann@example.com", "password1")
			u, err := store.Repos().Users.ByEmail(context.Background(), "ann@example.com")
			if err != nil {
				t.Fatal(err)
			}
			if cost, _ := bcrypt.Cost([]byte(u.PasswordHash)); cost != bcrypt.MinCost+1 {
				t.Errorf("cost after login: got %d, want %d", cost, bcrypt.MinCost+1)
			}
			h.login("ann@example.com", "password1")
		})
	}
}

func TestLoginRaceLeavesOneToken(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		old := h.register("Ann", "ann@example.com", "password1")
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com", "password": "password1"})
			}()
			go func() {
				defer wg.Done()
				h.do("GET", "/api/v1/user", nil, as(old)...)
			}()
		}
		wg.Wait()
		u, err := h.store.Repos().Users.ByEmail(context.Background(), "ann@example.com")
		if err != nil {
			t.Fatal(err)
		}
		tokens, err := h.store.Repos().Tokens.ListByUser(context.Background(), u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(tokens) != 1 {
			t.Errorf("got %d active tokens after racing logins, want 1", len(tokens))
		}
	})
}

func TestLogout(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		other := h.do("POST", "/api/v1/tokens", map[string]any{"name": "cli"}, as(token)...)
		other.expect(t, http.StatusCreated, nil)
		h.do("POST", "/api/v1/logout", nil, as(token)...).expect(t, http.StatusOK, map[string]any{"message": "Logged out successfully."})
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusUnauthorized, nil)
		h.do("POST", "/api/v1/logout", nil, as(token)...).expect(t, http.StatusUnauthorized, nil)
		// Only the presented token went.
		h.do("GET", "/api/v1/user", nil, as(other.body["token"].(string))...).expect(t, http.StatusOK, nil)
	})
}

func TestAuthentication(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		id, secret, _ := strings.Cut(token, "|")
		forged := id + "|" + strings.Repeat("A", 40) + secret[40:]
		unauth := map[string]any{"success": false, "message": "Unauthenticated."}
		for _, tc := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"no header", nil, 401},
			{"valid", as(token), 200},
			{"lower-case scheme", []string{"Authorization", "bearer " + token}, 200},
			{"secret without id, as Sanctum accepts", as(secret), 200},
			{"basic scheme", []string{"Authorization", "Basic " + token}, 401},
			{"empty token", []string{"Authorization", "Bearer "}, 401},
			{"forged secret", as(forged), 401},
			{"unknown id", as("999999|" + secret), 401},
			{"id not a number", as("abc|" + secret), 401},
			{"negative id", as("-1|" + secret), 401},
			{"huge id", as("99999999999999999999999|" + secret), 401},
			{"empty secret", as(id + "|"), 401},
			{"NUL byte", as(token + "\x00"), 401},
			{"unicode", as(id + "|ü" + secret), 401},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.do("GET", "/api/v1/user", nil, tc.headers...)
				if tc.want == 401 {
					r.expect(t, 401, unauth)
				} else {
					r.expect(t, tc.want, map[string]any{"email": "ann@example.com"})
				}
			})
		}
	})
}

func TestTokenExpiry(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		h.clock.Advance(10080*time.Minute - time.Second)
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, 200, nil)
		h.clock.Advance(time.Second)
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, 401, map[string]any{"message": "Unauthenticated."})
	})
}

func TestTokenOfDeletedUser(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		u, err := h.store.Repos().Users.ByEmail(context.Background(), "ann@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if err := h.store.Repos().Users.Delete(context.Background(), u.ID); err != nil {
			t.Fatal(err)
		}
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, 401, map[string]any{"message": "Unauthenticated."})
	})
}

func TestLastUsedAtWrittenAtMostOncePerMinute(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		lastUsed := func() any {
			r := h.do("GET", "/api/v1/tokens", nil, as(token)...)
			return r.body["data"].([]any)[0].(map[string]any)["last_used_at"]
		}
		if got := lastUsed(); got != "2026-11-20T10:00:00.000000Z" {
			t.Errorf("after first use: got %v, want 2026-11-20T10:00:00.000000Z", got)
		}
		h.clock.Advance(30 * time.Second)
		if got := lastUsed(); got != "2026-11-20T10:00:00.000000Z" {
			t.Errorf("30 s later: got %v, want the first use kept", got)
		}
		h.clock.Advance(31 * time.Second)
		if got := lastUsed(); got != "2026-11-20T10:01:01.000000Z" {
			t.Errorf("61 s later: got %v, want 2026-11-20T10:01:01.000000Z", got)
		}
	})
}

func TestPersonalTokens(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.register("Ann", "ann@example.com", "password1")
		login := h.login("ann@example.com", "password1")
		bob := h.register("Bob", "bob@example.com", "password1")

		r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "reader", "abilities": []string{"posts:read"}, "expires_in_minutes": 60}, as(login)...)
		r.expect(t, http.StatusCreated, nil)
		data := r.body["data"].(map[string]any)
		if data["name"] != "reader" || !equalJSON(data["abilities"], []any{"posts:read"}) || data["expires_at"] != "2026-11-20T11:00:00.000000Z" {
			t.Errorf("created token: got %s", r.raw)
		}
		reader := r.body["token"].(string)
		h.do("GET", "/api/v1/user", nil, as(reader)...).expect(t, 200, nil)

		// No escalation: a token can't grant what it does not hold.
		forbidden := map[string]any{"success": false, "message": "Invalid ability provided."}
		h.do("POST", "/api/v1/tokens", map[string]any{"name": "x", "abilities": []string{"*"}}, as(login)...).expect(t, 403, forbidden)
		h.do("POST", "/api/v1/tokens", map[string]any{"name": "x", "abilities": []string{"profile:update"}}, as(login)...).expect(t, 403, forbidden)
		h.do("POST", "/api/v1/tokens", map[string]any{"name": "x", "abilities": []string{"posts:write"}}, as(reader)...).expect(t, 403, forbidden)
		// Issuing tokens is a write that posts:read does not allow.
		h.do("POST", "/api/v1/tokens", map[string]any{"name": "x", "abilities": []string{"posts:read"}}, as(reader)...).expect(t, 403, forbidden)
		// Without abilities the new token inherits the presenting token's.
		r = h.do("POST", "/api/v1/tokens", map[string]any{"name": "inherit"}, as(login)...)
		r.expect(t, http.StatusCreated, nil)
		if !equalJSON(r.body["data"].(map[string]any)["abilities"], []any{"posts:read", "posts:write"}) {
			t.Errorf("inherited abilities: got %s", r.raw)
		}

		h.do("POST", "/api/v1/tokens", map[string]any{"abilities": "posts:read", "expires_in_minutes": 0}, as(login)...).expect(t, 422, map[string]any{
			"errors": map[string]any{
				"name":               []any{"The name field is required."},
				"abilities":          []any{"The abilities field must be an array."},
				"expires_in_minutes": []any{"The expires in minutes field must be at least 1."},
			},
		})

		list := h.do("GET", "/api/v1/tokens", nil, as(login)...)
		list.expect(t, 200, nil)
		tokens := list.body["data"].([]any)
		if len(tokens) != 3 {
			t.Fatalf("got %d tokens, want 3: %s", len(tokens), list.raw)
		}
		for _, tok := range tokens {
			for _, secret := range []string{"token", "hash", "token_hash"} {
				if _, ok := tok.(map[string]any)[secret]; ok {
					t.Errorf("token list carries %q", secret)
				}
			}
		}
		readerID := tokens[1].(map[string]any)["id"]
		// Another user's token is not found; a bad id neither.
		h.do("DELETE", "/api/v1/tokens/"+jsonNumber(readerID), nil, as(bob)...).expect(t, 404, map[string]any{"success": false, "message": "Resource not found."})
		h.do("DELETE", "/api/v1/tokens/abc", nil, as(login)...).expect(t, 404, nil)
		h.do("DELETE", "/api/v1/tokens/"+jsonNumber(readerID), nil, as(login)...).expect(t, 200, map[string]any{"message": "Token revoked."})
		h.do("GET", "/api/v1/user", nil, as(reader)...).expect(t, 401, nil)
	})
}

func TestUnknownRoutesAnswerJSON(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	h.do("GET", "/api/v1/nothing-here", nil).expect(t, 404, map[string]any{"success": false, "message": "Resource not found."})
	h.do("GET", "/api/v1/register", nil).expect(t, 405, map[string]any{"success": false, "message": "Method Not Allowed"})
}

func TestBodyOverLimit(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	// Fiber's in-memory test transport reports the limit as an error, so
	// this goes through a real listener. Only the headers are sent: the
	// server answers as soon as it reads the declared length, then closes.
	base := h.listen()
	for _, path := range []string{"/api/v1/register", "/api/v1/forgot-password", "/api/v1/reset-password"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		head := "POST " + path + " HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nContent-Length: 9437184\r\n\r\n"
		if _, err := io.WriteString(conn, head); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 413 || string(body) != `{"success":false,"message":"Payload Too Large"}` {
			t.Errorf("%s: got %d %s, want 413 with area A's body", path, resp.StatusCode, body)
		}
	}
}
