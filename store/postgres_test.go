package store

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/internal/pgtest"
)

// The store's tests are one suite for both databases. A plain `go test`
// runs it on SQLite files; with TEST_POSTGRES_URL set, TestSuiteOnPostgres
// runs the same tests again, in a child process, against that server, each
// test in a schema of its own. `.ci/with-postgres go test ./store/` starts a
// throwaway server and sets the URL.

// postgresRun is set in the child process that runs the suite on PostgreSQL.
const postgresRun = "CRIBBAGE_STORE_SUITE_ON_POSTGRES"

func onPostgres() bool { return os.Getenv(postgresRun) != "" }

// skipOnPostgres skips a test that is about the SQLite file itself.
func skipOnPostgres(t testing.TB, why string) {
	t.Helper()
	if onPostgres() {
		t.Skip("SQLite only: " + why)
	}
}

func TestSuiteOnPostgres(t *testing.T) {
	if onPostgres() {
		t.Skip("this is the PostgreSQL run")
	}
	if !pgtest.Available() {
		t.Skip("the store suite on PostgreSQL: " + pgtest.HowTo)
	}
	// The child runs the whole suite, whatever selected this test.
	args := []string{"-test.count=1", "-test.v"}
	for _, name := range []string{"test.timeout", "test.short"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" && f.Value.String() != f.DefValue {
			args = append(args, "-"+name+"="+f.Value.String())
		}
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
	cmd.Env = append(os.Environ(), postgresRun+"=1")
	out, err := cmd.CombinedOutput()
	// Only the verdicts: the whole log is there when something failed.
	for _, line := range strings.Split(string(out), "\n") {
		if err != nil || strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "ok") || strings.HasPrefix(line, "PASS") {
			t.Log(line)
		}
	}
	if err != nil {
		t.Fatalf("the store suite failed on PostgreSQL: %v", err)
	}
}

// mustOpenPostgres opens a store in a fresh schema of the test server.
func mustOpenPostgres(t testing.TB, opts ...Option) (*Store, string) {
	t.Helper()
	u := pgtest.Schema(t)
	s, err := OpenPostgres(context.Background(), u, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, u
}
