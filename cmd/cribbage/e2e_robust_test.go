package main

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// twoPlayerGame opens a table for Alice and Bob and plays until the play
// has begun and a card or two are down; opts are the table's options.
func twoPlayerGame(t *testing.T, h *harness, opts ...discordtest.Opt) (int64, string) {
	id, msg := h.open(alice, opts...)
	h.click(bob, msg, "/join/"+itoa64(id))
	for h.table(id).State.Phase != engine.PhasePlay || len(h.table(id).State.Plays) < 2 {
		h.step(id, msg, usersOf(alice, bob))
	}
	return id, msg
}

// turnUser returns whoever is to play.
func (h *harness) turnUser(id int64) (discordtest.User, discordtest.User) {
	t := h.table(id)
	people := usersOf(alice, bob)
	return people[t.Seats[t.State.Turn].UserID], people[t.Seats[1-t.State.Turn].UserID]
}

// firstPlayable returns the first enabled card button of a hand view.
func firstPlayable(t *testing.T, a discordtest.Answer) string {
	b, ok := button(t, a.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/play/") && !b.Disabled })
	if !ok {
		t.Fatalf("no playable card in %s", a.Content())
	}
	return b.CustomID
}

func TestButtonsSurviveARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h, shortGame()...)
	mover, _ := h.turnUser(id)
	view := h.showHand(mover, msg, id)
	card := firstPlayable(t, view)
	before := h.table(id).Version

	h.stopBot()
	h.startBot()

	// The old hand view's card button works on the new bot.
	a := h.click(mover, view.MessageID, card)
	if a.Response.Type != discordgo.InteractionResponseUpdateMessage || strings.Contains(a.Content(), "⚠️") {
		t.Fatalf("old play button after restart: %s", a.Content())
	}
	if got := h.table(id).Version; got <= before {
		t.Errorf("version %d, want past %d", got, before)
	}
	// So does the old Show my hand button on the table message.
	_, other := h.turnUser(id)
	if a := h.showHand(other, msg, id); !strings.Contains(a.Content(), "Your hand") {
		t.Errorf("Show my hand after restart: %s", a.Content())
	}
	h.playToEnd(id, msg, usersOf(alice, bob))
}

func TestBadInputsChangeNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	mover, waiter := h.turnUser(id)
	moverView := h.showHand(mover, msg, id)
	waiterView := h.showHand(waiter, msg, id)
	h.drain()
	h.settleLive()
	tableMsg, _ := h.fake.Message(msg)
	version := h.table(id).Version
	requestsBefore := len(h.fake.Requests())

	card := firstPlayable(t, moverView)
	waiterCard := ""
	for _, b := range discordtest.Buttons(waiterView.Response.Data.Components) {
		if strings.HasPrefix(b.CustomID, "/play/") {
			waiterCard = b.CustomID
		}
	}
	tests := []struct {
		name string
		i    *discordgo.Interaction
		want string
	}{
		{"not seated: show hand", discordtest.Click(testGuild, testChannel, eve, msg, "/hand/"+itoa64(id)), "not seated"},
		{"not seated: someone's card", discordtest.Click(testGuild, testChannel, eve, moverView.MessageID, card), "not seated"},
		{"forged custom_id", discordtest.Click(testGuild, testChannel, mover, msg, "/nuke/"+itoa64(id)), "isn't one I made"},
		{"forged card", discordtest.Click(testGuild, testChannel, mover, moverView.MessageID, strings.Replace(card, card[len(card)-2:], "ZZ", 1)), "isn't one I made"},
		{"no such table", discordtest.Click(testGuild, testChannel, mover, msg, "/hand/999"), "doesn't exist"},
		{"out of turn", discordtest.Click(testGuild, testChannel, waiter, waiterView.MessageID, waiterCard), "not your turn"},
		{"join a table in play", discordtest.Click(testGuild, testChannel, eve, msg, "/join/"+itoa64(id)), "already started"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := h.send(tc.i)
			if !a.Ephemeral() || !strings.Contains(a.Content(), tc.want) {
				t.Errorf("answer %q (ephemeral %v), want a private %q", a.Content(), a.Ephemeral(), tc.want)
			}
		})
	}
	// A game's command in a DM: Discord offers /cribbage in servers
	// only, and delivers nothing (the bot's own refusal is a unit test's).
	if _, err := h.interact(discordtest.Command("", "dm-1", eve, "hand")); !errors.Is(err, discordtest.ErrNotPermitted) {
		t.Errorf("a game's command in a DM reached the bot: %v", err)
	}
	if got := h.table(id).Version; got != version {
		t.Errorf("version %d after bad inputs, want %d", got, version)
	}
	// No public message was rewritten: no channel message was sent or
	// edited, and the table message is as it was.
	for _, r := range h.fake.Requests()[requestsBefore:] {
		if strings.Contains(r.Path, "/channels/") {
			t.Errorf("bad input caused %s %s", r.Method, r.Path)
		}
	}
	// The board may still be uploaded (at most one every few seconds, on
	// its own clock): what the table message says and offers must be as
	// it was.
	if now, _ := h.fake.Message(msg); now.Text() != tableMsg.Text() || !reflect.DeepEqual(now.Components, tableMsg.Components) {
		t.Errorf("the table message was rewritten:\n%s\nwas\n%s", now.Text(), tableMsg.Text())
	}

	// A stale view: once the mover plays, the waiter's old view is refused
	// and shown afresh.
	h.click(mover, moverView.MessageID, card)
	stale := h.click(mover, moverView.MessageID, card)
	if !strings.Contains(stale.Content(), "moved on") {
		t.Errorf("stale click: %s", stale.Content())
	}
}

