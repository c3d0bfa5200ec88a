package mock_test

import (
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/internal/mock"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// TestConformance holds the double to the conformance suite the SQL store
// passes, so the handler tests run on it see what the store would do.
func TestConformance(t *testing.T) {
	servicetest.Run(t, func(t *testing.T, now func() time.Time) servicetest.Services {
		s := mock.NewStore()
		s.Now = now
		return s
	})
}
