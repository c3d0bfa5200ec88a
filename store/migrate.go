package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/cribbage-bot/cribbage/migrations"
)

// migrate applies, in name order, every embedded migration not yet recorded
// in schema_migrations, each in its own transaction. A database that
// records a migration this binary does not have comes from a newer version
// and is refused rather than guessed at.
func (s *Store) migrate(ctx context.Context) error {
	unlock, err := s.lockMigrations(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY,
		applied_at BIGINT NOT NULL
	)`); err != nil {
		return fmt.Errorf("not a readable cribbage database: %w", err)
	}
	names, err := fs.Glob(migrations.Files, "*.sql")
	if err != nil {
		return err
	}
	if s.db.d.postgres {
		more, err := fs.Glob(migrations.Files, "postgres/*.sql")
		if err != nil {
			return err
		}
		names = append(names, more...)
	}
	// In order of number, whichever folder a file is in.
	sort.Slice(names, func(i, j int) bool { return path.Base(names[i]) < path.Base(names[j]) })
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	applied, err := s.appliedMigrations(ctx)
	if err != nil {
		return err
	}
	for name := range applied {
		if !known[name] {
			return fmt.Errorf("%w: it has migration %s, which this binary does not know", ErrNewerSchema, name)
		}
	}
	for _, name := range names {
		if applied[name] {
			continue
		}
		body, err := fs.ReadFile(migrations.Files, name)
		if err != nil {
			return err
		}
		err = s.inTx(ctx, func(tx *txn) error {
			for _, stmt := range splitStatements(string(body)) {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("migration %s: %w", name, err)
				}
			}
			if finish := finishMigration[name]; finish != nil {
				if err := finish(ctx, tx); err != nil {
					return fmt.Errorf("migration %s: %w", name, err)
				}
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, name, millis(s.now()))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

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
// the migrations applied. SQLite's own write lock serializes its writers.
func (s *Store) lockMigrations(ctx context.Context) (unlock func(), err error) {
	if !s.db.d.postgres {
		return func() {}, nil
	}
	c, err := s.db.DB.Conn(ctx)
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

// appliedMigrations returns the names recorded as applied.
func (s *Store) appliedMigrations(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out[name] = true
	}
	return out, rows.Err()
}

// splitStatements splits a migration on semicolons that end a line, after
// dropping comment lines. Migrations hold no semicolons inside statements.
func splitStatements(body string) []string {
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			lines = append(lines, line)
		}
	}
	var out []string
	for _, stmt := range strings.Split(strings.Join(lines, "\n"), ";\n") {
		if stmt = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stmt), ";")); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out
}
