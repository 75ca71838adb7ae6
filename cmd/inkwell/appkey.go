package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/inkwell/inkwell"
)

// appKeyPrefix and appKeySize are Laravel's form of APP_KEY: "base64:" and
// the standard base64 of 32 random bytes, the size of an HMAC-SHA256 key.
const (
	appKeyPrefix = "base64:"
	appKeySize   = 32
)

// newAppKey returns a fresh key in APP_KEY's form.
func newAppKey() string {
	key := make([]byte, appKeySize)
	rand.Read(key) // never fails: crypto/rand panics rather than return an error
	return appKeyPrefix + base64.StdEncoding.EncodeToString(key)
}

// parseAppKey reads a key in APP_KEY's form, surrounding blanks allowed.
func parseAppKey(s string) ([]byte, error) {
	b64, ok := strings.CutPrefix(strings.TrimSpace(s), appKeyPrefix)
	if !ok {
		return nil, errors.New(`does not start with "base64:"`)
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, errors.New("is not valid base64 after its prefix")
	}
	if len(key) != appKeySize {
		return nil, fmt.Errorf("holds %d bytes, want %d", len(key), appKeySize)
	}
	return key, nil
}

// appKeyFile is where development keeps the key it makes when APP_KEY is
// empty: ./data/app.key, in the folder of the default SQLite file, made as
// that folder is when missing. It does not follow a DATABASE_URL, so that
// the key stays put when the store changes.
var appKeyFile = filepath.Join(filepath.Dir(inkwell.DefaultSQLitePath), "app.key")

// useAppKey sets the key that signs links and cookies and says where it
// came from: see loadAppKey. run calls it once the store is known to be
// one the command may open, so that a command refused for want of a store
// makes no key file either.
func (e *environment) useAppKey() error {
	key, from, err := e.loadAppKey()
	if err != nil {
		return err
	}
	e.appKey, e.appKeyFrom = key, from
	return nil
}

// loadAppKey returns the key that signs links and cookies, with where it
// came from: APP_KEY when set (by the environment or the .env file); in
// development without it, the key kept in appKeyFile, made there the first
// time. check has already refused production without APP_KEY.
func (e environment) loadAppKey() (key []byte, from string, err error) {
	if e.AppKey != "" {
		key, err := parseAppKey(e.AppKey)
		if err != nil {
			return nil, "", fmt.Errorf("APP_KEY: the value %v; make one with inkwell key generate", err)
		}
		if e.file.provides("APP_KEY") {
			return key, "APP_KEY in " + e.file.name(), nil
		}
		return key, "APP_KEY", nil
	}
	path := appKeyFile
	abs, _ := filepath.Abs(path)
	raw, err := os.ReadFile(path)
	switch {
	case err == nil:
		key, err := parseAppKey(string(raw))
		if err != nil {
			return nil, "", fmt.Errorf("APP_KEY: empty, and the key in %s %v; delete the file to make a new one", path, err)
		}
		return key, abs, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, "", fmt.Errorf("APP_KEY: empty, and %s cannot be read: %v", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, "", fmt.Errorf("APP_KEY: empty, and %v", err)
	}
	line := newAppKey()
	// The key is written whole to a file of its own, then linked into
	// place: of two processes starting at once, one links its key and the
	// other, finding the name taken, reads that key, never half of it.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".app.key-*")
	if err != nil {
		return nil, "", fmt.Errorf("APP_KEY: empty, and %s cannot be made: %v", path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(line + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp.Name(), path)
	}
	if errors.Is(err, fs.ErrExist) {
		return e.loadAppKey()
	}
	if err != nil {
		return nil, "", fmt.Errorf("APP_KEY: empty, and %s cannot be written: %v", path, err)
	}
	key, _ = parseAppKey(line)
	return key, abs + " (made now)", nil
}

// generateKey is the action of key generate.
func generateKey(_ context.Context, _ environment, _ *slog.Logger, out io.Writer) error {
	_, err := fmt.Fprintln(out, newAppKey())
	return err
}
