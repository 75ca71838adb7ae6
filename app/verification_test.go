package app_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// TestWritesNeedAVerifiedAddress calls the use cases as any transport
// would, with REQUIRE_VERIFIED_EMAIL on: the actor authentication gives an
// unverified account is refused every write, and writes once the mailed
// link has verified its address.
func TestWritesNeedAVerifiedAddress(t *testing.T) {
	for _, s := range stacktest.Stores() {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			uc := stacktest.NewStack(t, store, stacktest.Options{RequireVerifiedEmail: true}).Services.UseCases
			_, plain, err := uc.Accounts.Register(ctx, ports.RegisterInput{Name: "Ann", Email: "ann@example.com", Password: "password1", LinkBase: "https://api.example"})
			if err != nil {
				t.Fatal(err)
			}
			actor, err := uc.Accounts.Authenticate(ctx, plain.String())
			if err != nil {
				t.Fatal(err)
			}
			writes := map[string]func(domain.Actor) error{
				"Posts.Create": func(a domain.Actor) error {
					_, err := uc.Posts.Create(ctx, a, ports.PostInput{Title: "T", Body: "B", Status: domain.StatusDraft})
					return err
				},
				"Tags.Create": func(a domain.Actor) error { _, err := uc.Tags.Create(ctx, a, "go"); return err },
				"Tokens.Create": func(a domain.Actor) error {
					_, _, err := uc.Tokens.Create(ctx, a, ports.TokenInput{Name: "ci"})
					return err
				},
				"Webhooks.Create": func(a domain.Actor) error {
					_, err := uc.Webhooks.Create(ctx, a, ports.WebhookInput{URL: "https://hooks.example.com/", Events: []domain.EventType{domain.PostCreated}})
					return err
				},
			}
			for name, write := range writes {
				if err := write(actor); !errors.Is(err, domain.ErrEmailNotVerified) {
					t.Errorf("%s by an unverified actor: got %v, want ErrEmailNotVerified", name, err)
				}
			}
			if tags, err := uc.Tags.List(ctx, domain.Actor{}); err != nil || len(tags) != 0 {
				t.Errorf("tags after the refused writes: %v, %v", tags, err)
			}

			now := time.Now()
			mails, err := store.Repos().Mails.Claim(ctx, stacktest.Start, now, 10)
			if err != nil || len(mails) != 1 {
				t.Fatalf("mails: %v, %v; want the verification mail", mails, err)
			}
			link := regexp.MustCompile(`https://api\.example(/api/v1/verify-email/(\d+)/(\w+))\?(\S+)`).FindStringSubmatch(mails[0].Text)
			if link == nil {
				t.Fatalf("no link in %s", mails[0].Text)
			}
			in := ports.VerifyInput{ID: link[2], Hash: link[3], Path: link[1], RawQuery: link[4]}
			if _, err := uc.Verification.Verify(ctx, ports.VerifyInput{ID: in.ID, Hash: in.Hash, Path: in.Path, RawQuery: strings.Replace(in.RawQuery, "expires=", "expires=1", 1)}); !errors.Is(err, domain.ErrInvalidSignature) {
				t.Errorf("Verify with a moved expiry: got %v, want ErrInvalidSignature", err)
			}
			if verified, err := uc.Verification.Verify(ctx, in); err != nil || !verified {
				t.Fatalf("Verify: got %v, %v; want true", verified, err)
			}
			if actor, err = uc.Accounts.Authenticate(ctx, plain.String()); err != nil {
				t.Fatal(err)
			}
			for name, write := range writes {
				if err := write(actor); err != nil {
					t.Errorf("%s by the verified actor: %v", name, err)
				}
			}
		})
	}
}
