package store

import (
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// TestConformance holds the store to the services' conformance suite, the
// one the in-memory double passes too: on a SQLite file here, and on
// PostgreSQL in the suite's PostgreSQL run (TestSuiteOnPostgres).
func TestConformance(t *testing.T) {
	servicetest.Run(t, func(t *testing.T, now func() time.Time) servicetest.Services {
		s, _ := MustOpen(t, WithClock(now))
		return s
	})
}
