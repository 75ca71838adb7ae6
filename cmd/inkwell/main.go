// Command inkwell serves Inkwell's JSON API and runs its maintenance tasks.
//
//	inkwell [serve]                             serve both areas on HOST and PORT
//	inkwell migrate                             apply the store's migrations
//	inkwell seed [--users N] [--posts N] ...    fill an empty store with demo data
//	inkwell tokens revoke --email E --name N    revoke a user's tokens by name
//	inkwell tokens revoke --email E --all       revoke all of a user's tokens
//	inkwell tokens prune                        delete expired tokens
//	inkwell admin create --email E --name N     make an admin (password on stdin)
//	inkwell backup status                       the SQLite store's replica: position, last sync, lag
//	inkwell backup restore --to FILE [--at T]   restore the replica into a new file, and its files
//	inkwell key generate                        print a new APP_KEY
//	inkwell version, inkwell --version          print the version and VCS revision
//	inkwell healthcheck [--url URL]             exit 0 when the local server is ready
//	inkwell help [command]                      show the help of inkwell or a command
//
// Settings come from the environment and from .env in the working folder
// (or the file ENV_FILE names), the environment winning. Only serve,
// migrate and seed make a missing SQLite store; every other command refuses
// one. A command that opens a store names it on the first line of standard
// error.
//
// Help exits 0; a command line it cannot run exits 2 with the command's
// usage; any other failure exits 1 with one line on standard error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/inkwell/inkwell"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout)
	os.Exit(report(err, os.Stderr))
}

// run parses the command line, then reads the configuration and runs the
// command. Help is written to out.
func run(ctx context.Context, args []string, out io.Writer) error {
	cmd, act, err := root.parse(args)
	var help helpRequest
	if errors.As(err, &help) {
		help.cmd.writeHelp(out)
		return nil
	}
	if err != nil {
		return err
	}
	if cmd.bare {
		return act(ctx, environment{}, slog.New(slog.DiscardHandler), out)
	}
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	if cmd.store == storeExisting {
		if err := cfg.checkStoreExists(); err != nil {
			return err
		}
	}
	if err := cfg.useAppKey(); err != nil {
		return err
	}
	if cmd.store != storeNone {
		// The first line on standard error says what the command works
		// on, before anything can go wrong with it.
		cfg.startLogger().Info("inkwell "+cmd.name, "store", cfg.storeName(), "env_file", cfg.file.name(), "app_key", cfg.appKeyFrom)
	}
	return act(ctx, cfg, cfg.logger(), out)
}

// report writes err on w for the operator and returns the exit status: 0
// without an error, 2 for a command line inkwell cannot run, followed by the
// command's usage, and 1 for anything else, on one line.
func report(err error, w io.Writer) int {
	var usage *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &usage):
		fmt.Fprintf(w, "inkwell: %v\n", usage)
		usage.cmd.writeUsage(w)
		return 2
	default:
		fmt.Fprintln(w, "inkwell:", err)
		return 1
	}
}

