package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// These tests run the process's own serve, as main does, on loopback: its
// listeners, its HTTP servers and their limits, the bot taking
// interactions over HTTP from the fake Discord, and its shutdown.

// served is a running serve.
type served struct {
	fake                 *discordtest.Server
	interactions, metric string // base URLs
	cancel               context.CancelFunc
	done                 chan error
	logs                 *lockedBuffer
}

// serveEnv is the environment of a bot taking interactions over HTTP from
// fake (REST at api), with both listeners on free loopback ports.
func serveEnv(t testing.TB, fake *discordtest.Server, api string) map[string]string {
	return map[string]string{
		"DISCORD_TOKEN":      "test-token",
		"DISCORD_API_URL":    api,
		"DISCORD_PUBLIC_KEY": fake.PublicKey(),
		"DISCORD_GUILD_ID":   testGuild,
		"INTERACTIONS_ADDR":  "127.0.0.1:0",
		"METRICS_ADDR":       "127.0.0.1:0",
		"DATABASE_PATH":      filepath.Join(t.TempDir(), "c.db"),
	}
}

// startServe binds and serves with the configuration from env (its limits
// changed by limits, if set) until the test ends, and waits for the
// commands to be registered.
func startServe(t testing.TB, fake *discordtest.Server, env map[string]string, limits func(*httpLimits)) *served {
	t.Helper()
	cfg, err := loadConfig(envMap(env))
	if err != nil {
		t.Fatal(err)
	}
	if limits != nil {
		limits(&cfg.Limits)
	}
	ls, err := listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &served{fake: fake, logs: &lockedBuffer{}, done: make(chan error, 1),
		interactions: "http://" + ls.interactions.Addr().String(), metric: "http://" + ls.metrics.Addr().String()}
	logger := slog.New(slog.NewTextHandler(io.MultiWriter(testWriter{t}, s.logs), &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() {
		defer ls.close()
		s.done <- serveOn(ctx, cfg, logger, ls)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			t.Error("serve did not return")
		}
	})
	h := &harness{t: t, fake: fake}
	h.eventually("commands registered", func() bool { return allRegistered(fake, testGuild) })
	fake.DeliverOverHTTP(s.interactions + "/interactions")
	return s
}

