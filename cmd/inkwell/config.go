package main

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net"
	netmail "net/mail"
	"net/netip"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
	"golang.org/x/crypto/bcrypt"

	"github.com/inkwell/inkwell"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/httpapi/cors"
	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/adapters/webhooks"
	"github.com/inkwell/inkwell/app"
)

// environment is every setting the service reads, documented one by one in
// .env.example. It is parsed once, here, and handed to the components as
// their own config structs.
type environment struct {
	Port                   int           `env:"PORT" envDefault:"3000"`
	Host                   string        `env:"HOST"`
	DatabaseURL            string        `env:"DATABASE_URL"`
	SQLiteSynchronous      string        `env:"SQLITE_SYNCHRONOUS" envDefault:"full"`
	AppEnv                 string        `env:"APP_ENV" envDefault:"development"`
	AppURL                 string        `env:"APP_URL"`
	AppKey                 string        `env:"APP_KEY"`
	TrustedProxies         []string      `env:"TRUSTED_PROXIES" envSeparator:","`
	CORSAllowedOrigins     []string      `env:"CORS_ALLOWED_ORIGINS" envSeparator:","`
	CORSAllowedHeaders     []string      `env:"CORS_ALLOWED_HEADERS" envSeparator:","`
	CORSExposedHeaders     []string      `env:"CORS_EXPOSED_HEADERS" envSeparator:","`
	CrudAuth               string        `env:"CRUD_AUTH" envDefault:"open"`
	TokenExpirationMinutes int           `env:"TOKEN_EXPIRATION_MINUTES" envDefault:"10080"`
	BcryptCost             int           `env:"BCRYPT_COST" envDefault:"12"`
	StorageDir             string        `env:"STORAGE_DIR" envDefault:"./data/storage"`
	LoginMaxAttempts       int           `env:"LOGIN_MAX_ATTEMPTS" envDefault:"5"`
	RateLimitPerMinute     int           `env:"RATE_LIMIT_PER_MINUTE" envDefault:"0"`
	SessionLifetimeMinutes int           `env:"SESSION_LIFETIME_MINUTES" envDefault:"120"`
	StatefulDomains        []string      `env:"STATEFUL_DOMAINS" envSeparator:","`
	RequestTimeout         time.Duration `env:"REQUEST_TIMEOUT" envDefault:"10s"`
	BodyLimitBytes         int           `env:"BODY_LIMIT_BYTES" envDefault:"8388608"`
	LogLevel               string        `env:"LOG_LEVEL" envDefault:"info"`
	LogFormat              string        `env:"LOG_FORMAT"`
	PprofAddr              string        `env:"PPROF_ADDR"`
	BenchEndpoints         bool          `env:"BENCH_ENDPOINTS"`
	ScaleOut
	Mail
	Backup

	// Events: the outbox's retention, the streams' heartbeat, and whether
	// webhooks may call non-public addresses.
	EventsRetention      time.Duration `env:"EVENTS_RETENTION" envDefault:"168h"`
	EventsHeartbeat      time.Duration `env:"EVENTS_HEARTBEAT" envDefault:"15s"`
	WebhooksAllowPrivate bool          `env:"WEBHOOKS_ALLOW_PRIVATE"`

	// The cache of anonymous reads: its memory bound (0 turns it off), the
	// time to live of an answer, and where purges of a shared cache go.
	HTTPCacheMaxBytes int64         `env:"HTTP_CACHE_MAX_BYTES" envDefault:"67108864"`
	HTTPCacheTTL      time.Duration `env:"HTTP_CACHE_TTL" envDefault:"60s"`
	HTTPCachePurgeURL string        `env:"HTTP_CACHE_PURGE_URL"`

	// TrashRetention is how long deleted posts and comments stay in the
	// trash, restorable, before every replica's worker purges them.
	TrashRetention time.Duration `env:"TRASH_RETENTION" envDefault:"720h"`

	// The caps of the event streams open at once on one replica, per
	// token (or browser session) and per client address; 0: no cap.
	EventsMaxStreamsPerToken   int `env:"EVENTS_MAX_STREAMS_PER_TOKEN" envDefault:"10"`
	EventsMaxStreamsPerAddress int `env:"EVENTS_MAX_STREAMS_PER_ADDRESS" envDefault:"50"`

	// Accounts: verification links, the front end they lead to, and
	// remember-me cookies.
	VerificationExpire   int  `env:"VERIFICATION_EXPIRE" envDefault:"60"`
	RequireVerifiedEmail bool `env:"REQUIRE_VERIFIED_EMAIL"`
	RememberLifetime     int  `env:"REMEMBER_LIFETIME" envDefault:"576000"`

	// appKey is APP_KEY decoded, or in development the key run found or
	// made in appKeyFile; appKeyFrom says which, for the start log.
	appKey     []byte
	appKeyFrom string
	// file is the .env file the settings were read with.
	file settingsFile
	// replicate is set by serve, the one command that sends the store's
	// changes to the backup.
	replicate bool
}

