package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
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

// groupDM is a group DM of the test's people, and elsewhere a server the
// bot is not in, with its channel: only a user's install of the app
// reaches them.
const (
	groupDM        = "400000000000000077"
	elsewhere      = "400000000000000066"
	elsewhereTalks = "400000000000000067"
)

// TestWhatAUserInstallAnswers: the commands registered for a user's
// install as well as servers', Alice uses the app in a group DM and Bob
// in a server the bot is not in. Each counts a hand and answers the
// daily hand there (their own: no server's), through the interaction's
// token alone; in the server a challenge, which needs the bot there, is
// refused in words that say so, and nothing is asked of Discord with the
// bot's token (the fake refuses that as Discord does, and the test fails
// on any refusal). A server's records are not offered there at all.
func TestWhatAUserInstallAnswers(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) { h.global = true })
	h.fake.GuildWithoutBot(elsewhere)
	day, d := h.dailyOf()
	if a := h.send(discordtest.Command(elsewhere, elsewhereTalks, bob, "challenge", discordtest.Opt{Name: "user", Value: alice})); !a.Ephemeral() || !strings.Contains(a.Content(), "needs me in this server") {
		t.Errorf("a challenge in a server without the bot: %s", a.Content())
	}
	for _, p := range []struct {
		u              discordtest.User
		guild, channel string
		mark           func(*discordgo.Interaction) *discordgo.Interaction
	}{
		{alice, "", groupDM, discordtest.InGroupDM},
		{bob, elsewhere, elsewhereTalks, func(i *discordgo.Interaction) *discordgo.Interaction { return i }},
	} {
		send := func(i *discordgo.Interaction) discordtest.Answer { return h.send(p.mark(i)) }
		count := send(discordtest.Command(p.guild, p.channel, p.u, "count", discordtest.Opt{Name: "cards", Value: "5H 5D 5C JS"}, discordtest.Opt{Name: "starter", Value: "5S"}))
		if !count.Ephemeral() || !strings.Contains(count.Content(), "**29**") {
			t.Errorf("%s: a count: %s", p.u.Name, count.Content())
		}
		view := send(discordtest.CommandOf("cribbage-daily", p.guild, p.channel, p.u, "hand"))
		for _, c := range d.Splits[0].Throw {
			b, ok := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return b.Label == c.Display() })
			if !ok {
				t.Fatalf("%s: no %s to toggle in %q", p.u.Name, c.Display(), view.Content())
			}
			view = send(discordtest.Click(p.guild, p.channel, p.u, view.MessageID, b.CustomID))
		}
		confirm, _ := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return b.Label == "Confirm" })
		res := send(discordtest.Click(p.guild, p.channel, p.u, view.MessageID, confirm.CustomID))
		ans, err := h.answerOf(p.u, day)
		if err != nil || ans.GuildID != "" || !strings.Contains(res.Content(), "the best throw") {
			t.Errorf("%s: the daily answer: %+v, %v: %s", p.u.Name, ans, err, res.Content())
		}
		if _, err := h.interact(p.mark(discordtest.CommandOf("cribbage-club", p.guild, p.channel, p.u, "leaderboard"))); !errors.Is(err, discordtest.ErrNotPermitted) {
			t.Errorf("%s: /cribbage-club leaderboard offered where only a user's install reaches: %v", p.u.Name, err)
		}
	}
	if tables, _ := h.store.PlayerTables(context.Background(), elsewhere, bob.ID); len(tables) != 0 {
		t.Errorf("tables opened: %+v", tables)
	}
	h.drain()
}

