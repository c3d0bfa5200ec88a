package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// BenchmarkHumanPace is the REST budget: tables whose players move every 1
// to 4 seconds, as people do, through the fake Discord with Discord's rate
// limits, for BENCH_HUMAN_SECONDS (default 20) of wall time at 100 and 900
// tables (BENCH_HUMAN_TABLES overrides). It reports the bot-token requests
// a move costs (interaction answers and interaction-token webhooks do not
// count against Discord's 50 a second), the 429s, and the delay from a
// move being answered to its story line reaching the thread (p50, p99).
// Run it with -benchtime 1x: one run is the whole window.
func BenchmarkHumanPace(b *testing.B) {
	sizes := []int{100, 900}
	if v, err := strconv.Atoi(os.Getenv("BENCH_HUMAN_TABLES")); err == nil {
		sizes = []int{v}
	}
	window := 20 * time.Second
	if v, err := strconv.Atoi(os.Getenv("BENCH_HUMAN_SECONDS")); err == nil {
		window = time.Duration(v) * time.Second
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tables-%d", n), func(b *testing.B) {
			for b.Loop() {
				humanPace(b, n, window)
			}
		})
	}
}

func humanPace(b *testing.B, tables int, window time.Duration) {
	h := newHarnessTimers(b, time.Minute)
	h.fake.SkipSchemaCheck() // the bot's requests are what is measured
	type table struct {
		id     int64
		msg    string
		people map[string]discordtest.User
	}
	all := make([]table, tables)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for k := range all {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			host := discordtest.User{ID: fmt.Sprintf("6%017d", 2*k+1), Name: fmt.Sprintf("P%d", 2*k+1)}
			guest := discordtest.User{ID: fmt.Sprintf("6%017d", 2*k+2), Name: fmt.Sprintf("P%d", 2*k+2)}
			// Tables are spread over channels, five to a channel, as in a
			// server: a channel's own limits then bind as they would.
			channel := fmt.Sprintf("47%016d", k/5)
			a := h.send(discordtest.Command(testGuild, channel, host, "start"))
			id := tableIDFrom(b, a.Response.Data.Components, "/join/")
			h.eventually("table message recorded", func() bool { return h.table(id).MessageID == a.MessageID })
			h.send(discordtest.Click(testGuild, channel, guest, a.MessageID, "/join/"+itoa64(id)))
			all[k] = table{id, a.MessageID, usersOf(host, guest)}
		}()
	}
	wg.Wait()
	drainWithin(h, 15*time.Minute)
	before := len(h.fake.Requests())
	limitedBefore := h.fake.RateLimited()
	var moves atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	start := time.Now()
	for k := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(k), 7))
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Second + time.Duration(rng.Int64N(int64(3*time.Second)))):
				}
				t := all[k]
				if h.table(t.id).Status != cribbage.StatusPlaying || !h.step(t.id, t.msg, t.people) {
					return
				}
				moves.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	drainWithin(h, 15*time.Minute)
	var botToken int
	byRoute := map[string]int{}
	for _, r := range h.fake.Requests()[before:] {
		if r.Route != "" && !strings.Contains(r.Route, "/callback") && !strings.HasPrefix(r.Route, "PATCH /webhooks") &&
			!strings.HasPrefix(r.Route, "GET /webhooks") && !strings.HasPrefix(r.Route, "POST /webhooks") {
			botToken++
			byRoute[fmt.Sprintf("%s %d", r.Route, r.Status)]++
		}
	}
	b.Logf("bot-token requests by route and status: %v", byRoute)
	limited := h.fake.RateLimited()
	ids := make([]int64, len(all))
	for i, t := range all {
		ids[i] = t.id
	}
	delays := announcementDelays(b, h, ids)
	sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
	m := float64(moves.Load())
	b.ReportMetric(float64(botToken)/m, "bot-requests/move")
	b.ReportMetric(m/elapsed.Seconds(), "moves/s")
	b.ReportMetric(float64(limited["user"]-limitedBefore["user"]+limited["global"]-limitedBefore["global"]), "429s")
	if len(delays) > 0 {
		b.ReportMetric(delays[len(delays)/2].Seconds(), "s-delay-p50")
		b.ReportMetric(delays[len(delays)*99/100].Seconds(), "s-delay-p99")
	}
}

// announcementDelays is, for every story post queued at the tables, the
// time from its queueing (the move) to the thread message that carried it
// (a post and the lines merged into it share one message, by its nonce).
func announcementDelays(b *testing.B, h *harness, tables []int64) []time.Duration {
	var out []time.Duration
	for _, id := range tables {
		tb := h.table(id)
		items, err := h.store.TableOutbox(context.Background(), tb.ID)
		if err != nil {
			b.Fatal(err)
		}
		byID := map[int64]cribbage.OutboxItem{}
		for _, it := range items {
			byID[it.ID] = it
		}
		for _, m := range h.fake.ChannelMessages(tb.ThreadID) {
			head, err := strconv.ParseInt(strings.TrimPrefix(m.Nonce, "cb"), 10, 64)
			if err != nil {
				continue
			}
			last := max(byID[head].SealedThrough, head)
			for id := head; id <= last; id++ {
				if it, ok := byID[id]; ok && it.Kind == "post" {
					out = append(out, m.Timestamp.Sub(it.CreatedAt))
				}
			}
		}
	}
	return out
}

// drainWithin waits for the outbox to empty, however long the backlog of
// many tables takes at the bot's own pace.
func drainWithin(h *harness, d time.Duration) {
	h.within(d, "outbox delivered", func() bool {
		items, err := h.store.PendingOutbox(context.Background(), 10)
		return err == nil && len(items) == 0
	})
}