// status GETs a URL and returns its status code, or 0 if it failed.
func status(u string) int {
	resp, err := http.Get(u)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// newFake is a fake Discord checked for violations when the test ends.
func newFake(t *testing.T) *discordtest.Server {
	fake := discordtest.New()
	t.Cleanup(func() {
		fake.Close()
		for _, v := range fake.Violations() {
			t.Errorf("Discord would refuse: %s", v)
		}
	})
	return fake
}

// TestATakenPortStopsTheBotAtStart: when a listener's port is taken, the
// bot exits at once, saying which address, before it tells Discord
// anything: no commands registered, no request at all.
func TestATakenPortStopsTheBotAtStart(t *testing.T) {
	for _, key := range []string{"INTERACTIONS_ADDR", "METRICS_ADDR"} {
		t.Run(key, func(t *testing.T) {
			fake := newFake(t)
			taken, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer taken.Close()
			env := serveEnv(t, fake, fake.URL())
			env[key] = taken.Addr().String()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			code, _, stderr := runCLI(t, ctx, env)
			if code != 1 || !strings.Contains(stderr, key+" "+taken.Addr().String()) || !strings.Contains(stderr, "cannot listen") {
				t.Errorf("exit %d, stderr %q: want 1 and a line naming %s", code, stderr, key)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %s to give up", took)
			}
			if n := len(fake.Requests()); n != 0 || len(fake.Commands(testGuild)) != 0 {
				t.Errorf("%d requests to Discord, commands %v", n, fake.Commands(testGuild))
			}
		})
	}
}

// TestReadinessAndMetricsAreNotPublic: the listener the proxy exposes
// serves the interactions endpoint and liveness only; readiness and the
// metrics, which query the database, are on METRICS_ADDR.
func TestReadinessAndMetricsAreNotPublic(t *testing.T) {
	fake := newFake(t)
	s := startServe(t, fake, serveEnv(t, fake, fake.URL()), nil)
	for _, tc := range []struct {
		base, path string
		want       int
	}{
		{s.interactions, "/healthz", 200},
		{s.interactions, "/readyz", 404},
		{s.interactions, "/metrics", 404},
		{s.metric, "/healthz", 200},
		{s.metric, "/readyz", 200},
		{s.metric, "/metrics", 200},
		{s.metric, "/interactions", 404},
	} {
		if got := status(tc.base + tc.path); got != tc.want {
			t.Errorf("%s%s: %d, want %d", tc.base, tc.path, got, tc.want)
		}
	}
	// The endpoint works.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := fake.Interact(ctx, discordtest.Command(testGuild, testChannel, alice, "help"))
	if err != nil || !a.Ephemeral() {
		t.Errorf("help over HTTP: %v %+v", err, a)
	}
}

// TestShutdownIsBoundedAndReadinessGoesFirst: interactions in flight hang
// on Discord (the proxy holds every request made with an interaction's
// token, and discordgo queues them on one bucket). SIGTERM turns readiness
// off at once, the endpoint refuses new interactions, and serve returns
// within its bound anyway.
func TestShutdownIsBoundedAndReadinessGoesFirst(t *testing.T) {
	fake := newFake(t)
	target, _ := url.Parse(fake.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	var held atomic.Int64
	hold := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/webhooks/") {
			held.Add(1)
			<-r.Context().Done()
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer hold.Close()
	s := startServe(t, fake, serveEnv(t, fake, hold.URL), nil)
	// Each /cribbage start is answered in the HTTP response, then the bot
	// reads the message it posted through the token, and hangs there.
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			fake.Interact(ctx, discordtest.Command(testGuild, testChannel, alice, "start"))
		}()
	}
	wg.Wait()
	h := &harness{t: t, fake: fake}
	h.eventually("a request held", func() bool { return held.Load() > 0 })
	if got := status(s.metric + "/readyz"); got != 200 {
		t.Fatalf("/readyz before the shutdown: %d", got)
	}
	start := time.Now()
	s.cancel()
	h.within(time.Second, "/readyz to answer 503", func() bool { return status(s.metric+"/readyz") == 503 })
	ready := time.Since(start)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := fake.Interact(ctx, discordtest.Command(testGuild, testChannel, bob, "help")); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("an interaction during the shutdown: %v, want a 503", err)
	}
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		t.Logf("readiness off after %s; serve returned after %s (%d requests held), with %v", ready, time.Since(start), held.Load(), err)
	case <-time.After(12 * time.Second):
		t.Fatalf("serve had not returned %s after the shutdown began", time.Since(start))
	}
}

// signedJunk is the head of a request with a well-formed signature (not
// Discord's) and a fresh timestamp, declaring a body of n bytes.
func signedJunk(host string, n int) string {
	return fmt.Sprintf("POST /interactions HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nX-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %d\r\nContent-Length: %d\r\n\r\n",
		host, strings.Repeat("ab", 64), time.Now().Unix(), n)
}

