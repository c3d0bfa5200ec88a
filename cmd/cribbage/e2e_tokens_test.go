package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestTheTableMessageIsEditedThroughALiveToken: while the token of an
// interaction whose original response is the table message lives (here
// Bob's Join), the table message is edited through it, outside the bot
// token's global limit; within a minute of its expiry the bot token edits
// the message again. Either way the message shows the table as it is.
func TestTheTableMessageIsEditedThroughALiveToken(t *testing.T) {
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	h.drain()
	viaToken, viaBot := tableEdits(h, msg, 0)
	if viaToken == 0 || viaBot != 0 {
		t.Errorf("with a live token: %d edits through it and %d with the bot token, want some and none", viaToken, viaBot)
	}
	checkCountShown(t, h, id, msg)

	mark := len(h.fake.Requests())
	h.fake.Advance(14*time.Minute + 30*time.Second)
	mover, _ := h.turnUser(id)
	view := h.showHand(mover, msg, id)
	h.click(mover, view.MessageID, firstPlayable(t, view))
	h.drain()
	viaToken, viaBot = tableEdits(h, msg, mark)
	if viaToken != 0 || viaBot == 0 {
		t.Errorf("with the token about to expire: %d edits through it and %d with the bot token, want none and some", viaToken, viaBot)
	}
	checkCountShown(t, h, id, msg)
}

// tableEdits counts the accepted edits of the table message since request
// mark: through an interaction token, and with the bot token. In gateway
// mode the bot edits an original response only to refresh a table.
func tableEdits(h *harness, msg string, mark int) (viaToken, viaBot int) {
	for _, r := range h.fake.Requests()[mark:] {
		switch {
		case r.Status != 200:
		case r.Route == "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original":
			viaToken++
		case r.Route == "PATCH /channels/{channel_id}/messages/{message_id}" && strings.HasSuffix(r.Path, "/"+msg):
			viaBot++
		}
	}
	return viaToken, viaBot
}

// checkCountShown checks that the table message shows the table's count.
func checkCountShown(t *testing.T, h *harness, id int64, msg string) {
	t.Helper()
	m, ok := h.fake.Message(msg)
	if !ok || len(m.Embeds) == 0 {
		t.Fatalf("table message %s is gone", msg)
	}
	want := fmt.Sprintf("Count: **%d**", h.table(id).State.Count)
	if !strings.Contains(m.Embeds[0].Description, want) {
		t.Errorf("table message reads %q, want %q in it", m.Embeds[0].Description, want)
	}
}
