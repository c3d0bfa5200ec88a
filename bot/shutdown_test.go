package bot

import (
	"context"
	"testing"
)

// TestShutdownBeginsWithRunsContext: the moment Run's context ends, the
// bot refuses new interactions, as readiness does, without waiting for
// Run's goroutine to be scheduled and notice. On a busy machine that
// goroutine can lag, and an interaction sent after /readyz answered 503
// was taken.
func TestShutdownBeginsWithRunsContext(t *testing.T) {
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	b := &Bot{runCtx: context.Background(), stop: stop}
	b.gate.Open(b.runCtx, stop)
	if !b.Serving() {
		t.Fatal("a running bot is not serving")
	}
	if !b.enter() {
		t.Fatal("a running bot refused a handler")
	}
	b.leave()
	cancel()
	if b.Serving() {
		t.Error("still serving after Run's context ended")
	}
	if b.enter() {
		t.Error("a handler admitted after Run's context ended")
	}
}
