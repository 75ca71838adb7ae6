package app_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// adminWorld is a stack with an admin (root), two users, their posts, a
// comment, a webhook with a failed delivery, tokens, a session and mails.
type adminWorld struct {
	store     ports.Store
	stack     stacktest.Stack
	svc       ports.UseCases
	root      domain.User
	ann, bob  domain.User
	annToken  domain.Token
	published domain.Post
	draft     domain.Post
	comment   domain.Comment
	hook      domain.Webhook
	delivery  domain.Delivery
	mail      domain.Mail
}

const rootPassword = "root-password-1"

func newAdminWorld(t *testing.T, store ports.Store) *adminWorld {
	t.Helper()
	ctx := t.Context()
	stack := stacktest.NewStack(t, store, stacktest.Options{WebhooksAllowPrivate: true})
	w := &adminWorld{store: store, stack: stack, svc: stack.Services.UseCases}
	register := func(name, email, password string) domain.User {
		u, _, err := w.svc.Accounts.Register(ctx, ports.RegisterInput{Name: name, Email: email, Password: password, LinkBase: "https://inkwell.test"})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	w.root = register("Root", "root@example.com", rootPassword)
	w.ann = register("Ann", "ann@example.com", "password-ann")
	w.bob = register("Bob", "bob@example.com", "password-bob")
	var err error
	if w.root, err = w.stack.Operator.Admins.Grant(ctx, "root@example.com"); err != nil {
		t.Fatal(err)
	}
	ann := domain.Actor{User: w.ann}
	if w.annToken, _, err = w.svc.Tokens.Create(ctx, ann, ports.TokenInput{Name: "ci"}); err != nil {
		t.Fatal(err)
	}
	pub, err := w.svc.Posts.Create(ctx, ann, ports.PostInput{Title: "Out there", Body: "Hello", Status: domain.StatusPublished})
	if err != nil {
		t.Fatal(err)
	}
	w.published = pub.Post
	draft, err := w.svc.Posts.Create(ctx, ann, ports.PostInput{Title: "Not yet", Body: "Soon", Status: domain.StatusDraft})
	if err != nil {
		t.Fatal(err)
	}
	w.draft = draft.Post
	c, err := w.svc.Comments.Create(ctx, domain.Actor{User: w.bob}, w.published.ID(), "Nice one")
	if err != nil {
		t.Fatal(err)
	}
	w.comment = c.Comment
	if w.hook, err = w.svc.Webhooks.Create(ctx, ann, ports.WebhookInput{URL: "https://hooks.example.com/in", Events: []domain.EventType{domain.PostCreated}}); err != nil {
		t.Fatal(err)
	}
	events, err := store.Repos().Events.After(ctx, 0, 1, ports.EventFilter{})
	if err != nil || len(events) == 0 {
		t.Fatalf("the first event: %v, %v", events, err)
	}
	d := domain.NewDelivery(w.hook, events[0], stacktest.Start)
	d.Fail(500, "500 Internal Server Error", 1, 0, stacktest.Start)
	if err := store.Repos().Deliveries.Create(ctx, &d); err != nil {
		t.Fatal(err)
	}
	w.delivery = d
	mails, _, err := store.Repos().Admin.Mails(ctx, ports.AdminMailQuery{Status: domain.MailPending, Page: ports.Page{Limit: 1}})
	if err != nil || len(mails) != 1 {
		t.Fatalf("a pending mail: %v, %v", mails, err)
	}
	w.mail = mails[0]
	return w
}

// caller is root acting through a console session from a known address.
func (w *adminWorld) caller() ports.AdminCaller {
	return ports.AdminCaller{Actor: domain.Actor{User: w.root}, Address: "198.51.100.9"}
}

// byAdminRight is c acting by admin right on the owners' use cases, as the
// console calls them.
func byAdminRight(c ports.AdminCaller) domain.Acting {
	return domain.ByAdminRight(c.Actor, c.Address)
}

// outsiders are callers that hold no admin rights: an ordinary account's
// session, the admin's own token with every ability, and the admin's
// session as it was before the right was revoked (which authorization
// must read again).
func (w *adminWorld) outsiders(t *testing.T) map[string]ports.AdminCaller {
	t.Helper()
	tok, _, err := w.svc.Tokens.Create(t.Context(), domain.Actor{User: w.root}, ports.TokenInput{Name: "all", Abilities: []string{domain.AbilityAll}})
	if err != nil {
		t.Fatal(err)
	}
	staleAnn := w.ann
	staleAnn.IsAdmin = true // what a forged or stale actor might claim
	return map[string]ports.AdminCaller{
		"a user's session":        {Actor: domain.Actor{User: w.bob}},
		"the admin's * token":     {Actor: domain.Actor{User: w.root, Token: &tok}},
		"a non-admin claiming it": {Actor: domain.Actor{User: staleAnn}},
	}
}

func (w *adminWorld) audit(t *testing.T) []domain.AuditEntry {
	t.Helper()
	entries, _, err := w.store.Repos().Admin.Audit(t.Context(), ports.Page{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// eventTypes lists the types of every event in the outbox, internal
// records included.
func (w *adminWorld) eventTypes(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, e := range outbox(t, w.store) {
		out = append(out, string(e.Type))
	}
	return out
}

// TestAdminActions runs every admin action on every store: refused to
// every caller without admin rights, with nothing changed, nothing audited
// and nothing recorded; done for the admin, with its audit row and the
// event the API records for the same change.
func TestAdminActions(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			r := w.store.Repos()
			userState := func(id int64) func() string {
				return func() string {
					u, err := r.Users.ByID(ctx, id)
					if errors.Is(err, domain.ErrNotFound) {
						return "gone"
					}
					toks, _ := r.Tokens.ListByUser(ctx, id)
					reset, rerr := r.PasswordResets.ByUser(ctx, id)
					return fmt.Sprintf("verified=%v tokens=%d reset=%v %s", u.EmailVerifiedAt != nil, len(toks), rerr == nil, reset.TokenHash)
				}
			}
			postState := func(id int64) func() string {
				return func() string {
					p, err := r.Posts.Get(ctx, id)
					if err != nil {
						return err.Error()
					}
					return string(p.Status()) + " " + p.Title()
				}
			}
			actions := []struct {
				name    string
				action  domain.AuditAction
				subject string
				id      int64
				run     func(ports.AdminCaller) error
				state   func() string
				events  []string // the types the action appends, in order
			}{
				{"login", domain.AuditAdminLogin, domain.SubjectUser, w.root.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.RecordLogin(ctx, c) },
					func() string { return "" }, nil},
				{"unpublish", domain.AuditPostUnpublish, domain.SubjectPost, w.published.ID(),
					func(c ports.AdminCaller) error {
						_, err := w.svc.Posts.Update(ctx, byAdminRight(c), w.published.ID(), ports.PostPatch{Status: ports.Some(domain.StatusDraft)}, ports.Precondition{})
						return err
					},
					postState(w.published.ID()), []string{"post.unpublished"}},
				{"publish", domain.AuditPostPublish, domain.SubjectPost, w.published.ID(),
					func(c ports.AdminCaller) error {
						_, err := w.svc.Posts.Update(ctx, byAdminRight(c), w.published.ID(), ports.PostPatch{Status: ports.Some(domain.StatusPublished)}, ports.Precondition{})
						return err
					},
					postState(w.published.ID()), []string{"post.published"}},
				{"edit", domain.AuditPostUpdate, domain.SubjectPost, w.published.ID(),
					func(c ports.AdminCaller) error {
						_, err := w.svc.Posts.Update(ctx, byAdminRight(c), w.published.ID(), ports.PostPatch{
							Title: ports.Some("Out there, edited"), Status: ports.Some(domain.StatusPublished), TagIDs: ports.Some([]int64{}),
						}, ports.Precondition{})
						return err
					},
					postState(w.published.ID()), []string{"post.updated"}},
				{"delete comment", domain.AuditCommentDelete, domain.SubjectComment, w.comment.ID,
					func(c ports.AdminCaller) error {
						return w.svc.Comments.Delete(ctx, byAdminRight(c), w.comment.ID, ports.Precondition{})
					},
					func() string { _, err := r.Comments.Get(ctx, w.comment.ID); return fmt.Sprint(err) },
					[]string{"comment.trashed"}},
				{"restore comment", domain.AuditCommentRestore, domain.SubjectComment, w.comment.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.RestoreComment(ctx, c, w.comment.ID) },
					func() string { _, err := r.Comments.Get(ctx, w.comment.ID); return fmt.Sprint(err) },
					[]string{"comment.restored"}},
				{"delete post", domain.AuditPostDelete, domain.SubjectPost, w.draft.ID(),
					func(c ports.AdminCaller) error {
						return w.svc.Posts.Delete(ctx, byAdminRight(c), w.draft.ID(), ports.Precondition{})
					},
					postState(w.draft.ID()), []string{"post.trashed"}},
				{"restore post", domain.AuditPostRestore, domain.SubjectPost, w.draft.ID(),
					func(c ports.AdminCaller) error { return w.svc.Admin.RestorePost(ctx, c, w.draft.ID()) },
					postState(w.draft.ID()), []string{"post.restored"}},
				{"purge post", domain.AuditPostPurge, domain.SubjectPost, w.draft.ID(),
					func(c ports.AdminCaller) error { return w.svc.Admin.PurgePost(ctx, c, w.draft.ID()) },
					postState(w.draft.ID()), []string{"post.deleted"}},
				{"revoke token", domain.AuditTokenRevoke, domain.SubjectToken, w.annToken.ID,
					func(c ports.AdminCaller) error { return w.svc.Tokens.Delete(ctx, byAdminRight(c), w.annToken.ID) },
					userState(w.ann.ID), []string{string(domain.CredentialsRevoked)}},
				{"revoke all tokens", domain.AuditUserTokensRevoke, domain.SubjectUser, w.ann.ID,
					func(c ports.AdminCaller) error { _, err := w.svc.Admin.RevokeUserTokens(ctx, c, w.ann.ID); return err },
					userState(w.ann.ID), []string{string(domain.CredentialsRevoked)}},
				{"verify", domain.AuditUserVerify, domain.SubjectUser, w.bob.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.VerifyUser(ctx, c, w.bob.ID) },
					userState(w.bob.ID), nil},
				{"send reset", domain.AuditUserSendReset, domain.SubjectUser, w.bob.ID,
					func(c ports.AdminCaller) error {
						return w.svc.Admin.SendReset(ctx, c, w.bob.ID, "https://inkwell.test")
					},
					userState(w.bob.ID), nil},
				{"disable webhook", domain.AuditWebhookDisable, domain.SubjectWebhook, w.hook.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.DisableWebhook(ctx, c, w.hook.ID) },
					func() string { h, _ := r.Webhooks.Get(ctx, w.hook.ID); return fmt.Sprint(h.Enabled()) }, nil},
				{"enable webhook", domain.AuditWebhookEnable, domain.SubjectWebhook, w.hook.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.EnableWebhook(ctx, c, w.hook.ID) },
					func() string { h, _ := r.Webhooks.Get(ctx, w.hook.ID); return fmt.Sprint(h.Enabled()) }, nil},
				{"retry delivery", domain.AuditDeliveryRetry, domain.SubjectDelivery, w.delivery.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.RetryDelivery(ctx, c, w.delivery.ID) },
					func() string { d, _ := r.Deliveries.Get(ctx, w.delivery.ID); return string(d.Status) }, nil},
				{"retry mail", domain.AuditMailRetry, domain.SubjectMail, w.mail.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.RetryMail(ctx, c, w.mail.ID) },
					func() string { m, _ := r.Mails.Get(ctx, w.mail.ID); return m.UpdatedAt.String() }, nil},
				{"delete user", domain.AuditUserDelete, domain.SubjectUser, w.ann.ID,
					func(c ports.AdminCaller) error { return w.svc.Admin.DeleteUser(ctx, c, w.ann.ID, rootPassword) },
					userState(w.ann.ID), []string{"post.deleted", string(domain.CredentialsRevoked)}},
			}
			outsiders := w.outsiders(t)
			for i, a := range actions {
				if i == len(actions)-2 {
					// The mail is retried a moment later than it was made.
					w.stack.Clock.Advance(time.Second)
				}
				before, audit, events := a.state(), w.audit(t), w.eventTypes(t)
				for who, c := range outsiders {
					if err := a.run(c); !errors.Is(err, domain.ErrForbidden) {
						t.Errorf("%s by %s: got %v, want forbidden", a.name, who, err)
					}
				}
				if got := a.state(); got != before {
					t.Errorf("%s refused: state %q became %q", a.name, before, got)
				}
				if got := w.audit(t); len(got) != len(audit) {
					t.Errorf("%s refused: %d audit rows, want %d", a.name, len(got), len(audit))
				}
				if got := w.eventTypes(t); len(got) != len(events) {
					t.Errorf("%s refused: events %v, want %v", a.name, got, events)
				}

				if err := a.run(w.caller()); err != nil {
					t.Fatalf("%s by the admin: %v", a.name, err)
				}
				if a.action != domain.AuditAdminLogin {
					if got := a.state(); got == before {
						t.Errorf("%s by the admin: state %q unchanged", a.name, got)
					}
				}
				rows := w.audit(t)
				if len(rows) != len(audit)+1 {
					t.Fatalf("%s: %d audit rows, want %d", a.name, len(rows), len(audit)+1)
				}
				row := rows[0]
				want := domain.AuditEntry{ID: row.ID, At: w.stack.Clock.Now(), AdminID: w.root.ID, AdminEmail: "root@example.com",
					Action: a.action, SubjectType: a.subject, SubjectID: a.id, Address: "198.51.100.9"}
				if row != want {
					t.Errorf("%s: audit row %+v, want %+v", a.name, row, want)
				}
				if got := w.eventTypes(t)[len(events):]; !slices.Equal(got, a.events) {
					t.Errorf("%s: appended events %v, want %v", a.name, got, a.events)
				}
			}
			if got := string(actions[len(actions)-1].action); got != "user.delete" || len(actions) != 18 {
				t.Errorf("the table covers %d actions ending with %s; DESIGN §10 names 18 besides those of the tag, person and product edits and comment.purge", len(actions), got)
			}
		})
	}
}