// ScaleOut is what replicas sharing one database need: a direct connection
// beside a pooler's, and files every replica reads (Laravel's s3 disk keys).
type ScaleOut struct {
	DatabaseDirectURL string `env:"DATABASE_DIRECT_URL"`
	FilesystemDisk    string `env:"FILESYSTEM_DISK" envDefault:"local"`
	AWSAccessKeyID    string `env:"AWS_ACCESS_KEY_ID"`
	AWSSecretKey      string `env:"AWS_SECRET_ACCESS_KEY"`
	AWSRegion         string `env:"AWS_DEFAULT_REGION"`
	AWSBucket         string `env:"AWS_BUCKET"`
	AWSEndpoint       string `env:"AWS_ENDPOINT"`
	AWSPathStyle      bool   `env:"AWS_USE_PATH_STYLE_ENDPOINT"`
	AWSURL            string `env:"AWS_URL"`

	// DatabaseReadURL is a hot standby (or a pooler or balancer in front of
	// several) for anonymous reads, skipped while it lags more than
	// DatabaseReadMaxLag.
	DatabaseReadURL    string        `env:"DATABASE_READ_URL"`
	DatabaseReadMaxLag time.Duration `env:"DATABASE_READ_MAX_LAG" envDefault:"2s"`
}

// check names the first bad scale-out key.
func (o ScaleOut) check(databaseURL string) error {
	switch {
	case o.DatabaseDirectURL != "" && !strings.HasPrefix(o.DatabaseDirectURL, "postgres://") && !strings.HasPrefix(o.DatabaseDirectURL, "postgresql://"):
		return fmt.Errorf("DATABASE_DIRECT_URL: want postgres://… or postgresql://…")
	case o.DatabaseDirectURL != "" && !strings.HasPrefix(databaseURL, "postgres"):
		return fmt.Errorf("DATABASE_DIRECT_URL: set, but DATABASE_URL is not a PostgreSQL URL")
	case o.DatabaseReadURL != "" && !strings.HasPrefix(o.DatabaseReadURL, "postgres://") && !strings.HasPrefix(o.DatabaseReadURL, "postgresql://"):
		return fmt.Errorf("DATABASE_READ_URL: want postgres://… or postgresql://…")
	case o.DatabaseReadURL != "" && !strings.HasPrefix(databaseURL, "postgres"):
		return fmt.Errorf("DATABASE_READ_URL: set, but DATABASE_URL is not a PostgreSQL URL")
	case o.DatabaseReadMaxLag <= 0:
		return fmt.Errorf("DATABASE_READ_MAX_LAG: %s must be positive", o.DatabaseReadMaxLag)
	case o.FilesystemDisk != "local" && o.FilesystemDisk != "s3":
		return fmt.Errorf("FILESYSTEM_DISK: %q is neither local nor s3", o.FilesystemDisk)
	case o.FilesystemDisk == "s3" && o.AWSBucket == "":
		return fmt.Errorf("AWS_BUCKET: required with FILESYSTEM_DISK=s3")
	case o.FilesystemDisk == "s3" && o.AWSRegion == "":
		return fmt.Errorf("AWS_DEFAULT_REGION: required with FILESYSTEM_DISK=s3")
	case o.FilesystemDisk == "s3" && (o.AWSAccessKeyID == "" || o.AWSSecretKey == ""):
		return fmt.Errorf("AWS_ACCESS_KEY_ID: required, with AWS_SECRET_ACCESS_KEY, when FILESYSTEM_DISK=s3")
	}
	for key, u := range map[string]string{"AWS_ENDPOINT": o.AWSEndpoint, "AWS_URL": o.AWSURL} {
		if p, err := url.Parse(u); u != "" && (err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "") {
			return fmt.Errorf("%s: %q is not an absolute http(s) URL", key, u)
		}
	}
	return nil
}

