package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cribbage-bot/cribbage/bot"
	"github.com/cribbage-bot/cribbage/store"
	"github.com/prometheus/client_golang/prometheus"
)

// TestHealthReadinessAndMetrics checks the service routes: /healthz is
// always ok, /readyz follows the database and the shutdown, /metrics shows
// the bot's metrics, both only on the private listener, and /interactions
// is there only with a public key.
func TestHealthReadinessAndMetrics(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	b, err := bot.New(bot.Options{Token: "x", Store: st, Metrics: reg})
	if err != nil {
		t.Fatal(err)
	}
	ctx, shutDown := context.WithCancel(context.Background())
	defer shutDown()
	var serving atomic.Bool
	srv := httptest.NewServer(metricsRoutes(ctx, serving.Load, st, reg))
	defer srv.Close()
	public := httptest.NewServer(interactionRoutes(b, Config{}))
	defer public.Close()
	getFrom := func(base, path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	get := func(path string) (int, string) { return getFrom(srv.URL, path) }
	if status, _ := get("/healthz"); status != 200 {
		t.Errorf("/healthz: %d", status)
	}
	if status, _ := get("/readyz"); status != 503 {
		t.Errorf("/readyz before the bot serves: %d, want 503", status)
	}
	serving.Store(true)
	if status, _ := get("/readyz"); status != 200 {
		t.Errorf("/readyz with the database up: %d", status)
	}
	status, body := get("/metrics")
	for _, name := range []string{"cribbage_outbox_depth", "cribbage_outbox_oldest_seconds", "cribbage_games_in_progress"} {
		if status != 200 || !strings.Contains(body, name) {
			t.Errorf("/metrics: %d, no %s", status, name)
		}
	}
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 404, "/metrics": 404, "/interactions": 404} {
		if status, _ := getFrom(public.URL, path); status != want {
			t.Errorf("the public listener's %s (no public key): %d, want %d", path, status, want)
		}
	}
	shutDown()
	if status, _ := get("/readyz"); status != 503 {
		t.Errorf("/readyz shutting down: %d, want 503", status)
	}
	running := httptest.NewServer(metricsRoutes(context.Background(), serving.Load, st, reg))
	defer running.Close()
	get = func(path string) (int, string) { return getFrom(running.URL, path) }
	st.Close()
	if status, _ := get("/readyz"); status != 503 {
		t.Errorf("/readyz with the database closed: %d, want 503", status)
	}
	if status, _ := get("/healthz"); status != 200 {
		t.Errorf("/healthz with the database closed: %d (alive is not ready)", status)
	}
}

func TestHealthCommand(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer ok.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusServiceUnavailable) }))
	defer down.Close()
	if code, _, _ := runCLI(t, context.Background(), nil, "health", ok.URL); code != 0 {
		t.Errorf("a ready bot: exit %d", code)
	}
	if code, _, _ := runCLI(t, context.Background(), nil, "health", down.URL); code != 1 {
		t.Errorf("a bot that is not ready: exit %d, want 1", code)
	}
}
