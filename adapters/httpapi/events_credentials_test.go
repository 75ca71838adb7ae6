package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
)

// closeWithin is how soon a stream must end once its credential did.
const closeWithin = 5 * time.Second

// product creates an area B product named name, an event every stream
// may see.
func (h *harness) product(name string) {
	h.t.Helper()
	h.do("POST", "/products", map[string]any{"name": name, "price": 1}).expect(h.t, http.StatusCreated, nil)
}

// sees reads s until the product.created of name.
func (s *sseStream) sees(name string) {
	s.t.Helper()
	for {
		m := s.next()
		if m.event == "product.created" && productName(m) == name {
			return
		}
	}
}

func productName(m sseMessage) string {
	d, _ := m.data["data"].(map[string]any)
	n, _ := d["name"].(string)
	return n
}

// endsWithout waits for s to end and fails if it sent an event after its
// credential ended, which the product named after was created after.
func (s *sseStream) endsWithout(after string) {
	s.t.Helper()
	deadline := time.After(closeWithin)
	for {
		select {
		case m, ok := <-s.messages:
			if !ok {
				return
			}
			if m.id != "" {
				s.t.Errorf("the stream sent %s %q after its credential ended", m.event, productName(m))
			}
		case <-deadline:
			s.t.Fatalf("the stream still open %s after its credential ended", closeWithin)
		}
	}
}

// TestEventStreamEndsWithItsCredential ends the credential of a stream in
// each way the API and the clock end one, and checks that the stream sends
// nothing committed after that and closes within closeWithin, while a
// stream of another credential goes on.
func TestEventStreamEndsWithItsCredential(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		base := h.listen()
		bystander, _ := h.v1Account("Bystander")
		other := subscribe(t, base, "topics=products", "Authorization", "Bearer "+bystander)
		password := map[string]any{"current_password": "password1"}
		for _, tc := range []struct {
			name string
			// open returns the headers of a stream of a new account's
			// credential, and the function that ends that credential.
			open func(name string) ([]string, func())
		}{
			{"token deleted", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "feed"}, as(token)...)
				r.expect(t, http.StatusCreated, nil)
				id := jsonNumber(r.body["data"].(map[string]any)["id"])
				return as(r.body["token"].(string)), func() {
					h.do("DELETE", "/api/v1/tokens/"+id, nil, as(token)...).expect(t, http.StatusOK, nil)
				}
			}},
			{"logout", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				return as(token), func() { h.do("POST", "/api/v1/logout", nil, as(token)...).expect(t, http.StatusOK, nil) }
			}},
			{"login elsewhere", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				return as(token), func() { h.login(strings.ToLower(name)+"@example.com", "password1") }
			}},
			{"password change", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				return as(token), func() {
					h.do("PUT", "/api/v1/user", map[string]any{"password": "password2", "password_confirmation": "password2", "current_password": "password1"}, as(token)...).expect(t, http.StatusOK, nil)
				}
			}},
			{"account deleted", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				return as(token), func() { h.do("DELETE", "/api/v1/user", password, as(token)...).expect(t, http.StatusOK, nil) }
			}},
			{"token expired", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "brief", "expires_in_minutes": 1}, as(token)...)
				r.expect(t, http.StatusCreated, nil)
				return as(r.body["token"].(string)), func() { h.clock.Advance(2 * time.Minute) }
			}},
			{"password reset", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				email := strings.ToLower(name) + "@example.com"
				return as(token), func() {
					h.forgot(email)
					// The verification mails of the accounts made so far
					// may come first.
					for sent := h.sendMail(); len(sent) > 0; sent = h.sendMail() {
						for _, m := range sent {
							if m.To == email && resetLinkPattern.MatchString(m.Text) {
								_, reset, _ := resetLinkOf(t, m)
								h.reset(reset, email, "password2").expect(t, http.StatusOK, nil)
								return
							}
						}
					}
					t.Error("no reset mail was sent")
				}
			}},
			{"session logout", func(name string) ([]string, func()) {
				h.v1Account(name)
				b := h.browser(spaOrigin)
				b.signIn(strings.ToLower(name) + "@example.com")
				return []string{"Origin", spaOrigin, "Cookie", b.cookieHeader()}, func() {
					b.do("POST", "/logout", nil).expect(t, http.StatusNoContent, nil)
				}
			}},
			{"password change ends the sessions", func(name string) ([]string, func()) {
				token, _ := h.v1Account(name)
				b := h.browser(spaOrigin)
				b.signIn(strings.ToLower(name) + "@example.com")
				return []string{"Origin", spaOrigin, "Cookie", b.cookieHeader()}, func() {
					h.do("PUT", "/api/v1/user", map[string]any{"password": "password2", "password_confirmation": "password2", "current_password": "password1"}, as(token)...).expect(t, http.StatusOK, nil)
				}
			}},
			{"session idled out", func(name string) ([]string, func()) {
				h.v1Account(name)
				b := h.browser(spaOrigin)
				b.signIn(strings.ToLower(name) + "@example.com")
				return []string{"Origin", spaOrigin, "Cookie", b.cookieHeader()}, func() { h.clock.Advance(sessionLifetime + time.Minute) }
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				name := strings.ReplaceAll(tc.name, " ", "")
				headers, end := tc.open(name)
				s := subscribe(t, base, "topics=products", headers...)
				h.product("before " + tc.name)
				s.sees("before " + tc.name)
				end()
				h.product("after " + tc.name)
				s.endsWithout("after " + tc.name)
				other.sees("after " + tc.name)
			})
		}
	})
}

