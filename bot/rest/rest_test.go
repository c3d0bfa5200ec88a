package rest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// rewrittenClient is a Client whose requests for discord.com go to srv,
// as the bot's go to a REST proxy (or the fake Discord).
func rewrittenClient(tb testing.TB, srv *httptest.Server, timeout time.Duration) *Client {
	tb.Helper()
	base, err := url.Parse(srv.URL)
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	return &Client{HTTP: &http.Client{Transport: NewRewriteTransport(base, nil)}, Timeout: timeout, Token: "secret",
		Limits: NewLimits(func() time.Time { return now })}
}

// editThroughAToken is the commonest request the bot makes: a message
// edited with an interaction's token.
func editThroughAToken(tb testing.TB) Request {
	return Request{Method: http.MethodPatch, URL: discordgo.EndpointWebhookMessage("1", "tok", "2"), Bucket: "edit",
		Route: "edit", Body: map[string]string{"content": "Your turn"}, Interaction: true,
		TokenAt: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)}
}

// TestTheTimeoutBoundsTheRequestAndItsAnswer: a request Discord does not
// answer, or whose answer stops coming, fails once the client's Timeout
// has passed, rather than holding its caller.
func TestTheTimeoutBoundsTheRequestAndItsAnswer(t *testing.T) {
	for _, c := range []struct {
		name string
		// headers is whether the server sends the answer's headers
		// before it stops.
		headers bool
	}{{"no answer", false}, {"an answer that stops", true}} {
		t.Run(c.name, func(t *testing.T) {
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if c.headers {
					w.WriteHeader(http.StatusOK)
					w.Write([]byte(`{"id":`))
					w.(http.Flusher).Flush()
				}
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}))
			defer srv.Close()
			defer close(release)
			client := rewrittenClient(t, srv, 50*time.Millisecond)
			// Should the Timeout not hold, the request is called off
			// after a while all the same, and the test says so.
			ctx, cancel := context.WithCancel(context.Background())
			defer time.AfterFunc(5*time.Second, cancel).Stop()
			_, err := client.Do(ctx, editThroughAToken(t))
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Do = %v, want the deadline exceeded", err)
			}
		})
	}
}

// BenchmarkDoThroughTheRewrite is one edit through an interaction's token,
// sent through the rewrite to a local server: what each of the bot's
// requests costs it on top of the network.
func BenchmarkDoThroughTheRewrite(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"2"}`))
	}))
	defer srv.Close()
	client := rewrittenClient(b, srv, 20*time.Second)
	r := editThroughAToken(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.Do(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
}