// TestAdminRefusals covers what each action refuses to the admin: a
// missing subject, a wrong password, an edit the post refuses, a mail that
// can no longer be sent; each changes nothing and writes no audit row.
func TestAdminRefusals(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			c := w.caller()
			const missing = 987654321
			cases := []struct {
				name string
				err  error
				want error
			}{
				{"unpublish a missing post", second(w.svc.Posts.Update(ctx, byAdminRight(c), missing, ports.PostPatch{Status: ports.Some(domain.StatusDraft)}, ports.Precondition{})), domain.ErrNotFound},
				{"edit with no title", second(w.svc.Posts.Update(ctx, byAdminRight(c), w.published.ID(), ports.PostPatch{Title: ports.Some(""), Status: ports.Some(domain.StatusDraft)}, ports.Precondition{})), domain.InvalidField("title", domain.RuleRequired)},
				{"delete a missing post", w.svc.Posts.Delete(ctx, byAdminRight(c), missing, ports.Precondition{}), domain.ErrNotFound},
				{"delete a missing comment", w.svc.Comments.Delete(ctx, byAdminRight(c), missing, ports.Precondition{}), domain.ErrNotFound},
				{"revoke a missing token", w.svc.Tokens.Delete(ctx, byAdminRight(c), missing), domain.ErrNotFound},
				{"revoke a missing user's tokens", func() error { _, err := w.svc.Admin.RevokeUserTokens(ctx, c, missing); return err }(), domain.ErrNotFound},
				{"delete with a wrong password", w.svc.Admin.DeleteUser(ctx, c, w.ann.ID, "not-the-password"), domain.ErrPasswordMismatch},
				{"delete a missing user", w.svc.Admin.DeleteUser(ctx, c, missing, rootPassword), domain.ErrNotFound},
				{"reset a missing user", w.svc.Admin.SendReset(ctx, c, missing, "https://inkwell.test"), domain.ErrNotFound},
				{"verify a missing user", w.svc.Admin.VerifyUser(ctx, c, missing), domain.ErrNotFound},
				{"disable a missing webhook", w.svc.Admin.DisableWebhook(ctx, c, missing), domain.ErrNotFound},
				{"enable a missing webhook", w.svc.Admin.EnableWebhook(ctx, c, missing), domain.ErrNotFound},
				{"retry a missing delivery", w.svc.Admin.RetryDelivery(ctx, c, missing), domain.ErrNotFound},
				{"retry a missing mail", w.svc.Admin.RetryMail(ctx, c, missing), domain.ErrNotFound},
			}
			for _, tc := range cases {
				if !errors.Is(tc.err, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.name, tc.err, tc.want)
				}
			}
			// A sent mail has lost its body: it cannot be retried.
			m, err := w.store.Repos().Mails.Get(ctx, w.mail.ID)
			if err != nil {
				t.Fatal(err)
			}
			m.Sent(stacktest.Start)
			if err := w.store.Repos().Mails.Update(ctx, m); err != nil {
				t.Fatal(err)
			}
			if err := w.svc.Admin.RetryMail(ctx, c, m.ID); !errors.Is(err, domain.ErrConflict) {
				t.Errorf("retry a sent mail: got %v, want conflict", err)
			}
			if rows := w.audit(t); len(rows) != 0 {
				t.Errorf("refusals wrote %d audit rows: %+v", len(rows), rows)
			}
			if p, err := w.store.Repos().Posts.Get(ctx, w.published.ID()); err != nil || !p.IsPublished() {
				t.Errorf("the published post after the refusals: %v, %v", p.Status(), err)
			}
			if _, err := w.store.Repos().Users.ByID(ctx, w.ann.ID); err != nil {
				t.Errorf("ann after a delete with a wrong password: %v", err)
			}
		})
	}
}

