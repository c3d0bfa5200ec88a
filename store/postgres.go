package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	// pgx's database/sql driver, registered as "pgx": PostgreSQL speaks
	// through the same queries as SQLite, through database/sql.
	_ "github.com/jackc/pgx/v5/stdlib"
)

// maxPostgresConns bounds one process's connections to PostgreSQL: enough
// for its writes and reads at once, few enough that several replicas stay
// well under the server's default 100.
const maxPostgresConns = 16

// OpenPostgres opens the PostgreSQL database at url (postgres://…), checks
// that it is a cribbage database this version can read, and applies any new
// migrations. Several bot processes may share it: every change is a
// compare-and-swap on the table's version, and ids come from sequences.
func OpenPostgres(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return nil, fmt.Errorf("store: %q is not a postgres:// URL", redact(dsn))
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", redact(dsn), err)
	}
	db.SetMaxOpenConns(maxPostgresConns)
	db.SetMaxIdleConns(maxPostgresConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{db: newConn(db, &postgres{}), now: time.Now}
	for _, o := range opts {
		o(s)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", redact(dsn), err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", redact(dsn), err)
	}
	return s, nil
}

// redact hides a URL's password, for messages and logs.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the database URL"
	}
	return u.Redacted()
}

// Ping checks the database answers: the readiness probe.
func (s *Store) Ping(ctx context.Context) error { return s.db.db.PingContext(ctx) }

// retryable reports a PostgreSQL error that running the transaction again
// can cure: a deadlock victim (40P01) or a serialization failure (40001).
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return pgErr.Code == "40P01" || pgErr.Code == "40001"
}

// postgres is the dialect of a PostgreSQL database, which many processes
// share and write at once.
type postgres struct {
	// rebound caches each query's bound text: binding is on every query's
	// way.
	rebound sync.Map // string → string
}

func (*postgres) name() string { return "postgres" }

// bind writes the placeholders $1, $2, … where the query says ?.
func (p *postgres) bind(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	if q, ok := p.rebound.Load(query); ok {
		return q.(string)
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	p.rebound.Store(query, b.String())
	return b.String()
}

// newID draws the id from the table's sequence, so replicas inserting at
// once never collide.
func (*postgres) newID(table string) string {
	return "nextval('" + table + "_id_seq')"
}

// migrations are the plain SQL files, and those for PostgreSQL only.
func (*postgres) migrations() []string { return []string{"*.sql", "postgres/*.sql"} }

// migrationLock names the PostgreSQL advisory lock that migrations hold:
// one per schema, so databases and schemas on one server do not wait on
// each other.
const migrationLock = `hashtext('cribbage migrations ' || current_schema())`

// lockMigrations lets one process at a time migrate a PostgreSQL schema.
// Replicas started together on an empty database would otherwise all run
// 0001 at once, and all but one fail on PostgreSQL's catalog ("duplicate
// key value violates unique constraint pg_type_typname_nsp_index"), even
// with IF NOT EXISTS. The lock is a session advisory lock, held on a
// connection of its own until unlock; the others wait for it, then find
// the migrations applied.
func (*postgres) lockMigrations(ctx context.Context, db *conn) (unlock func(), err error) {
	c, err := db.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := c.ExecContext(ctx, `SELECT pg_advisory_lock(`+migrationLock+`)`); err != nil {
		c.Close()
		return nil, fmt.Errorf("wait for other processes' migrations: %w", err)
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := c.ExecContext(ctx, `SELECT pg_advisory_unlock(`+migrationLock+`)`); err != nil {
			// A connection still holding the lock must not go back to the
			// pool: discarded, its session ends and the lock with it.
			c.Raw(func(any) error { return driver.ErrBadConn })
		}
		c.Close()
	}, nil
}

// lockPeople takes a transaction advisory lock on each person, released
// when the transaction ends. Writers of PostgreSQL run at once, each at
// READ COMMITTED, so without it two transactions could each count a
// person's tables before the other's commit and both add one. Taken
// before the change's writes, in one order (personLocks), they never wait
// in a circle; once a lock is had, each later statement of the
// transaction sees what the holder before committed. Two people whose
// keys hash alike only wait on each other.
func (*postgres) lockPeople(ctx context.Context, tx *txn, guildID string, people []string) error {
	for _, key := range personLocks(guildID, people) {
		if _, err := tx.exec(ctx, `SELECT pg_advisory_xact_lock(hashtext(?))`, key); err != nil {
			return fmt.Errorf("store: lock %s: %w", key, err)
		}
	}
	return nil
}

// seasonLock names a server's season advisory lock, in two keys: the
// schema's, so schemas on one server do not wait on each other, and the
// server's.
const seasonLock = `hashtext('cribbage season ' || current_schema()), hashtext(?)`

// lockSeason takes the server's season advisory lock for the rest of the
// transaction. PostgreSQL runs many writers at once, and without it a
// game finishing as an admin starts a season could read the old season,
// let the new one start and commit, and then commit the game into the
// season that had already ended. Finishes share the lock, so games at
// different tables still finish together; a season's start waits for
// the finishes under way, and they for it, each then reading the season
// as the other left it (read committed reads afresh each statement).
func (p *postgres) lockSeason(ctx context.Context, tx *txn, guildID string, exclusive bool) error {
	fn := "pg_advisory_xact_lock_shared"
	if exclusive {
		fn = "pg_advisory_xact_lock"
	}
	if _, err := p.exec(ctx, tx, `SELECT `+fn+`(`+seasonLock+`)`, guildID); err != nil {
		return fmt.Errorf("store: lock the season: %w", err)
	}
	return nil
}

// exec runs the statement as it is: pgx caches statements on each
// connection by itself, and preparing one on the pool would need a second
// connection while the transaction holds one (with every connection in a
// transaction, none would be free).
func (p *postgres) exec(ctx context.Context, tx *txn, query string, args ...any) (sql.Result, error) {
	return tx.tx.ExecContext(ctx, p.bind(query), args...)
}

// write runs fn in a transaction of its own: PostgreSQL takes many
// writers at once, and batching writes of different tables into one
// transaction would let two replicas' batches deadlock on each other's
// rows. A write the server still chose as a deadlock victim, or could not
// serialize, is run again, up to txTries runs in all.
func (*postgres) write(ctx context.Context, c *conn, fn func(tx *txn) error) error {
	for try := 1; ; try++ {
		err := c.runTx(ctx, fn)
		if try < txTries && retryable(err) {
			continue
		}
		return err
	}
}

// writeAlong is write: each replica's transactions are its own, so there
// is no batch to join, and another replica reads what is recorded.
func (p *postgres) writeAlong(ctx context.Context, c *conn, fn func(tx *txn) error) error {
	return p.write(ctx, c, fn)
}

// txTries is how many times write runs a transaction that PostgreSQL chose
// as a deadlock victim or could not serialize.
const txTries = 5
