package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/store"
)

// The replica test runs each bot replica as a process of its own, as in
// production, so that one can be killed (SIGKILL: no goodbye, its outbox
// leases left to lapse) in the middle of a game.

// replicaEnv carries a child replica's settings: the fake's URL, the
// database and the application's public key, space-separated, and
// optionally the instant (Unix nanoseconds) at which to open the database.
const replicaEnv = "CRIBBAGE_REPLICA_CHILD"

// TestReplicaChild is a replica: a bot taking interactions over HTTP on
// PostgreSQL. It prints its endpoint's URL and serves until killed.
func TestReplicaChild(t *testing.T) {
	cfg := os.Getenv(replicaEnv)
	if cfg == "" {
		t.Skip("run by TestReplicasOnPostgres")
	}
	parts := strings.Fields(cfg)
	api, _ := url.Parse(parts[0])
	if len(parts) > 3 {
		// Replicas started together open the database at one instant.
		at, _ := strconv.ParseInt(parts[3], 10, 64)
		time.Sleep(time.Until(time.Unix(0, at)))
	}
	// A PostgreSQL URL makes a replica among others; a file path, the one
	// process on a SQLite file, with its fixed lease owner as serve gives.
	var st *store.Store
	var err error
	owner := ""
	if strings.HasPrefix(parts[1], "postgres") {
		st, err = store.OpenPostgres(context.Background(), parts[1])
	} else {
		st, err = store.Open(context.Background(), parts[1])
		owner = soleOwner(Config{})
	}
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	key, _ := intake.ParsePublicKey(parts[2])
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b, err := bot.New(bot.Options{Token: "test-token", GuildID: testGuild, APIURL: api, Store: st, Logger: logger,
		HTTPOnly: true, OutboxOwner: owner})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	srv := httptest.NewServer(b.InteractionsHandler(key))
	fmt.Println("ENDPOINT", srv.URL)
	b.Run(context.Background()) // until killed
}

// startReplica starts a replica process and returns it with its endpoint.
func startReplica(t testing.TB, fake *discordtest.Server, databaseURL string) (*exec.Cmd, string) {
	t.Helper()
	cmd, started := launchReplica(t, fake, databaseURL, "")
	u, err := started()
	if err != nil {
		t.Fatal(err)
	}
	return cmd, u
}

// launchReplica starts a replica process, which opens the database at
// the instant at (Unix nanoseconds) if it is set, and returns it with a
// function that waits for its endpoint, or what it printed instead.
func launchReplica(t testing.TB, fake *discordtest.Server, databaseURL, at string) (*exec.Cmd, func() (string, error)) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestReplicaChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), replicaEnv+"="+strings.TrimSpace(fake.URL()+" "+databaseURL+" "+fake.PublicKey()+" "+at))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, func() (string, error) {
		lines := bufio.NewScanner(out)
		var said []string
		for lines.Scan() {
			if u, ok := strings.CutPrefix(lines.Text(), "ENDPOINT "); ok {
				go func() {
					for lines.Scan() {
					}
				}()
				return u, nil
			}
			said = append(said, lines.Text())
		}
		return "", fmt.Errorf("the replica did not start: %s", strings.Join(said, "\n"))
	}
}

