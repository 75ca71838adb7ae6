package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/domain"
)

// border is how this store's errors cross into the repositories it shares
// with PostgreSQL's (sqlrepo).
var border = sqlrepo.Border{
	Err:      storeError,
	NotFound: notFound,
	NoRows:   func(err error) bool { return errors.Is(err, sql.ErrNoRows) },
}

// storeError translates an error of operation op at the adapter's border:
// no rows becomes domain.ErrNotFound, a unique violation the conflict its index
// stands for, a foreign-key violation domain.ErrNotFound (the referenced
// record is gone), a locked, unreadable or closed database, or a deadline
// that passed while waiting for it, domain.ErrUnavailable. Anything else
// keeps the driver's error, wrapped with op, and stays Internal. A nil err
// stays nil.
func storeError(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return notFound(op)
	}
	var se *sqlitedrv.Error
	if errors.As(err, &se) {
		// The connections report extended result codes, so the constraint
		// kind is in the code; the index is only named in the message.
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("sqlite: %s: %w", op, uniqueViolation(se.Error()))
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("sqlite: %s: %w", op, domain.ErrNotFound)
		}
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN,
			sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL:
			return fmt.Errorf("sqlite: %s: %w: %w", op, domain.ErrUnavailable, err)
		}
	}
	if isClosed(err) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("sqlite: %s: %w: %w", op, domain.ErrUnavailable, err)
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// uniqueViolation names the conflict of a UNIQUE failure from the columns
// SQLite lists in its message ("UNIQUE constraint failed: users.email_key").
func uniqueViolation(msg string) error {
	switch {
	case strings.Contains(msg, "users.email_key"), strings.Contains(msg, "people.email_key"):
		return domain.ErrEmailTaken
	case strings.Contains(msg, "products.sku"):
		return domain.ErrSKUTaken
	case strings.Contains(msg, "posts.slug"):
		return domain.ErrSlugTaken
	case strings.Contains(msg, "tags.name_key"):
		return domain.ErrTagTaken
	default:
		return domain.ErrConflict
	}
}

// isClosed recognises the error database/sql returns once the store is
// closed. That error is not exported, so its stable text is matched.
func isClosed(err error) bool {
	return errors.Is(err, sql.ErrConnDone) || strings.Contains(err.Error(), "sql: database is closed")
}

// notFound is the error of an update or delete that matched no row.
func notFound(op string) error {
	return fmt.Errorf("sqlite: %s: %w", op, domain.ErrNotFound)
}
