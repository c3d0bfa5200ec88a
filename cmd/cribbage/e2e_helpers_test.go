package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot"
	botcommand "github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/store"
	"github.com/prometheus/client_golang/prometheus"
)

const (
	testGuild   = "400000000000000001"
	testChannel = "400000000000000002"
)

var (
	alice = discordtest.User{ID: "300000000000000001", Name: "Alice"}
	bob   = discordtest.User{ID: "300000000000000002", Name: "Bob"}
	carol = discordtest.User{ID: "300000000000000003", Name: "Carol"}
	dan   = discordtest.User{ID: "300000000000000004", Name: "Dan"}
	eve   = discordtest.User{ID: "300000000000000005", Name: "Eve"}
	// ada manages the server: /cribbage-admin is hers by default.
	ada = discordtest.User{ID: "300000000000000006", Name: "Ada", Permissions: discordgo.PermissionManageGuild}
)

// harness runs the real bot, on a real SQLite file, against the fake Discord.
type harness struct {
	t    testing.TB
	fake *discordtest.Server
	path string
	// databaseURL, when set, is a PostgreSQL database used instead of the
	// file at path.
	databaseURL string
	// overHTTP has Discord deliver interactions to the bot's interactions
	// endpoint instead of the gateway; endpoint is that server.
	overHTTP bool
	endpoint *httptest.Server
	// metrics receives the running bot's metrics (a new registry a run).
	metrics *prometheus.Registry
	store   *store.Store
	cancel  context.CancelFunc
	done    chan error

	timerInterval time.Duration
	// nudgeAfter is the bot's NudgeAfter (0: no pings after a pause).
	nudgeAfter time.Duration
	// timersAt is the fake time of the bot's last check of its timers.
	timersAt atomic.Int64
	// seeds counts the seeds handed out: every run deals the same cards.
	seeds atomic.Uint64
	// computers, when set, decides for the computer players instead of
	// engine/ai's.
	computers cribbage.Computers

	// latencies records, when set, every answer's time from dispatch to
	// callback.
	latMu     sync.Mutex
	latencies []time.Duration

	// apiURL, when set, is where the bot sends REST requests instead of
	// the fake (a proxy in front of it); logs holds what the bot logged.
	apiURL string
	logs   lockedBuffer

	// wrapStore, when set, is what the bot is given in place of the
	// store: a test's way into the bot's calls (see e2e_limits_test.go).
	wrapStore func(bot.Store) bot.Store
	// global registers the commands globally, as a bot without
	// DISCORD_GUILD_ID does, rather than to the test's server: Discord
	// offers a command in DMs only then (see e2e_daily_test.go).
	global bool
	// guild and channel, when channel is set, are where the harness's
	// commands, clicks and forms are made instead of the test's server
	// channel: guild "" is a DM with the bot (see e2e_anywhere_test.go);
	// mark, when set, marks each as made there (discordtest.InGroupDM).
	guild, channel string
	mark           func(*discordgo.Interaction) *discordgo.Interaction
}

// at marks an interaction the harness makes as made where the harness is.
func (h *harness) at(i *discordgo.Interaction) *discordgo.Interaction {
	if h.mark != nil {
		return h.mark(i)
	}
	return i
}

// where is where the harness's interactions are made.
func (h *harness) where() (guild, channel string) {
	if h.channel == "" {
		return testGuild, testChannel
	}
	return h.guild, h.channel
}

// newHarness starts a fake Discord and a bot connected to it, checking its
// timers every 20 ms so tests that move the clock see them fire promptly.
func newHarness(t testing.TB) *harness { return newHarnessTimers(t, 20*time.Millisecond) }

// newHarnessTimers is newHarness with the timers checked every interval.
func newHarnessTimers(t testing.TB, interval time.Duration) *harness {
	return newHarnessOn(t, "", interval)
}

// newHarnessOn is newHarnessTimers on the PostgreSQL database at
// databaseURL, or on a SQLite file when it is "".
func newHarnessOn(t testing.TB, databaseURL string, interval time.Duration) *harness {
	return newHarnessWith(t, func(h *harness) { h.databaseURL, h.timerInterval = databaseURL, interval })
}

// newHarnessWith is newHarness set up by setup before the bot starts.
func newHarnessWith(t testing.TB, setup func(h *harness)) *harness {
	h := &harness{t: t, fake: discordtest.New(), path: filepath.Join(t.TempDir(), "cribbage.db"), timerInterval: 20 * time.Millisecond}
	// Discord's limits run on the fake's clock, as the bot's own reckoning
	// of them does: a test that moves the clock moves both.
	h.fake.SetRateClock(h.fake.Now)

	setup(h)
	t.Cleanup(func() {
		h.stopBot()
		h.fake.Close()
		// Every test holds the bot to Discord's contract: any request the
		// fake refused as Discord would fails it.
		for _, v := range h.fake.Violations() {
			t.Errorf("Discord would refuse: %s", v)
		}
	})
	h.startBot()
	return h
}

