package app_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

func TestTags(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			tags := app.NewTags(s.Open(t), clock.NewFixed(t0))
			if got, err := tags.List(ctx, domain.Actor{}); err != nil || len(got) != 0 {
				t.Errorf("list of none: got %+v, %v; want none", got, err)
			}
			// Nobody writes nothing; a browser session's actor writes every
			// kind.
			if _, err := tags.Create(ctx, domain.Actor{}, "Zen"); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("create by nobody: got %v, want %v", err, domain.ErrUnauthenticated)
			}
			writer := domain.Actor{User: domain.User{ID: 1}}
			var created []domain.Tag
			for _, name := range []string{"Zen", "Go Lang", "Art"} {
				tag, err := tags.Create(ctx, writer, name)
				if err != nil {
					t.Fatal(err)
				}
				created = append(created, tag)
			}
			zen, golang, art := created[0], created[1], created[2]
			if want := (domain.Tag{ID: golang.ID, Name: "Go Lang", Slug: "go-lang", CreatedAt: t0, UpdatedAt: t0}); !reflect.DeepEqual(golang, want) {
				t.Errorf("created: got %+v, want %+v", golang, want)
			}
			if _, err := tags.Create(ctx, writer, "go lang"); !errors.Is(err, domain.ErrTagTaken) {
				t.Errorf("duplicate name: got %v, want %v", err, domain.ErrTagTaken)
			}
			got, err := tags.List(ctx, domain.Actor{})
			if err != nil || !reflect.DeepEqual(got, []domain.Tag{art, golang, zen}) {
				t.Errorf("list: got %+v, %v; want Art, Go Lang, Zen", got, err)
			}
		})
	}
}

