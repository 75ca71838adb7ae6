package app_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// abilityCase is one use case that writes: the write it is, what a token
// not allowed it gets, and a call of it.
type abilityCase struct {
	name    string
	write   domain.Write
	refusal error
	call    func(domain.Actor) error
}

// TestUseCasesCheckAbilities calls every use case that writes for an actor
// as any transport would, with no route in front, once per kind of token:
// each refuses a token its write's abilities (domain.Write) do not allow
// before it looks at anything else, and lets through one they allow. The
// calls name records that do not exist or carry invalid input, so that
// what a call let through stores is nothing either (but the verification
// mails); what is left is checked at the end.
func TestUseCasesCheckAbilities(t *testing.T) {
	const missing = 424242
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			svc := stacktest.NewStack(t, store, stacktest.Options{}).Services
			_, plain, err := svc.Accounts.Register(ctx, ports.RegisterInput{Name: "Ann", Email: "ann@example.com", Password: "password1"})
			if err != nil {
				t.Fatal(err)
			}
			star, err := svc.Accounts.Authenticate(ctx, plain.String())
			if err != nil {
				t.Fatal(err)
			}
			token := func(abilities ...string) domain.Actor {
				t.Helper()
				_, plain, err := svc.Tokens.Create(ctx, star, ports.TokenInput{Name: "narrow", Abilities: abilities})
				if err != nil {
					t.Fatal(err)
				}
				a, err := svc.Accounts.Authenticate(ctx, plain.String())
				if err != nil {
					t.Fatal(err)
				}
				return a
			}

			writes := []abilityCase{
				{"Posts.Create", domain.WritePosts, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Posts.Create(ctx, a, ports.PostInput{})
					return err
				}},
				{"Posts.Update", domain.WritePosts, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Posts.Update(ctx, domain.ByOwnRight(a), missing, ports.PostPatch{Title: ports.Some("T")}, ports.Precondition{})
					return err
				}},
				{"Posts.Delete", domain.WritePosts, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Posts.Delete(ctx, domain.ByOwnRight(a), missing, ports.Precondition{})
				}},
				{"Posts.Purge", domain.WritePosts, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Posts.Purge(ctx, a, missing, ports.Precondition{})
				}},
				{"Posts.Restore", domain.WritePosts, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Posts.Restore(ctx, a, missing)
					return err
				}},
				{"Profile.Update", domain.WriteProfile, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, _, err := svc.Profile.Update(ctx, a, ports.ProfileInput{Name: ports.Some("")}, ports.Precondition{})
					return err
				}},
				{"Profile.SetAvatar", domain.WriteProfile, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Profile.SetAvatar(ctx, a, ports.Image{Data: []byte("not an image"), Ext: ".png"})
					return err
				}},
				{"Profile.Delete", domain.WriteProfile, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Profile.Delete(ctx, a, "wrong password", ports.Precondition{})
				}},
				{"Verification.Send", domain.WriteProfile, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Verification.Send(ctx, a, "http://example.com")
					return err
				}},
				{"Comments.Create", domain.WriteComments, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Comments.Create(ctx, a, missing, "")
					return err
				}},
				{"Comments.Update", domain.WriteComments, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Comments.Update(ctx, a, missing, "B", ports.Precondition{})
					return err
				}},
				{"Comments.Delete", domain.WriteComments, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Comments.Delete(ctx, domain.ByOwnRight(a), missing, ports.Precondition{})
				}},
				{"Comments.Purge", domain.WriteComments, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Comments.Purge(ctx, a, missing, ports.Precondition{})
				}},
				{"Comments.Restore", domain.WriteComments, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Comments.Restore(ctx, a, missing)
					return err
				}},
				{"Tags.Create", domain.WriteTags, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Tags.Create(ctx, a, "")
					return err
				}},
				{"Tags.Rename", domain.WriteTags, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Tags.Rename(ctx, ports.AdminCaller{Actor: a}, missing, "")
					return err
				}},
				{"Tags.Merge", domain.WriteTags, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Tags.Merge(ctx, ports.AdminCaller{Actor: a}, missing, "")
					return err
				}},
				{"Tags.Delete", domain.WriteTags, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Tags.Delete(ctx, ports.AdminCaller{Actor: a}, missing)
				}},
				{"Webhooks.Create", domain.WriteWebhooks, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Webhooks.Create(ctx, a, ports.WebhookInput{})
					return err
				}},
				{"Webhooks.Replace", domain.WriteWebhooks, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Webhooks.Replace(ctx, a, missing, ports.WebhookInput{})
					return err
				}},
				{"Webhooks.Delete", domain.WriteWebhooks, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Webhooks.Delete(ctx, a, missing)
				}},
				{"Webhooks.Retry", domain.WriteWebhooks, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, err := svc.Webhooks.Retry(ctx, a, missing, 1)
					return err
				}},
				{"Tokens.Create", domain.WriteTokens, domain.ErrInvalidAbility, func(a domain.Actor) error {
					_, _, err := svc.Tokens.Create(ctx, a, ports.TokenInput{})
					return err
				}},
				{"Tokens.Delete", domain.WriteTokens, domain.ErrInvalidAbility, func(a domain.Actor) error {
					return svc.Tokens.Delete(ctx, domain.ByOwnRight(a), missing)
				}},
			}

			// Every write of the table has a use case here.
			for _, w := range domain.Writes() {
				if !slices.ContainsFunc(writes, func(c abilityCase) bool { return c.write == w }) {
					t.Errorf("write %d: no use case of it is called here", w)
				}
			}

			session := star
			session.Token = nil
			type caller struct {
				name  string
				actor domain.Actor
			}
			callers := []caller{
				{"session", session},
				{"nobody", domain.Actor{}},
				{"no ability", token()},
				{"login", token(domain.AbilityPostsRead, domain.AbilityPostsWrite)},
			}
			for _, a := range domain.Abilities {
				callers = append(callers, caller{a, token(a)})
			}
			for _, caller := range callers {
				for _, w := range writes {
					err := w.call(caller.actor)
					var holds []string
					if caller.actor.Token != nil {
						holds = caller.actor.Token.Abilities
					}
					switch {
					case caller.actor.User.ID == 0:
						if !errors.Is(err, domain.ErrUnauthenticated) {
							t.Errorf("%s by %s: got %v, want %v", w.name, caller.name, err, domain.ErrUnauthenticated)
						}
					case caller.actor.Token == nil || w.write.Allows(holds):
						if errors.Is(err, domain.ErrInvalidAbility) {
							t.Errorf("%s by %s: got %v, want it let through", w.name, caller.name, err)
						}
					default:
						if !errors.Is(err, w.refusal) {
							t.Errorf("%s by %s: got %v, want %v", w.name, caller.name, err, w.refusal)
						}
					}
				}
			}

			// posts:read and no ability at all write nothing; the login
			// token's posts:write writes every kind.
			for _, w := range domain.Writes() {
				if w.Allows([]string{domain.AbilityPostsRead}) || w.Allows(nil) || !w.Allows([]string{domain.AbilityPostsWrite}) {
					t.Errorf("write %d: allowed to posts:read or nothing, or not to posts:write", w)
				}
			}

			// A token revoking itself logs out, with no ability.
			reader := token(domain.AbilityPostsRead)
			if err := svc.Tokens.Delete(ctx, domain.ByOwnRight(reader), reader.Token.ID); err != nil {
				t.Errorf("a read-only token revoking itself: %v", err)
			}
			if tokens, err := svc.Tokens.List(ctx, star); err != nil || slices.ContainsFunc(tokens, func(t domain.Token) bool { return t.ID == reader.Token.ID }) {
				t.Errorf("tokens after a token revoked itself: got %v, %v, want it gone", tokens, err)
			}

			// A token still grants only what it holds: tokens:write issues
			// tokens holding tokens:write, and no more.
			minter := token(domain.AbilityTokensWrite)
			if _, _, err := svc.Tokens.Create(ctx, minter, ports.TokenInput{Name: "more", Abilities: []string{domain.AbilityPostsWrite}}); !errors.Is(err, domain.ErrInvalidAbility) {
				t.Errorf("tokens:write issuing posts:write: got %v, want %v", err, domain.ErrInvalidAbility)
			}
			if _, _, err := svc.Tokens.Create(ctx, minter, ports.TokenInput{Name: "same", Abilities: []string{domain.AbilityTokensWrite}}); err != nil {
				t.Errorf("tokens:write issuing tokens:write: %v", err)
			}
			// An ability no write or read names is refused, not stored.
			_, _, err = svc.Tokens.Create(ctx, star, ports.TokenInput{Name: "typo", Abilities: []string{"post:write"}})
			if got, want := violationsOf(t, "an unknown ability", err), []domain.Violation{{Field: "abilities.0", Rule: domain.RuleOf(domain.RuleIn, domain.Abilities...)}}; !slices.Equal(got, want) {
				t.Errorf("an unknown ability: got %v, want %v", got, want)
			}

			// What the refusals and the calls let through left: nothing.
			u, err := store.Repos().Users.ByID(ctx, star.User.ID)
			if err != nil || u.Name != "Ann" || u.AvatarPath != "" {
				t.Errorf("account after the calls: got %+v, %v", u, err)
			}
			if _, total, err := svc.Posts.List(ctx, star, ports.PostFilter{}, ports.Page{Limit: 10}); err != nil || total != 0 {
				t.Errorf("posts after the calls: got %d, %v, want none", total, err)
			}
			if tags, err := svc.Tags.List(ctx, star); err != nil || len(tags) != 0 {
				t.Errorf("tags after the calls: got %v, %v, want none", tags, err)
			}
			if hooks, err := svc.Webhooks.List(ctx, star); err != nil || len(hooks) != 0 {
				t.Errorf("webhooks after the calls: got %v, %v, want none", hooks, err)
			}
		})
	}
}