// serve runs the HTTP server until SIGINT or SIGTERM, then stops accepting
// connections and lets requests in flight finish.
func serve(ctx context.Context, cfg environment, log *slog.Logger, _ io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	cfg.replicate = true
	if err := restoreIfMissing(ctx, cfg, log); err != nil {
		return err
	}
	svc, cleanup, err := build(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer cleanup()
	setGCPercent()

	if cfg.PprofAddr != "" {
		stopProfiling, err := serveProfiles(cfg.PprofAddr, log)
		if err != nil {
			return err
		}
		defer stopProfiling()
	}

	// The reader of the outbox takes the newest event as its start before
	// anything is served: a write answered later comes after it, so it is
	// evicted here and purged from a shared cache in front.
	if err := svc.CacheInvalidation.CatchUp(ctx); err != nil {
		return err
	}
	// The listeners open once the store is migrated, so that nothing
	// accepts a connection the service is not ready to answer.
	listeners, err := listen(cfg.listenAddrs(), cfg.Port, log)
	if err != nil {
		return err
	}
	stopBackground := background(ctx, svc, log)
	// Deferred after the store's cleanup, this runs before it: the
	// background work ends before the store closes under it.
	defer stopBackground()
	addrs := make([]string, len(listeners))
	for i, ln := range listeners {
		addrs[i] = ln.Addr().String()
	}
	url := browseURL(cfg.listenAddrs()[0], listeners[0].Addr())
	cfg.startLogger().Info("serving", "url", url, "docs", url+"/docs", "admin", url+"/admin",
		"addr", strings.Join(addrs, ","), "env", cfg.AppEnv)
	logSetupLink(ctx, svc, cfg, addrs, log)
	if w := cfg.mailWarning(); w != "" {
		log.Warn(w)
	}

	// One app serves every listener: fasthttp's Server.Serve may run on
	// several at once, and its shutdown closes them all and waits for the
	// connections of each.
	errc := make(chan error, len(listeners))
	for _, ln := range listeners {
		go func() { errc <- svc.Server.Serve(ln) }()
	}
	waiting := len(listeners)
	var serveErr error
	select {
	case serveErr = <-errc:
		waiting--
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests in flight")
	// Shutdown ends the event streams first, which would otherwise hold
	// the drain open until its timeout.
	shutdownErr := svc.Server.Shutdown(30 * time.Second)
	// A listener whose Serve had not started when the shutdown ran is not
	// among those it closed; closing it makes that Serve return at once.
	for _, ln := range listeners {
		_ = ln.Close()
	}
	for ; waiting > 0; waiting-- {
		if err := <-errc; serveErr == nil {
			serveErr = err
		}
	}
	if shutdownErr != nil {
		return fmt.Errorf("shutdown: %w", shutdownErr)
	}
	return serveErr
}

// migrate is the action of inkwell migrate: Build applies the migrations.
func migrate(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
	_, cleanup, err := build(ctx, cfg, log)
	if err != nil {
		return err
	}
	cleanup()
	fmt.Fprintln(out, "migrations applied")
	return nil
}

// background runs what every replica does besides serving requests:
// pruning the outbox, delivering webhooks, sending mail, purging the
// expired trash, and evicting from the cache of anonymous reads what the
// outbox says changed. The function it returns
// stops them and waits until they have.
func background(ctx context.Context, svc *inkwell.Service, log *slog.Logger) func() {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { pruneEvents(ctx, svc.Events, log) })
	wg.Go(func() { svc.Webhooks.Run(ctx, func(err error) { log.Error("webhooks", "err", err) }) })
	wg.Go(func() { svc.Mail.Run(ctx, func(err error) { log.Error("mail", "err", err) }) })
	wg.Go(func() { svc.Trash.Run(ctx, func(err error) { log.Error("trash", "err", err) }) })
	wg.Go(func() {
		svc.CacheInvalidation.Run(ctx, func(err error) { log.Warn("cache invalidation", "err", err) })
	})
	if svc.Purger != nil {
		wg.Go(func() { svc.Purger.Run(ctx) })
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// eventPruneInterval is how often each replica prunes the outbox. Pruning
// is idempotent, so replicas need not agree on who does it.
const eventPruneInterval = time.Hour

// pruneEvents removes events older than the retention, at start and then
// every eventPruneInterval, until ctx ends.
func pruneEvents(ctx context.Context, events ports.Events, log *slog.Logger) {
	for {
		if n, err := events.Prune(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Error("prune events", "err", err)
		} else if n > 0 {
			log.Info("pruned events", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(eventPruneInterval):
		}
	}
}

// defaultGCPercent is the garbage collector's target when GOGC is not set.
// The server keeps little memory alive (about 10 MB) and allocates a few
// tens of kilobytes per request, most of it a page's rows and their JSON,
// so with Go's default of 100 it collects dozens of times a second under
// load. At 400 the heap may grow to five times what is alive before a
// collection, and a page of posts costs about a tenth less CPU (measured on
// 100,000 posts: 4,800 against 5,200 cursor pages a second on PostgreSQL),
// for a peak RSS that stayed under 100 MiB in every benchmark scenario.
// GOGC, and GOMEMLIMIT, still decide when they are set.
const defaultGCPercent = 400

func setGCPercent() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(defaultGCPercent)
	}
}

// serveProfiles serves net/http/pprof's profiles on addr (PPROF_ADDR), on a
// listener of its own beside the service's port, so that they are reachable
// only where the operator binds them (127.0.0.1 for a benchmark on the same
// machine) and never through the API's routes or middleware. It returns a
// function that closes the listener.
func serveProfiles(addr string, log *slog.Logger) (func(), error) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("PPROF_ADDR: %w", err)
	}
	// No write timeout: a CPU profile or a trace answers only after the
	// seconds it was asked to record.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("profiles: serve", "addr", addr, "err", err)
		}
	}()
	log.Warn("serving profiles: keep PPROF_ADDR off in production or on a private address", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}

// revoke is the action of tokens revoke: the tokens named name of the user
// with email, or all of that user's tokens.
func revoke(email, name string, all bool) action {
	return func(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
		svc, cleanup, err := build(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer cleanup()
		var n int64
		if all {
			n, err = svc.Operator.Tokens.RevokeAll(ctx, email)
		} else {
			n, err = svc.Operator.Tokens.RevokeByName(ctx, email, name)
		}
		if domain.KindOf(err) == domain.NotFound {
			return fmt.Errorf("no user with e-mail %s", email)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%d token(s) deleted\n", n)
		return nil
	}
}

// setAdmin is the action of admin grant (grant) and admin revoke.
func setAdmin(email string, grant bool) action {
	return func(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
		svc, cleanup, err := inkwell.Build(ctx, cfg.service(), log)
		if err != nil {
			return err
		}
		defer cleanup()
		var u domain.User
		if grant {
			u, err = svc.Operator.Admins.Grant(ctx, email)
		} else {
			u, err = svc.Operator.Admins.Revoke(ctx, email)
		}
		if domain.KindOf(err) == domain.NotFound {
			return fmt.Errorf("no user with e-mail %s", email)
		}
		if err != nil {
			return err
		}
		if grant {
			fmt.Fprintf(out, "%s is an admin\n", u.Email)
		} else {
			fmt.Fprintf(out, "%s is not an admin\n", u.Email)
		}
		return nil
	}
}

// listAdmins is the action of admin list.
func listAdmins(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
	svc, cleanup, err := inkwell.Build(ctx, cfg.service(), log)
	if err != nil {
		return err
	}
	defer cleanup()
	admins, err := svc.Operator.Admins.List(ctx)
	if err != nil {
		return err
	}
	for _, u := range admins {
		fmt.Fprintf(out, "%d\t%s\t%s\n", u.ID, u.Email, u.Name)
	}
	return nil
}

// prune is the action of tokens prune.
func prune(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
	svc, cleanup, err := build(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer cleanup()
	n, err := svc.Operator.Tokens.Prune(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d token(s) deleted\n", n)
	return nil
}