// TestEventStreamEndsOnEveryReplica runs two servers, each with its own
// store over one PostgreSQL database, as two replicas do: a token deleted
// through one ends the stream it opened on the other, which sends nothing
// committed after, while the other streams there go on.
func TestEventStreamEndsOnEveryReplica(t *testing.T) {
	url := pgtest.URL(t)
	replica := func() *harness {
		store, cleanup, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cleanup)
		return newHarness(t, store, options{})
	}
	one, two := replica(), replica()
	base := two.listen()
	token, _ := one.v1Account("Ann")
	r := one.do("POST", "/api/v1/tokens", map[string]any{"name": "feed"}, as(token)...)
	r.expect(t, http.StatusCreated, nil)
	feed, id := r.body["token"].(string), jsonNumber(r.body["data"].(map[string]any)["id"])
	revoked := subscribe(t, base, "topics=products", as(feed)...)
	kept := subscribe(t, base, "topics=products", as(token)...)
	anon := subscribe(t, base, "topics=products")
	one.product("before")
	revoked.sees("before")
	one.do("DELETE", "/api/v1/tokens/"+id, nil, as(token)...).expect(t, http.StatusOK, nil)
	one.product("after")
	revoked.endsWithout("after")
	kept.sees("after")
	anon.sees("after")
}

// TestEventStreamCaps opens streams up to the caps per token and per
// address: one more is a 429 in area A's shape, with Retry-After, and a
// stream that ends makes room for another.
func TestEventStreamCaps(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{streamsPerToken: 2, streamsPerAddress: 4, heartbeat: 50 * time.Millisecond})
	base := h.listen()
	ann, _ := h.v1Account("Ann")
	r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "second"}, as(ann)...)
	r.expect(t, http.StatusCreated, nil)
	second := r.body["token"].(string)
	refused := func(what string, headers ...string) {
		t.Helper()
		resp, cancel := openStream(t, base, "topics=products", headers...)
		defer cancel()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		if resp.StatusCode != http.StatusTooManyRequests || !equalJSON(body, map[string]any{"success": false, "message": "Too Many Attempts."}) {
			t.Errorf("%s: %d %v, want 429 Too Many Attempts.", what, resp.StatusCode, body)
		}
		if resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", what)
		}
	}
	first := subscribe(t, base, "topics=products", as(ann)...)
	subscribe(t, base, "topics=products", as(ann)...)
	refused("a third stream of one token", as(ann)...)
	subscribe(t, base, "topics=products", as(second)...)
	subscribe(t, base, "topics=products")
	refused("a fifth stream of one address")

	// The server notices a gone client at its next write, a heartbeat.
	first.cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, cancel := openStream(t, base, "topics=products", as(ann)...)
		status := resp.StatusCode
		cancel()
		if status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a stream of the token 5s after one of its streams ended: %d, want 200", status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEventStreamLastEventIDAboveNewest asks to resume after an id that
// was never handed out: a 422 naming the newest id, not a stream that
// would skip every event up to it. The newest id itself resumes.
func TestEventStreamLastEventIDAboveNewest(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		base := h.listen()
		h.product("A")
		s := subscribe(t, base, "topics=products", "Last-Event-ID", "0")
		newest := s.next().id
		s.cancel()
		n, _ := strconv.ParseInt(newest, 10, 64)
		resp, cancel := openStream(t, base, "topics=products", "Last-Event-ID", strconv.FormatInt(n+1, 10))
		defer cancel()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		want := map[string]any{"success": false, "message": "Validation failed.", "errors": map[string]any{
			"Last-Event-ID": []any{"The Last-Event-ID field must not be greater than " + newest + "."},
		}}
		if resp.StatusCode != http.StatusUnprocessableEntity || !equalJSON(body, want) {
			t.Errorf("Last-Event-ID %d with %s the newest: %d %v, want 422 %v", n+1, newest, resp.StatusCode, body, want)
		}
		s = subscribe(t, base, "topics=products", "Last-Event-ID", newest)
		h.product("B")
		s.sees("B")
	})
}
