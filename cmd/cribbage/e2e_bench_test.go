package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/store"
)

// BenchmarkInteractionLatency100Tables plays 100 two-player tables at once
// through the fake Discord; every interaction's time from INTERACTION_CREATE
// sent to the callback received is recorded. Each iteration is one move at
// every table. Targets: median under 20 ms, p99 under 100 ms (reported as
// ms-median and ms-p99).
//
// Lockstep starts all 100 moves in the same instant, the worst case;
// Staggered starts each at a random moment of a 100 ms window, as moves at
// busy tables arrive — still far more load than people make (reported as
// interactions-per-s). The 429s the fake answered, by scope, are reported
// too (429s-route, 429s-global). The fake runs on the same two cores and
// its schema check costs CPU: BENCH_FAKE_SCHEMA=off measures the bot
// alone, as the fake before it had no such check.
func BenchmarkInteractionLatency100Tables(b *testing.B) {
	b.Run("Lockstep", func(b *testing.B) { benchTables(b, 0) })
	b.Run("Staggered", func(b *testing.B) { benchTables(b, 100*time.Millisecond) })
}

// benchTables runs the benchmark, spreading each round's moves over spread.
func benchTables(b *testing.B, spread time.Duration) {
	// The timers at their production interval: the benchmark is of moves.
	h := newHarnessTimers(b, time.Minute)
	if os.Getenv("BENCH_FAKE_SCHEMA") == "off" {
		// The bot's latency alone: the fake's schema check shares the
		// cores (see discordtest.Server.SkipSchemaCheck).
		h.fake.SkipSchemaCheck()
	}
	playLoad(b, h, 100, spread)
	// The fake keeps Discord's rate limits: what the bot ran into.
	limited := h.fake.RateLimited()
	b.ReportMetric(float64(limited["user"]), "429s-route")
	b.ReportMetric(float64(limited["global"]), "429s-global")
	byRoute := map[string]int{}
	for _, r := range h.fake.Requests() {
		if r.Status == http.StatusTooManyRequests {
			byRoute[r.Route]++
		}
	}
	b.Logf("429s by route: %v", byRoute)
}

// playLoad plays tables two-player tables at once, each iteration one move
// at every table, the moves of a round spread over spread, and reports the
// answers' latency (median, p99) and the interactions answered a second.
func playLoad(b *testing.B, h *harness, tables int, spread time.Duration) {
	type table struct {
		id     int64
		msg    string
		people map[string]discordtest.User
	}
	open := func(k int) table {
		host := discordtest.User{ID: fmt.Sprintf("5%017d", 2*k+1), Name: fmt.Sprintf("P%d", 2*k+1)}
		guest := discordtest.User{ID: fmt.Sprintf("5%017d", 2*k+2), Name: fmt.Sprintf("P%d", 2*k+2)}
		id, msg := h.open(host)
		h.click(guest, msg, "/join/"+itoa64(id))
		return table{id, msg, usersOf(host, guest)}
	}
	all := make([]table, tables)
	for k := range all {
		all[k] = open(k)
	}
	h.latMu.Lock()
	h.latencies = nil
	h.latMu.Unlock()
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	b.ResetTimer()
	for b.Loop() {
		delays := make([]time.Duration, tables)
		for k := range delays {
			if spread > 0 {
				delays[k] = time.Duration(rng.Int64N(int64(spread)))
			}
		}
		var wg sync.WaitGroup
		for k := range all {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				time.Sleep(delays[k])
				t := all[k]
				if !h.step(t.id, t.msg, t.people) || h.table(t.id).Status != cribbage.StatusPlaying {
					all[k] = open(tables + k)
				}
			}(k)
		}
		wg.Wait()
	}
	b.StopTimer()
	h.latMu.Lock()
	lat := append([]time.Duration(nil), h.latencies...)
	h.latMu.Unlock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) == 0 {
		b.Fatal("no interactions measured")
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "ms-median")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "ms-p99")
	b.ReportMetric(float64(len(lat))/time.Since(start).Seconds(), "interactions-per-s")
}

// BenchmarkReplicas is one load — 50 two-player tables, each round's moves
// spread over 100 ms, interactions delivered over HTTP — answered by one
// process on SQLite, and by 1, 2 and 3 replica processes on PostgreSQL
// (TEST_POSTGRES_URL), all on this machine with the fake Discord. It
// reports the answers' median and p99 latency and interactions a second.
func BenchmarkReplicas(b *testing.B) {
	const tables = 50
	spread := 100 * time.Millisecond
	b.Run("sqlite-1", func(b *testing.B) {
		h := newHarnessWith(b, func(h *harness) { h.overHTTP, h.timerInterval = true, time.Minute })
		h.fake.SkipSchemaCheck()
		playLoad(b, h, tables, spread)
	})
	for _, n := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("postgres-%d", n), func(b *testing.B) {
			databaseURL := postgresSchema(b)
			fake := discordtest.New()
			b.Cleanup(fake.Close)
			fake.SkipSchemaCheck()
			var endpoints []string
			for range n {
				_, u := startReplica(b, fake, databaseURL)
				endpoints = append(endpoints, u)
			}
			st, err := store.OpenPostgres(context.Background(), databaseURL)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			h := &harness{t: b, fake: fake, store: st}
			h.eventually("commands registered", func() bool { return len(fake.Commands(testGuild)) >= 1 })
			fake.DeliverOverHTTP(endpoints...)
			playLoad(b, h, tables, spread)
		})
	}
}
