package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
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
	s := &Store{db: &conn{DB: db, d: postgresDialect}, now: time.Now, stmts: map[string]*sql.Stmt{}}
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
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// retryable reports a PostgreSQL error that running the transaction again
// can cure: a deadlock victim (40P01) or a serialization failure (40001).
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return pgErr.Code == "40P01" || pgErr.Code == "40001"
}
