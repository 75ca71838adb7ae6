package app_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// AdminRights.Create makes a verified admin that can log in, and refuses
// an address in use and what registration refuses, making nothing.
func TestCreateAdmin(t *testing.T) {
	for _, s := range stacktest.Stores() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			stack := stacktest.NewStack(t, s.Open(t), stacktest.Options{})
			svc, admins := stack.Services.UseCases, stack.Operator.Admins
			ctx := t.Context()
			if _, _, err := svc.Accounts.Register(ctx, ports.RegisterInput{Name: "Bob", Email: "bob@example.com", Password: "password-bob"}); err != nil {
				t.Fatal(err)
			}
			u, err := admins.Create(ctx, ports.NewAdminInput{Name: "Ann", Email: "ann@example.com", Password: "password-ann"})
			if err != nil || !u.IsAdmin || u.EmailVerifiedAt == nil || u.ID == 0 {
				t.Fatalf("Create: %+v, %v", u, err)
			}
			if _, _, err := svc.Accounts.Login(ctx, ports.LoginInput{Email: "ann@example.com", Password: "password-ann"}); err != nil {
				t.Errorf("the new admin's login: %v", err)
			}
			if _, err := admins.Create(ctx, ports.NewAdminInput{Name: "Bob", Email: "BOB@example.com", Password: "password-bob"}); !errors.Is(err, domain.ErrEmailTaken) {
				t.Errorf("an address in use: %v, want ErrEmailTaken", err)
			}
			_, err = admins.Create(ctx, ports.NewAdminInput{Name: "", Email: "nope", Password: "short"})
			if de, ok := domain.AsError(err); !ok || de.Kind != domain.Invalid || len(de.Fields) != 3 {
				t.Errorf("bad input: %v, want Invalid on name, email and password", err)
			}
			listed, err := admins.List(ctx)
			if err != nil || len(listed) != 1 {
				t.Errorf("admins: %v %v, want Ann alone", listed, err)
			}
		})
	}
}

// A setup link makes one admin: it is refused when forged, bare, another
// path's or expired, and once an admin exists; no link is made then.
func TestAdminSetup(t *testing.T) {
	for _, s := range stacktest.Stores() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			stack := stacktest.NewStack(t, s.Open(t), stacktest.Options{})
			svc, ctx := stack.Services.UseCases, t.Context()
			link, ok, err := svc.AdminSetup.Link(ctx, "https://inkwell.test/")
			if err != nil || !ok || !strings.HasPrefix(link, "https://inkwell.test/admin/setup?expires=") {
				t.Fatalf("Link: %q %v %v", link, ok, err)
			}
			u, _ := url.Parse(link)
			good := ports.AdminSetupInput{
				NewAdminInput: ports.NewAdminInput{Name: "Root", Email: "root@example.com", Password: "root-password"},
				Path:          u.Path, RawQuery: u.RawQuery,
			}
			bad := map[string]ports.AdminSetupInput{}
			forged := good
			forged.RawQuery = strings.Replace(good.RawQuery, "signature=", "signature=0", 1)
			bad["forged"] = forged
			bare := good
			bare.RawQuery = ""
			bad["bare"] = bare
			other := good
			other.Path = "/admin/setup2"
			bad["another path"] = other
			for name, in := range bad {
				if err := svc.AdminSetup.Check(ctx, in.Path, in.RawQuery); !errors.Is(err, domain.ErrInvalidSignature) {
					t.Errorf("Check %s: %v, want ErrInvalidSignature", name, err)
				}
				if _, err := svc.AdminSetup.Setup(ctx, in); !errors.Is(err, domain.ErrInvalidSignature) {
					t.Errorf("Setup %s: %v, want ErrInvalidSignature", name, err)
				}
			}
			if err := svc.AdminSetup.Check(ctx, good.Path, good.RawQuery); err != nil {
				t.Fatalf("Check: %v", err)
			}
			root, err := svc.AdminSetup.Setup(ctx, good)
			if err != nil || !root.IsAdmin || root.EmailVerifiedAt == nil {
				t.Fatalf("Setup: %+v %v", root, err)
			}
			second := good
			second.Email = "zed@example.com"
			if _, err := svc.AdminSetup.Setup(ctx, second); !errors.Is(err, domain.ErrAdminExists) {
				t.Errorf("a second setup: %v, want ErrAdminExists", err)
			}
			if err := svc.AdminSetup.Check(ctx, good.Path, good.RawQuery); !errors.Is(err, domain.ErrAdminExists) {
				t.Errorf("Check once an admin exists: %v, want ErrAdminExists", err)
			}
			if _, ok, err := svc.AdminSetup.Link(ctx, "https://inkwell.test"); ok || err != nil {
				t.Errorf("Link once an admin exists: %v %v, want none", ok, err)
			}

			if _, err := stack.Operator.Admins.Revoke(ctx, "root@example.com"); err != nil {
				t.Fatal(err)
			}
			stack.Clock.Advance(time.Hour)
			if _, err := svc.AdminSetup.Setup(ctx, second); !errors.Is(err, domain.ErrInvalidSignature) {
				t.Errorf("an expired link: %v, want ErrInvalidSignature", err)
			}
		})
	}
}
