// Package httpapi is the HTTP adapter: Fiber routes, middleware, request
// decoding, representations and error rendering for both areas.
package httpapi

import (
	"cmp"
	"log/slog"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/cors"
	"github.com/inkwell/inkwell/adapters/httpapi/crud"
	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Config holds the HTTP adapter's settings.
type Config struct {
	// AppURL is the public base URL for absolute links; empty means the
	// scheme and host of each request.
	AppURL string
	// TrustedProxies are the networks whose X-Forwarded-For, -Proto and
	// -Host headers are believed (TRUSTED_PROXIES); from any other peer
	// they are ignored.
	TrustedProxies []netip.Prefix
	// RequestTimeout bounds the context of every request.
	RequestTimeout time.Duration
	// BackupMaxLag is the backup lag beyond which /readyz answers 503.
	BackupMaxLag time.Duration
	// BodyLimit is the largest request body accepted, in bytes.
	BodyLimit int
	// CORS is the cross-origin policy of every path.
	CORS cors.Config
	// CrudRequireToken makes area B's writes need a bearer token
	// (CRUD_AUTH=token).
	CrudRequireToken bool
	// StatefulDomains are the hosts (host or host:port) whose browser
	// requests, told by Origin or else Referer, may authenticate with a
	// session cookie (STATEFUL_DOMAINS). Empty means the default:
	// SanctumStatefulDomains with the hosts of AppURL and FrontendURL.
	// Without AppURL, the host a request is sent to counts as well.
	StatefulDomains []string
	// BenchEndpoints adds GET /bench/ceiling, which answers a fixed 1 KiB
	// JSON body, so that a benchmark can measure what the HTTP stack and
	// the middleware alone can serve (BENCH_ENDPOINTS). It is off by default
	// and not in the OpenAPI document: it is no part of the API.
	BenchEndpoints bool
	// EventsHeartbeat is how often an idle event stream sends a comment
	// line (EVENTS_HEARTBEAT); 15 seconds when zero.
	EventsHeartbeat time.Duration
	// FrontendURL is the base of the links mailed to people, such as the
	// password reset's (FRONTEND_URL); AppURL or the request's base when
	// empty. When set, a verified link also redirects to
	// {FRONTEND_URL}/dashboard?verified=1, Breeze's page, instead of
	// answering JSON, and the front end's origin is allowed by CORS and
	// stateful by default.
	FrontendURL string
	// RememberLifetime is how long a remember-me cookie lives
	// (REMEMBER_LIFETIME); 400 days when zero.
	RememberLifetime time.Duration
	// SecureCookies marks the remember-me cookie Secure (production).
	SecureCookies bool
}

// Deps are what the adapter is built from: the driving ports the routes
// call, and what the probes and metrics read of the store.
type Deps struct {
	ports.UseCases
	// Files are the uploaded files, served under /storage/; when they also
	// have public URLs (ports.PublicFiles), representations link there.
	Files ports.FileStore
	// Pinger answers /readyz's check of the store.
	Pinger ports.Pinger
	// Pools and Queries are the store's figures that /metrics exports; each
	// may be nil for a store without them.
	Pools   ports.PoolReporter
	Queries ports.QueryCounter
	// Reads are where the store's reads went and how far its standby lags;
	// nil for a store without standbys.
	Reads ports.ReadReporter
	// Backlog counts the pending mails and webhook deliveries; nil leaves
	// their series out.
	Backlog ports.BacklogReporter
	// Backup reports the continuous backup's lag, which /readyz compares
	// with Config.BackupMaxLag and /metrics exports; nil without a backup.
	Backup ports.BackupReporter
	// Sites are the other driving adapters this listener serves under
	// their own paths (the admin console).
	Sites []Site
	// Cache keeps the answers of anonymous reads (nil: off), and
	// Freshness evicts from it what a write of this replica changed before
	// the write is answered (nil: nothing to evict).
	Cache     *respcache.Cache
	Freshness ports.CacheFreshness
}

// Server is Inkwell's HTTP adapter: both areas on one Fiber app.
type Server struct {
	cfg          Config
	log          *slog.Logger
	accounts     ports.Accounts
	tokens       ports.Tokens
	posts        ports.Posts
	comments     ports.Comments
	tags         ports.Tags
	pinger       ports.Pinger
	backup       ports.BackupReporter
	profile      ports.Profile
	verification ports.Verification
	resets       ports.PasswordResets
	sessions     ports.Sessions
	files        ports.FileStore
	public       ports.PublicFiles
	events       ports.Events
	webhooks     ports.Webhooks
	auth         *authenticator
	proxies      web.Proxies
	app          *fiber.App
	metrics      *metrics
	labels       *routeLabels
	// hub holds the event streams once their connections left fasthttp;
	// rendered is the messages they send; openStreams counts them.
	hub         *hub
	rendered    *renderCache
	openStreams atomic.Int64
	// sites are the other driving adapters served here (see Site).
	sites []Site
	// cache keeps anonymous answers; cached is the handler of the routes
	// it serves; fresh evicts after this replica's writes.
	cache  *respcache.Cache
	cached fiber.Handler
	fresh  ports.CacheFreshness
}

// New builds the Fiber app with every route of both areas.
func New(cfg Config, log *slog.Logger, deps Deps) *Server {
	s := &Server{
		cfg: cfg, log: log, accounts: deps.Accounts, tokens: deps.Tokens,
		posts: deps.Posts, comments: deps.Comments, tags: deps.Tags, pinger: deps.Pinger,
		profile: deps.Profile, sessions: deps.Sessions, files: deps.Files,
		verification: deps.Verification,
		auth:         newAuthenticator(deps.Accounts, deps.Sessions, statefulDomains(cfg), newCookieJar(cfg)),
		proxies:      cfg.TrustedProxies,
		events:       deps.Events, webhooks: deps.Webhooks,
		resets: deps.PasswordResets, sites: deps.Sites, backup: deps.Backup,
		cache: deps.Cache, fresh: deps.Freshness,
	}
	s.cached = s.cache.Handler(s.baseURL)
	s.metrics = newMetrics(deps.Pools, deps.Queries, deps.Reads, deps.Backlog, &s.openStreams)
	if deps.Backup != nil {
		s.metrics.registry.MustRegister(backupCollector{deps.Backup})
	}
	if s.cache.Enabled() {
		s.metrics.registerCache(s.cache.Stats)
	}
	s.public, _ = deps.Files.(ports.PublicFiles)
	if cfg.AppURL == "" {
		s.auth.ownOrigin = s.proxies.Origin
	}
	// The front end's pages call the API from their own origin, with
	// credentials, as Breeze's CORS configuration allows them.
	if origin := originOf(cfg.FrontendURL); origin != "" {
		cfg.CORS.AllowedOrigins = append(slices.Clone(cfg.CORS.AllowedOrigins), origin)
	}
	s.cfg.EventsHeartbeat = cmp.Or(cfg.EventsHeartbeat, defaultHeartbeat)
	s.rendered = newRenderCache()
	s.hub = newHub(s.rendered, s.cfg.EventsHeartbeat, &s.openStreams)
	s.app = fiber.New(fiber.Config{
		// Immutable keeps values taken from the request valid after the
		// handler returns; fasthttp otherwise reuses their memory.
		Immutable:             true,
		BodyLimit:             cfg.BodyLimit,
		DisableStartupMessage: true,
		ErrorHandler:          s.handleRejected,
		ReadTimeout:           30 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           120 * time.Second,

		// Multipart bodies are parsed by the handlers that take them, so
		// that a broken one is answered in the route's own terms and other
		// routes never spend time on one.
		DisablePreParseMultipartForm: true,

		// The service reads forwarded headers through s.proxies alone; this
		// makes Fiber's own Protocol, Hostname and IP, should anything call
		// them, believe the same proxies and nobody else.
		EnableTrustedProxyCheck: true,
		TrustedProxies:          web.ProxyList(cfg.TrustedProxies),
	})
	// An event stream's connection leaves fasthttp once its headers are
	// due (streamEvents): fasthttp must leave it open when the hijack
	// handler returns, as the hub writes to it from then on.
	s.app.Server().KeepHijackedConns = true
	s.guardProtocol()
	s.labels = &routeLabels{app: s.app}
	s.app.Use(withRequestID)
	// observe comes before recover so that a panic is logged and counted
	// as the 500 it becomes.
	s.app.Use(s.observe)
	s.app.Use(recover.New())
	// CORS comes before any route so that preflights are answered by it.
	// The sites' paths, the admin console's, allow no cross-origin use
	// (DESIGN §5).
	s.app.Use(s.exceptSites(cors.New(cfg.CORS)))
	s.app.Use(refuseUnservablePaths)
	s.app.Use(withDeadline(cfg.RequestTimeout))
	if s.cache.Enabled() && s.fresh != nil {
		s.app.Use(s.evictAfterWrites)
	}
	// The rate limit is the last global middleware: its refusals are
	// answered by the route the request matches (see deferRefusal).
	if deps.RequestLimit != nil {
		s.app.Use(limitRequests(deps.RequestLimit, s.auth, s.proxies))
	}
	s.operations()
	for _, f := range s.sites {
		f.Mount(s.app)
	}
	if cfg.BenchEndpoints {
		s.app.Get("/bench/ceiling", benchCeiling)
	}
	s.routes()
	s.docs()
	crud.Mount(s.app, crud.Deps{
		People:       deps.People,
		Products:     deps.Products,
		Authenticate: deps.Accounts.Authenticate,
		RequireToken: cfg.CrudRequireToken,
		BaseURL:      s.baseURL,
		Cached:       s.cached,
	})
	// Once every route is known, each gets what must run once the router
	// found it: the rate limit's refusal and, on POST, Idempotency-Key.
	fault := func(c *fiber.Ctx, err error) { logFault(c, s.log, err) }
	// A site's forms are no API call: they take no Idempotency-Key.
	atRoutes(s.app, func(h fiber.Handler) fiber.Handler {
		keyed := idempotent(deps.Idempotency, s.auth, s.proxies, fault, s.handleError, h)
		return func(c *fiber.Ctx) error {
			if _, ok := s.siteOf(c.Path()); ok {
				return h(c)
			}
			return keyed(c)
		}
	})
	return s
}

// App returns the Fiber app, to test with app.Test and to shut down;
// Serve serves it.
func (s *Server) App() *fiber.App { return s.app }

// Shutdown ends the event streams, stops accepting connections and waits
// up to timeout for the requests in flight. The streams come first: their
// connections left fasthttp, whose shutdown would not see them, and each
// ends with the last chunk of its body, after which its client resumes
// elsewhere with Last-Event-ID.
func (s *Server) Shutdown(timeout time.Duration) error {
	start := time.Now()
	s.hub.drain(timeout)
	return s.app.ShutdownWithTimeout(max(timeout-time.Since(start), 0))
}

func (s *Server) routes() {
	v1 := s.app.Group("/api/v1")
	v1.Post("/register", s.register)
	v1.Post("/login", s.login)
	v1.Post("/forgot-password", s.forgotPassword)
	v1.Post("/reset-password", s.resetPassword)

	auth := requireAuth(s.auth)
	// Every write names the write it is (domain.Write), whose abilities
	// the route checks before the body is read: allow, or, for version 1's
	// post creation and the revocation of a token, which may be the
	// presented one's logout, the handler and the use case.
	profile := allow(domain.WriteProfile)
	v1.Post("/logout", auth, s.logout)
	v1.Get("/user", auth, conditional.Tag, s.me)
	v1.Put("/user", auth, profile, conditional.Tag, s.updateProfile)
	v1.Post("/user/avatar", auth, profile, s.updateAvatar)
	v1.Delete("/user", auth, profile, s.deleteAccount)
	v1.Get("/tokens", auth, s.listTokens)
	v1.Post("/tokens", auth, allow(domain.WriteTokens), s.createToken)
	v1.Delete("/tokens/:id", auth, s.deleteToken)
	v1.Get("/verify-email/:id/:hash", s.verifyEmail)
	v1.Post("/email/verification-notification", auth, profile, s.sendVerification)

	optional := optionalAuth(s.auth)
	posts := allow(domain.WritePosts)
	// The anonymous reads are cached (respcache): the cache comes first,
	// so that a request with a credential never reaches a kept answer.
	v1.Get("/posts", s.cached, optional, s.listPosts)
	v1.Get("/posts/:post", s.cached, optional, conditional.Tag, s.showPost)
	v1.Post("/posts", auth, s.createPost)
	v1.Put("/posts/:post", auth, posts, conditional.Tag, s.updatePost)
	v1.Delete("/posts/:post", auth, posts, s.deletePost)
	v1.Post("/posts/:post/restore", auth, posts, s.restorePost)
	v1.Get("/tags", s.cached, optional, s.listTags)
	v1.Post("/tags", auth, allow(domain.WriteTags), s.createTag)
	v1.Put("/tags/:tag", auth, allow(domain.WriteTags), s.renameTag)
	v1.Delete("/tags/:tag", auth, allow(domain.WriteTags), s.deleteTag)
	s.serveStorage()

	comments := allow(domain.WriteComments)
	v1.Get("/posts/:post/comments", auth, s.listComments)
	v1.Post("/posts/:post/comments", auth, comments, s.createComment)
	v1.Get("/comments/:comment", auth, conditional.Tag, s.showComment)
	v1.Put("/comments/:comment", auth, comments, conditional.Tag, s.updateComment)
	v1.Patch("/comments/:comment", auth, comments, conditional.Tag, s.updateComment)
	v1.Delete("/comments/:comment", auth, comments, s.deleteComment)
	v1.Post("/comments/:comment/restore", auth, comments, s.restoreComment)

	webhooks := allow(domain.WriteWebhooks)
	v1.Get("/events", s.streamEvents)
	v1.Get("/webhooks", auth, s.listWebhooks)
	v1.Post("/webhooks", auth, webhooks, s.createWebhook)
	v1.Get("/webhooks/:webhook", auth, s.showWebhook)
	v1.Put("/webhooks/:webhook", auth, webhooks, s.replaceWebhook)
	v1.Delete("/webhooks/:webhook", auth, webhooks, s.deleteWebhook)
	v1.Get("/webhooks/:webhook/deliveries", auth, s.listDeliveries)
	v1.Post("/webhooks/:webhook/deliveries/:delivery/retry", auth, webhooks, s.retryDelivery)

	// Version 2 guards each route rather than the group: a group middleware
	// would also run for area B's /api/v2/users.
	v2 := s.app.Group("/api/v2")
	read, write := gateReads, allow(domain.WritePosts)
	v2.Get("/posts", auth, read, s.listPostsV2)
	v2.Post("/posts", auth, write, s.createPostV2)
	v2.Get("/posts/:post", auth, read, conditional.Tag, s.showPostV2)
	v2.Put("/posts/:post", auth, write, conditional.Tag, s.updatePostV2)
	v2.Patch("/posts/:post", auth, write, conditional.Tag, s.updatePostV2)
	v2.Delete("/posts/:post", auth, write, s.deletePostV2)
	v2.Post("/posts/:post/restore", auth, write, s.restorePostV2)

	// Browser sessions live outside /api, where Sanctum puts them, but
	// answer in area A's shape.
	s.app.Get("/sanctum/csrf-cookie", s.csrfCookie)
	s.app.Post("/login", s.sessionLogin)
	s.app.Post("/logout", s.sessionLogout)
	s.breezeRoutes()
}

// originOf is the origin (scheme://host[:port]) of an absolute URL, or ""
// for anything else.
func originOf(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// ceilingBody is the answer of /bench/ceiling: 1 KiB of JSON, made once, so
// that the route costs no encoding and measures the HTTP stack alone.
var ceilingBody = func() []byte {
	const size = 1024
	head, tail := `{"message":"A fixed answer for benchmarks.","padding":"`, `"}`
	return []byte(head + strings.Repeat("x", size-len(head)-len(tail)) + tail)
}()

// benchCeiling answers ceilingBody. The slice is shared by every response,
// which only reads it.
func benchCeiling(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(ceilingBody)
}

// handleError renders every error that reaches Fiber in the shape of the
// area the path belongs to.
func (s *Server) handleError(c *fiber.Ctx, err error) error {
	err = rootMethodError(c, err)
	if f, ok := s.siteOf(c.Path()); ok {
		if rerr := f.RenderError(c, err); rerr != nil {
			return rerr
		}
		if isFault(c.Response().StatusCode()) {
			logFault(c, s.log, err)
		}
		return nil
	}
	if !crud.Owns(c.Path()) {
		return renderError(c, s.log, err)
	}
	if rerr := crud.RenderError(c, err); rerr != nil {
		return rerr
	}
	if isFault(c.Response().StatusCode()) {
		logFault(c, s.log, err)
	}
	return nil
}
