package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/google/pprof/profile"
)

// BenchmarkHumanPace is the live table at a person's pace, through the
// fake Discord with Discord's rate limits, for BENCH_HUMAN_SECONDS
// (default 20) of wall time: 100 tables five to a channel, and 900 tables
// each in a channel of its own (BENCH_HUMAN_TABLES and
// BENCH_HUMAN_PER_CHANNEL choose one instead). The tables are all seated
// first, their players' hand views open, then all play at once. Each
// player thinks 1 to 4 seconds, then plays from the hand view they hold
// when it offers the move (one click a card), and presses Show my hand
// only when it does not.
//
// It reports, for the moves made in the window: each click's answer time
// (p50, p99); how far the table message was behind each move (p50, p99);
// of that, the bot's own (ms-handled-p99, from receiving the interaction
// to handing its answer to the HTTP client) and the part spent waiting
// for a worker (ms-queued-p99), each the upper bound of the metric's
// histogram bucket the 99th percentile falls in (+Inf past the last); the
// rest of a click's time is the gateway's delivery and the answer's
// request; how far the table message was behind each move (p50, p99);
// the hand's record in the thread behind the move that closed the hand
// (s-story, p50 and p99; s-story-floor-p99, about the p99 no sender
// through the bot token could beat, see storyFloor;
// s-story-floor-both-p99, the same through the bot token and the
// channels' webhooks, which Discord counts apart; and
// s-story-floor-own-p99, the same at the bot's own budgets, for the ways
// it used); the hand views opened per move; the requests a move costs
// through interaction tokens (answers, and edits through a token, which
// Discord does not count against the bot's 50 a second), through the bot
// token, and through channels' webhooks; the process's CPU time per move (the bot's, and
// the fake Discord's and the players' besides), the bot's alone, and the
// Go runtime's (its share of the window's CPU profile: the bot's, the
// fake's and the players' goroutines carry the label side=bot, discord or
// players, and the garbage collector's none, whoever allocated); the 429s, of
// bot-token requests and of answers; the edits that changed nothing
// their message showed; and the clicks that went wrong (no answer in
// time, an apology or a refusal), after which the player plays on from a
// fresh view. It logs the requests by kind. Run it with
// -benchtime 1x (one run is the whole window), and -cpuprofile or
// -memprofile for where the time goes (BENCH_HUMAN_PROFILE names a file
// for the window's own CPU profile, labelled by side, instead). BENCH_HUMAN_STAGGER spreads the
// tables' first moves over that many seconds.
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
	all := seatAll(b, h, tables, perChannel)
	drainWithin(h, 15*time.Minute)
	before := len(h.fake.Requests())
	editsBefore := len(h.fake.Edits(""))
	limitedBefore := h.fake.RateLimited()
	h.latMu.Lock()
	h.latencies = nil
	h.latMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	// The window's CPU profile tells the bot's share of the process's
	// CPU from the fake Discord's and the players' (their goroutines
	// carry the label side); with -cpuprofile the test's own profile
	// runs instead, and only the process's CPU is reported.
	var prof bytes.Buffer
	profiling := pprof.StartCPUProfile(&prof) == nil
	// This goroutine's own waiting and reading is the benchmark's.
	pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("side", "benchmark")))
	defer pprof.SetGoroutineLabels(context.Background())
	cpuBefore := processCPU()
	queuedBefore, handledBefore := histogramOf(b, h, queuedSeconds), histogramOf(b, h, handledSeconds)
	start, since := time.Now(), h.fake.Now()
	var wg sync.WaitGroup
	for k := range all {
		wg.Add(1)
		go pprof.Do(ctx, pprof.Labels("side", "players"), func(ctx context.Context) {
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
		})
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
			return tableMessageVersion(m) >= last.version
		})
	}
	cpu := processCPU() - cpuBefore
	queuedWait, handled := histogramOf(b, h, queuedSeconds).since(queuedBefore), histogramOf(b, h, handledSeconds).since(handledBefore)
	var shares map[string]float64
	if profiling {
		pprof.StopCPUProfile()
		if path := os.Getenv("BENCH_HUMAN_PROFILE"); path != "" {
			if err := os.WriteFile(path, prof.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		shares = labelShares(b, &prof, "side")
	}
	reqs := h.fake.Requests()[before:]
	edits := h.fake.Edits("")[editsBefore:]
	moves, opens, failed := 0, 0, 0
	var behind []time.Duration
	ids := make([]int64, len(all))
	for i, l := range all {
		ids[i] = l.id
		moves += len(l.moves)
		opens += l.opens
		failed += l.failed
		for _, mv := range l.moves {
			at, ok := h.fake.FirstShowing(l.msg, mv.answered.Add(-time.Second), func(m discordtest.Message) bool {
				return tableMessageVersion(m) >= mv.version
			})
			if !ok {
				at = time.Now().Add(time.Hour) // never shown: as late as can be
			}
			behind = append(behind, max(at.Sub(mv.answered), 0))
		}
	}
	if moves == 0 {
		b.Fatal("no moves made in the window")
	}
	m := float64(moves)
	kinds := requestKinds(h, reqs, edits)
	b.Logf("%d moves at %d tables in %v; requests by kind: %v", moves, len(all), elapsed.Round(time.Millisecond), kinds)
	b.Logf("bot-token requests a second, by second of the window: %v", botTokenBySecond(reqs, start))
	limited := h.fake.RateLimited()
	clicks := slices.Clone(h.latencies)
	slices.Sort(clicks)
	slices.Sort(behind)
	delays, queued := announcementDelays(b, h, ids, since)
	slices.Sort(delays)
	// The story goes with the bot token, and through the channels'
	// webhooks when it has them, which Discord counts apart: the floors
	// are at each way's limit times the ways used.
	ways := 1
	if kinds["webhook"] > 0 {
		ways = 2
	}
	floor := storyFloor(queued, discordGlobalLimit)
	floorBoth := storyFloor(queued, 2*discordGlobalLimit)
	floorOwn := storyFloor(queued, ways*rest.GlobalBudget)
	same := 0
	for _, e := range edits {
		if e.Identical && e.Via != discordtest.ViaAnswer {
			same++
		}
	}
	p := func(d []time.Duration, q int) float64 { return d[len(d)*q/100].Seconds() }
	b.ReportMetric(m/elapsed.Seconds(), "moves/s")
	if len(clicks) > 0 {
		b.ReportMetric(p(clicks, 50)*1000, "ms-click-p50")
		b.ReportMetric(p(clicks, 99)*1000, "ms-click-p99")
	}
	b.ReportMetric(handled.quantile(0.99)*1000, "ms-handled-p99")
	b.ReportMetric(queuedWait.quantile(0.99)*1000, "ms-queued-p99")
	b.ReportMetric(p(behind, 50), "s-table-p50")
	b.ReportMetric(p(behind, 99), "s-table-p99")
	if len(delays) > 0 {
		b.ReportMetric(p(delays, 50), "s-story-p50")
		b.ReportMetric(p(delays, 99), "s-story-p99")
		// Every post counted in delays is in a message counted in the floor.
		b.ReportMetric(p(floor, 99), "s-story-floor-p99")
		b.ReportMetric(p(floorBoth, 99), "s-story-floor-both-p99")
		b.ReportMetric(p(floorOwn, 99), "s-story-floor-own-p99")
	}
	b.ReportMetric(float64(opens)/m, "opens/move")
	b.ReportMetric(float64(kinds["token"])/m, "token-requests/move")
	b.ReportMetric(float64(kinds["bot"])/m, "bot-requests/move")
	b.ReportMetric(float64(kinds["webhook"])/m, "webhook-requests/move")
	b.ReportMetric(float64(cpu.Microseconds())/1000/m, "cpu-ms/move")
	if shares != nil {
		b.ReportMetric(shares["bot"]*float64(cpu.Microseconds())/1000/m, "bot-cpu-ms/move")
		b.ReportMetric(shares[""]*float64(cpu.Microseconds())/1000/m, "runtime-cpu-ms/move")
	}
	b.ReportMetric(float64(limited["user"]-limitedBefore["user"]+limited["global"]-limitedBefore["global"]+
		limited["address"]-limitedBefore["address"]), "429s")
	b.ReportMetric(float64(kinds["answer 429"]), "answer-429s")
	b.ReportMetric(float64(same), "identical-edits")
	b.ReportMetric(float64(failed), "clicks-failed")
}

// The bot's histograms that tell where a click's time went.
const (
	queuedSeconds  = "cribbage_interaction_queued_seconds"
	handledSeconds = "cribbage_interaction_seconds"
)

// histogram is a histogram's cumulative count at each bucket's upper
// bound, and its count of samples, summed over the label sets of its
// family.
type histogram struct {
	bounds []float64
	counts []uint64
	total  uint64
}

// histogramOf reads histogram name from the running bot's metrics.
func histogramOf(t testing.TB, h *harness, name string) histogram {
	t.Helper()
	families, err := h.metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out histogram
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			out.total += m.GetHistogram().GetSampleCount()
			for i, bk := range m.GetHistogram().GetBucket() {
				if i == len(out.bounds) {
					out.bounds = append(out.bounds, bk.GetUpperBound())
					out.counts = append(out.counts, 0)
				}
				out.counts[i] += bk.GetCumulativeCount()
			}
		}
	}
	return out
}

