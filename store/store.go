// Package store keeps everything the bot must remember in one SQLite file:
// tables and their games, the action log, results and records, the
// announcement outbox and the interactions already processed. It is the
// only package that speaks SQL.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	// The pure-Go SQLite driver, registered as "sqlite". The blank import
	// sits here because this package is the SQLite adapter.
	_ "modernc.org/sqlite"
)

// The errors the store returns; match them with errors.Is.
var (
	// ErrNotFound means no table has that id.
	ErrNotFound = errors.New("store: not found")
	// ErrStale means the table changed since the caller looked at it.
	ErrStale = errors.New("store: stale: the table has changed")
	// ErrDuplicate means the interaction was already processed.
	ErrDuplicate = errors.New("store: interaction already processed")
	// ErrNewerSchema means the database was written by a newer version.
	ErrNewerSchema = errors.New("store: the database comes from a newer version of the bot")
)

// Store is the SQLite repository. It is safe for concurrent use.
type Store struct {
	db  *sql.DB
	now func() time.Time
}

// Option configures Open.
type Option func(*Store)

// WithClock makes the store read time from now instead of the system clock
// (tests jump days ahead with it).
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// busyTimeout is how long a connection waits for another writer.
const busyTimeout = 10 * time.Second

// Open opens (creating if missing) the database file at path, checks that it
// is a cribbage database this version can read, and applies any new
// migrations. Every connection gets WAL journaling, a busy timeout and
// foreign keys through the DSN, and takes the write lock when a transaction
// begins, so concurrent writers queue instead of failing to upgrade.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("store: %s is a directory, not a database file", path)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	// FULL syncs the WAL on every commit: a committed action survives a
	// power cut, not only a killed process, for under a millisecond more.
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{db: db, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// millis converts a time to the stored Unix milliseconds (0 for the zero time).
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMillis converts stored Unix milliseconds back (0 is the zero time).
func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// inTx runs fn in a transaction, committing if it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}