func TestDuplicateAndSimultaneousClicksApplyOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	mover, _ := h.turnUser(id)
	view := h.showHand(mover, msg, id)
	card := firstPlayable(t, view)
	version := h.table(id).Version

	// Discord delivers the same interaction twice.
	i := h.fake.Prepare(discordtest.Click(testGuild, testChannel, mover, view.MessageID, card))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	first, err1 := h.fake.Send(ctx, i)
	second, err2 := h.fake.Send(ctx, i)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if strings.Contains(first.Content(), "⚠️") || !strings.Contains(second.Content(), "already") {
		t.Errorf("first %q, second %q", first.Content(), second.Content())
	}
	if got := h.table(id).Version; got != version+1 {
		t.Errorf("version %d, want %d", got, version+1)
	}

	// Two different clicks on the same card at the same moment.
	mover, _ = h.turnUser(id)
	view = h.showHand(mover, msg, id)
	card = firstPlayable(t, view)
	version = h.table(id).Version
	var wg sync.WaitGroup
	answers := make([]discordtest.Answer, 2)
	for k := range answers {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			answers[k] = h.send(discordtest.Click(testGuild, testChannel, mover, view.MessageID, card))
		}(k)
	}
	wg.Wait()
	refused := 0
	for _, a := range answers {
		if strings.Contains(a.Content(), "⚠️") || strings.Contains(a.Content(), "moved on") {
			refused++
		}
	}
	if refused != 1 || h.table(id).Version != version+1 {
		t.Errorf("%d of 2 refused, version %d → %d", refused, version, h.table(id).Version)
	}
}

// TestAnnouncementsSurviveRateLimitsErrorsAndRestarts sends a game's story
// through a burst of 429s, server errors and a restart with posts failing,
// besides the fake's own rate limits: the thread must then read exactly the
// story as queued, every line once and in order.
func TestAnnouncementsSurviveRateLimitsErrorsAndRestarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	h.drain()
	people := usersOf(alice, bob)

	h.fake.FailNext("POST", "/messages", 429, 10)
	h.fake.FailNext("POST", "/messages", 500, 2)
	// The story posts a hand at its end: play on until the faults are
	// used, each post retried through them. The retries wait out the
	// channel's window and the backoff on the fake's clock, which runs
	// fast meanwhile (hurry).
	h.within(60*time.Second, "the faults used", func() bool {
		if postsFailed(h, 429) >= 10 && postsFailed(h, 500) >= 2 {
			return true
		}
		if postsFailed(h, 429) == 0 {
			h.step(id, msg, people)
		} else {
			h.hurry()
		}
		return false
	})
	h.drain()

	// Every post fails while the bot stops; the next bot delivers them.
	h.fake.FailNext("POST", "/messages", 500, 1000)
	// The bot stops once a post has failed, so the next bot inherits a
	// post that was tried.
	failed := postsFailed(h, 500)
	h.within(60*time.Second, "a post failing before the stop", func() bool {
		if postsFailed(h, 500) >= failed+3 {
			return true
		}
		if postsFailed(h, 500) == failed {
			h.step(id, msg, people)
		} else {
			h.hurry()
		}
		return false
	})
	h.stopBot()
	h.fake.ClearFaults()
	h.startBot()
	h.fake.FailNext("POST", "/messages", 429, 5)
	for range 20 {
		h.step(id, msg, people)
	}
	h.drain()

	checkThreadReadsAsQueued(t, h, id)
	failed429, failed500 := postsFailed(h, 429), postsFailed(h, 500)
	if failed429 == 0 || failed500 < 3 {
		t.Errorf("faults not exercised: %d × 429, %d × 500", failed429, failed500)
	}
	t.Logf("%d × 429, %d × 500 on posts", failed429, failed500)
}

