package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/httpapi/crud"
	"github.com/inkwell/inkwell/adapters/httpapi/openapi"
	"github.com/inkwell/inkwell/domain"
)

// abilityFree are the writes of area A that no ability gates, each with
// why: the public routes, which make or recover the credential, and the
// session routes, which a bearer token does not use. A new route of area A
// that writes is either gated by an ability of domain's table, named in
// the OpenAPI document's x-abilities, or listed here.
var abilityFree = map[string]string{
	"POST /api/v1/register":        "public: makes the account and its first token",
	"POST /api/v1/login":           "public: issues a token",
	"POST /api/v1/forgot-password": "public: mails a reset link",
	"POST /api/v1/reset-password":  "public: the mailed token is the credential",
	"POST /api/v1/logout":          "ends the presented credential, which needs no ability",
	"POST /login":                  "session route: signs a browser session in",
	"POST /logout":                 "session route: signs a browser session out",
	"POST /register":               "public: makes the account and signs a browser session in",
	"POST /forgot-password":        "public: mails a reset link",
	"POST /reset-password":         "public: the mailed token is the credential",
}

// writeRoute is a route of area A that writes, as the router has it.
type writeRoute struct {
	method, path string // path as Fiber writes it, "/api/v1/comments/:comment"
}

func (r writeRoute) String() string { return r.method + " " + r.path }

// fiberParam matches a Fiber path parameter.
var fiberParam = regexp.MustCompile(`:([A-Za-z0-9_]+)\??`)

// documentPath is the route's path as the OpenAPI document writes it.
func (r writeRoute) documentPath() string {
	return fiberParam.ReplaceAllString(r.path, "{$1}")
}

// areaAWrites walks the router for the routes of area A that write: every
// POST, PUT, PATCH and DELETE but area B's and the sites' (the admin
// console), in the order they were registered.
func areaAWrites(h *harness) []writeRoute {
	var out []writeRoute
	for _, r := range h.server.App().GetRoutes(true) {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue
		}
		if crud.Owns(r.Path) || r.Path == "/admin" || strings.HasPrefix(r.Path, "/admin/") {
			continue
		}
		out = append(out, writeRoute{r.Method, r.Path})
	}
	return out
}

// documentedAbilities reads each operation's x-abilities from the OpenAPI
// document, keyed by "METHOD /path/{param}"; an operation without the
// extension is absent, one with an empty list present with none.
func documentedAbilities(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for path, item := range documentPaths(t) {
		for method, op := range item {
			var o struct {
				Abilities *[]string `json:"x-abilities"`
			}
			if err := json.Unmarshal(op, &o); err != nil || o.Abilities == nil {
				continue
			}
			out[strings.ToUpper(method)+" "+path] = *o.Abilities
		}
	}
	return out
}

// TestEveryWriteNamesItsAbilities walks the router: every route of area A
// that writes is either free of abilities (abilityFree) or documented with
// the abilities of one row of domain's table, and so each write the
// document names is one the table knows.
func TestEveryWriteNamesItsAbilities(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	documented := documentedAbilities(t)
	routes := areaAWrites(h)
	for _, r := range routes {
		got, ok := documented[r.method+" "+r.documentPath()]
		if _, free := abilityFree[r.String()]; free {
			if ok && len(got) > 0 {
				t.Errorf("%s: free of abilities here, yet documented with x-abilities %v", r, got)
			}
			continue
		}
		if !ok || len(got) == 0 {
			t.Errorf("%s writes, yet names no ability: give it a domain.Write and document its x-abilities, or list it in abilityFree", r)
			continue
		}
		if !slices.ContainsFunc(domain.Writes(), func(w domain.Write) bool { return slices.Equal(w.Abilities(), got) }) {
			t.Errorf("%s: x-abilities %v is no row of domain's table", r, got)
		}
	}
	// The list of exemptions names routes that exist.
	for key := range abilityFree {
		if !slices.ContainsFunc(routes, func(r writeRoute) bool { return r.String() == key }) {
			t.Errorf("abilityFree names %s, which the router does not serve", key)
		}
	}
}