// TestReplicasStartedTogetherOnAnEmptyDatabase starts three replica
// processes that open one empty PostgreSQL schema at the same instant, as
// compose.yaml does on a first start: they migrate one at a time, each
// comes up, and a game is played through all three.
func TestReplicasStartedTogetherOnAnEmptyDatabase(t *testing.T) {
	databaseURL := postgresSchema(t)
	fake := newFake(t)
	// Far enough ahead for the three processes to be up and waiting.
	at := strconv.FormatInt(time.Now().Add(2*time.Second).UnixNano(), 10)
	var waits []func() (string, error)
	for range 3 {
		_, started := launchReplica(t, fake, databaseURL, at)
		waits = append(waits, started)
	}
	var endpoints []string
	for i, started := range waits {
		u, err := started()
		if err != nil {
			t.Errorf("replica %d: %v", i+1, err)
			continue
		}
		endpoints = append(endpoints, u)
	}
	if len(endpoints) != 3 {
		t.FailNow()
	}
	st, err := store.OpenPostgres(context.Background(), databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := &harness{t: t, fake: fake, store: st}
	h.eventually("commands registered", func() bool { return allRegistered(fake, testGuild) })
	fake.DeliverOverHTTP(endpoints...)
	id, msg := h.seat(twoAndFour[0])
	for range 6 {
		h.step(id, msg, usersOf(alice, bob))
	}
	if tb := h.table(id); tb.Status != cribbage.StatusPlaying || tb.State.Phase == 0 {
		t.Errorf("the game through three replicas: %s", tb.Status)
	}
}

// TestReplicasOnPostgres plays whole games at 2 and 4 players with three
// replicas on one PostgreSQL, Discord spreading the interactions over them
// in turn, and kills one replica mid-game. The games finish; every
// announcement reaches the thread once and in order; each table has one
// table message; every deal checks out.
func TestReplicasOnPostgres(t *testing.T) {
	databaseURL := postgresSchema(t)
	fake := discordtest.New()
	t.Cleanup(func() {
		fake.Close()
		for _, v := range fake.Violations() {
			t.Errorf("Discord would refuse: %s", v)
		}
	})
	// The schema is made by the first replica; the test reads through its
	// own handle.
	var endpoints []string
	var replicas []*exec.Cmd
	for range 3 {
		cmd, u := startReplica(t, fake, databaseURL)
		replicas, endpoints = append(replicas, cmd), append(endpoints, u)
	}
	st, err := store.OpenPostgres(context.Background(), databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := &harness{t: t, fake: fake, store: st}
	h.eventually("commands registered", func() bool { return allRegistered(fake, testGuild) })
	fake.DeliverOverHTTP(endpoints...)

	type game struct {
		id     int64
		msg    string
		people []discordtest.User
	}
	var games []game
	for _, k := range twoAndFour {
		id, msg := h.seat(k)
		games = append(games, game{id, msg, k.people})
	}
	// Into the second hand at both tables, then a replica dies and the
	// load balancer stops sending to it.
	for _, g := range games {
		for h.table(g.id).State.HandNo < 2 {
			h.step(g.id, g.msg, usersOf(g.people...))
		}
	}
	replicas[2].Process.Kill()
	replicas[2].Wait()
	fake.DeliverOverHTTP(endpoints[:2]...)
	for _, g := range games {
		h.playToEnd(g.id, g.msg, usersOf(g.people...))
	}
	// The dead replica's leases lapse (30 s) before its tables' last
	// announcements, if it held any, are sent by another.
	h.within(90*time.Second, "every announcement delivered", func() bool {
		items, err := st.PendingOutbox(context.Background(), 10)
		return err == nil && len(items) == 0
	})
	for _, g := range games {
		final := h.table(g.id)
		if final.Status != cribbage.StatusFinished {
			t.Fatalf("table %d: %s", g.id, final.Status)
		}
		if n := h.tableMessages(g.id); n != 1 {
			t.Errorf("table %d: %d table messages", g.id, n)
		}
		checkThreadReadsAsQueued(t, h, g.id)
		h.verifyDeals(g.id)
	}
}

// checkThreadReadsAsQueued checks a table's thread holds every story item
// delivered, once each, in order: the lines of each hand's record (a
// hand's title aside, its play's fragments one to a line) and the posts.
func checkThreadReadsAsQueued(t *testing.T, h *harness, id int64) {
	t.Helper()
	title := regexp.MustCompile(`^(### )?Hand \d+$`)
	lines := func(text string) []string {
		var out []string
		for _, l := range strings.Split(strings.ReplaceAll(text, " · ", "\n"), "\n") {
			if !title.MatchString(l) {
				out = append(out, l)
			}
		}
		return out
	}
	var got []string
	seen := map[string]bool{}
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		if seen[m.Nonce] {
			t.Errorf("table %d: announcement %s delivered twice", id, m.Nonce)
		}
		seen[m.Nonce] = true
		got = append(got, lines(m.Text())...)
	}
	queued, err := h.store.TableOutbox(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := h.store.TablePending(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	waiting := map[int64]bool{}
	for _, it := range pending {
		waiting[it.ID] = true
	}
	var want []string
	for _, it := range queued {
		if it.Kind == cribbage.OutboxMilestone && !waiting[it.ID] {
			// A milestone's news, which the store queues itself, reads as
			// its line in the thread.
			e, err := cribbage.ReadMilestoneNews(it.Payload)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, lines(render.MilestoneLine(lang.English, e))...)
			continue
		}
		if (it.Kind != "post" && it.Kind != "line") || waiting[it.ID] {
			continue
		}
		var p struct {
			Content string
			Lines   []struct{ Text string }
		}
		json.Unmarshal([]byte(it.Payload), &p)
		if p.Content != "" {
			want = append(want, lines(p.Content)...)
		}
		for _, l := range p.Lines {
			want = append(want, lines(l.Text)...)
		}
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("table %d's thread does not read as queued:\n got %d lines: %.300q…\nwant %d lines: %.300q…", id, len(got), g, len(want), w)
	}
}