// TestATwoPlayerGameInAGroupDMPausedTwoDays: through Alice's install of
// the app, Alice and Bob play in their group DM, where Discord refuses
// the bot's token (the fake does too, and the test fails on any
// refusal). The table message is the answer to /cribbage start; Show my
// hand answers by updating it and sends the hand as a private followup;
// each hand's story goes as a followup. As the first hand's play begins
// the game waits two days, every token long dead: a click on Show my
// hand picks it up again, and it is played to a winner with every public
// payload scanned for hidden cards. No thread, no timer's post; the
// records are the players' own.
func TestATwoPlayerGameInAGroupDMPausedTwoDays(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) {
		h.global, h.guild, h.channel, h.mark = true, "", groupDM, discordtest.InGroupDM
	})
	id, msg := h.open(alice)
	if a := h.click(bob, msg, "/join/"+itoa64(id)); a.Ephemeral() {
		t.Fatalf("Bob could not join: %s", a.Content())
	}
	if tb := h.table(id); !tb.TokenOnly || tb.GuildID != "" || tb.Status != cribbage.StatusPlaying {
		t.Fatalf("the table: token-only %v, guild %q, %s", tb.TokenOnly, tb.GuildID, tb.Status)
	}
	people := usersOf(alice, bob)
	scan := &leakScanner{h: h, id: id}
	// To the first hand's play: the crib thrown, the starter cut.
	for h.table(id).State.Phase != engine.PhasePlay {
		if !h.step(id, msg, people) {
			t.Fatal("the game ended before the pause")
		}
		scan.check()
	}
	h.drain()
	paused := h.fake.Now()
	h.fake.Advance(48 * time.Hour)
	h.timerPasses(2)
	for n := 0; h.step(id, msg, people); n++ {
		scan.check()
		if n > 3000 {
			t.Fatal("the game did not end")
		}
	}
	scan.check()
	final := h.table(id)
	if final.Status != cribbage.StatusFinished || final.State.Scores[final.State.Result.Winner] < final.Options.Target {
		t.Fatalf("status %s, scores %v", final.Status, final.State.Scores)
	}
	h.drain()
	if m := h.tableMessage(id); m.ThreadID != "" {
		t.Errorf("a thread %s in a group DM", m.ThreadID)
	}
	story := 0
	for _, m := range h.fake.ChannelMessages(groupDM) {
		if m.ID != msg && m.Token != "" {
			story++
		}
	}
	if story < 2 {
		t.Errorf("%d story followups in the group DM", story)
	}
	if _, resumed := h.fake.FirstShowing(msg, paused.Add(48*time.Hour), func(discordtest.Message) bool { return true }); !resumed {
		t.Error("the table message was not brought up to date after the pause")
	}
	if st, _ := h.store.PlayerStats(context.Background(), "", alice.ID); st.People.Games != 1 {
		t.Errorf("Alice's own records: %+v", st)
	}

	// A rematch: its table message goes out as a followup of the click
	// that made it, and its story after it; only tokens reach it too.
	h.click(bob, msg, "/rematch/"+itoa64(id))
	h.click(alice, msg, "/rematch/"+itoa64(id))
	next := h.table(id).RematchID
	if next == 0 {
		t.Fatal("no rematch")
	}
	nmsg := h.postedTableMessage(next)
	if nt := h.table(next); !nt.TokenOnly || nt.Status != cribbage.StatusPlaying {
		t.Fatalf("the rematch: token-only %v, %s", nt.TokenOnly, nt.Status)
	}
	if m, ok := h.fake.Message(nmsg); !ok || m.Ephemeral || m.ChannelID != groupDM {
		t.Errorf("the rematch's table message: %+v", m)
	}
	h.showHand(bob, nmsg, next)
	h.drain()
	if m := h.tableMessage(next); m.ThreadID != "" {
		t.Errorf("a thread %s for the rematch", m.ThreadID)
	}
}

// TestAThreePlayerGameInAServerWithoutTheBot: through Alice's install of
// the app, Alice, Bob and Carol play three-handed in a server the bot is
// not a member of, where Discord refuses the bot's token (the fake too;
// the test fails on any refusal), played to a winner with every public
// payload scanned. No thread: the story goes as followups.
func TestAThreePlayerGameInAServerWithoutTheBot(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) {
		h.global, h.guild, h.channel = true, elsewhere, elsewhereTalks
		h.fake.GuildWithoutBot(elsewhere)
	})
	id, msg := h.open(alice, discordtest.Opt{Name: "players", Value: 3}, discordtest.Opt{Name: "points", Value: 61})
	for _, u := range []discordtest.User{bob, carol} {
		if a := h.click(u, msg, "/join/"+itoa64(id)); a.Ephemeral() {
			t.Fatalf("%s could not join: %s", u.Name, a.Content())
		}
	}
	if tb := h.table(id); !tb.TokenOnly || tb.Status != cribbage.StatusPlaying {
		t.Fatalf("the table: token-only %v, %s", tb.TokenOnly, tb.Status)
	}
	h.playScanned(id, msg, usersOf(alice, bob, carol))
	final := h.table(id)
	if final.Status != cribbage.StatusFinished || final.State.Scores[final.State.Result.Winner] < final.Options.Target {
		t.Fatalf("status %s, scores %v", final.Status, final.State.Scores)
	}
	h.drain()
	if m := h.tableMessage(id); m.ThreadID != "" {
		t.Errorf("a thread %s in a server without the bot", m.ThreadID)
	}
	story := 0
	for _, m := range h.fake.ChannelMessages(elsewhereTalks) {
		if m.ID != msg && m.Token != "" {
			story++
		}
	}
	if story < 2 {
		t.Errorf("%d story followups", story)
	}
}

// TestPartnersAndComputersInAGroupDM: two people in a group DM open a
// four-seat partnership table with the computer, which takes the two
// seats nobody joined when the host presses Start; played to 61 with
// every public payload scanned, the computers' moves told as followups
// like anyone's, no request with the bot's token.
func TestPartnersAndComputersInAGroupDM(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) {
		h.global, h.guild, h.channel, h.mark = true, "", groupDM, discordtest.InGroupDM
	})
	id, msg := h.open(alice, discordtest.Opt{Name: "players", Value: 4}, discordtest.Opt{Name: "teams", Value: true},
		discordtest.Opt{Name: "points", Value: 61}, discordtest.Opt{Name: "computer", Value: "easy"})
	h.click(bob, msg, "/join/"+itoa64(id))
	if a := h.click(alice, msg, "/begin/"+itoa64(id)); a.Ephemeral() {
		t.Fatalf("Start refused: %s", a.Content())
	}
	tb := h.table(id)
	if tb.Status != cribbage.StatusPlaying || !tb.Options.Partners || !tb.HasComputer() {
		t.Fatalf("the table: %s, seats %+v", tb.Status, tb.Seats)
	}
	h.playScanned(id, msg, usersOf(alice, bob))
	if final := h.table(id); final.Status != cribbage.StatusFinished {
		t.Fatalf("status %s", final.Status)
	}
	h.drain()
	computer := 0
	for _, m := range h.fake.ChannelMessages(groupDM) {
		if m.ID != msg && strings.Contains(m.Text(), "(easy)") {
			computer++
		}
	}
	if computer == 0 {
		t.Error("no computer's move told in the group DM")
	}
}