// TestAdminRightsAreReadOnEveryCall: a revoke, or the admin's account
// deleted, refuses the very next call of the same actor.
func TestAdminRightsAreReadOnEveryCall(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			c := w.caller()
			if _, err := w.svc.Admin.Overview(ctx, c); err != nil {
				t.Fatalf("overview as admin: %v", err)
			}
			if _, err := w.stack.Operator.Admins.Revoke(ctx, "ROOT@example.com"); err != nil {
				t.Fatal(err)
			}
			if _, err := w.svc.Admin.Overview(ctx, c); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("overview after a revoke: got %v, want forbidden", err)
			}
			if _, err := w.svc.Posts.Update(ctx, byAdminRight(c), w.published.ID(), ports.PostPatch{Status: ports.Some(domain.StatusDraft)}, ports.Precondition{}); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("unpublish after a revoke: got %v, want forbidden", err)
			}
			if _, err := w.stack.Operator.Admins.Grant(ctx, "root@example.com"); err != nil {
				t.Fatal(err)
			}
			if _, err := w.svc.Admin.Overview(ctx, c); err != nil {
				t.Errorf("overview after a fresh grant: %v", err)
			}
			if err := w.svc.Profile.Delete(ctx, domain.Actor{User: w.root}, rootPassword, ports.Precondition{}); err != nil {
				t.Fatal(err)
			}
			if _, err := w.svc.Admin.Overview(ctx, c); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("overview by a deleted admin: got %v, want forbidden", err)
			}
			if rows := w.audit(t); len(rows) != 0 {
				t.Errorf("refused calls wrote audit rows: %+v", rows)
			}
		})
	}
}

