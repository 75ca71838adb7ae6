package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/domain"
)

// uniqueErrors names the domain error of each unique index whose violation
// callers tell apart; any other unique violation is a plain conflict.
var uniqueErrors = map[string]*domain.Error{
	"users_email_key":  domain.ErrEmailTaken,
	"people_email_key": domain.ErrEmailTaken,
	"products_sku":     domain.ErrSKUTaken,
	"posts_slug":       domain.ErrSlugTaken,
	"tags_name_key":    domain.ErrTagTaken,
}

// border is how this store's errors cross into the repositories it shares
// with SQLite's (sqlrepo).
var border = sqlrepo.Border{
	Err:      storeError,
	NotFound: notFound,
	NoRows:   func(err error) bool { return errors.Is(err, pgx.ErrNoRows) },
}

// storeError translates err at the adapter's border and prefixes it with op:
// no rows become domain.ErrNotFound, unique violations a conflict named by
// their index, foreign-key violations domain.ErrNotFound (the row referred to
// is gone), an unreachable server domain.ErrUnavailable. Anything else is
// wrapped and stays Internal. A nil err stays nil.
func storeError(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound(op)
	}
	// Unreachability is tested before the SQLSTATE: a failed connect may
	// carry the server's refusal (too many connections, shutting down) as a
	// PgError inside a ConnectError.
	if unreachable(err) {
		return fmt.Errorf("%s: %w: %w", op, domain.ErrUnavailable, err)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "23505":
			if de, ok := uniqueErrors[pgErr.ConstraintName]; ok {
				return fmt.Errorf("%s: %w", op, de)
			}
			return fmt.Errorf("%s: %s: %w", op, pgErr.ConstraintName, domain.ErrConflict)
		case pgErr.Code == "23503":
			return fmt.Errorf("%s: %s: %w", op, pgErr.ConstraintName, domain.ErrNotFound)
		case serverUnavailable(pgErr.Code):
			return fmt.Errorf("%s: %w: %w", op, domain.ErrUnavailable, err)
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// unreachable reports whether err says the server could not be reached or
// the connection to it broke: a failed connect (which is also what a pool
// acquire returns when it cannot open a connection), a network error, or a
// connection cut mid-message. A deadline that ran out while waiting on the
// store counts too, since net.Error covers context.DeadlineExceeded; a
// cancelled context does not, as the caller gave up, not the store.
func unreachable(err error) bool {
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) ||
		errors.As(err, &netErr) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

// serverUnavailable reports whether a SQLSTATE says the server cannot serve
// now rather than that the statement is wrong: connection exceptions (class
// 08), insufficient resources (class 53) and shutdowns (57P01..57P03).
func serverUnavailable(code string) bool {
	switch {
	case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "53"):
		return true
	case code == "57P01", code == "57P02", code == "57P03":
		return true
	}
	return false
}

// notFound is the error of an update or delete that matched no row.
func notFound(op string) error {
	return fmt.Errorf("%s: %w", op, domain.ErrNotFound)
}
