package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/mock"
)

// The handlers' own tests: interactions go through the route table to the
// handlers and their replies are checked, with the in-memory store and no
// Discord at all (no SQL, no fake server).

const (
	guild   = "400000000000000001"
	channel = "400000000000000002"
)

var (
	alice   = discordtest.User{ID: "300000000000000001", Name: "Alice"}
	bob     = discordtest.User{ID: "300000000000000002", Name: "Bob"}
	mallory = discordtest.User{ID: "300000000000000009", Name: "Mallory"}
)

// unit is a bot on the in-memory store, answering interactions directly.
type unit struct {
	t     *testing.T
	b     *Bot
	store *mock.Store
	next  int
	// clock is the bot's and the store's time; tests move it.
	clock time.Time
}

func newUnit(t *testing.T) *unit {
	return newUnitWith(t, Options{})
}

// newUnitWith is newUnit with the bot's timers and such from opts.
func newUnitWith(t *testing.T, opts Options) *unit {
	st := mock.NewStore()
	u := &unit{t: t, store: st, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	st.Now = func() time.Time { return u.clock }
	var seeds uint64
	opts.Token, opts.Store, opts.Now = "test", st, st.Now
	opts.Seeds = func() engine.Seed { seeds++; return engine.SeedFromUint64(seeds) }
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	u.b = b
	return u
}

// route answers an interaction, giving it an id as Discord would.
func (u *unit) route(ic *discordgo.Interaction) (reply, error) {
	u.next++
	ic.ID, ic.Token = strconv.Itoa(900+u.next), "token"
	return u.b.route(context.Background(), ic)
}

// ok answers an interaction that must succeed.
func (u *unit) ok(ic *discordgo.Interaction) *discordgo.InteractionResponse {
	u.t.Helper()
	r, err := u.route(ic)
	if err != nil {
		u.t.Fatalf("%v", err)
	}
	return r.resp
}

// click presses a button on the public table message.
func (u *unit) click(who discordtest.User, customID string) (reply, error) {
	return u.route(discordtest.Click(guild, channel, who, "table-message", customID))
}

// clickView presses a button on the player's private hand view.
func (u *unit) clickView(who discordtest.User, customID string) (reply, error) {
	ic := discordtest.Click(guild, channel, who, "hand-view", customID)
	ic.Message.Flags = discordgo.MessageFlagsEphemeral
	return u.route(ic)
}

// table reads a table from the store.
func (u *unit) table(id int64) *cribbage.Table {
	u.t.Helper()
	t, err := u.store.Table(context.Background(), id)
	if err != nil {
		u.t.Fatal(err)
	}
	return t
}

// twoPlayers opens a table for Alice and seats Bob, which starts the game.
func (u *unit) twoPlayers() *cribbage.Table {
	u.t.Helper()
	u.ok(discordtest.Command(guild, channel, alice, "start"))
	if _, err := u.click(bob, "/join/1"); err != nil {
		u.t.Fatal(err)
	}
	return u.table(1)
}

func TestLobbyHandlers(t *testing.T) {
	u := newUnit(t)
	resp := u.ok(discordtest.Command(guild, channel, alice, "start"))
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Fatalf("start answered %+v", resp)
	}
	if _, ok := button(resp.Data.Components, "/join/1"); !ok {
		t.Fatalf("no Join button: %+v", resp.Data.Components)
	}
	if _, err := u.click(alice, "/join/1"); !errors.Is(err, cribbage.ErrAlreadySeated) {
		t.Errorf("the host joined again: %v", err)
	}
	r, err := u.click(bob, "/join/1")
	if err != nil || r.resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("join: %+v, %v", r.resp, err)
	}
	tb := u.table(1)
	if tb.Status != cribbage.StatusPlaying || len(tb.Seats) != 2 || tb.State == nil {
		t.Fatalf("after the second player joined: %s, %d seats", tb.Status, len(tb.Seats))
	}
	if m, err := u.store.TableMessage(context.Background(), 1); err != nil || m.MessageID != "table-message" {
		t.Errorf("the click did not record the table message: %q, %v", m.MessageID, err)
	}
	if _, err := u.click(bob, "/leave/1"); !errors.Is(err, cribbage.ErrNotLobby) {
		t.Errorf("left a game: %v", err)
	}
}

