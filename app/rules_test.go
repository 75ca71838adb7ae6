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
					_, _, err := w.posts.List(ctx, domain.Actor{}, ports.PostFilter{}, ports.Page{Limit: domain.MaxPageSize + 1})
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
					_, err := people.Replace(ctx, domain.Actor{}, pat.ID, ports.PersonInput{Name: "Pat", Email: "pat@localhost"}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "email", Rule: "email"}}},
				{"People.Patch of the age", func() error {
					_, err := people.Patch(ctx, domain.Actor{}, pat.ID, ports.PersonPatch{Age: ports.Some(ptr(151))}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "age", Rule: "max_value:150"}}},
				{"Products.Create with everything wrong", func() error {
					_, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: " ", PriceCents: -1, Description: strings.Repeat("d", 5001), Stock: -1, SKU: ptr("")})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}, {Field: "price", Rule: "min_value:0"}, {Field: "description", Rule: "max:5000"}, {Field: "stock", Rule: "min_value:0"}, {Field: "sku", Rule: "required"}}},
				{"Products.Replace past the price bound", func() error {
					_, err := products.Replace(ctx, domain.Actor{}, pen.ID, ports.ProductInput{Name: "Pen", PriceCents: domain.MaxPrice*100 + 1}, ports.Precondition{})
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

			// The ability gates: version 2's on the post use cases, and
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
				a.Gate = domain.GatePostAbilities
				return a
			}
			profileOnly, reader := token(domain.AbilityProfileUpdate), token(domain.AbilityPostsRead)
			anonymous := domain.Actor{Gate: domain.GatePostAbilities}
			session := ann
			session.Token = nil
			gatedPeople := app.NewPeople(store, clk, app.DirectoryConfig{RequireToken: true})
			gatedProducts := app.NewProducts(store, clk, app.DirectoryConfig{RequireToken: true})
			for _, tc := range []struct {
				name string
				call func() error
				want error
			}{
				{"v2 Posts.List without posts:read", func() error {
					_, _, err := w.posts.List(ctx, profileOnly, ports.PostFilter{}, ports.Page{Limit: 10})
					return err
				}, domain.ErrInvalidAbility},
				{"v2 Posts.ListAfter by nobody", func() error {
					_, _, err := w.posts.ListAfter(ctx, anonymous, ports.PostFilter{}, nil, 10)
					return err
				}, domain.ErrUnauthenticated},
				{"v2 Posts.Show without posts:read", func() error {
					_, err := w.posts.Show(ctx, profileOnly, post.Post.ID(), false)
					return err
				}, domain.ErrInvalidAbility},
				{"v2 Posts.Create with posts:read only", func() error {
					_, err := w.posts.Create(ctx, reader, ports.PostInput{Title: "T", Body: "B", Status: domain.StatusDraft})
					return err
				}, domain.ErrInvalidAbility},
				{"v2 Posts.Update with posts:read only", func() error {
					_, err := w.posts.Update(ctx, domain.ByOwnRight(reader), post.Post.ID(), ports.PostPatch{Title: ports.Some("New")}, ports.Precondition{})
					return err
				}, domain.ErrInvalidAbility},
				{"v2 Posts.Delete with posts:read only", func() error {
					return w.posts.Delete(ctx, domain.ByOwnRight(reader), post.Post.ID(), ports.Precondition{})
				}, domain.ErrInvalidAbility},
				{"People.Create by nobody under CRUD_AUTH=token", func() error {
					_, err := gatedPeople.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Sam", Email: "sam@example.com"})
					return err
				}, domain.ErrUnauthenticated},
				{"People.Patch by a browser session under CRUD_AUTH=token", func() error {
					_, err := gatedPeople.Patch(ctx, session, pat.ID, ports.PersonPatch{Name: ports.Some("Sam")}, ports.Precondition{})
					return err
				}, domain.ErrUnauthenticated},
				{"People.Delete by nobody under CRUD_AUTH=token", func() error {
					return gatedPeople.Delete(ctx, domain.Actor{}, pat.ID, ports.Precondition{})
				}, domain.ErrUnauthenticated},
				{"Products.Replace by nobody under CRUD_AUTH=token", func() error {
					_, err := gatedProducts.Replace(ctx, domain.Actor{}, pen.ID, ports.ProductInput{Name: "Quill", PriceCents: 1}, ports.Precondition{})
					return err
				}, domain.ErrUnauthenticated},
			} {
				if err := tc.call(); !errors.Is(err, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
				}
			}
			// The gates let through who holds what they ask.
			if _, _, err := w.posts.List(ctx, reader, ports.PostFilter{}, ports.Page{Limit: 10}); err != nil {
				t.Errorf("v2 Posts.List with posts:read: %v", err)
			}
			if _, err := w.posts.Show(ctx, reader, post.Post.ID(), false); err != nil {
				t.Errorf("v2 Posts.Show with posts:read: %v", err)
			}
			if _, err := gatedProducts.Replace(ctx, ann, pen.ID, ports.ProductInput{Name: "Pen", PriceCents: 100}, ports.Precondition{}); err != nil {
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
		})
	}
}