// TestOpenAPIListsTheAbilities compares the document's enum of abilities
// with the core's list.
func TestOpenAPIListsTheAbilities(t *testing.T) {
	raw, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Enum []string `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Components.Schemas["Ability"].Enum; !slices.Equal(got, domain.Abilities) {
		t.Errorf("Ability enum: got %v, want domain.Abilities %v", got, domain.Abilities)
	}
}

// abilityFixture is an account with one of everything its writes name. It
// holds admin rights, so that the writes only admins may make (renaming
// and deleting tags) are let through whenever the abilities allow them.
type abilityFixture struct {
	email                                             string
	session                                           *browser
	post, comment, webhook, delivery, otherToken, tag string
}

// newAbilityFixture registers an account named name, signs it in through a
// browser session and makes, as that session, a post with a comment, a
// webhook with one delivery and a token to revoke.
func (h *harness) newAbilityFixture(name string) *abilityFixture {
	h.t.Helper()
	f := &abilityFixture{email: name + "@example.com", session: h.browser(spaOrigin)}
	h.register(name, f.email, "password1")
	u, err := h.store.Repos().Users.ByEmail(h.t.Context(), f.email)
	if err != nil {
		h.t.Fatal(err)
	}
	h.admin(float64(u.ID))
	f.session.signIn(f.email)
	must := func(r response, status int) map[string]any {
		h.t.Helper()
		if r.status != status {
			h.t.Fatalf("fixture of %s: got %d %s, want %d", name, r.status, r.raw, status)
		}
		return r.body
	}
	data := func(body map[string]any) string { return jsonNumber(body["data"].(map[string]any)["id"]) }
	f.webhook = data(must(f.session.do("POST", "/api/v1/webhooks", map[string]any{"url": "http://127.0.0.1:9/hook", "events": []string{"post.created"}}), http.StatusCreated))
	f.post = data(must(f.session.do("POST", "/api/v1/posts", map[string]any{"title": "Kept " + name, "body": "B", "status": "draft"}), http.StatusCreated))
	f.comment = data(must(f.session.do("POST", "/api/v1/posts/"+f.post+"/comments", map[string]any{"body": "Kept"}), http.StatusCreated))
	f.otherToken = data(must(f.session.do("POST", "/api/v1/tokens", map[string]any{"name": "other"}), http.StatusCreated))
	f.tag = data(must(f.session.do("POST", "/api/v1/tags", map[string]any{"name": "Kept " + name}), http.StatusCreated))
	if _, err := h.worker.FanOut(h.t.Context()); err != nil {
		h.t.Fatal(err)
	}
	deliveries := must(f.session.do("GET", "/api/v1/webhooks/"+f.webhook+"/deliveries", nil), http.StatusOK)["data"].([]any)
	if len(deliveries) != 1 {
		h.t.Fatalf("fixture of %s: got deliveries %v, want one", name, deliveries)
	}
	f.delivery = jsonNumber(deliveries[0].(map[string]any)["id"])
	return f
}

// token issues, through the fixture's session, a token holding abilities.
func (f *abilityFixture) token(h *harness, abilities []string) string {
	h.t.Helper()
	r := f.session.do("POST", "/api/v1/tokens", map[string]any{"name": "under test", "abilities": abilities})
	if r.status != http.StatusCreated {
		h.t.Fatalf("issue %v: got %d %s", abilities, r.status, r.raw)
	}
	return r.body["token"].(string)
}

// path fills the route's parameters with the fixture's records.
func (f *abilityFixture) path(t *testing.T, r writeRoute) string {
	t.Helper()
	values := map[string]string{"post": f.post, "comment": f.comment, "webhook": f.webhook, "delivery": f.delivery, "id": f.otherToken, "tag": f.tag}
	return fiberParam.ReplaceAllStringFunc(r.path, func(p string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(p, ":"), "?")
		v, ok := values[name]
		if !ok {
			t.Fatalf("%s: the test knows no record for the parameter %q; add one to abilityFixture", r, name)
		}
		return v
	})
}

// state is what the account owns, read through its session (which marks
// no token used), to tell that a refused write changed nothing.
func (f *abilityFixture) state(t *testing.T, h *harness) string {
	t.Helper()
	var b strings.Builder
	for _, path := range []string{
		"/api/v1/user", "/api/v1/posts?per_page=100", "/api/v1/posts/" + f.post, "/api/v1/posts/" + f.post + "/comments",
		"/api/v1/tags", "/api/v1/webhooks", "/api/v1/webhooks/" + f.webhook + "/deliveries", "/api/v1/tokens",
	} {
		r := f.session.do("GET", path, nil)
		if r.status != http.StatusOK {
			t.Fatalf("state: GET %s: got %d %s", path, r.status, r.raw)
		}
		if path == "/api/v1/tokens" {
			// A token's first use marks it; which tokens there are, and
			// what they hold, is the state.
			for _, tok := range r.body["data"].([]any) {
				m := tok.(map[string]any)
				fmt.Fprintf(&b, "token %v %v %v\n", m["id"], m["name"], m["abilities"])
			}
			continue
		}
		fmt.Fprintf(&b, "%s %s\n", path, r.raw)
	}
	// No mail left: the verification notification mails.
	if _, err := h.mail.SendDue(h.t.Context()); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "mails %d\n", len(h.inbox.Sent()))
	return b.String()
}

// abilityBody is the body each write is sent with: one it would take, so
// that a refusal is all that stands between the request and a change.
func abilityBody(r writeRoute, name string) any {
	switch r.String() {
	case "POST /api/v1/posts", "POST /api/v2/posts":
		return map[string]any{"title": "New", "body": "B", "status": "published"}
	case "PUT /api/v1/posts/:post", "PUT /api/v2/posts/:post", "PATCH /api/v2/posts/:post":
		return map[string]any{"title": "Changed"}
	case "PUT /api/v1/user":
		return map[string]any{"name": "Changed"}
	case "DELETE /api/v1/user":
		return map[string]any{"current_password": "password1"}
	case "POST /api/v1/tokens":
		return map[string]any{"name": "minted", "abilities": []string{}}
	case "POST /api/v1/tags":
		return map[string]any{"name": "Tag of " + name}
	case "PUT /api/v1/tags/:tag":
		return map[string]any{"name": "Renamed by " + name}
	case "POST /api/v1/posts/:post/comments", "PUT /api/v1/comments/:comment", "PATCH /api/v1/comments/:comment":
		return map[string]any{"body": "Changed"}
	case "POST /api/v1/webhooks", "PUT /api/v1/webhooks/:webhook":
		return map[string]any{"url": "http://127.0.0.1:9/changed", "events": []string{"post.updated"}}
	}
	return nil
}

// abilityRefusal is the answer to a write whose abilities the caller
// lacks: area A's 403, or, for version 1's post creation, the
// specification's message alone.
func abilityRefusal(r writeRoute) string {
	if r.String() == "POST /api/v1/posts" {
		return `{"message":"This token does not have permission to create posts."}`
	}
	return `{"success":false,"message":"Invalid ability provided."}`
}

// TestAbilitiesGateEveryWrite sends every write of area A that names
// abilities, found by walking the router, as callers holding each ability
// alone, none, a login token's, and a browser session's. A caller none of
// the route's documented abilities allow (nor "*", nor a session) gets the
// 403 and nothing changes; any other is let through. Each caller has an
// account of its own, whose writes the allowed calls really make, the
// account's deletion last.
func TestAbilitiesGateEveryWrite(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{webhooksPrivate: true})
			documented := documentedAbilities(t)
			var routes []writeRoute
			for _, r := range areaAWrites(h) {
				if _, free := abilityFree[r.String()]; !free {
					routes = append(routes, r)
				}
			}
			// Deletes last, the account's own the very last, so that the
			// other writes find what they name.
			rank := func(r writeRoute) int {
				switch {
				case r.String() == "DELETE /api/v1/user":
					return 2
				case r.method == http.MethodDelete:
					return 1
				}
				return 0
			}
			slices.SortStableFunc(routes, func(a, b writeRoute) int { return rank(a) - rank(b) })
			if len(routes) == 0 {
				t.Fatal("the router serves no write that names abilities")
			}

			type caller struct {
				name      string
				abilities []string // nil: a browser session
				login     bool
			}
			callers := []caller{{name: "session"}, {name: "login", login: true}, {name: "none", abilities: []string{}}}
			for _, a := range domain.Abilities {
				callers = append(callers, caller{name: a, abilities: []string{a}})
			}
			for i, c := range callers {
				t.Run(c.name, func(t *testing.T) {
					f := h.newAbilityFixture(fmt.Sprintf("caller%d", i))
					var token string
					holds := c.abilities
					switch {
					case c.login:
						token = h.login(f.email, "password1")
						holds = []string{domain.AbilityPostsRead, domain.AbilityPostsWrite}
					case c.abilities != nil:
						token = f.token(h, c.abilities)
					}
					send := func(r writeRoute) response {
						if token == "" {
							return f.session.do(r.method, f.path(t, r), abilityBody(r, c.name))
						}
						return h.do(r.method, f.path(t, r), abilityBody(r, c.name), as(token)...)
					}
					allowed := func(r writeRoute) bool {
						needs := documented[r.method+" "+r.documentPath()]
						return c.abilities == nil && !c.login || slices.Contains(holds, domain.AbilityAll) ||
							slices.ContainsFunc(needs, func(a string) bool { return slices.Contains(holds, a) })
					}

					before := f.state(t, h)
					refused := 0
					for _, r := range routes {
						if allowed(r) {
							continue
						}
						refused++
						got := send(r)
						if got.status != http.StatusForbidden || string(got.raw) != abilityRefusal(r) {
							t.Errorf("%s holding %v: got %d %s, want 403 %s", r, holds, got.status, got.raw, abilityRefusal(r))
						}
					}
					if after := f.state(t, h); after != before {
						t.Errorf("refused writes changed the account:\nbefore %s\nafter  %s", before, after)
					}
					for _, r := range routes {
						if !allowed(r) {
							continue
						}
						got := send(r)
						if got.status == http.StatusUnauthorized || got.status == http.StatusForbidden {
							t.Errorf("%s holding %v: got %d %s, want it let through", r, holds, got.status, got.raw)
						}
					}
					if c.name == domain.AbilityPostsRead || c.name == "none" {
						if refused != len(routes) {
							t.Errorf("%d of %d writes refused, want all", refused, len(routes))
						}
					}
					if c.name == domain.AbilityPostsWrite || c.login || c.name == domain.AbilityAll || c.abilities == nil {
						if refused != 0 {
							t.Errorf("%d writes refused, want none", refused)
						}
					}
				})
			}
		})
	}
}

// TestAbilitiesOfTokens covers what the walk of the writes does not: which
// abilities a token may be issued with, what a tokens:write token may
// issue, the writes that need no ability, and area B, which knows none.
func TestAbilitiesOfTokens(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{crudToken: true})
			f := h.browser(spaOrigin)
			h.register("Ann", "ann@example.com", "password1")
			f.signIn("ann@example.com")
			issue := func(abilities ...string) string {
				t.Helper()
				if abilities == nil {
					abilities = []string{}
				}
				r := f.do("POST", "/api/v1/tokens", map[string]any{"name": "t", "abilities": abilities})
				r.expect(t, http.StatusCreated, nil)
				return r.body["token"].(string)
			}
			invalidAbility := map[string]any{"success": false, "message": "Invalid ability provided."}

			// Every ability the document lists may be asked for; anything
			// else is a validation failure, whoever asks.
			r := f.do("POST", "/api/v1/tokens", map[string]any{"name": "all", "abilities": domain.Abilities})
			r.expect(t, http.StatusCreated, nil)
			if got := r.body["data"].(map[string]any)["abilities"]; !equalJSON(got, domain.Abilities) {
				t.Errorf("abilities issued: got %v, want %v", got, domain.Abilities)
			}
			f.do("POST", "/api/v1/tokens", map[string]any{"name": "typo", "abilities": []string{"posts:read", "post:write"}}).
				expect(t, http.StatusUnprocessableEntity, map[string]any{"errors": map[string]any{"abilities.1": []any{"The selected abilities.1 is invalid."}}})
			r = h.do("POST", "/api/v1/tokens", map[string]any{"name": "typo", "abilities": []string{"admin"}}, as(issue(domain.AbilityAll))...)
			r.expect(t, http.StatusUnprocessableEntity, map[string]any{"errors": map[string]any{"abilities.0": []any{"The selected abilities.0 is invalid."}}})

			// A tokens:write token issues only what it holds.
			minter := issue(domain.AbilityTokensWrite)
			h.do("POST", "/api/v1/tokens", map[string]any{"name": "more", "abilities": []string{"posts:write"}}, as(minter)...).expect(t, http.StatusForbidden, invalidAbility)
			h.do("POST", "/api/v1/tokens", map[string]any{"name": "more", "abilities": []string{"*"}}, as(minter)...).expect(t, http.StatusForbidden, invalidAbility)
			r = h.do("POST", "/api/v1/tokens", map[string]any{"name": "same", "abilities": []string{"tokens:write"}}, as(minter)...)
			r.expect(t, http.StatusCreated, nil)
			// It revokes another token of the account; posts:read does not,
			// but any token revokes itself, and logs out.
			other := jsonNumber(r.body["data"].(map[string]any)["id"])
			reader := issue(domain.AbilityPostsRead)
			h.do("DELETE", "/api/v1/tokens/"+other, nil, as(reader)...).expect(t, http.StatusForbidden, invalidAbility)
			h.do("DELETE", "/api/v1/tokens/"+other, nil, as(minter)...).expect(t, http.StatusOK, nil)
			me := h.do("GET", "/api/v1/tokens", nil, as(reader)...)
			me.expect(t, http.StatusOK, nil)
			var readerID string
			for _, tok := range me.body["data"].([]any) {
				if m := tok.(map[string]any); equalJSON(m["abilities"], []string{"posts:read"}) {
					readerID = jsonNumber(m["id"])
				}
			}
			h.do("DELETE", "/api/v1/tokens/"+readerID, nil, as(reader)...).expect(t, http.StatusOK, map[string]any{"message": "Token revoked."})
			h.do("GET", "/api/v1/user", nil, as(reader)...).expect(t, http.StatusUnauthorized, nil)
			none := issue()
			h.do("POST", "/api/v1/logout", nil, as(none)...).expect(t, http.StatusOK, nil)
			h.do("GET", "/api/v1/user", nil, as(none)...).expect(t, http.StatusUnauthorized, nil)

			// Area B with CRUD_AUTH=token takes any valid token: its
			// records belong to no account, and it knows no abilities.
			h.do("POST", "/users", map[string]any{"name": "Pat", "email": "pat@example.com"}, as(issue(domain.AbilityPostsRead))...).expect(t, http.StatusCreated, nil)
		})
	}
}

// TestPostCreationRefusesOnce: a token without posts:write, whatever else
// it holds, is refused a post's creation with one answer per version,
// whatever its body: version 1's in the specification's words, a message
// alone, and version 2's Sanctum's. Nothing is created; posts:write
// creates in both.
func TestPostCreationRefusesOnce(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		owner := h.register("Ann", "ann@example.com", "password1")
		issue := func(abilities []string) string {
			t.Helper()
			r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "narrow", "abilities": abilities}, as(owner)...)
			r.expect(t, http.StatusCreated, nil)
			return r.body["token"].(string)
		}
		valid := map[string]any{"title": "T", "body": "B", "status": "published"}
		refusal := map[string]string{
			"/api/v1/posts": `{"message":"This token does not have permission to create posts."}`,
			"/api/v2/posts": `{"success":false,"message":"Invalid ability provided."}`,
		}
		for _, abilities := range [][]string{
			{},
			{domain.AbilityPostsRead},
			{domain.AbilityProfileUpdate},
			{domain.AbilityPostsRead, domain.AbilityCommentsWrite, domain.AbilityTagsWrite, domain.AbilityWebhooksWrite, domain.AbilityTokensWrite},
		} {
			token := issue(abilities)
			for _, body := range []any{valid, map[string]any{"title": ""}, `{"title":`} {
				for path, want := range refusal {
					if r := h.do("POST", path, body, as(token)...); r.status != http.StatusForbidden || string(r.raw) != want {
						t.Errorf("POST %s holding %v with %v: got %d %s, want 403 %s", path, abilities, body, r.status, r.raw, want)
					}
				}
			}
		}
		r := h.do("GET", "/api/v1/posts", nil, as(owner)...)
		r.expect(t, http.StatusOK, nil)
		if total := r.body["meta"].(map[string]any)["total"]; !equalJSON(total, 0) {
			t.Errorf("posts after refused creations: got %v, want 0", total)
		}
		writer := issue([]string{domain.AbilityPostsWrite})
		for path := range refusal {
			h.do("POST", path, valid, as(writer)...).expect(t, http.StatusCreated, nil)
		}
	})
}