func TestRefusals(t *testing.T) {
	u := newUnit(t)
	u.twoPlayers()
	view := click.ViewVersion(u.table(1).State.ViewFor(0))
	tests := []struct {
		name string
		ic   *discordgo.Interaction
		want error
	}{
		{"a forged custom_id", discordtest.Click(guild, channel, alice, "m", "/play/1/abc/10D"), click.ErrBad},
		// A server's table is not in a DM, even one whose id is the
		// table's channel's.
		{"a click on a server's table in a DM", discordtest.Click("", channel, alice, "m", "/hand/1"), refusal.ErrNotHere},
		{"a game command in a DM with no table there", discordtest.Command("", channel, alice, "status"), refusal.ErrNoTable},
		{"a challenge in a DM", discordtest.Command("", channel, alice, "challenge", discordtest.Opt{Name: "user", Value: bob}), refusal.ErrNotInGuild},
		{"a tournament's button in a DM", discordtest.Click("", channel, alice, "m", "/tsignup/1"), refusal.ErrNotInGuild},
		// In a server without the bot, what needs it there is refused; a
		// server's table is not in a group DM.
		{"a challenge in a server without the bot", discordtest.UserInstalled(discordtest.Command("elsewhere", "general", alice, "challenge", discordtest.Opt{Name: "user", Value: bob}), alice.ID), refusal.ErrOnlyInstalled},
		{"a click on a server's table in a group DM", discordtest.InGroupDM(discordtest.Click("", "gdm", alice, "m", "/hand/1")), refusal.ErrNotHere},
		{"an unknown subcommand", discordtest.Command(guild, channel, alice, "nuke"), refusal.ErrUnknownCommand},
		{"a stranger's hand", discordtest.Click(guild, channel, mallory, "m", "/hand/1"), cribbage.ErrNotSeated},
		{"a stranger's play", discordtest.Click(guild, channel, mallory, "m", "/discard/1/"+view+"/3"), cribbage.ErrNotSeated},
		{"a table that does not exist", discordtest.Click(guild, channel, alice, "m", "/hand/99"), cribbage.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := u.table(1).Version
			if _, err := u.route(tt.ic); !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if msg, known := refusal.Words(lang.English, tt.want); !known || strings.Contains(msg, "bot:") {
				t.Errorf("the player would read %q", msg)
			}
			if u.table(1).Version != before {
				t.Error("a refused interaction changed the table")
			}
		})
	}
	// The records moved to /cribbage-club; a client that has not seen
	// the new commands yet is told where.
	if resp := u.ok(discordtest.Command(guild, channel, alice, "leaderboard")); !strings.Contains(resp.Data.Content, "/cribbage-club leaderboard") {
		t.Errorf("the old leaderboard: %q", resp.Data.Content)
	}
}

