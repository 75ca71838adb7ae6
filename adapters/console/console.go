// Package console is the admin console: a driving adapter of its own,
// served under /admin on the service's listener. It renders html/template
// pages embedded in the binary, decodes forms, and calls the admin use
// cases (ports.Admin) and, by admin right, the owners' own use cases
// (ports.Posts, ports.Comments, ports.Tokens, and area B's ports.People
// and ports.Products), which check the caller's
// rights and write the audit log; it holds no rule. Sign-in reuses the browser sessions of the store
// (ports.Sessions) under a cookie of its own, so every replica sees a
// console session, and the transport mechanics it shares with the API
// (client address, CSRF comparison, status table) come from adapters/web.
package console

import (
	"log/slog"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/ports"
)

// Config holds the console's settings.
type Config struct {
	// Secure marks the session cookie Secure (production, or an https
	// APP_URL).
	Secure bool
	// TrustedProxies are the networks whose forwarded headers tell the
	// client address and the origin (TRUSTED_PROXIES), as for the API.
	TrustedProxies []netip.Prefix
	// LinkBase is where the password reset links the console sends lead
	// (FRONTEND_URL, else APP_URL); the request's origin when empty.
	LinkBase string
}

// Deps are the driving ports the console calls.
type Deps struct {
	// Admin is every page and the operator's own actions; each call
	// checks admin rights.
	Admin ports.Admin
	// Posts, Comments and Tokens change records as their owners do; the
	// console calls them by admin right (domain.ByAdminRight), which they
	// check and audit. Tags lists the tags a post's form offers, and
	// renames, merges and deletes them on the Tags page, checking admin
	// rights.
	Posts    ports.Posts
	Comments ports.Comments
	Tokens   ports.Tokens
	Tags     ports.Tags
	// People and Products update area B's records by admin right as the
	// API's PUT does, which they check and audit.
	People   ports.People
	Products ports.Products
	// Sessions keeps console sessions, in the store, with the API's login
	// throttle.
	Sessions ports.Sessions
	// Setup makes the first admin through the link serve logs.
	Setup ports.AdminSetup
}

// owners are the use cases of the records' owners, which the console
// calls by admin right.
type owners struct {
	posts    ports.Posts
	comments ports.Comments
	tokens   ports.Tokens
	tags     ports.Tags
	people   ports.People
	products ports.Products
}

// Console is the admin console's routes and renderer.
type Console struct {
	cfg      Config
	log      *slog.Logger
	admin    ports.Admin
	owners   owners
	sessions ports.Sessions
	setup    ports.AdminSetup
	proxies  web.Proxies
	pages    pages
}

// New builds the console. It panics when its embedded templates do not
// parse, which a test catches before any release.
func New(cfg Config, log *slog.Logger, svc Deps) *Console {
	return &Console{
		cfg: cfg, log: log, admin: svc.Admin, sessions: svc.Sessions, setup: svc.Setup,
		owners:  owners{posts: svc.Posts, comments: svc.Comments, tokens: svc.Tokens, tags: svc.Tags, people: svc.People, products: svc.Products},
		proxies: cfg.TrustedProxies, pages: mustParsePages(),
	}
}

// prefix is where the console lives.
const prefix = "/admin"

// Owns reports whether path is the console's: /admin and below, in any
// letter case, as the router matches it.
func (*Console) Owns(path string) bool {
	return under(path, prefix)
}

// under reports whether path is root or below it, in any letter case, as
// the router matches paths.
func under(path, root string) bool {
	p := strings.ToLower(path)
	return p == root || strings.HasPrefix(p, root+"/")
}

