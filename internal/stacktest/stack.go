package stacktest

import (
	"cmp"
	"context"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/inkwell/inkwell"
	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/random"
	"github.com/inkwell/inkwell/adapters/webhooks"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// Start is the time the clock of every stack begins at.
var Start = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// IdempotencyLease is how long a request of every stack holds its
// Idempotency-Key while it runs.
const IdempotencyLease = 10 * time.Second

// Options choose what a test changes of its stack; a zero field keeps the
// default.
type Options struct {
	// BcryptCost is the hasher's work factor; bcrypt.MinCost by default, so
	// that registrations and logins take no time.
	BcryptCost int
	// Hasher replaces the bcrypt hasher at BcryptCost, for a test that
	// watches what is hashed and checked.
	Hasher ports.PasswordHasher
	// LoginMaxAttempts is how many failed logins the limit allows; 5 by
	// default.
	LoginMaxAttempts int
	// RateLimitPerMinute is the API's request rate limit; off by default.
	RateLimitPerMinute int
	// TokenLifetime is how long a token lives; a week by default.
	TokenLifetime time.Duration
	// SessionLifetime is how long a browser session may idle; two hours by
	// default.
	SessionLifetime time.Duration
	// Files keeps the uploaded files; by default a folder of the test's,
	// which Stack.Storage names.
	Files ports.FileStore
	// WebhooksAllowPrivate lets webhooks call loopback addresses, where
	// tests run their receivers (WEBHOOKS_ALLOW_PRIVATE).
	WebhooksAllowPrivate bool
	// Webhooks are the delivery settings; app's defaults when zero.
	Webhooks app.WebhooksConfig
	// AppURL is the base of the links in webhook deliveries (APP_URL).
	AppURL string
	// FrontendURL is FRONTEND_URL, with which the hosted verification
	// page leaves the link to the API.
	FrontendURL string
	// MaxStreamsPerToken and MaxStreamsPerAddress cap the event streams
	// (EVENTS_MAX_STREAMS_PER_TOKEN, EVENTS_MAX_STREAMS_PER_ADDRESS); the
	// service's defaults, 10 and 50, when zero, and no cap when negative.
	MaxStreamsPerToken   int
	MaxStreamsPerAddress int
	// RequireVerifiedEmail lets only verified accounts write
	// (REQUIRE_VERIFIED_EMAIL).
	RequireVerifiedEmail bool
	// Mailer sends the outbox's mails; by default an inbox, which
	// Stack.Inbox names.
	Mailer ports.Mailer
	// Mail are the outbox's settings; From is noreply@inkwell.test when
	// empty.
	Mail app.MailConfig
	// PasswordReset are the reset settings: an hour's links and a minute's
	// throttle when zero.
	PasswordReset app.PasswordResetConfig
	// Directory gates area B's writes in the use cases (CRUD_AUTH=token
	// sets RequireToken); open when zero.
	Directory app.DirectoryConfig
	// Cache is the cache of anonymous reads (HTTP_CACHE_*): off when its
	// MaxBytes is zero, so that the tests that do not watch it see every
	// read reach the store. With it on, the stack's reader of the outbox
	// runs until the test ends.
	Cache httpapi.CacheConfig
}

// AppKey is the APP_KEY of every stack, which signs its verification links
// and remember cookies.
var AppKey = []byte("stacktest-app-key-of-32-bytes!!!")

// Stack is the service's use cases over one store, as the service builds
// them, with a clock the test moves and the folder that keeps the uploaded
// files ("" when Options.Files keeps them).
type Stack struct {
	Services httpapi.Deps
	// Operator is the command line's powers, which no transport holds.
	Operator ports.Operator
	Clock    *clock.Fixed
	Storage  string
	// Webhooks is the webhook worker, which tests run a step at a time.
	Webhooks *app.WebhookWorker
	// Mail is the mail worker, which tests run a step at a time or start;
	// Outbox wakes it.
	Mail   *app.MailWorker
	Outbox *app.Outbox
	// Inbox holds what the mail worker sent, when Options.Mailer is unset.
	Inbox *mail.Inbox
	// CacheInvalidation is the reader of the outbox that evicts from the
	// cache of anonymous reads (doing nothing when it is off).
	CacheInvalidation *app.CacheInvalidation
	// Trash purges the expired trash when a test runs it; TrashRetention
	// is its retention, the service's default.
	Trash *app.TrashPurger
}

// TrashRetention is the retention of every stack's trash, TRASH_RETENTION's
// default.
const TrashRetention = 720 * time.Hour

// NewStack builds the stack over store for tb with inkwell.NewUseCases,
// inkwell.NewOperator and inkwell.NewHTTPDeps, the constructors the
// service itself uses. The clock
// starts at Start.
func NewStack(tb testing.TB, store ports.Store, o Options) Stack {
	tb.Helper()
	o.BcryptCost = cmp.Or(o.BcryptCost, bcrypt.MinCost)
	o.LoginMaxAttempts = cmp.Or(o.LoginMaxAttempts, 5)
	o.TokenLifetime = cmp.Or(o.TokenLifetime, 7*24*time.Hour)
	o.SessionLifetime = cmp.Or(o.SessionLifetime, 2*time.Hour)
	if o.Hasher == nil {
		o.Hasher = passwords.NewBcrypt(passwords.Config{Cost: o.BcryptCost})
	}
	var storage string
	if o.Files == nil {
		storage = tb.TempDir()
		o.Files = localfs.New(localfs.Config{Dir: storage})
	}
	var inbox *mail.Inbox
	if o.Mailer == nil {
		inbox = mail.NewInbox()
		o.Mailer = inbox
	}
	o.Mail.From = cmp.Or(o.Mail.From, "noreply@inkwell.test")
	o.PasswordReset.Lifetime = cmp.Or(o.PasswordReset.Lifetime, time.Hour)
	o.PasswordReset.Throttle = cmp.Or(o.PasswordReset.Throttle, time.Minute)
	composer, err := mail.NewComposer(mail.Config{AppName: "Inkwell"})
	if err != nil {
		tb.Fatal(err)
	}
	clk := clock.NewFixed(Start)
	secrets := random.NewSecrets()
	outbox := app.NewOutbox(composer, secrets, clk, o.Mail)
	sender := webhooks.New(webhooks.Config{AllowPrivate: o.WebhooksAllowPrivate, Timeout: 5 * time.Second}, httpapi.EventBody(o.AppURL, o.Files))
	deps := inkwell.UseCaseDeps{
		Store:   store,
		Hasher:  o.Hasher,
		Secrets: secrets,
		Files:   o.Files,
		Clock:   clk,
		Sender:  sender,
		Outbox:  outbox,
		UseCaseConfig: inkwell.UseCaseConfig{
			Accounts:      app.AccountsConfig{TokenLifetime: o.TokenLifetime, LoginMaxAttempts: o.LoginMaxAttempts, RequireVerifiedEmail: o.RequireVerifiedEmail},
			Sessions:      app.SessionsConfig{Lifetime: o.SessionLifetime, Key: AppKey},
			Verification:  app.VerificationConfig{Key: AppKey, Expire: time.Hour},
			Limit:         app.RequestLimitConfig{PerMinute: o.RateLimitPerMinute},
			Idempotency:   app.IdempotencyConfig{Lease: IdempotencyLease, Retention: 24 * time.Hour},
			PasswordReset: o.PasswordReset,
			Directory:     o.Directory,
			Events: app.EventsConfig{
				Retention: 168 * time.Hour, Poll: time.Minute,
				SessionLifetime: o.SessionLifetime,
				// Streams notice an expiry sooner than the service's second,
				// so that tests moving the clock wait less.
				CredentialCheck:         50 * time.Millisecond,
				MaxStreamsPerCredential: max(cmp.Or(o.MaxStreamsPerToken, 10), 0),
				MaxStreamsPerAddress:    max(cmp.Or(o.MaxStreamsPerAddress, 50), 0),
			},
		},
	}
	uc := inkwell.NewUseCases(deps)
	worker := app.NewWebhookWorker(store, sender, clk, o.Webhooks)
	cache := httpapi.NewCache(o.Cache)
	var fresh *app.CacheInvalidation
	if cache != nil {
		fresh = app.NewCacheInvalidation(store, time.Second, cache)
		if err := fresh.CatchUp(context.Background()); err != nil {
			tb.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			fresh.Run(ctx, nil)
		}()
		tb.Cleanup(func() {
			cancel()
			<-done
		})
	} else {
		fresh = app.NewCacheInvalidation(store, time.Second)
	}
	httpCfg := httpapi.Config{AppURL: o.AppURL, FrontendURL: o.FrontendURL}
	discard := slog.New(slog.DiscardHandler)
	return Stack{
		Operator:          inkwell.NewOperator(deps),
		Services:          inkwell.NewHTTPDeps(uc, store, o.Files, inkwell.NewConsole(httpCfg, discard, uc), inkwell.NewHosted(httpCfg, discard, uc), nil, cache, fresh),
		CacheInvalidation: fresh,
		Clock:             clk, Storage: storage, Webhooks: worker,
		Mail: app.NewMailWorker(store, o.Mailer, clk, outbox, o.Mail), Outbox: outbox, Inbox: inbox,
		Trash: app.NewTrashPurger(store, o.Files, clk, app.TrashConfig{Retention: TrashRetention}),
	}
}
