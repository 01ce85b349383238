package db

// The page secret: what page tokens are derived from (pages.go), kept
// outside the database so that neither the database file nor a backup of
// it holds a working link. It is, in order: the secret the operator
// configures (page_secret, WithPageSecret), which replicas on one
// PostgreSQL must share; the key file WithPageKeyFile names; for a
// SQLite database, the key file beside it, PATH.pagekey; else (a
// PostgreSQL store given neither, as in tests) a key of this process's
// alone. A key file is made, 256 random bits as hex and readable by its
// owner alone, the first time a page's links are asked for.
//
// Losing the secret loses no page: a token is looked up by its hash, so
// every link still opens its page; only showing it again needs the
// secret, and a link that cannot be shown again is replaced (Renewed).

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MinPageSecret is the shortest page secret taken, in bytes.
const MinPageSecret = 32

// PageKeySuffix names a SQLite database's key file: PATH + PageKeySuffix.
const PageKeySuffix = ".pagekey"

// WithPageSecret sets the page secret (at least MinPageSecret bytes; Open
// refuses a shorter one).
func WithPageSecret(secret []byte) Option {
	return func(d *DB) { d.pageKey, d.pageKeyErr = secret, checkSecret(secret, "page_secret") }
}

// WithPageKeyFile keeps the page secret in the file at path, made when
// missing.
func WithPageKeyFile(path string) Option { return func(d *DB) { d.pageKeyFile = path } }

func checkSecret(secret []byte, from string) error {
	if len(secret) < MinPageSecret {
		return fmt.Errorf("%s: the page secret must be at least %d bytes, e.g. 64 hex digits from `openssl rand -hex 32`", from, MinPageSecret)
	}
	return nil
}

// pageSecret returns the page secret, reading or making its key file the
// first time.
func (d *DB) pageSecret() ([]byte, error) {
	d.pageKeyMu.Lock()
	defer d.pageKeyMu.Unlock()
	if d.pageKey != nil || d.pageKeyErr != nil {
		return d.pageKey, d.pageKeyErr
	}
	if d.pageKeyFile == "" {
		key := make([]byte, MinPageSecret)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("page secret: %w", err)
		}
		d.pageKey = key
		return key, nil
	}
	key, err := readOrMakeKey(d.pageKeyFile)
	if err != nil {
		return nil, err // tried again next time: the operator may fix it
	}
	d.pageKey = key
	return key, nil
}

// readOrMakeKey reads the key file at path, or makes it: written whole
// under another name and linked in place, so that two processes starting
// together read one key, never half of one.
func readOrMakeKey(path string) ([]byte, error) {
	key, err := readKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key = make([]byte, MinPageSecret)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("page key file %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".new*")
	if err != nil {
		return nil, fmt.Errorf("page key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = fmt.Fprintf(tmp, "%x\n", key)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("page key file %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return readKey(path) // another process made it first
	} else if err != nil {
		return nil, fmt.Errorf("page key file %s: %w", path, err)
	}
	return key, nil
}

// readKey reads a key file: hex, of at least MinPageSecret bytes.
func readKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("page key file: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < MinPageSecret {
		return nil, fmt.Errorf("page key file %s: want %d hex digits (delete it to make a new one: the GMs then get new links)", path, 2*MinPageSecret)
	}
	return key, nil
}
