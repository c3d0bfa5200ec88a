package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
)

// dialect is everything that differs between the databases the store
// speaks: SQLite (one file, one machine; see sqlite.go) and PostgreSQL
// (shared by many replicas; see postgres.go). The queries are otherwise
// the same text, written with ? placeholders, and no code outside the two
// dialects asks which database it is.
type dialect interface {
	// name names the database, for messages.
	name() string
	// bind writes a query's ? placeholders the database's way. The
	// store's queries hold no question mark but placeholders.
	bind(query string) string
	// newID is an SQL expression for the next id of a table of the store
	// (tables or outbox).
	newID(table string) string
	// migrations are the patterns, in migrations.Files, of the migrations
	// the database runs.
	migrations() []string
	// lockMigrations keeps other processes from migrating the database
	// until unlock is called.
	lockMigrations(ctx context.Context, c *conn) (unlock func(), err error)
	// write runs fn in a write transaction: fn's writes are committed if
	// it returns nil, and undone if it returns an error or panics (the
	// panic then reaches write's caller).
	write(ctx context.Context, c *conn, fn func(tx *txn) error) error
	// writeAlong is write for a write that may wait a moment (alongWait)
	// to be committed with others rather than on its own: a record of
	// what Discord shows, which only a process that starts reads.
	writeAlong(ctx context.Context, c *conn, fn func(tx *txn) error) error
	// lockPeople keeps every other write transaction that locks one of
	// people in the server from going on until tx ends, so that a limit on
	// a person's tables (cribbage.Hold) counts what the others committed.
	lockPeople(ctx context.Context, tx *txn, guildID string, people []string) error
	// exec runs one statement of a write transaction.
	exec(ctx context.Context, tx *txn, query string, args ...any) (sql.Result, error)
	// lockSeason holds a server's current season still until tx ends:
	// shared by the transactions that record a game in it, exclusive for
	// the one that starts the next (seasonForResult, StartSeason).
	lockSeason(ctx context.Context, tx *txn, guildID string, exclusive bool) error
}

// conn is the database, speaking its dialect: every query's placeholders
// are bound on the way. It only reads: every write is a transaction's,
// made through Store.inTx and txn.exec.
type conn struct {
	db *sql.DB
	d  dialect

	// stmts caches prepared statements: SQLite otherwise parses each
	// statement every time it runs, which cost a move more than running
	// its reads did. Once prepareReads is set (the schema is final),
	// every read is prepared too, up to maxPrepared statements (a query
	// written for its arguments, such as an IN list, can be many).
	stmtMu       sync.Mutex
	stmts        map[string]*sql.Stmt
	prepareReads atomic.Bool
}

// maxPrepared bounds the statements conn keeps prepared.
const maxPrepared = 400

func newConn(db *sql.DB, d dialect) *conn {
	return &conn{db: db, d: d, stmts: map[string]*sql.Stmt{}}
}

func (c *conn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := c.preparedRead(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return c.db.QueryContext(ctx, c.d.bind(query), args...)
}

func (c *conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := c.preparedRead(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.db.QueryRowContext(ctx, c.d.bind(query), args...)
}

// preparedRead is the prepared statement for a read, or nil when reads
// are not prepared, the cache is full, or preparing failed (the query
// then runs unprepared, and fails there if it is wrong).
func (c *conn) preparedRead(ctx context.Context, query string) *sql.Stmt {
	if !c.prepareReads.Load() {
		return nil
	}
	c.stmtMu.Lock()
	st, ok := c.stmts[query]
	full := len(c.stmts) >= maxPrepared
	c.stmtMu.Unlock()
	if ok {
		return st
	}
	if full {
		return nil
	}
	st, err := c.prepared(ctx, query)
	if err != nil {
		return nil
	}
	return st
}

// prepared returns the prepared statement for query, preparing it once;
// database/sql then keeps it prepared on each connection it runs on.
func (c *conn) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	c.stmtMu.Lock()
	defer c.stmtMu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, c.d.bind(query))
	if err != nil {
		return nil, err
	}
	c.stmts[query] = st
	return st, nil
}

// Close closes the prepared statements and the database.
func (c *conn) Close() error {
	c.stmtMu.Lock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmtMu.Unlock()
	return c.db.Close()
}

// begin starts a transaction in the dialect.
func (c *conn) begin(ctx context.Context) (*txn, error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &txn{tx: tx, c: c}, nil
}

// runTx runs fn in one transaction, committed if fn returns nil; a
// panicking fn leaves nothing behind.
func (c *conn) runTx(ctx context.Context, fn func(tx *txn) error) error {
	tx, err := c.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// txn is a write transaction, speaking its database's dialect. It does
// not hand out its *sql.Tx: exec is the one way anything writes, so no
// statement skips the binding or the statement cache, and only the
// dialect's write commits or rolls back.
type txn struct {
	tx *sql.Tx
	c  *conn
}

// exec runs a write statement in the transaction, the dialect's way.
func (t *txn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.c.d.exec(ctx, t, query, args...)
}

// affected runs a write statement, as exec, and returns how many rows it
// wrote: the statements that insert or update only if a condition holds
// (ON CONFLICT DO NOTHING, a compare-and-swap on a version) tell that way
// whether it did.
func (t *txn) affected(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := t.exec(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.c.preparedRead(ctx, query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, t.c.d.bind(query), args...)
}

func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.c.preparedRead(ctx, query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, t.c.d.bind(query), args...)
}
