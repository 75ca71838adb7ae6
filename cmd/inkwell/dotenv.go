package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/joho/godotenv"
)

// defaultSettingsFile is the file of settings inkwell reads from its
// working folder, as a Laravel application reads its .env.
const defaultSettingsFile = ".env"

// settingsFile is the .env file the settings were read with.
type settingsFile struct {
	// path names the file as the operator did: ".env" or ENV_FILE's
	// value; empty when no file was read.
	path string
	// keys are the settings the file holds, whether or not the real
	// environment overrides them.
	keys map[string]string
}

// readSettingsFile reads the file ENV_FILE names, or else .env in the
// working folder. A missing .env is no file; a missing ENV_FILE, or a file
// that is not KEY=VALUE lines, is an error that names it.
func readSettingsFile() (settingsFile, error) {
	path, named := os.LookupEnv("ENV_FILE")
	if path == "" {
		path, named = defaultSettingsFile, false
	}
	keys, err := godotenv.Read(path)
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist) && !named:
		return settingsFile{}, nil
	case errors.Is(err, fs.ErrNotExist):
		return settingsFile{}, fmt.Errorf("ENV_FILE: %s does not exist; fix ENV_FILE, or unset it to read .env", path)
	case errors.As(err, &pathErr):
		return settingsFile{}, fmt.Errorf("%s: cannot be read: %v", path, pathErr.Err)
	case err != nil:
		return settingsFile{}, fmt.Errorf("%s: not a file of KEY=VALUE lines: %s", path, dotenvReason(err))
	}
	return settingsFile{path: path, keys: keys}, nil
}

// dotenvReason is godotenv's parse error without the text of the file it
// quotes, which may hold secrets and span lines.
func dotenvReason(err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unterminated quoted value"):
		return "a quoted value has no closing quote"
	case strings.HasPrefix(msg, "unexpected character"):
		// godotenv names the character after the name, often a line
		// break, which says little.
		return "a line is neither a comment nor NAME=value with a NAME of letters, digits, _ and ."
	}
	msg, _, _ = strings.Cut(msg, " near ")
	msg, _, _ = strings.Cut(msg, "\n")
	return msg
}

// environ is the environment the settings are parsed from: the process's,
// with the file's keys added where the process has none, so that the real
// environment wins, as with Laravel's .env.
func (f settingsFile) environ() map[string]string {
	out := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	for k, v := range f.keys {
		if _, set := out[k]; !set {
			out[k] = v
		}
	}
	return out
}

// provides reports whether key's value comes from the file: the file sets
// it and the real environment does not.
func (f settingsFile) provides(key string) bool {
	_, inFile := f.keys[key]
	_, inEnv := os.LookupEnv(key)
	return inFile && !inEnv
}

// name says which file was read, for the start log: its absolute path,
// since the working folder is what decides, or "none".
func (f settingsFile) name() string {
	if f.path == "" {
		return "none"
	}
	if abs, err := filepath.Abs(f.path); err == nil {
		return abs
	}
	return f.path
}
