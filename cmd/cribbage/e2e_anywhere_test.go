package main

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestAGameAgainstTheComputerInADM: Alice, in a DM with the bot (the
// commands registered globally, as Discord offers a command in DMs only
// then), is told a table there is against the computer, opens one, asks
// the coach, plays it to a winner with every public payload scanned for
// hidden cards, counts a hand and replays the game. The table has no
// server: no thread is opened (a DM has none; the fake refuses one as
// Discord does), the story is posts in the DM itself, and the records
// are Alice's own, in no server's leaderboard or stats.
func TestAGameAgainstTheComputerInADM(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) { h.global, h.guild, h.channel = true, "", dmChannel })
	if a := h.command(alice, "start"); !a.Ephemeral() || !strings.Contains(a.Content(), "computer: easy") {
		t.Errorf("a table for friends in a DM: %+v", a.Response)
	}
	id, msg := soloGame(t, h, "easy")
	if tb := h.table(id); tb.GuildID != "" || tb.ChannelID != dmChannel {
		t.Fatalf("the table is in %q/%q", tb.GuildID, tb.ChannelID)
	}

	view := h.showHand(alice, msg, id)
	hint, ok := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/hint/") })
	if !ok {
		t.Fatalf("no Hint button: %v", view.Response.Data.Components)
	}
	if a := h.click(alice, view.MessageID, hint.CustomID); !a.Ephemeral() || !strings.Contains(a.Content(), "Coach") {
		t.Errorf("the coach in a DM: %s", a.Content())
	}

	h.playScanned(id, msg, usersOf(alice))
	final := h.table(id)
	if final.Status != cribbage.StatusFinished {
		t.Fatalf("status %s", final.Status)
	}
	h.drain()
	if m := h.tableMessage(id); m.ThreadID != "" {
		t.Errorf("a thread %s for a table in a DM", m.ThreadID)
	}
	records := 0
	for _, m := range h.fake.ChannelMessages(dmChannel) {
		if m.ID != msg && strings.Contains(m.Text(), "Computer 2 (easy)") {
			records++
		}
	}
	if records == 0 {
		t.Error("no story posted in the DM")
	}

	count := h.command(alice, "count", discordtest.Opt{Name: "cards", Value: "5H 5D 5C JS"}, discordtest.Opt{Name: "starter", Value: "5S"})
	if !count.Ephemeral() || !strings.Contains(count.Content(), "**29**") {
		t.Errorf("a count in a DM: %s", count.Content())
	}
	replay := h.command(alice, "replay", discordtest.Opt{Name: "table", Value: int(id)})
	if !replay.Ephemeral() || len(replay.Response.Data.Embeds) == 0 || !strings.Contains(replay.Response.Data.Embeds[0].Title, "hand 1 of") {
		t.Errorf("the replay in a DM: %+v", replay.Response)
	}

	ctx := context.Background()
	own, _ := h.store.PlayerStats(ctx, "", alice.ID)
	if own.Computer.Games != 1 {
		t.Errorf("Alice's own records: %+v", own)
	}
	if st, _ := h.store.PlayerStats(ctx, testGuild, alice.ID); st.Computer.Games != 0 || st.People.Games != 0 {
		t.Errorf("a server's records have the DM's game: %+v", st)
	}
	if board, _ := h.store.Leaderboard(ctx, testGuild, 0, fromZero()); len(board) != 0 {
		t.Errorf("a server's leaderboard has the DM's game: %+v", board)
	}
}
