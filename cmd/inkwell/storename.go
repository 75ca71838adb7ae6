package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/inkwell/inkwell"
)

// storeUse is what a command does with the store DATABASE_URL names.
type storeUse int

const (
	// storeExisting: the command works on a store that exists and never
	// makes one, so that run outside the project's folder it does not
	// quietly work on a new, empty database. The zero value, so that a
	// command that does not say may not create a store.
	storeExisting storeUse = iota
	// storeCreate: the command makes the store when it is missing, as
	// serve, migrate and seed do.
	storeCreate
	// storeNone: the command opens no store.
	storeNone
)

// sqlitePath is the SQLite file the environment names, and whether it
// names one rather than a PostgreSQL database.
func (e environment) sqlitePath() (string, bool) {
	switch {
	case e.DatabaseURL == "":
		return inkwell.DefaultSQLitePath, true
	case strings.HasPrefix(e.DatabaseURL, "sqlite://"):
		return strings.TrimPrefix(e.DatabaseURL, "sqlite://"), true
	}
	return "", false
}

// storeName names the store for the operator: the SQLite file's absolute
// path, or the PostgreSQL URL without its password.
func (e environment) storeName() string {
	if path, ok := e.sqlitePath(); ok {
		return absolute(path)
	}
	return redactURL(e.DatabaseURL)
}

// checkStoreExists refuses a SQLite file that does not exist, with one line
// naming the file and DATABASE_URL, and creates nothing. Other failures to
// reach the file are the store's to word when it opens.
func (e environment) checkStoreExists() error {
	path, ok := e.sqlitePath()
	if !ok || path == "" {
		return nil
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if e.DatabaseURL == "" {
		return fmt.Errorf("DATABASE_URL: not set, and the default SQLite file %s does not exist; run inkwell in the project's folder, set DATABASE_URL, or make the store with inkwell migrate", absolute(path))
	}
	return fmt.Errorf("DATABASE_URL: the SQLite file %s does not exist; fix DATABASE_URL, or make the store with inkwell migrate", absolute(path))
}

// absolute is path made absolute against the working folder, or path when
// the working folder is unknown.
func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// redactURL is a PostgreSQL URL without the password, in its user part or
// its query, so that it may be logged.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		scheme, _, _ := strings.Cut(raw, "://")
		return scheme + "://… (DATABASE_URL cannot be parsed)"
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	if q := u.Query(); q.Has("password") {
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return u.String()
}