// since is what h counted after before.
func (h histogram) since(before histogram) histogram {
	out := histogram{bounds: h.bounds, counts: slices.Clone(h.counts), total: h.total - before.total}
	for i := range min(len(out.counts), len(before.counts)) {
		out.counts[i] -= before.counts[i]
	}
	return out
}

// quantile is the upper bound, in seconds, of the bucket where the q
// quantile of h's samples falls: +Inf past the last bound, or for no
// samples at all.
func (h histogram) quantile(q float64) float64 {
	if h.total == 0 {
		return math.Inf(1)
	}
	want := uint64(math.Ceil(q * float64(h.total)))
	for i, c := range h.counts {
		if c >= want {
			return h.bounds[i]
		}
	}
	return math.Inf(1)
}

// seatAll opens tables, perChannel to a channel, and seats two players at
// each, who open their hand views: all of them, before any plays.
func seatAll(b *testing.B, h *harness, tables, perChannel int) []*liveTable {
	all := make([]*liveTable, tables)
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
			l := &liveTable{h: h, id: id, msg: a.MessageID, people: usersOf(host, guest), views: map[string]string{}, channel: channel, holding: true}
			// Each player has their hand view open when play begins.
			for _, u := range []discordtest.User{host, guest} {
				l.views[u.ID] = l.press(u, l.msg, "/hand/"+itoa64(id)).MessageID
			}
			all[k] = l
		}()
	}
	wg.Wait()
	return all
}

