package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// dialect is what differs between the databases the store speaks: SQLite
// (one file, one machine) and PostgreSQL (shared by many replicas). The
// queries are otherwise the same text.
type dialect struct {
	name string
	// postgres writes placeholders $1, $2, … where the queries say ?.
	postgres bool
	// rebound caches each query's rewritten text.
	rebound sync.Map // string → string
}

var (
	sqliteDialect   = &dialect{name: "sqlite"}
	postgresDialect = &dialect{name: "postgres", postgres: true}
)

// rebind writes query's placeholders for the database. The store's queries
// hold no question mark but placeholders.
func (d *dialect) rebind(query string) string {
	if !d.postgres || !strings.Contains(query, "?") {
		return query
	}
	if q, ok := d.rebound.Load(query); ok {
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
	d.rebound.Store(query, b.String())
	return b.String()
}

// newID is an SQL expression for the next id of a table of the store
// (tables or outbox). PostgreSQL draws it from the table's sequence, so
// replicas inserting at once never collide; SQLite has one writer at a
// time, so the next number after the largest is free.
func (d *dialect) newID(table string) string {
	if d.postgres {
		return "nextval('" + table + "_id_seq')"
	}
	return "(SELECT COALESCE(MAX(id), 0) + 1 FROM " + table + ")"
}

// conn is the database, speaking its dialect: every query's placeholders
// are rewritten on the way.
type conn struct {
	*sql.DB
	d *dialect
}

func (c *conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.DB.ExecContext(ctx, c.d.rebind(query), args...)
}

func (c *conn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.DB.QueryContext(ctx, c.d.rebind(query), args...)
}

func (c *conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return c.DB.QueryRowContext(ctx, c.d.rebind(query), args...)
}

func (c *conn) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return c.DB.PrepareContext(ctx, c.d.rebind(query))
}

// begin starts a transaction in the dialect.
func (c *conn) begin(ctx context.Context) (*txn, error) {
	tx, err := c.DB.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &txn{Tx: tx, d: c.d}, nil
}

// txn is a transaction, speaking its database's dialect.
type txn struct {
	*sql.Tx
	d *dialect
}

func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.d.rebind(query), args...)
}

func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.d.rebind(query), args...)
}

func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.d.rebind(query), args...)
}
