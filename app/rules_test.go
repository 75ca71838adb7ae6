package app_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// violationsOf returns the fields of err, which must be an Invalid domain
// error.
func violationsOf(t *testing.T, what string, err error) []domain.Violation {
	t.Helper()
	de, ok := domain.AsError(err)
	if !ok || de.Kind != domain.Invalid {
		t.Fatalf("%s: got %v, want an Invalid domain error", what, err)
	}
	return de.Fields
}

// TestUseCasesKeepTheRules calls the use cases as any transport would, with
// no HTTP validation in front of them: each refuses what the domain forbids,
// names every broken field, and stores nothing.
func TestUseCasesKeepTheRules(t *testing.T) {
	long := strings.Repeat("x", 256)
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			clk := clock.NewFixed(t0)
			people := app.NewPeople(store, clk, app.DirectoryConfig{})
			products := app.NewProducts(store, clk, app.DirectoryConfig{})
			w := newAccountWorld(t, store)
			ann := w.register(t, "ann@example.com")
			pat, err := people.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Pat", Email: "pat@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			pen, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: "Pen", PriceCents: 100})
			if err != nil {
				t.Fatal(err)
			}

			post, err := w.posts.Create(ctx, ann, ports.PostInput{Title: "Kept", Body: "B", Status: domain.StatusPublished})
			if err != nil {
				t.Fatal(err)
			}
			tooManyTags := make([]int64, domain.MaxPostTags+1)
			for i := range tooManyTags {
				tooManyTags[i] = int64(i + 1)
			}
			tooManyAbilities := make([]string, domain.MaxTokenAbilities+1)
			for i := range tooManyAbilities {
				tooManyAbilities[i] = "posts:read"
			}
			// A PNG header declaring a picture wider than the bound, and a
			// real PNG padded past the avatar's size: both decode as PNGs.
			wide := uploadOf(t, "png", domain.MaxImageSide+1, 1)
			heavy := uploadOf(t, "png", 1, 1)
			heavy.Data = append(heavy.Data, make([]byte, domain.MaxAvatarKilobytes*1024)...)
			everyType := append(slices.Clone(domain.EventTypes), domain.PostCreated)

			for _, tc := range []struct {
				name string
				call func() error
				want []domain.Violation
			}{
				{"Tokens.Create with everything wrong", func() error {
					_, _, err := w.tokens.Create(ctx, ann, ports.TokenInput{Name: long, Abilities: append(slices.Clone(tooManyAbilities), long), ExpiresIn: 30 * time.Second})
					return err
				}, []domain.Violation{{Field: "name", Rule: "max:255"}, {Field: "abilities", Rule: "max_items:50"}, {Field: "abilities.51", Rule: "max:255"}, {Field: "abilities.51", Rule: domain.RuleOf(domain.RuleIn, domain.Abilities...)}, {Field: "expires_in_minutes", Rule: "min_value:1"}}},
				{"Tokens.Create beyond a year", func() error {
					_, _, err := w.tokens.Create(ctx, ann, ports.TokenInput{Name: " ", ExpiresIn: domain.MaxTokenLifetime + time.Minute})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}, {Field: "expires_in_minutes", Rule: "max_value:525600"}}},
				{"Webhooks.Create with a long URL and no events", func() error {
					_, err := w.webhooks.Create(ctx, ann, ports.WebhookInput{URL: "https://example.com/" + strings.Repeat("x", domain.MaxWebhookURLLength)})
					return err
				}, []domain.Violation{{Field: "url", Rule: "max:2048"}, {Field: "events", Rule: "required"}}},
				{"Webhooks.Create with an unknown event type", func() error {
					_, err := w.webhooks.Create(ctx, ann, ports.WebhookInput{URL: "https://example.com/hook", Events: []domain.EventType{domain.PostCreated, "post.exploded"}})
					return err
				}, []domain.Violation{{Field: "events.1", Rule: domain.RuleOf(domain.RuleIn, domain.EventTypeNames()...)}}},
				{"Webhooks.Replace with every type and one more", func() error {
					_, err := w.webhooks.Replace(ctx, ann, 1, ports.WebhookInput{URL: "", Events: everyType})
					return err
				}, []domain.Violation{{Field: "url", Rule: "required"}, {Field: "events", Rule: domain.RuleN(domain.RuleMaxItems, int64(len(domain.EventTypes)))}}},
				{"Posts.Create with too many tags and no image", func() error {
					_, err := w.posts.Create(ctx, ann, ports.PostInput{Title: "T", Body: "B", Status: domain.StatusDraft, TagIDs: tooManyTags, Image: &ports.Image{Data: []byte("<svg/>"), Ext: ".png"}})
					return err
				}, []domain.Violation{{Field: "tags", Rule: "max_items:100"}, {Field: "image", Rule: "image"}, {Field: "image", Rule: "mimes:jpeg,png,gif,webp"}}},
				{"Posts.Create with a title too long and an image too wide", func() error {
					_, err := w.posts.Create(ctx, ann, ports.PostInput{Title: long, Body: "B", Status: domain.StatusDraft, Image: &wide})
					return err
				}, []domain.Violation{{Field: "title", Rule: "max:255"}, {Field: "image", Rule: "dimensions"}}},
				{"Posts.Update with too many tags", func() error {
					_, err := w.posts.Update(ctx, domain.ByOwnRight(ann), post.Post.ID(), ports.PostPatch{TagIDs: ports.Some(tooManyTags)}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "tags", Rule: "max_items:100"}}},
				{"Posts.Update with an image that claims another format", func() error {
					img := uploadOf(t, "gif", 1, 1)
					img.Ext = ".png"
					_, err := w.posts.Update(ctx, domain.ByOwnRight(ann), post.Post.ID(), ports.PostPatch{Image: ports.Some(&img)}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "image", Rule: "image"}, {Field: "image", Rule: "mimes:jpeg,png,gif,webp"}}},
				{"Profile.SetAvatar too heavy", func() error {
					_, err := w.profile.SetAvatar(ctx, ann, heavy)
					return err
				}, []domain.Violation{{Field: "avatar", Rule: "max_kilobytes:2048"}}},
				{"Posts.List past the page size", func() error {
					_, _, err := w.posts.List(ctx, domain.Actor{PostReads: domain.PostReadsOpen}, ports.PostFilter{}, ports.Page{Limit: domain.MaxPageSize + 1})
					return err
				}, []domain.Violation{{Field: "per_page", Rule: "max_value:100"}}},
				{"Posts.ListAfter of nothing", func() error {
					_, _, err := w.posts.ListAfter(ctx, ann, ports.PostFilter{}, nil, 0)
					return err
				}, []domain.Violation{{Field: "per_page", Rule: "min_value:1"}}},
				{"Comments.List past the page size", func() error {
					_, _, err := w.comments.List(ctx, ann, post.Post.ID(), ports.Page{Limit: 1000})
					return err
				}, []domain.Violation{{Field: "per_page", Rule: "max_value:100"}}},
				{"Webhooks.Deliveries past the page size", func() error {
					_, _, err := w.webhooks.Deliveries(ctx, ann, 1, ports.Page{Limit: 101})
					return err
				}, []domain.Violation{{Field: "per_page", Rule: "max_value:100"}}},
				{"People.Create with an empty name", func() error {
					_, err := people.Create(ctx, domain.Actor{}, ports.PersonInput{Email: "sam@example.com"})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}}},
				{"People.Create with everything wrong", func() error {
					_, err := people.Create(ctx, domain.Actor{}, ports.PersonInput{Name: long, Email: "sam", Age: ptr(-1), Address: &domain.Address{Country: long}})
					return err
				}, []domain.Violation{{Field: "name", Rule: "max:255"}, {Field: "email", Rule: "email"}, {Field: "age", Rule: "min_value:0"}, {Field: "address.country", Rule: "max:255"}}},
				{"People.Replace with a bad e-mail", func() error {
					_, err := people.Replace(ctx, domain.ByOwnRight(domain.Actor{}), pat.ID, ports.PersonInput{Name: "Pat", Email: "pat@localhost"}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "email", Rule: "email"}}},
				{"People.Patch of the age", func() error {
					_, err := people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), pat.ID, ports.PersonPatch{Age: ports.Some(ptr(151))}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "age", Rule: "max_value:150"}}},
				{"Products.Create with everything wrong", func() error {
					_, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: " ", PriceCents: -1, Description: strings.Repeat("d", 5001), Stock: -1, SKU: ptr("")})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}, {Field: "price", Rule: "min_value:0"}, {Field: "description", Rule: "max:5000"}, {Field: "stock", Rule: "min_value:0"}, {Field: "sku", Rule: "required"}}},
				{"Products.Replace past the price bound", func() error {
					_, err := products.Replace(ctx, domain.ByOwnRight(domain.Actor{}), pen.ID, ports.ProductInput{Name: "Pen", PriceCents: domain.MaxPrice*100 + 1}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "price", Rule: "max_value:999999999999"}}},
				{"Accounts.Register with everything wrong", func() error {
					_, _, err := w.accounts.Register(ctx, ports.RegisterInput{Email: "bob@", Password: "short"})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}, {Field: "email", Rule: "email"}, {Field: "password", Rule: "min:8"}}},
				{"Profile.Update of name and password", func() error {
					_, _, err := w.profile.Update(ctx, ann, ports.ProfileInput{Name: ports.Some(long), Password: ports.Some(strings.Repeat("é", 37)), CurrentPassword: "password1"}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "name", Rule: "max:255"}, {Field: "password", Rule: "max_bytes:72"}}},
				{"Profile.Update of the e-mail", func() error {
					_, _, err := w.profile.Update(ctx, ann, ports.ProfileInput{Email: ports.Some(""), CurrentPassword: "password1"}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "email", Rule: "required"}}},
			} {
				if got := violationsOf(t, tc.name, tc.call()); !reflect.DeepEqual(got, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
				}
			}

			// The ability gates: the post use cases' (reads ask posts:read
			// or posts:write unless the actor's transport opened them,
			// writes posts:write, each with one refusal), and
			// CRUD_AUTH=token's on area B's writes, checked with no route
			// in front.
			token := func(abilities ...string) domain.Actor {
				t.Helper()
				_, plain, err := w.tokens.Create(ctx, ann, ports.TokenInput{Name: "gated", Abilities: abilities})
				if err != nil {
					t.Fatal(err)
				}
				a, err := w.accounts.Authenticate(ctx, plain.String())
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			profileOnly, reader := token(domain.AbilityProfileUpdate), token(domain.AbilityPostsRead)
			anonymous := domain.Actor{}
			openly := func(a domain.Actor) domain.Actor {
				a.PostReads = domain.PostReadsOpen
				return a
			}
			session := ann
			session.Token = nil
			gatedPeople := app.NewPeople(store, clk, app.DirectoryConfig{RequireToken: true})
			gatedProducts := app.NewProducts(store, clk, app.DirectoryConfig{RequireToken: true})
			for _, tc := range []struct {
				name string
				call func() error
				want error
			}{
				{"Posts.List without posts:read", func() error {
					_, _, err := w.posts.List(ctx, profileOnly, ports.PostFilter{}, ports.Page{Limit: 10})
					return err
				}, domain.ErrInvalidAbility},
				{"Posts.ListAfter by nobody", func() error {
					_, _, err := w.posts.ListAfter(ctx, anonymous, ports.PostFilter{}, nil, 10)
					return err
				}, domain.ErrUnauthenticated},
				{"Posts.Show without posts:read", func() error {
					_, err := w.posts.Show(ctx, profileOnly, post.Post.ID(), false)
					return err
				}, domain.ErrInvalidAbility},
				{"Posts.Create with posts:read only", func() error {
					_, err := w.posts.Create(ctx, reader, ports.PostInput{Title: "T", Body: "B", Status: domain.StatusDraft})
					return err
				}, domain.ErrInvalidAbility},
				{"Posts.Create with posts:read only, reads open", func() error {
					_, err := w.posts.Create(ctx, openly(reader), ports.PostInput{Title: "T", Body: "B", Status: domain.StatusDraft})
					return err
				}, domain.ErrInvalidAbility},
				{"Posts.Create by nobody, reads open", func() error {
					_, err := w.posts.Create(ctx, openly(anonymous), ports.PostInput{Title: "T", Body: "B", Status: domain.StatusDraft})
					return err
				}, domain.ErrUnauthenticated},
				{"Posts.Update with posts:read only, reads open", func() error {
					_, err := w.posts.Update(ctx, domain.ByOwnRight(openly(reader)), post.Post.ID(), ports.PostPatch{Title: ports.Some("New")}, ports.Precondition{})
					return err
				}, domain.ErrInvalidAbility},
				{"Posts.Delete with posts:read only", func() error {
					return w.posts.Delete(ctx, domain.ByOwnRight(reader), post.Post.ID(), ports.Precondition{})
				}, domain.ErrInvalidAbility},
				{"People.Create by nobody under CRUD_AUTH=token", func() error {
					_, err := gatedPeople.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Sam", Email: "sam@example.com"})
					return err
				}, domain.ErrUnauthenticated},
				{"People.Patch by a browser session under CRUD_AUTH=token", func() error {
					_, err := gatedPeople.Patch(ctx, domain.ByOwnRight(session), pat.ID, ports.PersonPatch{Name: ports.Some("Sam")}, ports.Precondition{})
					return err
				}, domain.ErrUnauthenticated},
				{"People.Delete by nobody under CRUD_AUTH=token", func() error {
					return gatedPeople.Delete(ctx, domain.Actor{}, pat.ID, ports.Precondition{})
				}, domain.ErrUnauthenticated},
				{"Products.Replace by nobody under CRUD_AUTH=token", func() error {
					_, err := gatedProducts.Replace(ctx, domain.ByOwnRight(domain.Actor{}), pen.ID, ports.ProductInput{Name: "Quill", PriceCents: 1}, ports.Precondition{})
					return err
				}, domain.ErrUnauthenticated},
			} {
				if err := tc.call(); !errors.Is(err, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
				}
			}
			// The gates let through who holds what they ask, and open reads
			// let anyone through.
			if _, _, err := w.posts.List(ctx, reader, ports.PostFilter{}, ports.Page{Limit: 10}); err != nil {
				t.Errorf("Posts.List with posts:read: %v", err)
			}
			if _, err := w.posts.Show(ctx, reader, post.Post.ID(), false); err != nil {
				t.Errorf("Posts.Show with posts:read: %v", err)
			}
			for _, a := range []domain.Actor{openly(anonymous), openly(profileOnly)} {
				if _, _, err := w.posts.List(ctx, a, ports.PostFilter{}, ports.Page{Limit: 10}); err != nil {
					t.Errorf("Posts.List, reads open, by user %d: %v", a.User.ID, err)
				}
				if _, _, err := w.posts.ListAfter(ctx, a, ports.PostFilter{}, nil, 10); err != nil {
					t.Errorf("Posts.ListAfter, reads open, by user %d: %v", a.User.ID, err)
				}
			}
			if _, err := w.posts.Show(ctx, openly(profileOnly), post.Post.ID(), false); err != nil {
				t.Errorf("Posts.Show of the author's post, reads open, without posts:read: %v", err)
			}
			if _, err := gatedProducts.Replace(ctx, domain.ByOwnRight(ann), pen.ID, ports.ProductInput{Name: "Pen", PriceCents: 100}, ports.Precondition{}); err != nil {
				t.Errorf("Products.Replace with a token under CRUD_AUTH=token: %v", err)
			}
			pen, _ = products.Get(ctx, pen.ID)

			if got, err := w.posts.Show(ctx, ann, post.Post.ID(), false); err != nil || !reflect.DeepEqual(got.Post.State(), post.Post.State()) || len(got.Tags) != 0 {
				t.Errorf("post after refused changes: got %+v, %v, want %+v", got.Post.State(), err, post.Post.State())
			}
			if _, total, err := w.posts.List(ctx, ann, ports.PostFilter{}, ports.Page{Limit: 10}); err != nil || total != 1 {
				t.Errorf("posts after refused creates: got %d, %v, want 1", total, err)
			}
			if tokens, err := w.tokens.List(ctx, ann); err != nil || len(tokens) != 3 {
				t.Errorf("tokens after refused creates: got %d, %v, want the registration's and the two gated ones", len(tokens), err)
			}
			if hooks, err := w.webhooks.List(ctx, ann); err != nil || len(hooks) != 0 {
				t.Errorf("webhooks after refused creates: got %v, %v, want none", hooks, err)
			}
			if u, err := store.Repos().Users.ByID(ctx, ann.User.ID); err != nil || u.AvatarPath != "" {
				t.Errorf("avatar after a refused upload: got %q, %v", u.AvatarPath, err)
			}
			if got := w.files.held(); len(got) != 0 {
				t.Errorf("files after refused uploads: got %v, want none", got)
			}
			if got, err := people.Get(ctx, pat.ID); err != nil || !reflect.DeepEqual(got, pat) {
				t.Errorf("person after refused changes: got %+v, %v, want %+v", got, err, pat)
			}
			if _, total, err := people.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 10}}); err != nil || total != 1 {
				t.Errorf("people after refused creates: got %d, %v, want 1", total, err)
			}
			if got, err := products.Get(ctx, pen.ID); err != nil || !reflect.DeepEqual(got, pen) {
				t.Errorf("product after refused changes: got %+v, %v, want %+v", got, err, pen)
			}
			if _, total, err := products.List(ctx, ports.Page{Limit: 10}); err != nil || total != 1 {
				t.Errorf("products after refused creates: got %d, %v, want 1", total, err)
			}
			if got, err := store.Repos().Users.ByID(ctx, ann.User.ID); err != nil || !reflect.DeepEqual(got, ann.User) {
				t.Errorf("account after refused updates: got %+v, %v, want %+v", got, err, ann.User)
			}
			if _, err := store.Repos().Users.ByEmail(ctx, "bob@"); err == nil {
				t.Errorf("refused registration: got an account, want none")
			}

			keepOwnerAndAdminRules(t, store, w, ann, post.Post.ID())
			keepDirectoryAdminRules(t, store, w, pat.ID, pen.ID)
			keepTagAdminRules(t, store, w)
		})
	}
}