func TestDiscardAndPlayHandlers(t *testing.T) {
	u := newUnit(t)
	tb := u.twoPlayers()
	people := []discordtest.User{alice, bob}
	// Each player toggles two cards and confirms.
	for seat, who := range people {
		hand := tb.State.Hands[seat].Cards()
		before := u.table(1).Version
		view := click.ViewVersion(u.table(1).State.ViewFor(seat))
		sel := engine.SetOf(hand[0], hand[1])
		r, err := u.clickView(who, click.ID{Action: click.Select, Table: 1, View: view, Cards: sel}.String())
		if err != nil || r.resp.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("select: %+v, %v", r.resp, err)
		}
		if u.table(1).Version != before {
			t.Fatal("choosing a card changed the table")
		}
		view = click.ViewVersion(u.table(1).State.ViewFor(seat))
		if _, err := u.clickView(who, click.ID{Action: click.Discard, Table: 1, View: view, Cards: sel}.String()); err != nil {
			t.Fatalf("discard: %v", err)
		}
		if got := u.table(1).State.Discards[seat]; got != sel {
			t.Errorf("seat %d threw %v, chose %v", seat, got, sel)
		}
	}
	g := u.table(1).State
	if g.Phase != engine.PhasePlay {
		t.Fatalf("phase %s after both threw", g.Phase)
	}
	// A click on a view made before the move is refused as stale and
	// shown the hand as it is; the player to play lays a card.
	turn := g.Turn
	card := g.LegalPlays(turn)[0]
	old := click.ID{Action: click.Play, Table: 1, View: "stale1", Card: card}.String()
	r, err := u.clickView(people[turn], old)
	if err != nil || !strings.Contains(responseText(r.resp), "⚠️") {
		t.Errorf("a stale play: %+v, %v", r.resp, err)
	}
	view := click.ViewVersion(g.ViewFor(turn))
	if _, err := u.clickView(people[turn], click.ID{Action: click.Play, Table: 1, View: view, Card: card}.String()); err != nil {
		t.Fatalf("play: %v", err)
	}
	if got := u.table(1).State; len(got.Plays) != 1 || got.Plays[0].Card != card {
		t.Errorf("plays %+v", got.Plays)
	}
	// Who just played cannot play again out of turn.
	g = u.table(1).State
	if g.Turn == turn {
		t.Fatal("the deal (fixed seeds) has the same player to play again: pick another seed")
	}
	view = click.ViewVersion(g.ViewFor(turn))
	r, _ = u.clickView(people[turn], click.ID{Action: click.Play, Table: 1, View: view, Card: g.Remaining(turn).Cards()[0]}.String())
	if r.resp == nil || !strings.Contains(responseText(r.resp), "⚠️") {
		t.Errorf("a play out of turn was not refused on the hand view: %+v", r.resp)
	}
}

func TestRematchHandler(t *testing.T) {
	u := newUnit(t)
	u.twoPlayers()
	r, err := u.route(discordtest.Command(guild, channel, bob, "resign"))
	if err != nil {
		t.Fatal(err)
	}
	confirm, ok := button(r.resp.Data.Components, "/resign/1")
	if !ok {
		t.Fatalf("no Resign button: %+v", r.resp.Data)
	}
	if _, err := u.click(bob, confirm.CustomID); err != nil {
		t.Fatal(err)
	}
	if u.table(1).Status != cribbage.StatusFinished {
		t.Fatalf("status %s after resigning", u.table(1).Status)
	}
	// A stranger is told the rematch is the players', not to press Join
	// at a table that is over.
	for _, action := range []string{"/rematch/1", "/norematch/1"} {
		_, err := u.click(mallory, action)
		if msg, _ := refusal.Words(lang.English, err); !errors.Is(err, refusal.ErrNotAtTable) || strings.Contains(msg, "Join") {
			t.Errorf("a stranger's %s: %v, %q", action, err, msg)
		}
	}
	// Alice offers: the table message shows it, and Bob is asked.
	r, err = u.click(alice, "/rematch/1")
	if err != nil || r.resp.Type != discordgo.InteractionResponseUpdateMessage || u.table(1).RematchID != 0 {
		t.Fatalf("the offer: %+v, %v", r, err)
	}
	if _, ok := button(r.resp.Data.Components, "/norematch/1"); !ok || !strings.Contains(responseText(r.resp), "Alice** offers a rematch") {
		t.Errorf("the table message after the offer:\n%s", responseText(r.resp))
	}
	if _, err := u.click(alice, "/rematch/1"); !errors.Is(err, cribbage.ErrAlreadyAccepted) {
		t.Errorf("Alice accepting her own offer: %v", err)
	}
	// Bob declines; Alice offers again and Bob accepts: the rematch starts.
	if _, err := u.click(bob, "/norematch/1"); err != nil || u.table(1).Offer != nil {
		t.Fatalf("declined: %v, %+v", err, u.table(1).Offer)
	}
	if _, err := u.click(alice, "/rematch/1"); err != nil {
		t.Fatal(err)
	}
	r, err = u.click(bob, "/rematch/1")
	if err != nil || r.resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("accepted: %+v, %v", r, err)
	}
	next := u.table(2)
	if next.Status != cribbage.StatusPlaying || next.State.HandNo != 1 || u.table(1).RematchID != 2 || next.HostID != alice.ID {
		t.Errorf("rematch table %s hand %d, recorded %d, host %s", next.Status, next.State.HandNo, u.table(1).RematchID, next.HostID)
	}
	if _, ok := button(r.resp.Data.Components, "/rematch/1"); ok || !strings.Contains(responseText(r.resp), "Rematch: table 2") {
		t.Errorf("the table message after the rematch:\n%s", responseText(r.resp))
	}
	opened := false
	for _, it := range u.store.Outbox() {
		opened = opened || it.TableID == 2 && it.Kind == render.KindOpen
	}
	if !opened {
		t.Error("nothing posts the rematch's table message")
	}
	r, err = u.click(bob, "/rematch/1")
	if err != nil || !strings.Contains(responseText(r.resp), "already has its rematch: table 2") {
		t.Errorf("a second rematch: %+v, %v", r.resp, err)
	}
}

