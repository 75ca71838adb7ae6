package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/inkwell/inkwell"
)

// build assembles the service from the environment, wording a failure to
// reach or log in to PostgreSQL for the operator who set DATABASE_URL.
func build(ctx context.Context, cfg environment, log *slog.Logger) (*inkwell.Service, func(), error) {
	svc, cleanup, err := inkwell.Build(ctx, cfg.service(), log)
	if err != nil {
		return nil, nil, postgresOpenError(err)
	}
	return svc, cleanup, nil
}

// postgresOpenError words a failure to reach or log in to PostgreSQL as one
// line that names DATABASE_URL and the server's address; pgconn's own text
// spans a line per address tried. Other errors, such as a failed migration,
// are returned as they are.
func postgresOpenError(err error) error {
	var parseErr *pgconn.ParseConfigError
	if errors.As(err, &parseErr) {
		// pgconn redacts the password in this text.
		return fmt.Errorf("DATABASE_URL: %s", parseErr.Error())
	}
	var connectErr *pgconn.ConnectError
	if !errors.As(err, &connectErr) {
		return err
	}
	addr := postgresAddr(connectErr.Config)

	var pgErr *pgconn.PgError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.As(err, &pgErr):
		hint := "fix DATABASE_URL or the server"
		switch {
		case strings.HasPrefix(pgErr.Code, "28"): // invalid authorization
			hint = "fix the user or password in DATABASE_URL"
		case pgErr.Code == "3D000": // invalid catalog name
			hint = "create the database or fix DATABASE_URL"
		case strings.HasPrefix(pgErr.Code, "53"), strings.HasPrefix(pgErr.Code, "57P"):
			hint = "try again when the server accepts connections"
		}
		return fmt.Errorf("DATABASE_URL: PostgreSQL at %s refused the connection: %s; %s", addr, pgErr.Message, hint)
	case errors.As(err, &dnsErr):
		return fmt.Errorf("DATABASE_URL: cannot resolve the host %s: %s; fix DATABASE_URL", dnsErr.Name, dnsErr.Err)
	case errors.As(err, &opErr):
		cause := opErr.Err
		var sysErr *os.SyscallError
		if errors.As(cause, &sysErr) {
			cause = sysErr.Err
		}
		return fmt.Errorf("DATABASE_URL: cannot reach PostgreSQL at %s: %v; start it or fix DATABASE_URL", addr, cause)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("DATABASE_URL: cannot reach PostgreSQL at %s: timed out; start it or fix DATABASE_URL", addr)
	}
	return fmt.Errorf("DATABASE_URL: cannot connect to PostgreSQL at %s: %s", addr, firstLine(connectErr.Unwrap()))
}

// postgresAddr is the address of the server cfg names: host:port, or the
// path of a Unix socket.
func postgresAddr(cfg *pgconn.Config) string {
	port := strconv.Itoa(int(cfg.Port))
	if strings.HasPrefix(cfg.Host, "/") {
		return filepath.Join(cfg.Host, ".s.PGSQL."+port)
	}
	return net.JoinHostPort(cfg.Host, port)
}

// firstLine is the text of err, or of the first error it joins, up to the
// first line break.
func firstLine(err error) string {
	if joined, ok := err.(interface{ Unwrap() []error }); ok && len(joined.Unwrap()) > 0 {
		err = joined.Unwrap()[0]
	}
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}
