// Package pgtest gives tests a PostgreSQL schema of their own on the real
// server TEST_POSTGRES_URL names (.ci/with-postgres starts a throwaway one),
// dropped when the test ends. It is for tests only.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	// pgx's database/sql driver, to create and drop the schemas.
	_ "github.com/jackc/pgx/v5/stdlib"
)

// Env names the variable holding the test server's URL.
const Env = "TEST_POSTGRES_URL"

// HowTo says how to run the PostgreSQL tests, for a skip message.
const HowTo = "set TEST_POSTGRES_URL=postgres://user@host:port/db to run them against PostgreSQL, or run them under .ci/with-postgres"

// Available reports whether a test server is configured.
func Available() bool { return os.Getenv(Env) != "" }

// Schema creates a fresh schema on the test server and returns a URL whose
// connections use it; the schema is dropped when the test ends.
func Schema(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		t.Fatal(Env + " is not set")
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.ExecContext(context.Background(), `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
