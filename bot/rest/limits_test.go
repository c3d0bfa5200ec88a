package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// TestBucketsOfAnsweredInteractionsAreForgotten answers many more
// interactions than the limits keep buckets for, each in its own bucket
// as an answer is: the buckets kept stay bounded, so a bot that runs for
// days does not grow by a bucket a click.
func TestBucketsOfAnsweredInteractionsAreForgotten(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	c := &Client{HTTP: srv.Client(), Limits: NewLimits(func() time.Time { return now })}
	for i := range 3 * maxBuckets {
		id := strconv.Itoa(i)
		if _, err := c.Do(context.Background(), Request{Method: http.MethodPost, URL: srv.URL + "/interactions/" + id + "/tok/callback",
			Bucket: CallbackBucket(id), Route: "callback", Body: map[string]int{"type": 6}, Interaction: true, TokenAt: now}); err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		now = now.Add(time.Millisecond)
	}
	c.Limits.mu.Lock()
	kept := len(c.Limits.buckets)
	c.Limits.mu.Unlock()
	if kept > maxBuckets {
		t.Errorf("%d buckets kept after %d answers, want at most %d", kept, 3*maxBuckets, maxBuckets)
	}
}
