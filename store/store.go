// Package store keeps everything the bot must remember in one SQLite file
// or one PostgreSQL database: tables and their games, the action log,
// results and records, the announcement outbox and the interactions
// already processed. It is the only package that speaks SQL; what differs
// between the two databases is their dialect (dialect.go).
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

// The store returns cribbage.ErrNotFound, ErrStale and ErrDuplicate where
// they apply, and this error of its own; match them with errors.Is.
var (
	// ErrNewerSchema means the database was written by a newer version.
	ErrNewerSchema = errors.New("store: the database comes from a newer version of the bot")
)

// Store is the repository, on SQLite or PostgreSQL. It is safe for
// concurrent use.
type Store struct {
	db  *conn
	now func() time.Time

	states stateCache
	leases leaseBook
}

// Option configures Open.
type Option func(*Store)

// WithClock makes the store read time from now instead of the system clock
// (tests jump days ahead with it).
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// maxConns bounds the connection pool: readers run in parallel in WAL
// mode, and more than a few per core only queue inside SQLite.
const maxConns = 8

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
	// In WAL mode NORMAL keeps every committed transaction through a killed
	// process (the crash test checks it) and never corrupts the file; only
	// a power cut or OS crash can lose the last commits. FULL would also
	// cover those, at twice the commit time, which a burst of moves at
	// many tables pays in queueing.
	q.Add("_pragma", "synchronous(NORMAL)")
	// A write batch (see lead) runs each write in a savepoint, whose
	// journal SQLite spills to a temporary file past 64 KiB: creating and
	// closing that file took 0.3 s of the batches' 5.2 s in a 30-second
	// window at 900 tables. In memory it holds the pages one write changed
	// (it is emptied as each savepoint is released). The pragma keeps all
	// of SQLite's temporary storage in memory, temporary b-trees among it;
	// the store makes no temporary tables and never vacuums.
	q.Add("_pragma", "temp_store(MEMORY)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Keep connections open: database/sql keeps only 2 idle by default,
	// and a new SQLite connection costs its pragmas and a schema parse,
	// which under many concurrent reads was most of the work.
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	d := &sqlite{}
	s := &Store{db: newConn(db, d), now: time.Now}
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
	d.migrated = true
	s.db.prepareReads.Store(true)
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

// inTx runs fn in a write transaction, the dialect's way: fn's writes
// are committed if it returns nil and undone if it returns an error. It
// is the store's one write path: every write is a statement fn runs with
// tx.exec.
func (s *Store) inTx(ctx context.Context, fn func(tx *txn) error) error {
	return s.db.d.write(ctx, s.db, fn)
}

// exec runs one write statement in a transaction of its own, through
// inTx like every other write: it is queued and batched with them, and
// run again on PostgreSQL if the server picks it as a deadlock victim.
func (s *Store) exec(ctx context.Context, query string, args ...any) error {
	return s.inTx(ctx, func(tx *txn) error {
		_, err := tx.exec(ctx, query, args...)
		return err
	})
}

// execAlong is exec for a record that may be committed with other writes
// a moment later (writeAlong): what Discord shows, which only a process
// that starts reads, the running one keeping it in memory.
func (s *Store) execAlong(ctx context.Context, query string, args ...any) error {
	return s.db.d.writeAlong(ctx, s.db, func(tx *txn) error {
		_, err := tx.exec(ctx, query, args...)
		return err
	})
}