// requestKinds counts requests by what they are: "token" those made with
// an interaction's token (answers, edits and follow-ups through it),
// "bot" those made with the bot token, and within them each kind: an
// answer, an edit through a token of a table message or of a hand view,
// a bot-token request by route, an edit that uploaded a new board; and
// those refused 429 ("answer 429", "token 429", "bot 429").
func requestKinds(h *harness, reqs []discordtest.Request, edits []discordtest.Edit) map[string]int {
	out := map[string]int{}
	for _, r := range reqs {
		switch {
		case r.Route == "":
			out["unknown route"]++
		case strings.HasSuffix(r.Route, "/callback"):
			out["token"]++
			out["answer"]++
			if r.Status == http.StatusTooManyRequests {
				out["answer 429"]++
			}
		case r.ChannelWebhook:
			out["webhook"]++
			out[fmt.Sprintf("webhook %d", r.Status)]++
		case viaToken(r):
			out["token"]++
			if r.Status == http.StatusTooManyRequests {
				out["token 429"]++
			} else if r.Status >= 300 {
				out[fmt.Sprintf("token %d", r.Status)]++
			}
			if !strings.HasPrefix(r.Route, "PATCH ") {
				out["token "+r.Route]++
			}
		default:
			out["bot"]++
			out[fmt.Sprintf("bot %s %d", r.Route, r.Status)]++
		}
	}
	for _, e := range edits {
		if e.Files > 0 {
			out["edit with a new board"]++
		}
		if e.Via != discordtest.ViaToken {
			continue
		}
		if m, _ := h.fake.Message(e.MessageID); m.Ephemeral {
			out["token edit of a view"]++
		} else {
			out["token edit of a table"]++
		}
	}
	return out
}

