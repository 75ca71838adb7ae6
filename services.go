package inkwell

import (
	"cmp"
	"log/slog"
	"strings"

	"github.com/inkwell/inkwell/adapters/console"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/webhooks"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// NewUseCases builds every use case on store. Build and the tests take the
// use cases from here, so the tests run the graph the service runs, and a
// second transport would take the same set.
func NewUseCases(store ports.Store, hasher ports.PasswordHasher, secrets ports.SecretGenerator, files ports.FileStore, clock ports.Clock, sender ports.WebhookSender, outbox *app.Outbox, accounts app.AccountsConfig, sessions app.SessionsConfig, verification app.VerificationConfig, limit app.RequestLimitConfig, idempotency app.IdempotencyConfig, events app.EventsConfig, resets app.PasswordResetConfig) ports.UseCases {
	verify := app.NewVerification(store, clock, outbox, verification)
	acc := app.NewAccounts(store, hasher, secrets, clock, accounts, verify)
	passwordResets := app.NewPasswordResets(store, hasher, secrets, clock, outbox, resets)
	uc := ports.UseCases{
		Accounts:       acc,
		Tokens:         app.NewTokens(store, secrets, clock, accounts),
		People:         app.NewPeople(store, clock),
		Products:       app.NewProducts(store, clock),
		Posts:          app.NewPosts(store, files, clock),
		Comments:       app.NewComments(store, clock),
		Tags:           app.NewTags(store, clock),
		Profile:        app.NewProfile(store, hasher, secrets, files, clock, accounts, verify),
		Sessions:       app.NewSessions(store, acc, secrets, clock, sessions),
		Verification:   verify,
		Idempotency:    app.NewIdempotency(store, clock, idempotency),
		Events:         app.NewEvents(store, clock, events),
		Webhooks:       app.NewWebhooks(store, secrets, sender, clock),
		PasswordResets: passwordResets,
		Admin:          app.NewAdmin(store, hasher, files, clock, passwordResets),
		AdminRights:    app.NewAdminRights(store),
	}
	// With the limit off a transport installs no limit at all, rather than
	// asking the store about every request for nothing.
	if limit.PerMinute > 0 {
		uc.RequestLimit = app.NewRequestLimit(store, clock, limit)
	}
	return uc
}

// NewConsole builds the admin console, the second driving adapter, from the
// HTTP settings it shares with the API (proxies, cookies, link base) and the
// use cases.
func NewConsole(cfg httpapi.Config, log *slog.Logger, uc ports.UseCases) *console.Console {
	return console.New(console.Config{
		Secure:         cfg.SecureCookies || strings.HasPrefix(strings.ToLower(cfg.AppURL), "https://"),
		TrustedProxies: cfg.TrustedProxies,
		LinkBase:       cmp.Or(cfg.FrontendURL, cfg.AppURL),
	}, log, console.Services{Admin: uc.Admin, Sessions: uc.Sessions})
}

// NewServices gives the HTTP adapter the use cases, the uploaded files it
// serves, what its probes and metrics read of the store (its ping and,
// when the store keeps them, its pool and query figures), and the admin
// console it serves under /admin on the same listener.
func NewServices(uc ports.UseCases, store ports.Store, files ports.FileStore, admin *console.Console) httpapi.Services {
	// The figures are optional: a store without pools (the memory store)
	// leaves them nil and /metrics without their series.
	pools, _ := store.(ports.PoolReporter)
	queries, _ := store.(ports.QueryCounter)
	reads, _ := store.(ports.ReadReporter)
	return httpapi.Services{
		UseCases: uc, Files: files, Pinger: store, Pools: pools, Queries: queries, Reads: reads,
		Fronts: []httpapi.Front{admin},
	}
}

// newWebhookSender sends deliveries with the body the event stream sends,
// its links below APP_URL and its files at the file store's URLs.
func newWebhookSender(cfg webhooks.Config, http httpapi.Config, files ports.FileStore) *webhooks.Sender {
	return webhooks.New(cfg, httpapi.EventBody(http.AppURL, files))
}
