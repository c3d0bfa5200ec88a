package main

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// zoe plays with her Discord client in French.
var zoe = discordtest.User{ID: "300000000000000021", Name: "Zoé", Locale: "fr"}

// buttonLabels are a message's buttons' labels.
func buttonLabels(comps []discordgo.MessageComponent) []string {
	var out []string
	for _, b := range discordtest.Buttons(comps) {
		out = append(out, b.Label)
	}
	return out
}

// TestEachSpeaksTheirLanguage: in an English server, a player whose
// client is French gets her hand, the coach and her refusals in French,
// while the table message and the story, which the channel reads, are in
// English and the other player's answers too; once an admin sets the
// server to French, the next table message is French, and private
// answers still follow each player's own client.
func TestEachSpeaksTheirLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	fr, _ := lang.ByCode("fr")

	id, msg := h.open(alice)
	if a := h.click(zoe, msg, "/join/"+itoa64(id)); a.Ephemeral() {
		t.Fatalf("Zoé could not join: %s", a.Content())
	}
	if h.table(id).Status != cribbage.StatusPlaying {
		t.Fatal("the game did not start")
	}
	tableShows := func(what string, want string) {
		t.Helper()
		h.eventually(what, func() bool {
			m, _ := h.fake.Message(msg)
			return strings.Contains(m.Text()+strings.Join(buttonLabels(m.Components), " "), want)
		})
	}
	tableShows("the table message in English", "Show my hand")

	// Zoé's own answers are French: her hand, the coach, a refusal.
	view := h.showHand(zoe, msg, id)
	if !strings.Contains(view.Content(), "**Ta main**") || !strings.Contains(view.Content(), "pour le crib de Alice") {
		t.Errorf("Zoé's hand view: %q", view.Content())
	}
	hint, ok := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/hint/") })
	if !ok || hint.Label != "Conseil" {
		t.Fatalf("Zoé's hint button: %+v (%v)", hint, buttonLabels(view.Response.Data.Components))
	}
	if a := h.click(zoe, view.MessageID, hint.CustomID); !strings.Contains(a.Content(), "les meilleurs jets") {
		t.Errorf("the coach to Zoé: %q", a.Content())
	}
	if a := h.click(zoe, msg, "/join/"+itoa64(id)); a.Content() != fr.T("refusal.not-lobby") {
		t.Errorf("a refusal to Zoé: %q", a.Content())
	}
	// Alice's are English.
	if a := h.showHand(alice, msg, id); !strings.Contains(a.Content(), "**Your hand**") {
		t.Errorf("Alice's hand view: %q", a.Content())
	}

	// The hand goes on: the story, the channel's, is English.
	h.discard(alice, msg, id, 2)
	h.discard(zoe, msg, id, 2)
	if !h.threadSays(id, "Cut for deal") || !h.threadSays(id, "deals.") || h.threadSays(id, "Coupe pour la donne") {
		t.Error("the story is not in English")
	}
	tableShows("the table message in English, with the starter", "Starter: **")

	// An admin sets the server to French: the next table message is.
	if a := h.admin(ada, "settings", discordtest.Opt{Name: "language", Value: "fr"}); !a.Ephemeral() || !strings.Contains(a.Content(), "Français") {
		t.Fatalf("the language setting: %q", a.Content())
	}
	if s, _ := h.store.GuildSettings(context.Background(), testGuild); s.Language != "fr" {
		t.Fatalf("the server's language: %q", s.Language)
	}
	h.step(id, msg, usersOf(alice, zoe))
	tableShows("the table message in French", "Voir ma main")
	tableShows("the table message's count in French", "Compte : **")
	// Private answers still follow each client.
	if a := h.click(alice, msg, "/join/"+itoa64(id)); a.Content() != lang.English.T("refusal.not-lobby") {
		t.Errorf("a refusal to Alice in a French server: %q", a.Content())
	}
	// Her open view, kept current by the bot as Alice plays, stays French.
	aliceToPlay := func() bool {
		tb := h.table(id)
		return tb.State.Phase == engine.PhasePlay && tb.Seats[tb.State.Turn].UserID == alice.ID
	}
	for n := 0; !aliceToPlay(); n++ {
		if n > 40 || !h.step(id, msg, usersOf(alice, zoe)) {
			t.Fatal("Alice never had a card to play")
		}
	}
	zview := h.showHand(zoe, msg, id)
	if !strings.Contains(zview.Content(), "**Ta main**") {
		t.Errorf("Zoé's hand view: %q", zview.Content())
	}
	h.step(id, msg, usersOf(alice, zoe))
	h.eventually("Zoé's open view, edited in French", func() bool {
		m, _ := h.fake.Message(zview.MessageID)
		return strings.Contains(m.Text(), "Dernier coup") && strings.Contains(m.Text(), "**Ta main**")
	})
}

// TestLangOutsideAServer: a table outside a server has no server's
// language: in a group DM, Zoé's table speaks her French (its table
// message, read by the whole group), while Alice's own answers stay
// English; in a DM with the bot, what the bot says of where it plays
// speaks the asker's language too.
func TestLangOutsideAServer(t *testing.T) {
	t.Parallel()
	fr, _ := lang.ByCode("fr")
	h := newHarnessWith(t, func(h *harness) {
		h.global, h.guild, h.channel, h.mark = true, "", groupDM, discordtest.InGroupDM
	})
	id, msg := h.open(zoe)
	if tb := h.table(id); !tb.TokenOnly || tb.Locale != "fr" {
		t.Fatalf("Zoé's table in a group DM: token-only %v, locale %q", tb.TokenOnly, tb.Locale)
	}
	m, _ := h.fake.Message(msg)
	if want := fr.T("table.opened-token-only", "Name", zoe.Name); !strings.Contains(m.Text(), want) {
		t.Errorf("the table message in French: %q", m.Text())
	}
	if a := h.click(alice, msg, "/join/"+itoa64(id)); a.Ephemeral() {
		t.Fatalf("Alice could not join: %s", a.Content())
	}
	if a := h.click(alice, msg, "/join/"+itoa64(id)); a.Content() != lang.English.T("refusal.not-lobby") {
		t.Errorf("a refusal to Alice at Zoé's table: %q", a.Content())
	}
	if m, _ := h.fake.Message(msg); !strings.Contains(strings.Join(buttonLabels(m.Components), " "), "Voir ma main") {
		t.Errorf("the table message's buttons in French: %v", buttonLabels(m.Components))
	}

	dm := newHarnessWith(t, func(h *harness) { h.global, h.guild, h.channel = true, "", dmChannel })
	if a := dm.command(zoe, "start"); !a.Ephemeral() || a.Content() != fr.T("reply.dm-computer-only") {
		t.Errorf("a table for friends in a DM, to Zoé: %q", a.Content())
	}
	if a := dm.command(zoe, "challenge", discordtest.Opt{Name: "user", Value: alice.ID}); a.Content() != fr.T("refusal.not-in-guild") {
		t.Errorf("a challenge in a DM, to Zoé: %q", a.Content())
	}
}