// files is the file store's configuration.
func (o ScaleOut) files(storageDir string) inkwell.FilesConfig {
	return inkwell.FilesConfig{
		Disk:  o.FilesystemDisk,
		Local: localfs.Config{Dir: storageDir},
		S3: s3files.Config{
			AccessKeyID: o.AWSAccessKeyID, SecretAccessKey: o.AWSSecretKey, Region: o.AWSRegion,
			Bucket: o.AWSBucket, Endpoint: o.AWSEndpoint, UsePathStyle: o.AWSPathStyle, URL: o.AWSURL,
		},
	}
}

// sqliteSynchronous maps SQLITE_SYNCHRONOUS's values to the SQLite store's.
var sqliteSynchronous = map[string]sqlite.Synchronous{
	"full":   sqlite.SynchronousFull,
	"normal": sqlite.SynchronousNormal,
}

// loadConfig reads the environment, with the .env file readSettingsFile
// finds, and checks every value, returning one error that names the
// offending key or file.
func loadConfig() (environment, error) {
	file, err := readSettingsFile()
	if err != nil {
		return environment{}, err
	}
	environ := file.environ()
	e, err := env.ParseAsWithOptions[environment](env.Options{Environment: environ})
	if err != nil {
		var agg env.AggregateError
		if errors.As(err, &agg) && len(agg.Errors) > 0 {
			err = agg.Errors[0]
		}
		var pe env.ParseError
		if errors.As(err, &pe) {
			// The library names the Go field; operators know the variable.
			f, _ := reflect.TypeFor[environment]().FieldByName(pe.Name)
			key := f.Tag.Get("env")
			return environment{}, parseError(key, environ[key], pe)
		}
		return environment{}, err
	}
	if err := e.check(); err != nil {
		return environment{}, err
	}
	e.file = file
	return e, nil
}

// parseError says why the value of key could not be read as its type, and
// what the key wants instead.
func parseError(key, value string, pe env.ParseError) error {
	switch kind := pe.Type.Kind(); {
	case pe.Type == reflect.TypeFor[time.Duration]():
		if _, err := strconv.ParseFloat(value, 64); err == nil {
			return fmt.Errorf("%s: %q is not a duration; add a unit, e.g. %ss", key, value, value)
		}
		return fmt.Errorf("%s: %q is not a duration; write a number and a unit, e.g. 10s, 500ms or 2m", key, value)
	case kind >= reflect.Int && kind <= reflect.Uint64:
		if errors.Is(pe.Err, strconv.ErrRange) {
			return fmt.Errorf("%s: %s is out of range", key, value)
		}
		return fmt.Errorf("%s: %q is not a whole number", key, value)
	case kind == reflect.Bool:
		return fmt.Errorf("%s: %q is neither true nor false", key, value)
	}
	return fmt.Errorf("%s: %q is not a valid %s", key, value, pe.Type)
}