// announcementDelays is, for every story post queued at the tables since
// a time, the time from its queueing (the move) to the thread message that
// carried it (a post and the items carried with it share one message, by
// its nonce); and, for every such message, when its first post was
// queued.
func announcementDelays(b *testing.B, h *harness, tables []int64, since time.Time) (delays []time.Duration, queued []time.Time) {
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
		// A table's story messages go one at a time, in order, each
		// carrying the items its first sealed (a post through the
		// channel's webhook has no nonce to name it by): the thread's
		// messages are its sealed heads, in order.
		var heads []int64
		for _, it := range items {
			if it.SealedThrough != 0 {
				heads = append(heads, it.ID)
			}
		}
		for k, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
			if k >= len(heads) {
				break
			}
			head := heads[k]
			// A hand's lines wait for the post that ends it; the story's
			// delay is the post's, from the move that ended the hand.
			last := max(byID[head].SealedThrough, head)
			var first time.Time
			for id := head; id <= last; id++ {
				if it, ok := byID[id]; ok && it.Kind == "post" && !it.CreatedAt.Before(since) {
					delays = append(delays, m.Timestamp.Sub(it.CreatedAt))
					if first.IsZero() || it.CreatedAt.Before(first) {
						first = it.CreatedAt
					}
				}
			}
			if !first.IsZero() {
				queued = append(queued, first)
			}
		}
	}
	return delays, queued
}

// viaToken reports whether a request was made with an interaction's token
// (an answer, or a webhook route but a channel webhook's), which Discord
// does not count against the bot token's 50 a second.
func viaToken(r discordtest.Request) bool {
	return strings.HasSuffix(r.Route, "/callback") || strings.Contains(r.Route, "/webhooks/") && !r.ChannelWebhook
}

// botTokenBySecond counts the requests made with the bot token in each
// second from start: how much of its budget the story had, and used.
func botTokenBySecond(reqs []discordtest.Request, start time.Time) []int {
	var out []int
	for _, r := range reqs {
		if r.Route == "" || viaToken(r) || r.ChannelWebhook {
			continue
		}
		sec := int(r.At.Sub(start) / time.Second)
		if sec < 0 {
			continue
		}
		for len(out) <= sec {
			out = append(out, 0)
		}
		out[sec]++
	}
	return out
}

// discordGlobalLimit is how many requests a second Discord takes with the
// bot token, from every route together.
const discordGlobalLimit = 50

// storyFloor is the delays, in order, that thread messages first wanted at
// the times queued would have if each were sent, oldest first, the moment
// a bot token allowed perSecond requests in any second, spent on nothing
// else, let it go, and Discord took it at once. No sender of them all
// through the bot token does better at the slowest; its p99 is a floor
// near enough for s-story-p99, which counts each post of a message from
// its own queueing (a later post a message carries waits less), and
// which another order could trade a little of at the slowest's expense.
// When hundreds of hands end in the same seconds, this is the wait the
// bot token puts on their records whatever the bot does.
func storyFloor(queued []time.Time, perSecond int) []time.Duration {
	queued = slices.Clone(queued)
	slices.SortFunc(queued, time.Time.Compare)
	sent := make([]time.Time, len(queued))
	delays := make([]time.Duration, len(queued))
	for i, q := range queued {
		at := q
		if i > 0 && at.Before(sent[i-1]) {
			at = sent[i-1]
		}
		if i >= perSecond && at.Before(sent[i-perSecond].Add(time.Second)) {
			at = sent[i-perSecond].Add(time.Second)
		}
		sent[i], delays[i] = at, at.Sub(q)
	}
	slices.Sort(delays)
	return delays
}

// drainWithin waits for the outbox to empty, however long the backlog of
// many tables takes at the bot's own pace.
func drainWithin(h *harness, d time.Duration) {
	h.within(d, "outbox delivered", func() bool {
		items, err := h.store.PendingOutbox(context.Background(), 10)
		return err == nil && len(items) == 0
	})
}

// labelShares is the share of a CPU profile's samples by the value of
// their goroutine's label key ("" for none). The benchmark's goroutines
// carry side=bot, discord, players or benchmark; the Go runtime's own
// (the garbage collector's marking and sweeping, for everyone's
// allocations) carry none.
func labelShares(b *testing.B, raw *bytes.Buffer, key string) map[string]float64 {
	p, err := profile.Parse(raw)
	if err != nil {
		b.Fatalf("read the window's CPU profile: %v", err)
	}
	cpu := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			cpu = i
		}
	}
	if cpu < 0 {
		b.Fatal("the CPU profile has no cpu samples")
	}
	by := map[string]int64{}
	var all int64
	for _, s := range p.Sample {
		v := ""
		if vs := s.Label[key]; len(vs) > 0 {
			v = vs[0]
		}
		by[v] += s.Value[cpu]
		all += s.Value[cpu]
	}
	shares := map[string]float64{}
	for v, n := range by {
		if all > 0 {
			shares[v] = float64(n) / float64(all)
		}
	}
	return shares
}