// TestSlowClientsAndAFloodLeaveTheBotHealthy attacks the interactions
// endpoint on loopback, as anyone can, since a body must be read before
// its signature is checked: 300 connections trickling a body a byte at a
// time, 150 sending 998 KB of a body and stalling, and 1,000 quick
// requests with bad signatures, all at once. Meanwhile Discord's own
// interactions are answered; the server cuts every slow client (its read
// timeout, seen within a bound a busy machine keeps); the heap stays
// bounded; and afterwards goroutines and
// memory return to where they were.
func TestSlowClientsAndAFloodLeaveTheBotHealthy(t *testing.T) {
	if testing.Short() {
		t.Skip("an attack of a few seconds")
	}
	const readTimeout = 2 * time.Second
	// slowBound is how long a slow client may be seen held before the
	// test calls it not closed: ten times the timeout (see held).
	const slowBound = 10 * readTimeout
	fake := newFake(t)
	s := startServe(t, fake, serveEnv(t, fake, fake.URL()), func(l *httpLimits) {
		l.ReadHeaderTimeout, l.ReadTimeout, l.WriteTimeout, l.IdleTimeout = time.Second, readTimeout, 5*time.Second, time.Second
	})
	host := strings.TrimPrefix(s.interactions, "http://")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := fake.Interact(ctx, discordtest.Command(testGuild, testChannel, alice, "help")); err != nil {
		t.Fatal(err)
	}
	http.DefaultClient.CloseIdleConnections()
	heap0, routines0 := settled()
	live0 := liveHeap()

	// The peak is of the heap each collection found live: what the server
	// holds. The heap in use also counts the garbage waiting for the next
	// collection, up to the collector's goal (twice the live heap), so it
	// measured the pacing more than the server: it grew by 30 to 48 MiB
	// from run to run of the same code, over the bound once in six.
	var peak atomic.Uint64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if h := liveHeap(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	var wg sync.WaitGroup
	var mu sync.Mutex
	var slowest time.Duration
	var failed []string
	fail := func(format string, args ...any) {
		mu.Lock()
		failed = append(failed, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	// held measures how long the server keeps a connection open while the
	// client sends what send sends.
	held := func(send func(c net.Conn)) {
		defer wg.Done()
		c, err := net.Dial("tcp", host)
		if err != nil {
			fail("dial: %v", err)
			return
		}
		defer c.Close()
		start := time.Now()
		closed := make(chan struct{})
		go func() {
			io.Copy(io.Discard, c)
			close(closed)
		}()
		go send(c)
		// The server closes a slow client's connection once its read
		// timeout passes; how soon the close is seen here depends on the
		// machine's load (under the race detector, on two busy cores,
		// seconds late), so the bound is one no server that honours its
		// timeout misses, and that a server without one always does.
		select {
		case <-closed:
		case <-time.After(slowBound):
			fail("a slow connection still open after %s", slowBound)
			return
		}
		mu.Lock()
		slowest = max(slowest, time.Since(start))
		mu.Unlock()
	}
	for range 300 {
		wg.Add(1)
		go held(func(c net.Conn) {
			io.WriteString(c, signedJunk(host, 999_000))
			for {
				if _, err := c.Write([]byte("x")); err != nil {
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
	// One body for all, so the test's own memory does not count.
	stalled := make([]byte, 998_000)
	for range 150 {
		wg.Add(1)
		go held(func(c net.Conn) {
			io.WriteString(c, signedJunk(host, 999_000))
			c.Write(stalled)
		})
	}
	var refused atomic.Int64
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := strings.Repeat("x", 1000)
			for range 50 {
				req, _ := http.NewRequest(http.MethodPost, s.interactions+"/interactions", strings.NewReader(body))
				for k, v := range fake.Sign([]byte("another body")) {
					req.Header[k] = v
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					fail("flood: %v", err)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 401 {
					refused.Add(1)
				}
			}
		}()
	}
	// Discord's own interactions get through meanwhile.
	answered := 0
	for range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		a, err := fake.Interact(ctx, discordtest.Command(testGuild, testChannel, bob, "help"))
		cancel()
		if err == nil && a.Ephemeral() {
			answered++
		}
	}
	wg.Wait()
	close(stopSampling)
	<-sampled
	for _, f := range failed[:min(len(failed), 5)] {
		t.Error(f)
	}
	if answered != 5 {
		t.Errorf("%d of 5 interactions from Discord answered during the attack", answered)
	}
	if n := refused.Load(); n != 1000 {
		t.Errorf("%d of 1000 badly signed requests refused with 401", n)
	}
	const mib = 1 << 20
	if grew := int64(peak.Load()) - int64(live0); grew > 48*mib {
		t.Errorf("the live heap grew by %d MiB during the attack", grew/mib)
	}
	http.DefaultClient.CloseIdleConnections()
	h := &harness{t: t, fake: fake}
	var heap1 uint64
	var routines1 int
	h.within(10*time.Second, "memory and goroutines back to where they were", func() bool {
		heap1, routines1 = settled()
		return heap1 < heap0+8*mib && routines1 <= routines0+5
	})
	if got := status(s.metric + "/readyz"); got != 200 {
		t.Errorf("/readyz after the attack: %d", got)
	}
	t.Logf("heap in use: %.1f MiB before, %.1f MiB after; live heap %.1f MiB before, %.1f MiB at the peak; goroutines: %d before, %d after; slowest client held %s",
		float64(heap0)/mib, float64(heap1)/mib, float64(live0)/mib, float64(peak.Load())/mib, routines0, routines1, slowest.Round(time.Millisecond))
}

// liveHeap is the heap the last garbage collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// settled collects garbage and returns the heap in use and the number of
// goroutines.
func settled() (heap uint64, goroutines int) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, runtime.NumGoroutine()
}