// startBot opens the database and runs a bot until stopBot.
func (h *harness) startBot() {
	h.t.Helper()
	// The bot's goroutines, the store's and the endpoint's carry the
	// profiler label side=bot: a profile tells the bot's work from the
	// fake Discord's (side=discord), the players' and the Go runtime's.
	pprof.Do(context.Background(), pprof.Labels("side", "bot"), func(context.Context) { h.startBotLabelled() })
}

// startBotLabelled is startBot, under its label.
func (h *harness) startBotLabelled() {
	h.t.Helper()
	var st *store.Store
	var err error
	if h.databaseURL != "" {
		st, err = store.OpenPostgres(context.Background(), h.databaseURL, store.WithClock(h.fake.Now))
	} else {
		st, err = store.Open(context.Background(), h.path, store.WithClock(h.fake.Now))
	}
	if err != nil {
		h.t.Fatal(err)
	}
	u, _ := url.Parse(h.fake.URL())
	if h.apiURL != "" {
		u, _ = url.Parse(h.apiURL)
	}
	h.metrics = prometheus.NewRegistry()
	logger := slog.New(slog.NewTextHandler(io.MultiWriter(testWriter{h.t}, &h.logs), &slog.HandlerOptions{Level: slog.LevelWarn}))
	var bs bot.Store = st
	if h.wrapStore != nil {
		bs = h.wrapStore(st)
	}
	registerTo := testGuild
	if h.global {
		registerTo = ""
	}
	b, err := bot.New(bot.Options{Token: "test-token", GuildID: registerTo, APIURL: u, Store: bs, Logger: logger, Now: h.fake.Now,
		ReminderAfter: 12 * time.Hour, ForfeitAfter: 7 * 24 * time.Hour, NudgeAfter: h.nudgeAfter, TimerInterval: h.timerInterval,
		TimersChecked: func(at time.Time) { h.timersAt.Store(at.UnixNano()) },
		Seeds:         func() engine.Seed { return engine.SeedFromUint64(h.seeds.Add(1)) },
		HTTPOnly:      h.overHTTP,
		Computers:     h.computers,
		Metrics:       h.metrics})
	if err != nil {
		h.t.Fatal(err)
	}
	if h.overHTTP {
		key, err := intake.ParsePublicKey(h.fake.PublicKey())
		if err != nil {
			h.t.Fatal(err)
		}
		h.endpoint = httptest.NewServer(b.InteractionsHandler(key))
		h.fake.DeliverOverHTTP(h.endpoint.URL)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.store, h.cancel, h.done = st, cancel, make(chan error, 1)
	go func() { h.done <- b.Run(ctx) }()
	if !h.overHTTP {
		if err := h.fake.WaitReady(5 * time.Second); err != nil {
			h.t.Fatal(err)
		}
	}
	h.eventually("commands registered", func() bool { return allRegistered(h.fake, registerTo) })
}

// allRegistered reports whether every command the bot defines is
// registered to a server ("" for globally).
func allRegistered(fake *discordtest.Server, guildID string) bool {
	return len(fake.Commands(guildID)) == len(botcommand.Definitions())
}

// stopBot shuts the bot down gracefully and closes the database.
func (h *harness) stopBot() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("bot stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		h.t.Error("bot did not stop")
	}
	h.store.Close()
	if h.endpoint != nil {
		h.endpoint.Close()
		h.endpoint = nil
	}
	h.cancel = nil
}

// lockedBuffer is a buffer that goroutines may write at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written.
func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testWriter sends logs to the test log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// eventuallyBound is how long eventually waits for the bot to do by
// itself what it does at once (edit a view after a move, check its
// timers, register its commands). It bounds whether the bot does it, not
// how soon: no test of play asserts that (BenchmarkQuickGame measures
// it). With another whole test run on the same two cores, a view the
// strong computer had just moved at took longer than the 5 s this was.
const eventuallyBound = 30 * time.Second

// eventually polls cond for up to eventuallyBound.
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	h.within(eventuallyBound, what, cond)
}

// eventuallyHurried is eventually with the clock running fast meanwhile
// (hurry): for a wait on what the bot paces on that clock (a view's
// edits), which a test need not sit out in real time.
func (h *harness) eventuallyHurried(what string, cond func() bool) {
	h.t.Helper()
	h.within(eventuallyBound, what, func() bool {
		if cond() {
			return true
		}
		h.hurry()
		return false
	})
}

