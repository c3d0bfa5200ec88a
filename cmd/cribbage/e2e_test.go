package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

func TestTwoPlayerGameToTheLeaderboard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.open(alice, shortGame()...)
	a := h.click(bob, msg, "/join/"+itoa64(id))
	if a.Ephemeral() {
		t.Fatalf("join refused: %s", a.Content())
	}
	if got := h.table(id).Status; got != cribbage.StatusPlaying {
		t.Fatalf("status after the second join: %s", got)
	}
	h.playToEnd(id, msg, usersOf(alice, bob))
	h.drain()
	final := h.table(id)
	if final.Status != cribbage.StatusFinished || final.State.Result == nil {
		t.Fatalf("final %+v", final)
	}
	board, err := h.store.Leaderboard(context.Background(), testGuild, 0, time.Time{})
	if err != nil || len(board) != 2 || board[0].Wins != 1 {
		t.Fatalf("leaderboard %+v, %v", board, err)
	}
	lb := h.club(alice, "leaderboard")
	if _, body := panelOf(lb); lb.Ephemeral() || !strings.Contains(body, board[0].Name) {
		t.Errorf("leaderboard answer %+v", lb.Response.Data)
	}
	thread := h.tableMessage(id).ThreadID
	if thread == "" {
		t.Fatal("no thread was opened for the table")
	}
	story := h.fake.ChannelMessages(thread)
	last := story[len(story)-1].Text()
	if !strings.Contains(last, "wins") {
		t.Errorf("last story message %q", last)
	}
	_ = discordtest.User{}
}
