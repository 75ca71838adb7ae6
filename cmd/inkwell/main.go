// Command inkwell serves Inkwell's JSON API and runs its maintenance tasks.
//
//	inkwell [serve]                             serve both areas on PORT
//	inkwell migrate                             apply the store's migrations
//	inkwell seed [--users N] [--posts N] ...    fill an empty store with demo data
//	inkwell tokens revoke --email E --name N    revoke a user's tokens by name
//	inkwell tokens revoke --email E --all       revoke all of a user's tokens
//	inkwell tokens prune                        delete expired tokens
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/inkwell/inkwell"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "inkwell:", err)
		os.Exit(1)
	}
}

// errUsage reports a command line that names no known command.
var errUsage = errors.New("usage: inkwell [serve | migrate | seed [--users N] [--posts N] [--comments N] [--tags N] | tokens revoke --email E (--name N | --all) | tokens prune]")

func run(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	log := cfg.logger()
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, cfg, log)
	case "migrate":
		_, cleanup, err := inkwell.Build(ctx, cfg.service(), log)
		if err != nil {
			return err
		}
		cleanup()
		fmt.Fprintln(out, "migrations applied")
		return nil
	case "seed":
		return seed(ctx, cfg, log, args, out)
	case "tokens":
		return tokens(ctx, cfg, log, args, out)
	default:
		return errUsage
	}
}

// serve runs the HTTP server until SIGINT or SIGTERM, then stops accepting
// connections and lets requests in flight finish.
func serve(ctx context.Context, cfg environment, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	svc, cleanup, err := inkwell.Build(ctx, cfg.service(), log)
	if err != nil {
		return err
	}
	defer cleanup()

	app := svc.Server.App()
	addr := ":" + strconv.Itoa(cfg.Port)
	errc := make(chan error, 1)
	go func() { errc <- app.Listen(addr) }()
	log.Info("serving", "addr", addr, "env", cfg.AppEnv)

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests in flight")
	if err := app.ShutdownWithTimeout(30 * time.Second); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return <-errc
}

func tokens(ctx context.Context, cfg environment, log *slog.Logger, args []string, out io.Writer) error {
	if len(args) == 0 {
		return errUsage
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("tokens "+sub, flag.ContinueOnError)
	email := fs.String("email", "", "the user's e-mail address")
	name := fs.String("name", "", "revoke the tokens with this name")
	all := fs.Bool("all", false, "revoke every token of the user")
	if err := fs.Parse(args); err != nil {
		return err
	}
	svc, cleanup, err := inkwell.Build(ctx, cfg.service(), log)
	if err != nil {
		return err
	}
	defer cleanup()

	var n int64
	switch {
	case sub == "prune":
		n, err = svc.Tokens.Prune(ctx)
	case sub == "revoke" && *email != "" && *all && *name == "":
		n, err = svc.Tokens.RevokeAll(ctx, *email)
	case sub == "revoke" && *email != "" && *name != "" && !*all:
		n, err = svc.Tokens.RevokeByName(ctx, *email, *name)
	default:
		return errUsage
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d token(s) deleted\n", n)
	return nil
}