// TestTagsManagedByAdmins renames, merges and deletes tags as the API and
// the console call them: an admin by session or by a token allowing
// tags:write may, with an audit row and an internal record in the same
// transaction; nobody else may, and a refusal changes nothing.
func TestTagsManagedByAdmins(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			store := s.Open(t)
			stack := stacktest.NewStack(t, store, stacktest.Options{})
			svc, operator := stack.Services.UseCases, stack.Operator
			register := func(name, email string) domain.User {
				u, _, err := svc.Accounts.Register(ctx, ports.RegisterInput{Name: name, Email: email, Password: "password-1", LinkBase: "https://inkwell.test"})
				if err != nil {
					t.Fatal(err)
				}
				return u
			}
			register("Root", "root@example.com")
			ann := register("Ann", "ann@example.com")
			root, err := operator.Admins.Grant(ctx, "root@example.com")
			if err != nil {
				t.Fatal(err)
			}
			token := func(u domain.User, abilities ...string) domain.Actor {
				t.Helper()
				tok, _, err := svc.Tokens.Create(ctx, domain.Actor{User: u}, ports.TokenInput{Name: "t", Abilities: abilities})
				if err != nil {
					t.Fatal(err)
				}
				return domain.Actor{User: u, Token: &tok}
			}
			admin := ports.AdminCaller{Actor: domain.Actor{User: root}, Address: "198.51.100.9"}
			adminToken := ports.AdminCaller{Actor: token(root, domain.AbilityTagsWrite), Address: "198.51.100.10"}
			author := domain.Actor{User: ann}
			mk := func(name string) domain.Tag {
				tag, err := svc.Tags.Create(ctx, author, name)
				if err != nil {
					t.Fatal(err)
				}
				return tag
			}
			golang, gopher, rust := mk("Golang"), mk("Go"), mk("Rust")
			post, err := svc.Posts.Create(ctx, author, ports.PostInput{Title: "Hello", Body: "B", Status: domain.StatusPublished, TagIDs: []int64{golang.ID, rust.ID}})
			if err != nil {
				t.Fatal(err)
			}
			both, err := svc.Posts.Create(ctx, author, ports.PostInput{Title: "Both", Body: "B", Status: domain.StatusDraft, TagIDs: []int64{golang.ID, gopher.ID}})
			if err != nil {
				t.Fatal(err)
			}
			lastEvent := func() int64 {
				id, err := store.Repos().Events.Last(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return id
			}
			before := lastEvent()

			// Refusals: nobody, an ordinary account however it calls, an
			// admin's token without tags:write, a stale claim of rights.
			staleAnn := ann
			staleAnn.IsAdmin = true
			for _, tc := range []struct {
				name string
				c    ports.AdminCaller
				want error
			}{
				{"nobody", ports.AdminCaller{}, domain.ErrUnauthenticated},
				{"a user's session", ports.AdminCaller{Actor: author}, domain.ErrForbidden},
				{"a user's * token", ports.AdminCaller{Actor: token(ann, domain.AbilityAll)}, domain.ErrForbidden},
				{"a non-admin claiming the rights", ports.AdminCaller{Actor: domain.Actor{User: staleAnn}}, domain.ErrForbidden},
				{"the admin's read-only token", ports.AdminCaller{Actor: token(root, domain.AbilityPostsRead)}, domain.ErrInvalidAbility},
			} {
				if _, err := svc.Tags.Rename(ctx, tc.c, golang.ID, "Go!"); !errors.Is(err, tc.want) {
					t.Errorf("Rename by %s: got %v, want %v", tc.name, err, tc.want)
				}
				if _, err := svc.Tags.Merge(ctx, tc.c, golang.ID, "Go"); !errors.Is(err, tc.want) {
					t.Errorf("Merge by %s: got %v, want %v", tc.name, err, tc.want)
				}
				if err := svc.Tags.Delete(ctx, tc.c, golang.ID); !errors.Is(err, tc.want) {
					t.Errorf("Delete by %s: got %v, want %v", tc.name, err, tc.want)
				}
				if _, _, err := svc.Tags.Counted(ctx, tc.c, ports.TagQuery{}); !errors.Is(err, tc.want) {
					t.Errorf("Counted by %s: got %v, want %v", tc.name, err, tc.want)
				}
			}
			// Bad input, by an admin.
			for _, tc := range []struct {
				name string
				call func() error
				want error
			}{
				{"Rename of a missing tag", func() error { _, err := svc.Tags.Rename(ctx, admin, 424242, "X"); return err }, domain.ErrNotFound},
				{"Rename to another tag's name", func() error { _, err := svc.Tags.Rename(ctx, admin, golang.ID, "RUST"); return err }, domain.ErrTagTaken},
				{"Merge of a missing tag", func() error { _, err := svc.Tags.Merge(ctx, admin, 424242, "Go"); return err }, domain.ErrNotFound},
				{"Delete of a missing tag", func() error { return svc.Tags.Delete(ctx, admin, 424242) }, domain.ErrNotFound},
			} {
				if err := tc.call(); !errors.Is(err, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
				}
			}
			for _, tc := range []struct {
				name string
				call func() error
				want []domain.Violation
			}{
				{"Rename to nothing", func() error { _, err := svc.Tags.Rename(ctx, admin, golang.ID, " "); return err }, []domain.Violation{{Field: "name", Rule: domain.RuleRequired}}},
				{"Rename past 50 characters", func() error {
					_, err := svc.Tags.Rename(ctx, admin, golang.ID, strings.Repeat("x", 51))
					return err
				}, []domain.Violation{{Field: "name", Rule: "max:50"}}},
				{"Merge into nothing", func() error { _, err := svc.Tags.Merge(ctx, admin, golang.ID, ""); return err }, []domain.Violation{{Field: "into", Rule: domain.RuleRequired}}},
				{"Merge into an unknown name", func() error { _, err := svc.Tags.Merge(ctx, admin, golang.ID, "Haskell"); return err }, []domain.Violation{{Field: "into", Rule: domain.RuleExists}}},
				{"Merge into itself", func() error { _, err := svc.Tags.Merge(ctx, admin, golang.ID, "GOLANG"); return err }, []domain.Violation{{Field: "into", Rule: domain.RuleExists}}},
				{"Counted with a bad search", func() error { _, _, err := svc.Tags.Counted(ctx, admin, ports.TagQuery{Search: "a\x00"}); return err }, []domain.Violation{{Field: "q", Rule: domain.RuleNoNullBytes}}},
				{"Counted by slug", func() error {
					_, _, err := svc.Tags.Counted(ctx, admin, ports.TagQuery{Sort: ports.SortKey{Field: "slug"}})
					return err
				}, []domain.Violation{{Field: "sort", Rule: domain.RuleOf(domain.RuleIn, ports.TagFields...)}}},
			} {
				if got := violationsOf(t, tc.name, tc.call()); !reflect.DeepEqual(got, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
				}
			}
			if got := lastEvent(); got != before {
				t.Errorf("the refusals recorded events up to %d, want none after %d", got, before)
			}
			if entries, _, err := store.Repos().Admin.Audit(ctx, ports.Page{}, 0); err != nil || len(entries) != 0 {
				t.Errorf("audit after the refusals: got %+v, %v; want none", entries, err)
			}

			counted := func(q ports.TagQuery) []ports.TagCount {
				t.Helper()
				list, _, err := svc.Tags.Counted(ctx, admin, q)
				if err != nil {
					t.Fatal(err)
				}
				return list
			}
			if got, want := counted(ports.TagQuery{Sort: ports.SortKey{Field: "posts", Desc: true}}), []ports.TagCount{{Tag: golang, Posts: 2}, {Tag: rust, Posts: 1}, {Tag: gopher, Posts: 1}}; !reflect.DeepEqual(got, want) {
				t.Errorf("Counted by posts: got %+v, want %+v", got, want)
			}

			// The admin renames by session, merges by token, deletes by
			// session.
			renamed, err := svc.Tags.Rename(ctx, admin, golang.ID, "Go Lang")
			if err != nil {
				t.Fatal(err)
			}
			if want := (domain.Tag{ID: golang.ID, Name: "Go Lang", Slug: "go-lang", CreatedAt: golang.CreatedAt, UpdatedAt: t0}); !reflect.DeepEqual(renamed, want) {
				t.Errorf("renamed: got %+v, want %+v", renamed, want)
			}
			into, err := svc.Tags.Merge(ctx, adminToken, gopher.ID, "go lang")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(into, renamed) {
				t.Errorf("merged into: got %+v, want %+v", into, renamed)
			}
			if err := svc.Tags.Delete(ctx, admin, rust.ID); err != nil {
				t.Fatal(err)
			}
			if got, want := counted(ports.TagQuery{}), []ports.TagCount{{Tag: renamed, Posts: 2}}; !reflect.DeepEqual(got, want) {
				t.Errorf("Counted after the changes: got %+v, want %+v", got, want)
			}
			views, err := store.Repos().Tags.OfPosts(ctx, []int64{post.Post.ID(), both.Post.ID()})
			if err != nil || !reflect.DeepEqual(views[post.Post.ID()], []domain.Tag{renamed}) || !reflect.DeepEqual(views[both.Post.ID()], []domain.Tag{renamed}) {
				t.Errorf("the posts' tags after the changes: got %+v, %v; want Go Lang on each", views, err)
			}

			entries, _, err := store.Repos().Admin.Audit(ctx, ports.Page{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			type row struct {
				action  domain.AuditAction
				subject string
				id      int64
				admin   int64
				address string
			}
			var got []row
			for _, e := range entries {
				got = append(got, row{e.Action, e.SubjectType, e.SubjectID, e.AdminID, e.Address})
			}
			want := []row{
				{domain.AuditTagDelete, domain.SubjectTag, rust.ID, root.ID, "198.51.100.9"},
				{domain.AuditTagMerge, domain.SubjectTag, gopher.ID, root.ID, "198.51.100.10"},
				{domain.AuditTagRename, domain.SubjectTag, golang.ID, root.ID, "198.51.100.9"},
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("audit: got %+v, want %+v", got, want)
			}
			events, err := store.Repos().Events.After(ctx, before, 0, ports.EventFilter{})
			if err != nil {
				t.Fatal(err)
			}
			var tagged [][]int64
			for _, e := range events {
				if e.Type != domain.TagsChanged || !e.Internal() {
					t.Errorf("event %d: type %s, want an internal %s", e.ID, e.Type, domain.TagsChanged)
				}
				var ids []int64
				for _, tag := range e.Payload.Tags {
					ids = append(ids, tag.ID)
				}
				tagged = append(tagged, ids)
			}
			if want := [][]int64{{golang.ID}, {gopher.ID, golang.ID}, {rust.ID}}; !reflect.DeepEqual(tagged, want) {
				t.Errorf("the records' tags: got %v, want %v", tagged, want)
			}
			// A revoke counts at once, even for a session made before it.
			if _, err := operator.Admins.Revoke(ctx, "root@example.com"); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Tags.Rename(ctx, admin, golang.ID, "Again"); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("Rename after the revoke: got %v, want %v", err, domain.ErrForbidden)
			}
		})
	}
}