func TestOldInteractionTokensAreNeverUsed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	mover, _ := h.turnUser(id)
	view := h.showHand(mover, msg, id)
	card := firstPlayable(t, view)
	h.settleLive()
	requests := len(h.fake.Requests())

	h.fake.Advance(20 * time.Minute)
	a := h.click(mover, view.MessageID, card)
	if a.Response.Type != discordgo.InteractionResponseUpdateMessage || strings.Contains(a.Content(), "⚠️") {
		t.Fatalf("click on a 20-minute-old hand view: %s", a.Content())
	}
	h.drain()
	for _, r := range h.fake.Requests()[requests:] {
		if strings.Contains(r.Path, "/webhooks/") {
			t.Errorf("used an interaction token after 15 minutes: %s %s (%d)", r.Method, r.Path, r.Status)
		}
	}
}

// TestGatewayDropIsResumed: Discord closes the gateway connection; the
// session resumes and the table plays on.
func TestGatewayDropIsResumed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	h.fake.DropConnections()
	if err := h.fake.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if _, resumes := h.fake.Identifies(); resumes == 0 {
		t.Error("the session identified again instead of resuming")
	}
	for i := 0; i < 4; i++ {
		h.step(id, msg, usersOf(alice, bob))
	}
}

// TestALostThreadAnswerIsRecovered: Discord opens the table's thread but
// its answer is lost. The retry is refused (a message has one thread), and
// the bot finds the thread on the message instead of giving up on it.
func TestALostThreadAnswerIsRecovered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fake.LoseNextAnswers("POST", "/threads", 500, 1)
	id, msg := twoPlayerGame(t, h)
	h.drain()
	thread := h.tableMessage(id).ThreadID
	m, _ := h.fake.Message(msg)
	if m.Thread == nil || thread != m.Thread.ID {
		t.Fatalf("thread recorded %q, on the message %+v", thread, m.Thread)
	}
	if n := len(h.fake.ChannelMessages(thread)); n == 0 {
		t.Error("the story did not go to the thread")
	}
	refused := 0
	for _, r := range h.fake.Requests() {
		if r.Route == "POST /channels/{channel_id}/messages/{message_id}/threads" && r.Status == 400 {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("%d second threads refused, want 1", refused)
	}
}

// TestADeletedTableMessageIsPostedAgain: a moderator deletes the table
// message mid-game; the next refresh finds it gone and posts it again,
// once, and records it.
func TestADeletedTableMessageIsPostedAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	h.drain()
	h.fake.DeleteMessage(msg)
	mover, _ := h.turnUser(id)
	view := h.showHand(mover, msg, id)
	h.click(mover, view.MessageID, firstPlayable(t, view))
	h.eventually("a new table message", func() bool { m := h.tableMessage(id).MessageID; return m != "" && m != msg })
	again := h.tableMessage(id).MessageID
	if m, ok := h.fake.Message(again); !ok || m.ChannelID != testChannel {
		t.Fatalf("the new table message %q is not in the channel", again)
	}
	if n := h.tableMessages(id); n != 1 {
		t.Errorf("%d table messages, want 1", n)
	}
}

// postsFailed counts the story posts the fake answered with status.
func postsFailed(h *harness, status int) int {
	n := 0
	for _, r := range h.fake.Requests() {
		if r.Route == "POST /channels/{channel_id}/messages" && r.Status == status {
			n++
		}
	}
	return n
}
