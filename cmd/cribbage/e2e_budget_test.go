package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// BenchmarkHumanPace is the REST budget and the live table at a person's
// pace: tables whose players move every 1 to 4 seconds, as people do,
// through the fake Discord with Discord's rate limits, for
// BENCH_HUMAN_SECONDS (default 20) of wall time: 100 tables five to a
// channel, and 900 tables each in a channel of its own
// (BENCH_HUMAN_TABLES and BENCH_HUMAN_PER_CHANNEL choose one instead).
// Players play as people with their hand views open do: from the view the
// bot keeps current, one click a card. It reports the bot-token requests a
// move costs (interaction answers and interaction-token webhooks do not
// count against Discord's 50 a second), the 429s, every click's answer
// time (p99), how far the table message was behind each move (p50, p99),
// and the delay from a story post being queued (the move that ended a
// hand) to its message in the thread (p50, p99). Run it with -benchtime
// 1x: one run is the whole window. BENCH_HUMAN_STAGGER spreads the tables'
// first moves over that many seconds.
func BenchmarkHumanPace(b *testing.B) {
	sizes := []struct{ tables, perChannel int }{{100, 5}, {900, 1}}
	if v, err := strconv.Atoi(os.Getenv("BENCH_HUMAN_TABLES")); err == nil {
		per := 1
		if p, err := strconv.Atoi(os.Getenv("BENCH_HUMAN_PER_CHANNEL")); err == nil && p > 0 {
			per = p
		}
		sizes = []struct{ tables, perChannel int }{{v, per}}
	}
	window := 20 * time.Second
	if v, err := strconv.Atoi(os.Getenv("BENCH_HUMAN_SECONDS")); err == nil {
		window = time.Duration(v) * time.Second
	}
	// Tables whose players all sit down in the same second end their
	// hands together, in waves; BENCH_HUMAN_STAGGER (seconds) spreads their
	// first moves over that long, as people arrive.
	var stagger time.Duration
	if v, err := strconv.Atoi(os.Getenv("BENCH_HUMAN_STAGGER")); err == nil {
		stagger = time.Duration(v) * time.Second
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tables-%d-per-channel-%d", n.tables, n.perChannel), func(b *testing.B) {
			for b.Loop() {
				humanPace(b, n.tables, n.perChannel, window, stagger)
			}
		})
	}
}

func humanPace(b *testing.B, tables, perChannel int, window, stagger time.Duration) {
	h := newHarnessTimers(b, time.Minute)
	h.fake.SkipSchemaCheck() // the bot's requests are what is measured
	all := make([]*liveTable, tables)
	channels := make([]string, tables)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for k := range all {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			host := discordtest.User{ID: fmt.Sprintf("6%017d", 2*k+1), Name: fmt.Sprintf("P%d", 2*k+1)}
			guest := discordtest.User{ID: fmt.Sprintf("6%017d", 2*k+2), Name: fmt.Sprintf("P%d", 2*k+2)}
			// Tables are spread over channels, as in a server: a channel's
			// own limits then bind as they would.
			channel := fmt.Sprintf("47%016d", k/perChannel)
			a := h.send(discordtest.Command(testGuild, channel, host, "start"))
			id := tableIDFrom(b, a.Response.Data.Components, "/join/")
			h.eventually("table message recorded", func() bool { return h.tableMessage(id).MessageID == a.MessageID })
			h.send(discordtest.Click(testGuild, channel, guest, a.MessageID, "/join/"+itoa64(id)))
			all[k] = &liveTable{h: h, id: id, msg: a.MessageID, people: usersOf(host, guest), views: map[string]string{}, channel: channel, patient: true}
			channels[k] = channel
		}()
	}
	wg.Wait()
	drainWithin(h, 15*time.Minute)
	before := len(h.fake.Requests())
	limitedBefore := h.fake.RateLimited()
	h.latMu.Lock()
	h.latencies = nil
	h.latMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	start, since := time.Now(), h.fake.Now()
	for k := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(k), 7))
			if stagger > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Duration(rng.Int64N(int64(stagger)))):
				}
			}
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Second + time.Duration(rng.Int64N(int64(3*time.Second)))):
				}
				if !all[k].step() {
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	drainWithin(h, 15*time.Minute)
	// The last moves' edits land moments after the window: wait for each
	// table message to show its table's last move before measuring.
	for _, l := range all {
		if len(l.moves) == 0 {
			continue
		}
		last := l.moves[len(l.moves)-1]
		h.within(time.Minute, "the table message to show the last move", func() bool {
			m, _ := h.fake.Message(l.msg)
			return !tableMessageTime(m).Before(last.lastAction.Truncate(time.Millisecond))
		})
	}
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
	var behind []time.Duration
	moves, stale := 0, 0
	for i, l := range all {
		ids[i] = l.id
		moves += len(l.moves)
		stale += l.stale
		for _, mv := range l.moves {
			at, ok := h.fake.FirstShowing(l.msg, mv.answered.Add(-time.Second), func(m discordtest.Message) bool {
				return !tableMessageTime(m).Before(mv.lastAction.Truncate(time.Millisecond))
			})
			if !ok {
				at = time.Now().Add(time.Hour) // never shown: as late as can be
			}
			behind = append(behind, max(at.Sub(mv.answered), 0))
		}
	}
	h.latMu.Lock()
	clicks := slices.Clone(h.latencies)
	h.latMu.Unlock()
	slices.Sort(clicks)
	slices.Sort(behind)
	delays := announcementDelays(b, h, ids, since)
	slices.Sort(delays)
	m := float64(moves)
	b.ReportMetric(float64(botToken)/m, "bot-requests/move")
	b.ReportMetric(m/elapsed.Seconds(), "moves/s")
	b.ReportMetric(float64(limited["user"]-limitedBefore["user"]+limited["global"]-limitedBefore["global"]), "429s")
	b.ReportMetric(float64(stale), "views-not-current")
	p := func(d []time.Duration, q int) float64 { return d[len(d)*q/100].Seconds() }
	if len(clicks) > 0 {
		b.ReportMetric(p(clicks, 99)*1000, "ms-click-p99")
	}
	if len(behind) > 0 {
		b.ReportMetric(p(behind, 50), "s-table-p50")
		b.ReportMetric(p(behind, 99), "s-table-p99")
	}
	if len(delays) > 0 {
		b.ReportMetric(p(delays, 50), "s-story-p50")
		b.ReportMetric(p(delays, 99), "s-story-p99")
	}
}

// announcementDelays is, for every story post queued at the tables since
// a time, the time from its queueing (the move) to the thread message that
// carried it (a post and the items carried with it share one message, by
// its nonce).
func announcementDelays(b *testing.B, h *harness, tables []int64, since time.Time) []time.Duration {
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
		for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
			head, err := strconv.ParseInt(strings.TrimPrefix(m.Nonce, "cb"), 10, 64)
			if err != nil {
				continue
			}
			// A hand's lines wait for the post that ends it; the story's
			// delay is the post's, from the move that ended the hand.
			last := max(byID[head].SealedThrough, head)
			for id := head; id <= last; id++ {
				if it, ok := byID[id]; ok && it.Kind == "post" && !it.CreatedAt.Before(since) {
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