// button finds a button by its custom_id.
// responseText is the words of a response's message: its content and
// its text displays.
func responseText(resp *discordgo.InteractionResponse) string {
	return strings.Join(append([]string{resp.Data.Content}, discordtest.TextDisplays(resp.Data.Components)...), "\n")
}

// panelOf reads a V2 panel answer (the leaderboard, render.Panel): its
// title and its body.
func panelOf(resp *discordgo.InteractionResponse) (title, body string) {
	tds := discordtest.TextDisplays(resp.Data.Components)
	if len(tds) < 2 {
		return "", ""
	}
	return strings.TrimPrefix(tds[0], "### "), tds[1]
}

func button(comps []discordgo.MessageComponent, customID string) (discordgo.Button, bool) {
	for _, b := range discordtest.Buttons(comps) {
		if b.CustomID == customID {
			return b, true
		}
	}
	return discordgo.Button{}, false
}

// TestInteractionKinds names every kind of interaction for the metrics
// without touching data the interaction does not have.
func TestInteractionKinds(t *testing.T) {
	for _, tc := range []struct {
		ic   *discordgo.Interaction
		want string
	}{
		{&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{Name: "cribbage",
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "start"}}}}, "command:start"},
		{&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{Name: "cribbage"}}, "command:unknown"},
		{&discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "/hand/3"}}, "click:hand"},
		{&discordgo.Interaction{Type: discordgo.InteractionModalSubmit, Data: discordgo.ModalSubmitInteractionData{CustomID: "/claimed/3/abcd"}}, "click:claimed"},
		{&discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "nonsense"}}, "click:unknown"},
		{&discordgo.Interaction{Type: discordgo.InteractionApplicationCommandAutocomplete, Data: discordgo.ApplicationCommandInteractionData{Name: "cribbage"}}, "autocomplete"},
	} {
		if got := interactionKind(tc.ic); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.ic.Type, got, tc.want)
		}
	}
}

// TestATableWhereAnswersArePrivate: in a server without the bot that
// turned off Use External Apps, Discord makes a user's install's answers
// private, the table message too: a table for people there is refused,
// one against the computer opens, marked as only tokens reach it.
func TestATableWhereAnswersArePrivate(t *testing.T) {
	u := newUnit(t)
	start := func(opts ...discordtest.Opt) *discordgo.Interaction {
		ic := discordtest.UserInstalled(discordtest.Command("elsewhere", "general", alice, "start", opts...), alice.ID)
		ic.Member.Permissions &^= discordgo.PermissionUseExternalApps
		return ic
	}
	if r := u.ok(start()); r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(r.Data.Content, "Use External Apps") {
		t.Errorf("a table for people where answers are private: %+v", r.Data)
	}
	r, err := u.route(start(discordtest.Opt{Name: "computer", Value: "easy"}))
	if err != nil || r.tableMessage == 0 {
		t.Fatalf("a table against the computer: %v, %+v", err, r)
	}
	if tb := u.table(r.tableMessage); !tb.TokenOnly || tb.GuildID != "elsewhere" {
		t.Errorf("the table: token-only %v, guild %q", tb.TokenOnly, tb.GuildID)
	}
}
