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
	"runtime/debug"
	"sync"
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

// Store is the SQLite repository. It is safe for concurrent use.
type Store struct {
	db  *conn
	now func() time.Time
	// writeMu queues this process's write transactions. SQLite allows one
	// writer at a time and makes the others retry with growing sleeps (up
	// to 100 ms each); waiting on a mutex instead hands the lock on at
	// once. Other processes are still kept out by SQLite's own lock and
	// the version compare-and-swap.
	writeMu sync.Mutex
	// pending are write transactions waiting for writeMu; the writer that
	// gets it commits them all (see inTx).
	pendingMu sync.Mutex
	pending   []*writeRequest

	// stmts caches prepared statements for the hot queries: SQLite
	// otherwise parses each statement every time it runs.
	stmtMu sync.Mutex
	stmts  map[string]*sql.Stmt

	states stateCache
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
	s := &Store{db: &conn{DB: db, d: sqliteDialect}, now: time.Now, stmts: map[string]*sql.Stmt{}}
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
func (s *Store) Close() error {
	s.stmtMu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmtMu.Unlock()
	return s.db.Close()
}

// prepared returns the prepared statement for query, preparing it once;
// database/sql then keeps it prepared on each connection it runs on.
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	s.stmtMu.Lock()
	defer s.stmtMu.Unlock()
	if st, ok := s.stmts[query]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s.stmts[query] = st
	return st, nil
}

// txExec runs a cached statement inside a transaction. PostgreSQL's driver
// caches statements on each connection by itself; preparing one on the pool
// would need a second connection while the transaction holds one, and with
// every connection in a transaction none would be free.
func (s *Store) txExec(ctx context.Context, tx *txn, query string, args ...any) (sql.Result, error) {
	if s.db.d.postgres {
		return tx.ExecContext(ctx, query, args...)
	}
	st, err := s.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
}

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

// inTx runs fn in a write transaction: fn's writes are committed if it
// returns nil and undone if it returns an error.
//
// Writes are group-committed: a writer that finds others queued commits
// all of them in one transaction, each inside its own savepoint, so one
// change's failure undoes only that change. Under a burst of moves at
// many tables this turns a queue of commits into a few, while each fn
// still sees a transaction of its own.
func (s *Store) inTx(ctx context.Context, fn func(tx *txn) error) error {
	if s.db.d.postgres {
		return s.inOwnTx(ctx, fn)
	}
	req := &writeRequest{ctx: ctx, fn: fn, done: make(chan error, 1)}
	s.pendingMu.Lock()
	s.pending = append(s.pending, req)
	s.pendingMu.Unlock()

	err := s.lead(req)
	var p *panicError
	if errors.As(err, &p) {
		// The write's own caller panics, as it would have without group
		// commit; the others in the batch carried on.
		panic(p.value)
	}
	return err
}

// lead waits for the write lock; unless an earlier leader has committed
// req meanwhile, it commits every write queued, req among them.
func (s *Store) lead(req *writeRequest) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	select {
	case err := <-req.done:
		return err // an earlier leader committed it
	default:
	}
	s.pendingMu.Lock()
	batch := s.pending
	s.pending = nil
	s.pendingMu.Unlock()
	s.commitBatch(batch)
	return <-req.done
}

// panicError carries a panic out of a batched write to its caller.
type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string {
	return fmt.Sprintf("store: panic in a write: %v\n%s", p.value, p.stack)
}

// writeRequest is one queued write transaction.
type writeRequest struct {
	ctx  context.Context
	fn   func(tx *txn) error
	done chan error
}

// commitBatch runs queued writes in one transaction, each in a savepoint,
// and tells each its outcome.
func (s *Store) commitBatch(batch []*writeRequest) {
	if len(batch) == 0 {
		return
	}
	// The batch outlives any one caller's cancellation: others depend on it.
	ctx := context.WithoutCancel(batch[0].ctx)
	tx, err := s.db.begin(ctx)
	if err != nil {
		for _, r := range batch {
			r.done <- fmt.Errorf("store: begin: %w", err)
		}
		return
	}
	// Whatever happens below, the write lock is never left held.
	defer tx.Rollback()
	results := make([]error, len(batch))
	for i, r := range batch {
		results[i] = runSavepoint(ctx, tx, r)
	}
	if err := tx.Commit(); err != nil {
		for _, r := range batch {
			r.done <- fmt.Errorf("store: commit: %w", err)
		}
		return
	}
	for i, r := range batch {
		r.done <- results[i]
	}
}

// runSavepoint runs one queued write inside a savepoint, undoing its
// writes if it fails or panics; a panic comes back as a *panicError.
func runSavepoint(ctx context.Context, tx *txn, r *writeRequest) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `SAVEPOINT w`); err != nil {
		return err
	}
	err := callRecovering(r.fn, tx)
	if err != nil {
		if _, rbErr := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT w`); rbErr != nil {
			return fmt.Errorf("%w (and undoing it failed: %v)", err, rbErr)
		}
	}
	if _, relErr := tx.ExecContext(ctx, `RELEASE SAVEPOINT w`); relErr != nil && err == nil {
		err = relErr
	}
	return err
}

// callRecovering calls fn, turning a panic into a *panicError.
func callRecovering(fn func(tx *txn) error, tx *txn) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: debug.Stack()}
		}
	}()
	return fn(tx)
}

// inOwnTx runs fn in a transaction of its own: PostgreSQL takes many
// writers at once, and batching writes of different tables into one
// transaction would let two replicas' batches deadlock on each other's
// rows. A write the server still chose as a deadlock victim, or could not
// serialize, is run again.
func (s *Store) inOwnTx(ctx context.Context, fn func(tx *txn) error) error {
	for attempt := 0; ; attempt++ {
		err := s.runTx(ctx, fn)
		if attempt < maxAttempts && retryable(err) {
			continue
		}
		return err
	}
}

// runTx runs fn in one transaction, committed if fn returns nil; a
// panicking fn leaves nothing behind.
func (s *Store) runTx(ctx context.Context, fn func(tx *txn) error) error {
	tx, err := s.db.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// exec runs one write statement in a transaction of its own, through
// inTx like every other write: it is queued and batched with them, and
// run again on PostgreSQL if the server picks it as a deadlock victim.
func (s *Store) exec(ctx context.Context, query string, args ...any) error {
	return s.inTx(ctx, func(tx *txn) error {
		_, err := s.txExec(ctx, tx, query, args...)
		return err
	})
}