// keepOwnerAndAdminRules runs the scripts an owner and an admin share
// (Posts.Update, publish and unpublish among its patches, Posts.Delete,
// Comments.Delete, Tokens.Delete): an admin by admin right keeps the
// rules the owner keeps; neither a non-owner without admin rights, by own
// right or claiming admin rights, nor the admin by own right or through a
// bearer token, changes another's records; and only a change by admin
// right writes an audit row, in its own transaction.
func keepOwnerAndAdminRules(t *testing.T, store ports.Store, w *accountWorld, ann domain.Actor, postID int64) {
	t.Helper()
	ctx := context.Background()
	const address = "203.0.113.7"
	bob := w.register(t, "bob@example.com")
	root := w.register(t, "root@example.com")
	if err := store.Repos().Admin.SetAdmin(ctx, root.User.ID, true); err != nil {
		t.Fatal(err)
	}
	root.User.IsAdmin = true
	rootSession := root
	rootSession.Token = nil
	admin := domain.ByAdminRight(rootSession, address)
	comment, err := w.comments.Create(ctx, bob, postID, "Bob's comment")
	if err != nil {
		t.Fatal(err)
	}
	annToken := *ann.Token
	auditRows := func() []domain.AuditEntry {
		t.Helper()
		rows, _, err := store.Repos().Admin.Audit(ctx, ports.Page{Limit: 100}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	update := func(a domain.Acting, patch ports.PostPatch) error {
		_, err := w.posts.Update(ctx, a, postID, patch, ports.Precondition{})
		return err
	}
	retitle := ports.PostPatch{Title: ports.Some("Taken over")}

	// The rules hold by admin right as they hold for the owner.
	long := strings.Repeat("x", 256)
	for _, tc := range []struct {
		name string
		err  error
		want domain.Violation
	}{
		{"by the owner with a long title", update(domain.ByOwnRight(ann), ports.PostPatch{Title: ports.Some(long)}), domain.Violation{Field: "title", Rule: "max:255"}},
		{"by admin right with a long title", update(admin, ports.PostPatch{Title: ports.Some(long)}), domain.Violation{Field: "title", Rule: "max:255"}},
		{"by admin right with an empty body", update(admin, ports.PostPatch{Body: ports.Some("")}), domain.Violation{Field: "body", Rule: domain.RuleRequired}},
		{"by admin right to an unknown status", update(admin, ports.PostPatch{Status: ports.Some(domain.PostStatus("archived"))}), domain.Violation{Field: "status", Rule: domain.RuleOf(domain.RuleIn, domain.Statuses...)}},
		{"by admin right with an unknown tag", update(admin, ports.PostPatch{TagIDs: ports.Some([]int64{987654321})}), domain.Violation{Field: "tags.0", Rule: domain.RuleExists}},
	} {
		if got := violationsOf(t, "Posts.Update "+tc.name, tc.err); !reflect.DeepEqual(got, []domain.Violation{tc.want}) {
			t.Errorf("Posts.Update %s: got %v, want %v", tc.name, got, tc.want)
		}
	}

	// Who may not change another's records, and how each is refused.
	bobClaims := domain.ByAdminRight(bob, address)
	bobSession := bob
	bobSession.Token = nil
	rootToken := domain.ByAdminRight(root, address) // a bearer token, even with "*", is no admin right
	for _, who := range []struct {
		name        string
		actor       domain.Acting
		post, token error
	}{
		{"a non-owner by own right", domain.ByOwnRight(bobSession), domain.ErrForbidden, domain.ErrNotFound},
		{"a non-admin claiming admin rights", bobClaims, domain.ErrForbidden, domain.ErrForbidden},
		{"the admin by own right", domain.ByOwnRight(rootSession), domain.ErrForbidden, domain.ErrNotFound},
		{"the admin's token claiming admin rights", rootToken, domain.ErrForbidden, domain.ErrForbidden},
	} {
		for _, tc := range []struct {
			name string
			err  error
			want error
		}{
			{"Posts.Update", update(who.actor, retitle), who.post},
			{"Posts.Update publishing", update(who.actor, ports.PostPatch{Status: ports.Some(domain.StatusDraft)}), who.post},
			{"Posts.Delete", w.posts.Delete(ctx, who.actor, postID, ports.Precondition{}), who.post},
			{"Tokens.Delete", w.tokens.Delete(ctx, who.actor, annToken.ID), who.token},
		} {
			if !errors.Is(tc.err, tc.want) {
				t.Errorf("%s by %s: got %v, want %v", tc.name, who.name, tc.err, tc.want)
			}
		}
	}
	// A comment's author may delete it by own right; nobody else but the
	// post's author or an admin by admin right.
	if err := w.comments.Delete(ctx, domain.ByOwnRight(rootSession), comment.Comment.ID, ports.Precondition{}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("Comments.Delete by the admin by own right: got %v, want forbidden", err)
	}
	if err := w.comments.Delete(ctx, bobClaims, comment.Comment.ID, ports.Precondition{}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("Comments.Delete by a non-admin claiming admin rights: got %v, want forbidden", err)
	}
	if rows := auditRows(); len(rows) != 0 {
		t.Fatalf("refused changes wrote audit rows: %+v", rows)
	}
	if got, err := w.posts.Show(ctx, ann, postID, true); err != nil || got.Post.Title() != "Kept" || !got.Post.IsPublished() || len(got.Comments) != 1 {
		t.Fatalf("the post after refused changes: %+v, %v", got.Post.State(), err)
	}

	// The owner changes by own right, unaudited; the admin by admin right
	// through the same scripts, each audited.
	if err := update(domain.ByOwnRight(ann), ports.PostPatch{Body: ports.Some("Owner's body")}); err != nil {
		t.Fatalf("Posts.Update by the owner: %v", err)
	}
	if rows := auditRows(); len(rows) != 0 {
		t.Errorf("the owner's update wrote audit rows: %+v", rows)
	}
	view, err := w.posts.Update(ctx, admin, postID, retitle, ports.Precondition{})
	if err != nil || view.Post.Title() != "Taken over" || view.Author.ID != ann.User.ID {
		t.Errorf("Posts.Update by admin right: got %q by %d, %v; want the title changed and ann still the author", view.Post.Title(), view.Author.ID, err)
	}
	steps := []struct {
		name   string
		run    func() error
		action domain.AuditAction
		kind   string
		id     int64
	}{
		{"unpublish", func() error { return update(admin, ports.PostPatch{Status: ports.Some(domain.StatusDraft)}) }, domain.AuditPostUnpublish, domain.SubjectPost, postID},
		{"publish", func() error { return update(admin, ports.PostPatch{Status: ports.Some(domain.StatusPublished)}) }, domain.AuditPostPublish, domain.SubjectPost, postID},
		{"delete the comment", func() error {
			return w.comments.Delete(ctx, admin, comment.Comment.ID, ports.Precondition{})
		}, domain.AuditCommentDelete, domain.SubjectComment, comment.Comment.ID},
		{"revoke ann's token", func() error { return w.tokens.Delete(ctx, admin, annToken.ID) }, domain.AuditTokenRevoke, domain.SubjectToken, annToken.ID},
		{"delete the post", func() error { return w.posts.Delete(ctx, admin, postID, ports.Precondition{}) }, domain.AuditPostDelete, domain.SubjectPost, postID},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Fatalf("%s by admin right: %v", s.name, err)
		}
	}
	rows := auditRows()
	want := []domain.AuditAction{domain.AuditPostUpdate}
	for _, s := range steps {
		want = append(want, s.action)
	}
	if len(rows) != len(want) {
		t.Fatalf("audit rows: got %d, want %d: %+v", len(rows), len(want), rows)
	}
	for i, s := range append([]struct {
		name   string
		run    func() error
		action domain.AuditAction
		kind   string
		id     int64
	}{{"update", nil, domain.AuditPostUpdate, domain.SubjectPost, postID}}, steps...) {
		row := rows[len(rows)-1-i] // newest first
		if row.Action != s.action || row.SubjectType != s.kind || row.SubjectID != s.id || row.AdminID != root.User.ID || row.Address != address {
			t.Errorf("audit row of %s: got %+v", s.name, row)
		}
	}
	if _, err := store.Repos().Tokens.ByID(ctx, annToken.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("ann's token after the admin's revoke: %v", err)
	}
	if _, err := w.posts.Show(ctx, ann, postID, false); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the post after the admin's delete: %v, want not found", err)
	}
}