func (e environment) check() error {
	switch {
	case e.Port < 1 || e.Port > 65535:
		return fmt.Errorf("PORT: %d is not a port number (1-65535)", e.Port)
	case e.AppEnv != "development" && e.AppEnv != "production":
		return fmt.Errorf("APP_ENV: %q is neither development nor production", e.AppEnv)
	case e.CrudAuth != "open" && e.CrudAuth != "token":
		return fmt.Errorf("CRUD_AUTH: %q is neither open nor token", e.CrudAuth)
	case e.TokenExpirationMinutes < 0:
		return fmt.Errorf("TOKEN_EXPIRATION_MINUTES: %d is negative (0 means tokens never expire)", e.TokenExpirationMinutes)
	case e.BcryptCost < bcrypt.MinCost || e.BcryptCost > bcrypt.MaxCost:
		return fmt.Errorf("BCRYPT_COST: %d is outside %d-%d", e.BcryptCost, bcrypt.MinCost, bcrypt.MaxCost)
	case e.LoginMaxAttempts < 0:
		return fmt.Errorf("LOGIN_MAX_ATTEMPTS: %d is negative (0 turns the limit off)", e.LoginMaxAttempts)
	case e.RateLimitPerMinute < 0:
		return fmt.Errorf("RATE_LIMIT_PER_MINUTE: %d is negative (0 turns the limit off)", e.RateLimitPerMinute)
	case e.SessionLifetimeMinutes <= 0:
		return fmt.Errorf("SESSION_LIFETIME_MINUTES: %d must be positive", e.SessionLifetimeMinutes)
	case e.RequestTimeout <= 0:
		return fmt.Errorf("REQUEST_TIMEOUT: %s must be positive", e.RequestTimeout)
	case e.BodyLimitBytes <= 0:
		return fmt.Errorf("BODY_LIMIT_BYTES: %d must be positive", e.BodyLimitBytes)
	case e.EventsRetention <= 0:
		return fmt.Errorf("EVENTS_RETENTION: %s must be positive", e.EventsRetention)
	case e.TrashRetention <= 0:
		return fmt.Errorf("TRASH_RETENTION: %s must be positive", e.TrashRetention)
	case e.EventsHeartbeat <= 0:
		return fmt.Errorf("EVENTS_HEARTBEAT: %s must be positive", e.EventsHeartbeat)
	case e.HTTPCacheMaxBytes < 0:
		return fmt.Errorf("HTTP_CACHE_MAX_BYTES: %d is negative (0 turns the cache off)", e.HTTPCacheMaxBytes)
	case e.HTTPCacheTTL < time.Second:
		return fmt.Errorf("HTTP_CACHE_TTL: %s must be at least 1s", e.HTTPCacheTTL)
	case e.HTTPCachePurgeURL != "" && !validPurgeURL(e.HTTPCachePurgeURL):
		return fmt.Errorf("HTTP_CACHE_PURGE_URL: %q is not an http:// or https:// URL", e.HTTPCachePurgeURL)
	case e.EventsMaxStreamsPerToken < 0:
		return fmt.Errorf("EVENTS_MAX_STREAMS_PER_TOKEN: %d is negative (0 turns the cap off)", e.EventsMaxStreamsPerToken)
	case e.EventsMaxStreamsPerAddress < 0:
		return fmt.Errorf("EVENTS_MAX_STREAMS_PER_ADDRESS: %d is negative (0 turns the cap off)", e.EventsMaxStreamsPerAddress)
	case e.LogFormat != "" && e.LogFormat != "text" && e.LogFormat != "json":
		return fmt.Errorf("LOG_FORMAT: %q is neither text nor json", e.LogFormat)
	case e.VerificationExpire <= 0:
		return fmt.Errorf("VERIFICATION_EXPIRE: %d must be a positive number of minutes", e.VerificationExpire)
	case e.RememberLifetime <= 0:
		return fmt.Errorf("REMEMBER_LIFETIME: %d must be a positive number of minutes", e.RememberLifetime)
	case e.AppKey == "" && e.AppEnv == "production":
		return errors.New("APP_KEY: required in production; make one with inkwell key generate")
	case e.AppEnv == "production" && slices.ContainsFunc(e.CORSAllowedOrigins, func(o string) bool { return strings.TrimSpace(o) == "*" }):
		return errors.New("CORS_ALLOWED_ORIGINS: * in production would let every site call the API with its visitors' cookies; list the front ends' origins")
	}
	if e.AppKey != "" {
		if _, err := parseAppKey(e.AppKey); err != nil {
			return fmt.Errorf("APP_KEY: the value %v; make one with inkwell key generate", err)
		}
	}
	if _, ok := sqliteSynchronous[e.SQLiteSynchronous]; !ok {
		return fmt.Errorf("SQLITE_SYNCHRONOUS: %q is neither full nor normal", e.SQLiteSynchronous)
	}
	if e.Host != "" {
		if _, err := parseHost(e.Host); err != nil {
			return fmt.Errorf("HOST: %q is not an IP address; write one such as 127.0.0.1, ::1 or 0.0.0.0, or leave HOST empty", e.Host)
		}
	}
	if _, err := e.logLevel(); err != nil {
		return err
	}
	if _, err := e.trustedProxies(); err != nil {
		return err
	}
	if e.PprofAddr != "" {
		if _, port, err := net.SplitHostPort(e.PprofAddr); err != nil || port == "" {
			return fmt.Errorf("PPROF_ADDR: %q is not a host:port address such as 127.0.0.1:6060", e.PprofAddr)
		}
	}
	for key, v := range map[string]string{"APP_URL": e.AppURL} {
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s: %q is not an absolute http(s) URL", key, v)
		}
	}
	if e.DatabaseURL != "" && !strings.HasPrefix(e.DatabaseURL, "postgres://") &&
		!strings.HasPrefix(e.DatabaseURL, "postgresql://") && !strings.HasPrefix(e.DatabaseURL, "sqlite://") {
		return fmt.Errorf("DATABASE_URL: want postgres://…, postgresql://… or sqlite://…")
	}
	if err := e.Mail.check(); err != nil {
		return err
	}
	if err := e.ScaleOut.check(e.DatabaseURL); err != nil {
		return err
	}
	return e.Backup.check(e.DatabaseURL, e.ScaleOut)
}

