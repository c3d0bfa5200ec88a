package store

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/cribbage-bot/cribbage/migrations"
)

// migrate applies, in name order, every embedded migration not yet recorded
// in schema_migrations, each in its own transaction. A database that
// records a migration this binary does not have comes from a newer version
// and is refused rather than guessed at.
func (s *Store) migrate(ctx context.Context) error {
	unlock, err := s.db.d.lockMigrations(ctx, s.db)
	if err != nil {
		return err
	}
	defer unlock()
	err = s.inTx(ctx, func(tx *txn) error {
		_, err := tx.exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			name TEXT PRIMARY KEY,
			applied_at BIGINT NOT NULL
		)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("not a readable cribbage database: %w", err)
	}
	var names []string
	for _, pattern := range s.db.d.migrations() {
		more, err := fs.Glob(migrations.Files, pattern)
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
				if _, err := tx.exec(ctx, stmt); err != nil {
					return fmt.Errorf("migration %s: %w", name, err)
				}
			}
			if finish := finishMigration[name]; finish != nil {
				if err := finish(ctx, tx); err != nil {
					return fmt.Errorf("migration %s: %w", name, err)
				}
			}
			_, err := tx.exec(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, name, millis(s.now()))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
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