// keepDirectoryAdminRules runs area B's updates (People.Patch and
// Replace, Products.Replace) as the console and the API call them: by
// anyone's own right, as area B lets anyone write (CRUD_AUTH=token asking
// a token), unaudited; by an admin by admin right, which CRUD_AUTH=token
// does not gate, keeping the same rules and audited as person.update or
// product.update in the change's transaction; and refused, changing
// nothing and auditing nothing, to a non-admin or a token claiming admin
// rights.
func keepDirectoryAdminRules(t *testing.T, store ports.Store, w *accountWorld, personID, productID int64) {
	t.Helper()
	ctx := context.Background()
	const address = "198.51.100.9"
	clk := clock.NewFixed(t0.Add(time.Hour))
	people := app.NewPeople(store, clk, app.DirectoryConfig{})
	products := app.NewProducts(store, clk, app.DirectoryConfig{})
	gatedPeople := app.NewPeople(store, clk, app.DirectoryConfig{RequireToken: true})
	gatedProducts := app.NewProducts(store, clk, app.DirectoryConfig{RequireToken: true})
	ops := w.register(t, "ops@example.com")
	if err := store.Repos().Admin.SetAdmin(ctx, ops.User.ID, true); err != nil {
		t.Fatal(err)
	}
	ops.User.IsAdmin = true
	opsSession := ops
	opsSession.Token = nil
	admin := domain.ByAdminRight(opsSession, address)
	eve := w.register(t, "eve@example.com")
	eveSession := eve
	eveSession.Token = nil
	directoryAudit := func() []domain.AuditEntry {
		t.Helper()
		rows, _, err := store.Repos().Admin.Audit(ctx, ports.Page{Limit: 100}, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []domain.AuditEntry
		for _, row := range rows {
			if row.SubjectType == domain.SubjectPerson || row.SubjectType == domain.SubjectProduct {
				out = append(out, row)
			}
		}
		return out
	}
	person, err := people.Get(ctx, personID)
	if err != nil {
		t.Fatal(err)
	}
	product, err := products.Get(ctx, productID)
	if err != nil {
		t.Fatal(err)
	}

	// The rules hold by admin right as by anyone's own.
	_, err = people.Patch(ctx, admin, personID, ports.PersonPatch{Email: ports.Some("not an address"), Age: ports.Some(ptr(151))}, ports.Precondition{})
	if got, want := violationsOf(t, "People.Patch by admin right", err), []domain.Violation{{Field: "email", Rule: "email"}, {Field: "age", Rule: "max_value:150"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("People.Patch by admin right: got %v, want %v", got, want)
	}
	_, err = products.Replace(ctx, admin, productID, ports.ProductInput{Name: "", PriceCents: -1}, ports.Precondition{})
	if got, want := violationsOf(t, "Products.Replace by admin right", err), []domain.Violation{{Field: "name", Rule: "required"}, {Field: "price", Rule: "min_value:0"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Products.Replace by admin right: got %v, want %v", got, want)
	}

	// Who claims admin rights without holding them is refused, under
	// either gate.
	for _, who := range []struct {
		name  string
		actor domain.Acting
	}{
		{"a non-admin's session claiming admin rights", domain.ByAdminRight(eveSession, address)},
		{"the admin's token claiming admin rights", domain.ByAdminRight(ops, address)},
	} {
		for _, ps := range []*app.People{people, gatedPeople} {
			if _, err := ps.Patch(ctx, who.actor, personID, ports.PersonPatch{Name: ports.Some("Taken")}, ports.Precondition{}); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("People.Patch by %s: got %v, want forbidden", who.name, err)
			}
			if _, err := ps.Replace(ctx, who.actor, personID, ports.PersonInput{Name: "Taken", Email: "taken@example.com"}, ports.Precondition{}); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("People.Replace by %s: got %v, want forbidden", who.name, err)
			}
		}
		for _, ps := range []*app.Products{products, gatedProducts} {
			if _, err := ps.Replace(ctx, who.actor, productID, ports.ProductInput{Name: "Taken", PriceCents: 1}, ports.Precondition{}); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("Products.Replace by %s: got %v, want forbidden", who.name, err)
			}
		}
	}
	if got, err := people.Get(ctx, personID); err != nil || !reflect.DeepEqual(got, person) {
		t.Errorf("person after refused changes: got %+v, %v, want %+v", got, err, person)
	}
	if got, err := products.Get(ctx, productID); err != nil || !reflect.DeepEqual(got, product) {
		t.Errorf("product after refused changes: got %+v, %v, want %+v", got, err, product)
	}
	if rows := directoryAudit(); len(rows) != 0 {
		t.Fatalf("refused changes wrote audit rows: %+v", rows)
	}

	// Anyone's own right: area B's ordinary path, unaudited.
	if _, err := people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), personID, ports.PersonPatch{Name: ports.Some("Pat by anyone")}, ports.Precondition{}); err != nil {
		t.Fatalf("People.Patch by anyone: %v", err)
	}
	if _, err := products.Replace(ctx, domain.ByOwnRight(eveSession), productID, ports.ProductInput{Name: "Pen by anyone", PriceCents: 150}, ports.Precondition{}); err != nil {
		t.Fatalf("Products.Replace by anyone: %v", err)
	}
	if rows := directoryAudit(); len(rows) != 0 {
		t.Errorf("changes by own right wrote audit rows: %+v", rows)
	}

	// The admin by admin right, through a console session, which
	// CRUD_AUTH=token does not turn away: each change audited.
	got, err := gatedPeople.Patch(ctx, admin, personID, ports.PersonPatch{Name: ports.Some("Pat by the admin"), Age: ports.Some(ptr(40))}, ports.Precondition{})
	if err != nil || got.Name != "Pat by the admin" || got.Age == nil || *got.Age != 40 || got.Email != person.Email {
		t.Errorf("People.Patch by admin right: got %+v, %v", got, err)
	}
	if _, err := people.Replace(ctx, admin, personID, ports.PersonInput{Name: "Pat replaced", Email: "pat2@example.com"}, ports.Precondition{}); err != nil {
		t.Errorf("People.Replace by admin right: %v", err)
	}
	item, err := gatedProducts.Replace(ctx, admin, productID, ports.ProductInput{Name: "Pen by the admin", PriceCents: 250, Stock: 3, SKU: ptr("PEN-ADMIN")}, ports.Precondition{})
	if err != nil || item.Name != "Pen by the admin" || item.PriceCents != 250 || item.Stock != 3 {
		t.Errorf("Products.Replace by admin right: got %+v, %v", item, err)
	}
	rows := directoryAudit()
	want := []struct {
		action  domain.AuditAction
		subject string
		id      int64
	}{ // newest first
		{domain.AuditProductUpdate, domain.SubjectProduct, productID},
		{domain.AuditPersonUpdate, domain.SubjectPerson, personID},
		{domain.AuditPersonUpdate, domain.SubjectPerson, personID},
	}
	if len(rows) != len(want) {
		t.Fatalf("audit rows of area B: got %+v, want %d", rows, len(want))
	}
	for i, w := range want {
		row := rows[i]
		if row.Action != w.action || row.SubjectType != w.subject || row.SubjectID != w.id || row.AdminID != ops.User.ID || row.AdminEmail != "ops@example.com" || row.Address != address {
			t.Errorf("audit row %d: got %+v, want %s of %s %d", i, row, w.action, w.subject, w.id)
		}
	}
}