func (e environment) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(e.LogLevel)); err != nil {
		return 0, fmt.Errorf("LOG_LEVEL: %q is not one of debug, info, warn, error", e.LogLevel)
	}
	return l, nil
}

// trustedProxies parses TRUSTED_PROXIES: networks in CIDR notation, or
// single addresses, which stand for themselves alone.
func (e environment) trustedProxies() ([]netip.Prefix, error) {
	var networks []netip.Prefix
	for _, s := range e.TrustedProxies {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		n, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("TRUSTED_PROXIES: %q is neither a network such as 10.0.0.0/8 nor an IP address", s)
			}
			n = netip.PrefixFrom(a, a.BitLen())
		}
		networks = append(networks, n.Masked())
	}
	return networks, nil
}

// logger builds the process logger: text in development, JSON in production,
// unless LOG_FORMAT says otherwise.
func (e environment) logger() *slog.Logger {
	level, _ := e.logLevel()
	return e.loggerAt(level)
}

// startLogger is the logger of the lines that say what a command works on
// and where serve listens: at info level even when LOG_LEVEL is higher, as
// an operator who quiets the log still needs them.
func (e environment) startLogger() *slog.Logger {
	level, _ := e.logLevel()
	return e.loggerAt(min(level, slog.LevelInfo))
}