// within polls cond for up to d.
func (h *harness) within(d time.Duration, what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// send dispatches an interaction and returns the bot's answer as the
// user sees it: an answer the bot deferred (one with pictures over HTTP,
// a replay's page anywhere) once the bot completed it.
func (h *harness) send(i *discordgo.Interaction) discordtest.Answer {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := h.fake.Interact(ctx, i)
	if err != nil {
		h.t.Fatal(err)
	}
	// Drawing the deferred answer's pictures may take a busy machine
	// seconds more.
	settle, cancelSettle := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelSettle()
	if a, err = h.fake.Settle(settle, a); err != nil {
		h.t.Fatal(err)
	}
	h.latMu.Lock()
	h.latencies = append(h.latencies, a.Latency)
	h.latMu.Unlock()
	return a
}

// command runs /cribbage sub as u.
func (h *harness) command(u discordtest.User, sub string, opts ...discordtest.Opt) discordtest.Answer {
	h.t.Helper()
	guild, channel := h.where()
	return h.send(h.at(discordtest.Command(guild, channel, u, sub, opts...)))
}

// club runs /cribbage-club sub as u.
func (h *harness) club(u discordtest.User, sub string, opts ...discordtest.Opt) discordtest.Answer {
	h.t.Helper()
	return h.send(discordtest.CommandOf("cribbage-club", testGuild, testChannel, u, sub, opts...))
}

// admin runs /cribbage-admin sub as u.
func (h *harness) admin(u discordtest.User, sub string, opts ...discordtest.Opt) discordtest.Answer {
	h.t.Helper()
	return h.send(discordtest.CommandOf("cribbage-admin", testGuild, testChannel, u, sub, opts...))
}

// click presses a button on a message as u.
func (h *harness) click(u discordtest.User, messageID, customID string) discordtest.Answer {
	h.t.Helper()
	guild, channel := h.where()
	return h.send(h.at(discordtest.Click(guild, channel, u, messageID, customID)))
}

// table reads a table from the database.
func (h *harness) table(id int64) *cribbage.Table {
	h.t.Helper()
	t, err := h.store.Table(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return t
}

// tableMessage reads what is recorded of a table's message.
func (h *harness) tableMessage(id int64) cribbage.TableMessage {
	h.t.Helper()
	m, err := h.store.TableMessage(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

// open starts a table as host and returns its id and message.
func (h *harness) open(host discordtest.User, opts ...discordtest.Opt) (int64, string) {
	h.t.Helper()
	a := h.command(host, "start", opts...)
	if a.Ephemeral() || a.MessageID == "" {
		h.t.Fatalf("start answered %+v", a.Response)
	}
	id := tableIDFrom(h.t, a.Response.Data.Components, "/join/")
	h.eventually("table message recorded", func() bool { return h.tableMessage(id).MessageID == a.MessageID })
	return id, a.MessageID
}

// tableIDFrom reads the table id from a table message's button whose
// custom_id starts with prefix ("/join/" in a lobby, "/hand/" in a game).
func tableIDFrom(t testing.TB, comps []discordgo.MessageComponent, prefix string) int64 {
	t.Helper()
	for _, b := range discordtest.Buttons(comps) {
		if rest, ok := strings.CutPrefix(b.CustomID, prefix); ok {
			id, err := strconv.ParseInt(rest, 10, 64)
			if err != nil {
				t.Fatalf("custom_id %q", b.CustomID)
			}
			return id
		}
	}
	t.Fatalf("no %s button in %v", prefix, comps)
	return 0
}

// button finds a button whose label or custom_id prefix matches.
func button(t testing.TB, comps []discordgo.MessageComponent, match func(b discordgo.Button) bool) (discordgo.Button, bool) {
	for _, b := range discordtest.Buttons(comps) {
		if match(b) {
			return b, true
		}
	}
	return discordgo.Button{}, false
}

// showHand presses Show my hand on the table message and returns the
// private hand view.
//
// At a table only interactions' tokens reach (a group DM), the click
// answers by updating the table message, and the hand view comes as a
// private followup of it: that is returned, as if it were the answer.
func (h *harness) showHand(u discordtest.User, tableMsg string, id int64) discordtest.Answer {
	h.t.Helper()
	guild, channel := h.where()
	i := h.at(discordtest.Click(guild, channel, u, tableMsg, "/hand/"+itoa64(id)))
	a := h.send(i)
	if a.Response != nil && a.Response.Type == discordgo.InteractionResponseUpdateMessage && a.MessageID == tableMsg {
		// The story may go out through the same token: the hand view is
		// its private followup.
		var view discordtest.Message
		h.eventually("the hand view's followup", func() bool {
			for _, m := range h.fake.Followups(i.Token) {
				if m.Ephemeral {
					view = m
					return true
				}
			}
			return false
		})
		return discordtest.Answer{MessageID: view.ID, Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: view.Content, Embeds: view.Embeds, Components: view.Components,
				Flags: discordgo.MessageFlagsEphemeral | view.Flags&discordgo.MessageFlagsIsComponentsV2}}}
	}
	if !a.Ephemeral() {
		h.t.Fatalf("hand view is not private: %+v", a.Response)
	}
	return a
}

func itoa64(n int64) string {
	s := ""
	for n > 0 || s == "" {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

// users maps seated user ids to test users.
func usersOf(us ...discordtest.User) map[string]discordtest.User {
	m := map[string]discordtest.User{}
	for _, u := range us {
		m[u.ID] = u
	}
	return m
}

// step makes one move for whoever the game waits on, as a person would
// through the hand view, and reports false when the game is over.
func (h *harness) step(id int64, tableMsg string, people map[string]discordtest.User) bool {
	h.t.Helper()
	t := h.table(id)
	if t.Status != cribbage.StatusPlaying {
		return false
	}
	g := t.State
	switch g.Phase {
	case engine.PhaseDiscard:
		seat := g.Waiting()[0]
		h.discard(people[t.Seats[seat].UserID], tableMsg, id, g.Options.DiscardSize())
	case engine.PhasePlay:
		u := people[t.Seats[g.Turn].UserID]
		view := h.showHand(u, tableMsg, id)
		b, ok := button(h.t, view.Response.Data.Components, func(b discordgo.Button) bool {
			return strings.HasPrefix(b.CustomID, "/play/") && !b.Disabled
		})
		if !ok {
			h.t.Fatalf("%s has no card to play: %s", u.Name, view.Content())
		}
		a := h.click(u, view.MessageID, b.CustomID)
		if strings.Contains(a.Content(), "⚠️") {
			h.t.Fatalf("play refused: %s", a.Content())
		}
	case engine.PhaseShow:
		seat, crib := g.ShowOrder(g.Shown)
		u := people[t.Seats[seat].UserID]
		h.claim(u, tableMsg, id, truth(g, seat, crib))
	case engine.PhaseDeal:
		u := people[t.Seats[g.Dealer].UserID]
		a := h.click(u, tableMsg, "/deal/"+itoa64(id))
		if !a.Ephemeral() {
			h.t.Fatalf("deal answered publicly")
		}
	}
	return true
}

// truth is the true count of a seat's hand or crib.
func truth(g *engine.State, seat int, crib bool) int {
	cards := g.Hands[seat].Cards()
	if crib {
		cards = g.Crib.Cards()
	}
	return engine.ScoreShow(cards, g.Starter, crib).Total
}

// discard chooses the first n cards through the toggles and confirms.
func (h *harness) discard(u discordtest.User, tableMsg string, id int64, n int) {
	h.t.Helper()
	view := h.showHand(u, tableMsg, id)
	msg := view.MessageID
	comps := view.Response.Data.Components
	for k := 0; k < n; k++ {
		b, ok := button(h.t, comps, func(b discordgo.Button) bool {
			return strings.HasPrefix(b.CustomID, "/sel/") && b.Style == discordgo.SecondaryButton
		})
		if !ok {
			h.t.Fatalf("no card to choose: %v", comps)
		}
		a := h.click(u, msg, b.CustomID)
		if a.Response.Type != discordgo.InteractionResponseUpdateMessage {
			h.t.Fatalf("toggle did not update the hand view: %+v", a.Response)
		}
		comps = a.Response.Data.Components
	}
	confirm, ok := button(h.t, comps, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/discard/") })
	if !ok || confirm.Disabled {
		h.t.Fatalf("Confirm missing or disabled after choosing %d: %v", n, comps)
	}
	a := h.click(u, msg, confirm.CustomID)
	if strings.Contains(a.Content(), "⚠️") {
		h.t.Fatalf("discard refused: %s", a.Content())
	}
}

// claim opens the claim form and submits points.
func (h *harness) claim(u discordtest.User, tableMsg string, id int64, points int) discordtest.Answer {
	h.t.Helper()
	view := h.showHand(u, tableMsg, id)
	b, ok := button(h.t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/claim/") })
	if !ok {
		h.t.Fatalf("%s has no Claim button: %s", u.Name, view.Content())
	}
	modal := h.click(u, view.MessageID, b.CustomID)
	if modal.Response.Type != discordgo.InteractionResponseModal {
		h.t.Fatalf("Claim did not open a form: %+v", modal.Response)
	}
	guild, channel := h.where()
	return h.send(h.at(discordtest.Submit(guild, channel, u, view.MessageID, modal.Response.Data.CustomID, map[string]string{"points": itoa64(int64(points))})))
}

// playToEnd plays until the game is over.
func (h *harness) playToEnd(id int64, tableMsg string, people map[string]discordtest.User) {
	h.t.Helper()
	for n := 0; h.step(id, tableMsg, people); n++ {
		if n > 3000 {
			h.t.Fatal("the game did not end")
		}
	}
}

// drain waits until the outbox is empty. The fake keeps Discord's rate
// limits (five messages per five seconds in a channel), so a game's story
// can take a few windows to go out; while it waits, the clock runs fast
// (hurry), so a window or a retry's backoff is not sat out in real time.
func (h *harness) drain() {
	h.t.Helper()
	h.within(30*time.Second, "outbox delivered", func() bool {
		items, err := h.store.PendingOutbox(context.Background(), 10)
		if err == nil && len(items) == 0 {
			return true
		}
		h.hurry()
		return false
	})
}

// hurryStep is how far hurry moves the fake's clock: five times the
// real time within polls at, so a five-second window passes in one.
const hurryStep = 25 * time.Millisecond

// hurry moves the fake's clock on, as waiting would. The rate limits the
// fake keeps and the bot's reckoning of them, the sender's backoff and
// its holds all run on that clock (newHarnessWith), so what the bot holds
// back for a time comes due sooner than the wall clock would let it, and
// the bot must still wait for it: a request sent early is refused as
// Discord would, and fails the test. The bot notices at its next pass
// (the sender looks at least once a second). The few seconds hurry adds
// are far from any timer the tests look at (a nudge after minutes, a
// token's 15 minutes).
func (h *harness) hurry() { h.fake.Advance(hurryStep) }

// noIdenticalEdits fails the test for each edit the bot sent that left
// its message showing exactly what it showed (issue 31: a request spent
// on nothing), once the outbox is delivered and the live surface has
// settled, so a last refresh's edits count too.
func (h *harness) noIdenticalEdits() {
	h.t.Helper()
	h.drain()
	h.settleLive()
	h.fake.CheckNoIdenticalEdits(h.t)
}

// settleLive waits until the bot has no table message or hand view to
// bring up to date, now or in moments (cribbage_live_pending is 0): a test
// that then moves the clock past a token's life knows no edit is on its
// way with a token checked before the move.
func (h *harness) settleLive() {
	h.t.Helper()
	h.eventually("the live surface to settle", func() bool {
		families, err := h.metrics.Gather()
		if err != nil {
			h.t.Fatal(err)
		}
		for _, f := range families {
			if f.GetName() == "cribbage_live_pending" {
				return len(f.GetMetric()) == 1 && f.GetMetric()[0].GetGauge().GetValue() == 0
			}
		}
		h.t.Fatal("no cribbage_live_pending metric")
		return false
	})
}

// fromZero is the start of all time for leaderboards.
func fromZero() time.Time { return time.Time{} }

// tableKind is a kind of table and the people who sit at it, the first
// as host.
type tableKind struct {
	name   string
	opts   []discordtest.Opt
	people []discordtest.User
}

// twoAndFour are the tables the database and transport tests play.
var twoAndFour = []tableKind{
	{"two players", nil, []discordtest.User{alice, bob}},
	{"four players", []discordtest.Opt{{Name: "players", Value: 4}}, []discordtest.User{alice, bob, carol, dan}},
}

// seat opens a table of kind k, the others joining by button, and returns
// its id and message; the game starts as the last one joins.
func (h *harness) seat(k tableKind) (int64, string) {
	h.t.Helper()
	id, msg := h.open(k.people[0], k.opts...)
	for _, u := range k.people[1:] {
		h.click(u, msg, "/join/"+itoa64(id))
	}
	return id, msg
}

// shortGame is the game length of a test that plays a game to its end
// but checks nothing that depends on how long it is: 61 points under
// -short, half the hands of the 121 it plays otherwise.
func shortGame() []discordtest.Opt {
	if testing.Short() {
		return []discordtest.Opt{{Name: "points", Value: 61}}
	}
	return nil
}

// shortKinds is kinds, or its first alone under -short: the others run the
// same code at other tables, and -short is the quick run.
func shortKinds(kinds []tableKind) []tableKind {
	if testing.Short() {
		return kinds[:1]
	}
	return kinds
}