// keepTagAdminRules runs the tag scripts only admins may run (Tags.Rename,
// Merge and Delete, one script for the API and the console): the name's
// rules hold for an admin too; a non-admin is refused whatever its token
// allows, and so is an admin's token without a tag ability, with nothing
// changed or audited; an admin's session renames, merges and deletes, each
// change audited once.
func keepTagAdminRules(t *testing.T, store ports.Store, w *accountWorld) {
	t.Helper()
	ctx := context.Background()
	const address = "203.0.113.9"
	carl := w.register(t, "carl@example.com")
	dora := w.register(t, "dora@example.com")
	if err := store.Repos().Admin.SetAdmin(ctx, dora.User.ID, true); err != nil {
		t.Fatal(err)
	}
	dora.User.IsAdmin = true
	doraSession := dora
	doraSession.Token = nil
	admin := ports.AdminCaller{Actor: doraSession, Address: address}
	readOnly := dora
	readOnly.Token = &domain.Token{ID: dora.Token.ID, UserID: dora.User.ID, Abilities: []string{domain.AbilityPostsRead}}
	goTag, err := w.tags.Create(ctx, carl, "Go tag")
	if err != nil {
		t.Fatal(err)
	}
	rustTag, err := w.tags.Create(ctx, carl, "Rust tag")
	if err != nil {
		t.Fatal(err)
	}
	audited := func() int {
		t.Helper()
		rows, _, err := store.Repos().Admin.Audit(ctx, ports.Page{Limit: 1000}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	before := audited()

	_, err = w.tags.Rename(ctx, admin, goTag.ID, strings.Repeat("x", 256))
	if got := violationsOf(t, "Tags.Rename by an admin to a long name", err); len(got) != 1 || got[0].Field != "name" {
		t.Errorf("Tags.Rename by an admin to a long name: got %v, want one violation of name", got)
	}
	if _, err := w.tags.Rename(ctx, admin, goTag.ID, "Rust tag"); !errors.Is(err, domain.ErrTagTaken) {
		t.Errorf("Tags.Rename by an admin onto another tag's name: got %v, want taken", err)
	}
	for _, who := range []struct {
		name   string
		caller ports.AdminCaller
		want   error
	}{
		{"a non-admin's token allowing everything", ports.AdminCaller{Actor: carl, Address: address}, domain.ErrForbidden},
		{"an admin's token allowing reads only", ports.AdminCaller{Actor: readOnly, Address: address}, domain.ErrInvalidAbility},
	} {
		if _, err := w.tags.Rename(ctx, who.caller, goTag.ID, "Renamed"); !errors.Is(err, who.want) {
			t.Errorf("Tags.Rename by %s: got %v, want %v", who.name, err, who.want)
		}
		if _, err := w.tags.Merge(ctx, who.caller, goTag.ID, "Rust tag"); !errors.Is(err, who.want) {
			t.Errorf("Tags.Merge by %s: got %v, want %v", who.name, err, who.want)
		}
		if err := w.tags.Delete(ctx, who.caller, rustTag.ID); !errors.Is(err, who.want) {
			t.Errorf("Tags.Delete by %s: got %v, want %v", who.name, err, who.want)
		}
	}
	if n := audited(); n != before {
		t.Fatalf("refused tag changes wrote %d audit rows", n-before)
	}

	renamed, err := w.tags.Rename(ctx, admin, goTag.ID, "Golang tag")
	if err != nil || renamed.Name != "Golang tag" {
		t.Fatalf("Tags.Rename by an admin: got %q, %v", renamed.Name, err)
	}
	if _, err := w.tags.Merge(ctx, admin, goTag.ID, "Rust tag"); err != nil {
		t.Fatalf("Tags.Merge by an admin: %v", err)
	}
	if err := w.tags.Delete(ctx, admin, rustTag.ID); err != nil {
		t.Fatalf("Tags.Delete by an admin: %v", err)
	}
	rows, _, err := store.Repos().Admin.Audit(ctx, ports.Page{Limit: 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.AuditAction{domain.AuditTagDelete, domain.AuditTagMerge, domain.AuditTagRename}
	if len(rows) != len(want) || audited() != before+len(want) {
		t.Fatalf("audit rows of the tag changes: got %+v, want %v", rows, want)
	}
	for i, row := range rows {
		if row.Action != want[i] || row.AdminID != dora.User.ID || row.Address != address {
			t.Errorf("audit row %d: got %+v, want %s by %d from %s", i, row, want[i], dora.User.ID, address)
		}
	}
}