func (e environment) loggerAt(level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	format := e.LogFormat
	if format == "" {
		format = map[string]string{"development": "text", "production": "json"}[e.AppEnv]
	}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// service turns the environment into the components' configuration.
func (e environment) service() inkwell.Config {
	proxies, _ := e.trustedProxies()
	return inkwell.Config{
		Store: inkwell.StoreConfig{
			URL:               e.DatabaseURL,
			DirectURL:         e.DatabaseDirectURL,
			ReadURL:           e.DatabaseReadURL,
			ReadMaxLag:        e.DatabaseReadMaxLag,
			SQLiteSynchronous: sqliteSynchronous[e.SQLiteSynchronous],
		},
		HTTP: httpapi.Config{
			AppURL:         e.AppURL,
			TrustedProxies: proxies,
			RequestTimeout: e.RequestTimeout,
			BodyLimit:      e.BodyLimitBytes,
			CORS: cors.Config{
				AllowedOrigins: e.CORSAllowedOrigins,
				AllowAnyOrigin: e.AppEnv == "development",
				AllowedHeaders: e.CORSAllowedHeaders,
				ExposedHeaders: e.CORSExposedHeaders,
			},
			CrudRequireToken: e.CrudAuth == "token",
			StatefulDomains:  e.StatefulDomains,
			BenchEndpoints:   e.BenchEndpoints,
			EventsHeartbeat:  e.EventsHeartbeat,
			FrontendURL:      e.FrontendURL,
			RememberLifetime: time.Duration(e.RememberLifetime) * time.Minute,
			SecureCookies:    e.AppEnv == "production",
			BackupMaxLag:     e.BackupMaxLag,
		},
		UseCaseConfig: inkwell.UseCaseConfig{
			Accounts: app.AccountsConfig{
				TokenLifetime:        time.Duration(e.TokenExpirationMinutes) * time.Minute,
				LoginMaxAttempts:     e.LoginMaxAttempts,
				RequireVerifiedEmail: e.RequireVerifiedEmail,
			},
			Verification: app.VerificationConfig{
				Key:    e.appKey,
				Expire: time.Duration(e.VerificationExpire) * time.Minute,
			},
			Sessions: app.SessionsConfig{
				Lifetime: time.Duration(e.SessionLifetimeMinutes) * time.Minute,
				Key:      e.appKey,
			},
			Limit: app.RequestLimitConfig{PerMinute: e.RateLimitPerMinute},
			// CRUD_AUTH gates area B's writes in the use cases, and HTTP checks
			// the same gate before reading a body.
			Directory: app.DirectoryConfig{RequireToken: e.CrudAuth == "token"},
			// A request runs no longer than its timeout, so a claim older than
			// that belongs to a request that died; answers are replayed for a
			// day, as the Idempotency-Key draft suggests.
			Idempotency: app.IdempotencyConfig{Lease: e.RequestTimeout, Retention: 24 * time.Hour},
			Events:      e.events(),
			PasswordReset: app.PasswordResetConfig{
				Lifetime: time.Duration(e.PasswordResetExpire) * time.Minute,
				Throttle: time.Duration(e.PasswordResetThrottle) * time.Second,
			},
		},
		Cache: inkwell.CacheConfig{
			CacheConfig: httpapi.CacheConfig{MaxBytes: e.HTTPCacheMaxBytes, TTL: e.HTTPCacheTTL},
			PurgeURL:    e.HTTPCachePurgeURL,
		},
		Trash:     app.TrashConfig{Retention: e.TrashRetention},
		Webhooks:  webhooks.Config{AllowPrivate: e.WebhooksAllowPrivate},
		Passwords: passwords.Config{Cost: e.BcryptCost},
		Files:     e.files(e.StorageDir),
		Backup:    e.backup(),
		Mail:      e.mail(),
		MailQueue: app.MailConfig{From: e.MailFromAddress, RetryAfter: e.MailRetryAfter, Lease: e.MailLease},
	}
}

// Mail is how mail leaves (Laravel's MAIL_* keys) and the password reset's
// lifetimes.
type Mail struct {
	AppName               string        `env:"APP_NAME" envDefault:"Inkwell"`
	FrontendURL           string        `env:"FRONTEND_URL"`
	MailMailer            string        `env:"MAIL_MAILER" envDefault:"log"`
	MailHost              string        `env:"MAIL_HOST" envDefault:"127.0.0.1"`
	MailPort              int           `env:"MAIL_PORT" envDefault:"587"`
	MailScheme            string        `env:"MAIL_SCHEME" envDefault:"smtp"`
	MailUsername          string        `env:"MAIL_USERNAME"`
	MailPassword          string        `env:"MAIL_PASSWORD"`
	MailFromAddress       string        `env:"MAIL_FROM_ADDRESS" envDefault:"hello@example.com"`
	MailFromName          string        `env:"MAIL_FROM_NAME"`
	MailEHLODomain        string        `env:"MAIL_EHLO_DOMAIN"`
	MailRetryAfter        time.Duration `env:"MAIL_RETRY_AFTER" envDefault:"5s"`
	MailLease             time.Duration `env:"MAIL_LEASE" envDefault:"60s"`
	PasswordResetExpire   int           `env:"PASSWORD_RESET_EXPIRE" envDefault:"60"`
	PasswordResetThrottle int           `env:"PASSWORD_RESET_THROTTLE" envDefault:"60"`
}

// check names the first bad mail key.
func (m Mail) check() error {
	switch {
	case m.MailMailer != mail.MailerLog && m.MailMailer != mail.MailerSMTP:
		return fmt.Errorf("MAIL_MAILER: %q is neither log nor smtp", m.MailMailer)
	case m.MailScheme != mail.SchemeSMTP && m.MailScheme != mail.SchemeSMTPS:
		return fmt.Errorf("MAIL_SCHEME: %q is neither smtp nor smtps", m.MailScheme)
	case m.MailMailer == mail.MailerSMTP && m.MailHost == "":
		return fmt.Errorf("MAIL_HOST: required with MAIL_MAILER=smtp")
	case m.MailPort < 1 || m.MailPort > 65535:
		return fmt.Errorf("MAIL_PORT: %d is not a port number (1-65535)", m.MailPort)
	case m.MailRetryAfter <= 0:
		return fmt.Errorf("MAIL_RETRY_AFTER: %s must be positive", m.MailRetryAfter)
	case m.MailLease < time.Second:
		return fmt.Errorf("MAIL_LEASE: %s is under a second, too short for one attempt", m.MailLease)
	case m.PasswordResetExpire <= 0:
		return fmt.Errorf("PASSWORD_RESET_EXPIRE: %d must be positive (minutes)", m.PasswordResetExpire)
	case m.PasswordResetThrottle < 0:
		return fmt.Errorf("PASSWORD_RESET_THROTTLE: %d is negative (0 turns the limit off)", m.PasswordResetThrottle)
	case strings.ContainsAny(m.MailFromName, "\r\n\"<>"):
		return fmt.Errorf("MAIL_FROM_NAME: %q holds a line break, a quote or an angle bracket", m.MailFromName)
	}
	if a, err := netmail.ParseAddress(m.MailFromAddress); err != nil || a.Name != "" || a.Address != m.MailFromAddress {
		return fmt.Errorf("MAIL_FROM_ADDRESS: %q is not a bare e-mail address such as hello@example.com", m.MailFromAddress)
	}
	if m.FrontendURL != "" {
		u, err := url.Parse(m.FrontendURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("FRONTEND_URL: %q is not an absolute http(s) URL", m.FrontendURL)
		}
	}
	return nil
}

// mailWarning is what serve warns of at start: mail that goes to the log
// in production, where nobody reads it as mail.
func (e environment) mailWarning() string {
	if e.AppEnv == "production" && e.MailMailer == mail.MailerLog {
		return "MAIL_MAILER=log in production: mails go to the log, not to their receivers; set MAIL_MAILER=smtp"
	}
	return ""
}

// mail is the mail adapters' configuration; MAIL_FROM_NAME falls back to
// APP_NAME, as Laravel's does.
func (m Mail) mail() mail.Config {
	return mail.Config{
		Mailer: m.MailMailer, Host: m.MailHost, Port: m.MailPort, Scheme: m.MailScheme,
		Username: m.MailUsername, Password: m.MailPassword,
		FromAddress: m.MailFromAddress, FromName: cmp.Or(m.MailFromName, m.AppName),
		EHLODomain: m.MailEHLODomain, AppName: m.AppName,
	}
}

// events is the configuration of the event outbox and its streams. A
// stream read with a browser session ends when the session idles out.
func (e environment) events() app.EventsConfig {
	return app.EventsConfig{
		Retention:               e.EventsRetention,
		SessionLifetime:         time.Duration(e.SessionLifetimeMinutes) * time.Minute,
		MaxStreamsPerCredential: e.EventsMaxStreamsPerToken,
		MaxStreamsPerAddress:    e.EventsMaxStreamsPerAddress,
	}
}

// validPurgeURL reports whether u is an absolute http or https URL.
func validPurgeURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}
