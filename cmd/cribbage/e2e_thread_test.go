package main

import (
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// answerText is all an answer says: its content, its embeds' text and
// its text displays.
func answerText(a discordtest.Answer) string {
	if a.Response == nil || a.Response.Data == nil {
		return ""
	}
	parts := []string{a.Response.Data.Content}
	for _, e := range a.Response.Data.Embeds {
		parts = append(parts, e.Title, e.Description)
		for _, f := range e.Fields {
			parts = append(parts, f.Name, f.Value)
		}
		if e.Footer != nil {
			parts = append(parts, e.Footer.Text)
		}
	}
	parts = append(parts, discordtest.TextDisplays(a.Response.Data.Components)...)
	return strings.Join(parts, "\n")
}

// TestCommandsInTheThreadOfATableOver: every command that takes a table,
// used without it in the thread of a finished game or of a cancelled one,
// finds that table and says it is over or cancelled, as the table option
// would, never that there is no table here.
func TestCommandsInTheThreadOfATableOver(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	finished, fmsg := h.open(alice)
	h.click(bob, fmsg, "/join/"+itoa64(finished))
	h.eventually("the finished game's thread", func() bool { return h.tableMessage(finished).ThreadID != "" })
	h.clickNamed(bob, h.command(bob, "resign", discordtest.Opt{Name: "table", Value: finished}), "/resign/")
	if h.table(finished).Status != cribbage.StatusFinished {
		t.Fatal("the game did not finish")
	}
	cancelled, cmsg := h.open(carol)
	h.click(dan, cmsg, "/join/"+itoa64(cancelled))
	h.eventually("the cancelled game's thread", func() bool { return h.tableMessage(cancelled).ThreadID != "" })
	h.admin(ada, "cancel", discordtest.Opt{Name: "table", Value: cancelled}, discordtest.Opt{Name: "reason", Value: "a test"})

	over := "Table " + itoa64(finished) + " is over"
	won := "Alice wins** by resignation"
	cancelledBy := "Table " + itoa64(cancelled) + " was cancelled by <@" + ada.ID + ">: a test"
	tests := []struct {
		table int64
		who   discordtest.User
		sub   string
		want  string
	}{
		{finished, alice, "hand", won},
		{finished, eve, "hand", over},
		{finished, alice, "status", won},
		{finished, bob, "resign", over},
		{finished, eve, "replay", "Replay · table " + itoa64(finished)},
		{finished, eve, "join", over},
		{finished, alice, "leave", over},
		{cancelled, carol, "hand", cancelledBy},
		{cancelled, carol, "status", "cancelled by <@" + ada.ID + ">: a test"},
		{cancelled, dan, "resign", cancelledBy},
		{cancelled, eve, "replay", cancelledBy},
		{cancelled, eve, "join", cancelledBy},
		{cancelled, carol, "leave", cancelledBy},
	}
	for _, tt := range tests {
		thread := h.tableMessage(tt.table).ThreadID
		version := h.table(tt.table).Version
		a := h.send(discordtest.Command(testGuild, thread, tt.who, tt.sub))
		text := answerText(a)
		if !a.Ephemeral() || !strings.Contains(text, tt.want) || strings.Contains(text, "no open table") {
			t.Errorf("%s by %s in table %d's thread: %q, want it to say %q", tt.sub, tt.who.Name, tt.table, text, tt.want)
		}
		if got := h.table(tt.table).Version; got != version {
			t.Errorf("%s by %s changed table %d", tt.sub, tt.who.Name, tt.table)
		}
	}
}

// panelOf reads a V2 panel answer (the leaderboard, render.Panel): its
// title and its body.
func panelOf(a discordtest.Answer) (title, body string) {
	if a.Response == nil || a.Response.Data == nil {
		return "", ""
	}
	tds := discordtest.TextDisplays(a.Response.Data.Components)
	if len(tds) < 2 {
		return "", ""
	}
	return strings.TrimPrefix(tds[0], "### "), tds[1]
}
