package main

import (
	"fmt"

	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestTheTableMessageIsEditedThroughALiveToken: while the token of an
// interaction whose original response is the table message lives (here
// Bob's Join), the table message is edited through it, outside the bot
// token's global limit; within a minute of its expiry the bot token edits
// the message again. Either way the message shows the table as it is.
func TestTheTableMessageIsEditedThroughALiveToken(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	h.drain()
	checkCountShown(t, h, id, msg)
	viaToken, viaBot := tableEdits(h, msg, 0)
	if viaToken == 0 || viaBot != 0 {
		t.Errorf("with a live token: %d edits through it and %d with the bot token, want some and none", viaToken, viaBot)
	}

	h.settleLive()
	mark := len(h.fake.Requests())
	h.fake.Advance(14*time.Minute + 30*time.Second)
	mover, _ := h.turnUser(id)
	view := h.showHand(mover, msg, id)
	before := h.table(id).Version
	a := h.click(mover, view.MessageID, firstPlayable(t, view))
	if got := h.table(id).Version; got <= before {
		t.Fatalf("the card was not played (version %d, was %d): %s", got, before, a.Content())
	}
	h.drain()
	checkCountShown(t, h, id, msg)
	viaToken, viaBot = tableEdits(h, msg, mark)
	if viaToken != 0 || viaBot == 0 {
		t.Errorf("with the token about to expire: %d edits through it and %d with the bot token, want none and some", viaToken, viaBot)
		for _, r := range h.fake.Requests()[mark:] {
			t.Logf("since: %s %s %d", r.Route, r.Path, r.Status)
		}
	}
}

// tableEdits counts the accepted edits of the table message since request
// mark: through an interaction token whose original response it is, and
// with the bot token.
func tableEdits(h *harness, msg string, mark int) (viaToken, viaBot int) {
	for _, r := range h.fake.Requests()[mark:] {
		switch {
		case r.Status != 200:
		case r.Route == "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original" && originalIs(h, r.Path, msg):
			viaToken++
		case r.Route == "PATCH /channels/{channel_id}/messages/{message_id}" && strings.HasSuffix(r.Path, "/"+msg):
			viaBot++
		}
	}
	return viaToken, viaBot
}

// originalIs reports whether a webhook path's token is an interaction's
// whose original response is message msg.
func originalIs(h *harness, path, msg string) bool {
	token := strings.Split(strings.TrimPrefix(path, "/api/v9/webhooks/"), "/")[1]
	m, _, ok := h.fake.Original(token)
	return ok && m.ID == msg
}

// checkCountShown checks that the table message comes to show the
// table's count (the bot edits it in after the move, within a second).
func checkCountShown(t *testing.T, h *harness, id int64, msg string) {
	t.Helper()
	want := fmt.Sprintf("Count: **%d**", h.table(id).State.Count)
	var m discordtest.Message
	h.eventually("the table message to show the count", func() bool {
		m, _ = h.fake.Message(msg)
		return strings.Contains(m.Text(), want)
	})
}

// TestARefusedTokenFallsBackWithItsBoard: when Discord refuses the table's
// interaction token, the bot token edits the table message instead, and
// the board picture it uploads is a whole PNG, drawn afresh: the refused
// request consumed the first one (the fake refuses a .png that is not a
// PNG, and the harness fails any test that sends one).
func TestARefusedTokenFallsBackWithItsBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	h.drain()
	checkCountShown(t, h, id, msg)
	mark := len(h.fake.Requests())
	h.fake.FailNext("PATCH", "/webhooks/", 401, 1000)
	people := usersOf(alice, bob)
	boards := 0
	h.within(30*time.Second, "a board uploaded with the bot token", func() bool {
		boards = 0
		for _, r := range h.fake.Requests()[mark:] {
			if r.Route == "PATCH /channels/{channel_id}/messages/{message_id}" && strings.HasSuffix(r.Path, "/"+msg) && r.Status == 200 && len(r.Uploads()) == 1 {
				boards++
			}
		}
		if boards == 0 {
			h.step(id, msg, people)
		}
		return boards > 0
	})
	h.fake.ClearFaults()
	refused := 0
	for _, r := range h.fake.Requests()[mark:] {
		if r.Route == "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original" && r.Status == 401 {
			refused++
		}
	}
	if refused == 0 {
		t.Error("the table's token was never tried")
	}
	t.Logf("%d edits through the token refused; %d boards uploaded with the bot token", refused, boards)
}