// Mount registers the console's routes on app.
func (k *Console) Mount(app *fiber.App) {
	r := app.Group(prefix, k.headers, k.checkQuery)
	r.Get("/assets/*", k.asset)
	r.Get("/login", k.loginForm)
	r.Post("/login", k.checkPost, k.login)
	r.Get("/setup", k.setupForm)
	r.Post("/setup", k.checkPost, k.setupAdmin)

	r.Get("/", k.signedIn, k.overview)
	r.Post("/logout", k.checkPost, k.signedIn, k.logout)
	r.Get("/users", k.signedIn, k.users)
	r.Get("/users.csv", k.signedIn, k.usersCSV)
	r.Get("/posts.csv", k.signedIn, k.postsCSV)
	r.Get("/users/:id", k.signedIn, k.user)
	r.Post("/users/:id/tokens/revoke", k.checkPost, k.signedIn, k.revokeUserTokens)
	r.Post("/users/:id/delete", k.checkPost, k.signedIn, k.deleteUser)
	r.Post("/users/:id/send-reset", k.checkPost, k.signedIn, k.sendReset)
	r.Post("/users/:id/verify", k.checkPost, k.signedIn, k.verifyUser)
	r.Post("/tokens/:id/revoke", k.checkPost, k.signedIn, k.revokeToken)
	r.Get("/posts", k.signedIn, k.posts)
	r.Get("/posts/:id", k.signedIn, k.post)
	r.Post("/posts/:id/edit", k.checkPost, k.signedIn, k.editPost)
	r.Post("/posts/:id/publish", k.checkPost, k.signedIn, k.publishPost)
	r.Post("/posts/:id/unpublish", k.checkPost, k.signedIn, k.unpublishPost)
	r.Post("/posts/:id/delete", k.checkPost, k.signedIn, k.deletePost)
	r.Get("/comments", k.signedIn, k.comments)
	r.Post("/comments/:id/delete", k.checkPost, k.signedIn, k.deleteComment)
	r.Get("/trash", k.signedIn, k.trash)
	r.Post("/posts/:id/restore", k.checkPost, k.signedIn, k.restorePost)
	r.Post("/posts/:id/purge", k.checkPost, k.signedIn, k.purgePost)
	r.Post("/comments/:id/restore", k.checkPost, k.signedIn, k.restoreComment)
	r.Post("/comments/:id/purge", k.checkPost, k.signedIn, k.purgeComment)
	r.Get("/tags", k.signedIn, k.tags)
	r.Post("/tags/:id/rename", k.checkPost, k.signedIn, k.renameTag)
	r.Post("/tags/:id/merge", k.checkPost, k.signedIn, k.mergeTag)
	r.Post("/tags/:id/delete", k.checkPost, k.signedIn, k.deleteTag)
	r.Get("/people", k.signedIn, k.people)
	r.Get("/people/:id", k.signedIn, k.person)
	r.Post("/people/:id/edit", k.checkPost, k.signedIn, k.editPerson)
	r.Get("/products", k.signedIn, k.products)
	r.Get("/products/:id", k.signedIn, k.product)
	r.Post("/products/:id/edit", k.checkPost, k.signedIn, k.editProduct)
	r.Get("/webhooks", k.signedIn, k.webhooks)
	r.Get("/webhooks/:id", k.signedIn, k.webhook)
	r.Post("/webhooks/:id/disable", k.checkPost, k.signedIn, k.disableWebhook)
	r.Post("/webhooks/:id/enable", k.checkPost, k.signedIn, k.enableWebhook)
	r.Post("/deliveries/:id/retry", k.checkPost, k.signedIn, k.retryDelivery)
	r.Get("/mails", k.signedIn, k.mails)
	r.Post("/mails/:id/retry", k.checkPost, k.signedIn, k.retryMail)
	r.Get("/audit", k.signedIn, k.audit)
}

// contentSecurityPolicy lets a console page load only what the binary
// serves, and no other site frame it.
const contentSecurityPolicy = "default-src 'self'; frame-ancestors 'none'"

// setHeaders puts the console's security headers on an answer.
func setHeaders(c *fiber.Ctx) {
	c.Set(fiber.HeaderContentSecurityPolicy, contentSecurityPolicy)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "same-origin")
	c.Set(fiber.HeaderCacheControl, "no-store")
}

// headers sets the security headers of every console answer before its
// handler runs, so that errors carry them too.
func (k *Console) headers(c *fiber.Ctx) error {
	setHeaders(c)
	return c.Next()
}