// TestAdminReads checks what the console reads, for the admin alone.
func TestAdminReads(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			c := w.caller()
			pat, err := w.svc.People.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Pat", Email: "pat@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			pen, err := w.svc.Products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: "Pen", PriceCents: 100})
			if err != nil {
				t.Fatal(err)
			}
			reads := map[string]func(ports.AdminCaller) error{
				"overview": func(c ports.AdminCaller) error { _, err := w.svc.Admin.Overview(ctx, c); return err },
				"users": func(c ports.AdminCaller) error {
					_, err := w.svc.Admin.Users(ctx, c, ports.AdminUserQuery{})
					return err
				},
				"user": func(c ports.AdminCaller) error { _, err := w.svc.Admin.User(ctx, c, w.ann.ID); return err },
				"posts": func(c ports.AdminCaller) error {
					_, err := w.svc.Admin.Posts(ctx, c, ports.AdminPostQuery{})
					return err
				},
				"webhooks": func(c ports.AdminCaller) error { _, _, err := w.svc.Admin.Webhooks(ctx, c, ports.Page{}); return err },
				"deliveries": func(c ports.AdminCaller) error {
					_, _, err := w.svc.Admin.Deliveries(ctx, c, w.hook.ID, ports.Page{})
					return err
				},
				"mails": func(c ports.AdminCaller) error {
					_, _, err := w.svc.Admin.Mails(ctx, c, ports.AdminMailQuery{})
					return err
				},
				"audit": func(c ports.AdminCaller) error { _, err := w.svc.Admin.Audit(ctx, c, ports.Page{}); return err },
				"export users": func(c ports.AdminCaller) error {
					return w.svc.Admin.ExportUsers(ctx, c, func(domain.User) error { return nil })
				},
				"export posts": func(c ports.AdminCaller) error {
					return w.svc.Admin.ExportPosts(ctx, c, func(domain.Post) error { return nil })
				},
				"webhook": func(c ports.AdminCaller) error {
					hook, err := w.svc.Admin.Webhook(ctx, c, w.hook.ID)
					if err == nil && (hook.Webhook.URL != w.hook.URL || hook.OwnerEmail == "" || hook.Webhook.Secret != "") {
						return fmt.Errorf("webhook %d: got %+v", w.hook.ID, hook)
					}
					return err
				},
				"people": func(c ports.AdminCaller) error {
					people, total, err := w.svc.Admin.People(ctx, c, ports.AdminDirectoryQuery{Search: "PAT"})
					if err == nil && (total != 1 || len(people) != 1 || people[0].ID != pat.ID) {
						return fmt.Errorf("people matching PAT: got %+v, %d", people, total)
					}
					return err
				},
				"person": func(c ports.AdminCaller) error { _, err := w.svc.Admin.Person(ctx, c, pat.ID); return err },
				"products": func(c ports.AdminCaller) error {
					products, total, err := w.svc.Admin.Products(ctx, c, ports.AdminDirectoryQuery{Search: "pen"})
					if err == nil && (total != 1 || len(products) != 1 || products[0].ID != pen.ID) {
						return fmt.Errorf("products matching pen: got %+v, %d", products, total)
					}
					return err
				},
				"product": func(c ports.AdminCaller) error { _, err := w.svc.Admin.Product(ctx, c, pen.ID); return err },
			}
			for name, read := range reads {
				for who, o := range w.outsiders(t) {
					if err := read(o); !errors.Is(err, domain.ErrForbidden) {
						t.Errorf("%s by %s: got %v, want forbidden", name, who, err)
					}
				}
				if err := read(c); err != nil {
					t.Errorf("%s by the admin: %v", name, err)
				}
			}

			o, err := w.svc.Admin.Overview(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if o.Users != 3 || o.Published != 1 || o.Drafts != 1 || o.Comments != 1 || o.Webhooks != 1 || o.DeliveriesFailed != 1 || o.MailsPending != 3 {
				t.Errorf("overview: %+v", o)
			}
			if len(o.RecentFailures) != 1 || o.RecentFailures[0].ID != w.delivery.ID {
				t.Errorf("recent failures: %+v", o.RecentFailures)
			}

			users, err := w.svc.Admin.Users(ctx, c, ports.AdminUserQuery{Search: "ANN", Page: ports.Page{Limit: 1000}})
			if err != nil || users.Total != 1 || users.AtLeast || len(users.Rows) != 1 || users.Rows[0].ID != w.ann.ID {
				t.Errorf("users matching ANN: %v, %d, %v", userNames(users.Rows), users.Total, err)
			}
			acc, err := w.svc.Admin.User(ctx, c, w.ann.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(acc.Tokens) != 2 || acc.PostCount != 2 || len(acc.Posts) != 2 {
				t.Errorf("ann's account: %d tokens, %d of %d posts", len(acc.Tokens), len(acc.Posts), acc.PostCount)
			}
			if _, err := w.svc.Admin.User(ctx, c, 987654321); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("a missing user: got %v, want not found", err)
			}

			posts, err := w.svc.Admin.Posts(ctx, c, ports.AdminPostQuery{Status: domain.StatusDraft})
			if err != nil || posts.Total != 1 || posts.AtLeast || len(posts.Rows) != 1 || posts.Rows[0].Post.ID() != w.draft.ID() || posts.Rows[0].Author.ID != w.ann.ID {
				t.Errorf("every draft: %d of %d, %v", len(posts.Rows), posts.Total, err)
			}

			mails, _, err := w.svc.Admin.Mails(ctx, c, ports.AdminMailQuery{})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range mails {
				if m.Text != "" || m.HTML != "" {
					t.Errorf("mail %d shows its body, which holds a live link", m.ID)
				}
			}

			var names []string
			if err := w.svc.Admin.ExportUsers(ctx, c, func(u domain.User) error { names = append(names, u.Name); return nil }); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(names, ","); got != "Root,Ann,Bob" {
				t.Errorf("exported users: %s", got)
			}
			stop := errors.New("stop")
			n := 0
			err = w.svc.Admin.ExportPosts(ctx, c, func(domain.Post) error { n++; return stop })
			if !errors.Is(err, stop) || n != 1 {
				t.Errorf("export posts stopped by its callback: %v after %d", err, n)
			}
		})
	}
}

func userNames(us []domain.User) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Name)
	}
	return out
}
