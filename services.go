package inkwell

import (
	"cmp"
	"log/slog"
	"strings"

	"github.com/inkwell/inkwell/adapters/console"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/webhooks"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// UseCaseDeps is what the use cases are built from: the driven ports and
// each use case's configuration. Wire fills it field by field.
type UseCaseDeps struct {
	Store   ports.Store
	Hasher  ports.PasswordHasher
	Secrets ports.SecretGenerator
	Files   ports.FileStore
	Clock   ports.Clock
	Sender  ports.WebhookSender
	Outbox  *app.Outbox

	UseCaseConfig
}

// UseCaseConfig is each use case's configuration, the part of the
// service's Config that UseCaseDeps takes whole.
type UseCaseConfig struct {
	Accounts app.AccountsConfig
	Sessions app.SessionsConfig
	// Verification signs and checks e-mail verification links.
	Verification  app.VerificationConfig
	Limit         app.RequestLimitConfig
	Idempotency   app.IdempotencyConfig
	Events        app.EventsConfig
	PasswordReset app.PasswordResetConfig
	// Directory is area B's: whether its writes need a token.
	Directory app.DirectoryConfig
}

// NewUseCases builds every use case from d. Build and the tests take the
// use cases from here, so the tests run the graph the service runs, and a
// second transport would take the same set.
func NewUseCases(d UseCaseDeps) ports.UseCases {
	store, hasher, secrets, files, clock, outbox := d.Store, d.Hasher, d.Secrets, d.Files, d.Clock, d.Outbox
	verify := app.NewVerification(store, clock, outbox, d.Verification)
	acc := app.NewAccounts(store, hasher, secrets, clock, d.Accounts, verify)
	passwordResets := app.NewPasswordResets(store, hasher, secrets, clock, outbox, d.PasswordReset)
	rights := app.NewAdminRights(store, hasher, clock)
	uc := ports.UseCases{
		Accounts:       acc,
		Tokens:         app.NewTokens(store, secrets, clock, d.Accounts),
		People:         app.NewPeople(store, clock, d.Directory),
		Products:       app.NewProducts(store, clock, d.Directory),
		Posts:          app.NewPosts(store, files, clock),
		Comments:       app.NewComments(store, clock),
		Tags:           app.NewTags(store, clock),
		Profile:        app.NewProfile(store, hasher, secrets, files, clock, d.Accounts, verify),
		Sessions:       app.NewSessions(store, acc, secrets, clock, d.Sessions),
		Verification:   verify,
		Idempotency:    app.NewIdempotency(store, clock, d.Idempotency),
		Events:         app.NewEvents(store, clock, d.Events),
		Webhooks:       app.NewWebhooks(store, secrets, d.Sender, clock),
		PasswordResets: passwordResets,
		Admin:          app.NewAdmin(store, hasher, files, clock, passwordResets),
		AdminSetup:     app.NewAdminSetup(rights, d.Verification.Key),
	}
	// With the limit off a transport installs no limit at all, rather than
	// asking the store about every request for nothing.
	if d.Limit.PerMinute > 0 {
		uc.RequestLimit = app.NewRequestLimit(store, clock, d.Limit)
	}
	return uc
}

// NewOperator builds the operator's powers from the same dependencies as
// NewUseCases. Build hands them to the command line alone
// (Service.Operator): no driving adapter's constructor takes them.
func NewOperator(d UseCaseDeps) ports.Operator {
	return ports.Operator{
		Admins: app.NewAdminRights(d.Store, d.Hasher, d.Clock),
		Tokens: app.NewTokens(d.Store, d.Secrets, d.Clock, d.Accounts),
	}
}

// NewConsole builds the admin console, the second driving adapter, from the
// HTTP settings it shares with the API (proxies, cookies, link base) and the
// use cases.
func NewConsole(cfg httpapi.Config, log *slog.Logger, uc ports.UseCases) *console.Console {
	return console.New(console.Config{
		Secure:         cfg.SecureCookies || strings.HasPrefix(strings.ToLower(cfg.AppURL), "https://"),
		TrustedProxies: cfg.TrustedProxies,
		LinkBase:       cmp.Or(cfg.FrontendURL, cfg.AppURL),
	}, log, console.Deps{Admin: uc.Admin, Posts: uc.Posts, Comments: uc.Comments, Tokens: uc.Tokens, Tags: uc.Tags,
		People: uc.People, Products: uc.Products, Sessions: uc.Sessions, Setup: uc.AdminSetup})
}

// NewHosted builds the pages served to whoever follows a mailed link (the
// password reset form, the verification page), which the console's stack
// renders. A verification link answers browsers with a page only without
// FRONTEND_URL, whose front end the API sends them to otherwise.
func NewHosted(cfg httpapi.Config, log *slog.Logger, uc ports.UseCases) *console.Hosted {
	return console.NewHosted(console.HostedConfig{
		TrustedProxies: cfg.TrustedProxies,
		VerifiedPage:   cfg.FrontendURL == "",
	}, log, console.HostedDeps{PasswordResets: uc.PasswordResets, Verification: uc.Verification})
}

// NewHTTPDeps gives the HTTP adapter the use cases, the uploaded files it
// serves, what its probes and metrics read of the store (its ping, the
// outboxes' backlog and, when the store keeps them, its pool and query
// figures), and the admin console and the hosted pages it serves on the
// same listener, and the backup's lag when one runs (nil otherwise).
//
// With the cache of anonymous reads on, fresh is its reader of the outbox,
// which the adapter calls after each write.
func NewHTTPDeps(uc ports.UseCases, store ports.Store, files ports.FileStore, admin *console.Console, hosted *console.Hosted, backup ports.BackupReporter, cache *respcache.Cache, fresh *app.CacheInvalidation) httpapi.Deps {
	// The figures are optional: a store without pools (the memory store)
	// leaves them nil and /metrics without their series.
	pools, _ := store.(ports.PoolReporter)
	queries, _ := store.(ports.QueryCounter)
	reads, _ := store.(ports.ReadReporter)
	return httpapi.Deps{
		UseCases: uc, Files: files, Pinger: store, Pools: pools, Queries: queries, Reads: reads,
		Backlog: app.NewBacklog(store), Backup: backup,
		Sites: []httpapi.Site{admin, hosted},
		Cache: cache, Freshness: fresh,
	}
}

// newWebhookSender sends deliveries with the body the event stream sends,
// its links below APP_URL and its files at the file store's URLs.
func newWebhookSender(cfg webhooks.Config, http httpapi.Config, files ports.FileStore) *webhooks.Sender {
	return webhooks.New(cfg, httpapi.EventBody(http.AppURL, files))
}
