package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// The contract tests hold the bot to Discord's published contract: the fake
// refuses what Discord refuses (its OpenAPI schema, the rules the schema
// leaves out, the interaction rules) and keeps Discord's rate limits. Every
// e2e test fails on a refused request (see newHarness); these ones make
// sure every command and every button the bot offers is exercised, and
// report what a game costs in requests.

// TestContractWholeGames plays a whole game at every kind of table and
// reports its requests by route. Each table has exactly one table message.
func TestContractWholeGames(t *testing.T) {
	t.Parallel()
	tests := []tableKind{
		{"two players", nil, []discordtest.User{alice, bob}},
		{"three players", []discordtest.Opt{{Name: "players", Value: 3}}, []discordtest.User{alice, bob, carol}},
		{"four players", []discordtest.Opt{{Name: "players", Value: 4}}, []discordtest.User{alice, bob, carol, dan}},
		{"two teams of two", []discordtest.Opt{{Name: "players", Value: 4}, {Name: "teams", Value: true}}, []discordtest.User{alice, bob, carol, dan}},
	}
	for _, tc := range shortKinds(tests) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			id, msg := h.seat(tc)
			h.playToEnd(id, msg, usersOf(tc.people...))
			h.drain()
			final := h.table(id)
			if final.Status != cribbage.StatusFinished {
				t.Fatalf("status %s", final.Status)
			}
			if n := h.tableMessages(id); n != 1 {
				t.Errorf("%d table messages for table %d, want 1", n, id)
			}
			moves := len(mustActions(t, h, id))
			t.Logf("%s, %d actions (%d hands), 429s %v:\n%s", tc.name, moves, final.State.HandNo, h.fake.RateLimited(), routeReport(h.fake.Requests()))
		})
	}
}

// TestContractEveryCommandAndButton drives every command and every kind of
// button the bot offers, and checks that none was left out: every
// subcommand registered was run, and every action of a custom_id the bot
// rendered was clicked.
func TestContractEveryCommandAndButton(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, sub := range []string{"help", "rules", "status", "games"} {
		h.command(alice, sub)
	}
	for _, sub := range []string{"leaderboard", "stats"} {
		h.club(alice, sub)
	}
	h.command(alice, "count", discordtest.Opt{Name: "cards", Value: "5H 5D 5C JS"}, discordtest.Opt{Name: "starter", Value: "5S"})
	// The admin's commands: the settings, shown and set, and a lobby
	// cancelled.
	h.admin(ada, "settings")
	h.admin(ada, "settings", discordtest.Opt{Name: "reminder-after", Value: "12h"}, discordtest.Opt{Name: "cancel-role", Value: discordtest.Role{ID: "500000000000000077", Name: "Mods"}})
	stuck, _ := h.open(eve)
	h.admin(ada, "cancel", discordtest.Opt{Name: "table", Value: stuck}, discordtest.Opt{Name: "reason", Value: "a test of the contract"})

	// A lobby: join and leave by button and by command, then the game.
	id, msg := h.open(alice, discordtest.Opt{Name: "counting", Value: "manual"}, discordtest.Opt{Name: "muggins", Value: true}, discordtest.Opt{Name: "points", Value: 61},
		discordtest.Opt{Name: "four-colour", Value: true})
	h.click(bob, msg, "/join/"+itoa64(id))
	h.click(bob, msg, "/leave/"+itoa64(id))
	h.command(bob, "join")
	h.command(carol, "join")
	h.command(carol, "leave")
	if h.table(id).Status != cribbage.StatusPlaying {
		t.Fatalf("the table did not start: %s", h.table(id).Status)
	}
	people := usersOf(alice, bob)
	// At a muggins table the dealer deals by button.
	for h.table(id).State.Phase == engine.PhaseDeal {
		h.step(id, msg, people)
	}
	// The hand view by command and by button, the coach's hint, and a
	// refresh of the view.
	view := h.command(alice, "hand")
	h.clickNamed(alice, view, "/hint/")
	h.clickNamed(alice, view, "/refresh/")
	// Play to the first count.
	for h.table(id).State.Phase != engine.PhaseShow {
		if !h.step(id, msg, people) {
			t.Fatal("the game ended before the first show")
		}
	}
	// A claim of nothing, and the opponent's muggins when there was
	// something to miss.
	g := h.table(id).State
	seat, crib := g.ShowOrder(g.Shown)
	claimer := people[h.table(id).Seats[seat].UserID]
	opponent := people[h.table(id).Seats[1-seat].UserID]
	h.claim(claimer, msg, id, 0)
	if ov := h.showHand(opponent, msg, id); truth(g, seat, crib) > 0 {
		h.clickNamed(opponent, ov, "/muggins/")
	}
	h.command(alice, "status")
	// In the next hand, the coach reviews the last discard.
	for h.table(id).Status == cribbage.StatusPlaying && h.table(id).State.HandNo < 2 {
		h.step(id, msg, people)
	}
	if h.table(id).Status == cribbage.StatusPlaying {
		h.clickNamed(alice, h.showHand(alice, msg, id), "/review/")
	}
	h.playToEnd(id, msg, people)
	h.drain()
	h.verifyDeals(id)
	h.checkFourColourShows(id)
	// The finished game's replay, by command and from the table's button,
	// paged on, and dumped for looking at when PICTURES_DIR is set.
	replay := h.command(carol, "replay", discordtest.Opt{Name: "table", Value: id})
	page := h.clickNamed(carol, replay, "/replay/")
	h.clickNamed(bob, h.click(bob, msg, "/replay/"+itoa64(id)+"/1"), "/replay/")
	if dir := os.Getenv("PICTURES_DIR"); dir != "" {
		m, _ := h.fake.Message(replay.MessageID)
		for _, a := range m.Attachments {
			data, _ := h.fake.File(m, a.Filename)
			os.WriteFile(filepath.Join(dir, "replay-"+a.Filename), data, 0o644)
		}
		h.t.Logf("replay page 2: %s\n%s", page.Response.Data.Embeds[0].Title, page.Response.Data.Embeds[0].Description)
	}

	// A rematch offered and declined, offered again and accepted, then
	// resigned by button from /cribbage resign.
	h.clickNamed(alice, h.click(bob, msg, "/rematch/"+itoa64(id)), "/norematch/")
	h.click(bob, msg, "/rematch/"+itoa64(id))
	h.click(alice, msg, "/rematch/"+itoa64(id))
	rematch := h.table(id).RematchID
	h.postedTableMessage(rematch)
	a := h.command(bob, "resign", discordtest.Opt{Name: "table", Value: rematch})
	h.clickNamed(bob, a, "/resign/")

	// Challenges: declined, withdrawn, and accepted from the user menu;
	// then a match resigned whole.
	decl := h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob})
	h.clickNamed(bob, decl, "/decline/")
	wd := h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}, discordtest.Opt{Name: "points", Value: 61})
	h.clickNamed(alice, wd, "/withdraw/")
	menu := h.send(discordtest.UserCommand(testGuild, testChannel, carol, "Challenge to cribbage", dan))
	h.clickNamed(dan, menu, "/accept/")
	mid, mmsg := h.open(alice, discordtest.Opt{Name: "match", Value: 3})
	h.click(bob, mmsg, "/join/"+itoa64(mid))
	h.clickNamed(bob, h.command(bob, "resign", discordtest.Opt{Name: "table", Value: mid}), "/resignmatch/")

	// A forfeit: a week without a move, then Claim the win.
	fid, fmsg := twoPlayerGame(t, h)
	_, waiter := h.turnUser(fid)
	h.fake.Advance(7*24*time.Hour + time.Minute)
	// The next timer pass offers the forfeit and makes the edits that were
	// waiting on the clock, now past; the button shows with the table
	// message's next edit.
	h.wantClaimButton(fmsg)
	h.click(waiter, fmsg, "/claimwin/"+itoa64(fid))
	if h.table(fid).Status != cribbage.StatusFinished {
		t.Errorf("the forfeit was not claimed: %s", h.table(fid).Status)
	}

	// A table where the computer fills the seat when the host starts.
	cid, cmsg := h.open(carol, discordtest.Opt{Name: "computer", Value: "easy"})
	h.click(carol, cmsg, "/begin/"+itoa64(cid))

	h.command(alice, "games")
	for _, sub := range []string{"leaderboard", "stats", "seasons"} {
		h.club(alice, sub)
	}
	h.admin(ada, "season new", discordtest.Opt{Name: "name", Value: "Contract"})

	// A tournament: signed up for and withdrawn from, filled with
	// computers, started on its message, shown and cancelled. (A start
	// by command after the button's is refused: sign-up is closed.)
	tr := h.openTournament(discordtest.Opt{Name: "rounds", Value: 1})
	h.click(alice, h.tournamentMessageID(tr.ID), "/tsignup/"+itoa64(tr.ID))
	h.click(alice, h.tournamentMessageID(tr.ID), "/twithdraw/"+itoa64(tr.ID))
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 4})
	h.click(ada, h.tournamentMessageID(tr.ID), "/tstart/"+itoa64(tr.ID))
	h.admin(ada, "tournament start")
	h.club(alice, "tournament")
	h.admin(ada, "tournament cancel")

	// The daily hand: its settings, the day's post (from the hour just
	// come) and its button, an answer and the month, from /cribbage and
	// from /cribbage-daily.
	h.admin(ada, "daily")
	h.setDaily(h.fake.Now().UTC().Hour())
	h.eventually("the daily post", func() bool { return len(h.dailyPosts()) == 1 })
	post := h.dailyPosts()[0]
	_, daily := h.dailyOf()
	h.click(carol, post.ID, discordtest.Buttons(post.Components)[0].CustomID)
	answered := h.answerDaily(alice, h.command(alice, "daily"), testGuild, testChannel, daily.Splits[0].Throw)
	h.clickNamed(alice, answered, "/dmonth/")
	h.send(discordtest.CommandOf("cribbage-daily", testGuild, testChannel, bob, "hand"))
	h.send(discordtest.CommandOf("cribbage-daily", testGuild, testChannel, bob, "month"))
	h.drain()

	// Every subcommand registered was run, and every button action the
	// bot rendered was clicked.
	ran, clicked, offered := h.interactionsSeen()
	for _, c := range h.fake.Commands(testGuild) {
		if c.Type == discordgo.UserApplicationCommand && !ran["menu:"+c.Name] {
			t.Errorf("the user command %q was never run", c.Name)
		}
		for _, o := range c.Options {
			paths := []string{o.Name}
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				paths = nil
				for _, sub := range o.Options {
					paths = append(paths, o.Name+" "+sub.Name)
				}
			}
			for _, p := range paths {
				if !ran[c.Name+" "+p] {
					t.Errorf("/%s %s was never run", c.Name, p)
				}
			}
		}
	}
	for action := range offered {
		if !clicked[action] {
			t.Errorf("the bot offered %q buttons and none was clicked", action)
		}
	}
	t.Logf("commands run %d, button actions clicked %v", len(ran), sortedKeys(clicked))
}

// clickNamed presses the first enabled button of an answer whose custom_id
// starts with prefix.
func (h *harness) clickNamed(u discordtest.User, a discordtest.Answer, prefix string) discordtest.Answer {
	h.t.Helper()
	b, ok := button(h.t, a.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, prefix) && !b.Disabled })
	if !ok {
		h.t.Fatalf("no %s button in %q", prefix, a.Content())
	}
	return h.click(u, a.MessageID, b.CustomID)
}

// interactionsSeen reads the requests the fake recorded: the subcommands
// run and button actions clicked (from the interactions the bot answered),
// and the button actions the bot rendered in anything it sent.
func (h *harness) interactionsSeen() (ran, clicked, offered map[string]bool) {
	ran, clicked, offered = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, i := range h.fake.Interactions() {
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			if d := i.ApplicationCommandData(); d.CommandType == discordgo.UserApplicationCommand {
				ran["menu:"+d.Name] = true
			} else if len(d.Options) > 0 {
				path := d.Options[0].Name
				if g := d.Options[0]; g.Type == discordgo.ApplicationCommandOptionSubCommandGroup && len(g.Options) > 0 {
					path += " " + g.Options[0].Name
				}
				ran[d.Name+" "+path] = true
			}
		case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
			clicked[action(discordtest.CustomID(i))] = true
		}
	}
	for _, r := range h.fake.Requests() {
		var v any
		json.Unmarshal(r.Body, &v)
		var ids []string
		collectIDs(v, &ids)
		for _, id := range ids {
			if strings.HasPrefix(id, "/") {
				offered[action(id)] = true
			}
		}
	}
	return ran, clicked, offered
}

// action is a custom_id's first path segment: "/play/1/…" is "play".
func action(customID string) string {
	parts := strings.SplitN(strings.TrimPrefix(customID, "/"), "/", 2)
	return parts[0]
}

// tableMessages counts the public messages in the channel carrying a table's
// buttons.
func (h *harness) tableMessages(id int64) int {
	n := 0
	suffix := "/" + itoa64(id)
	for _, m := range h.fake.ChannelMessages(testChannel) {
		for _, b := range discordtest.Buttons(m.Components) {
			if strings.HasSuffix(b.CustomID, suffix) && (strings.HasPrefix(b.CustomID, "/join/") || strings.HasPrefix(b.CustomID, "/hand/") || strings.HasPrefix(b.CustomID, "/rematch/")) {
				n++
				break
			}
		}
	}
	return n
}

// routeReport tallies requests by the spec's route, noting which count
// against the bot's global limit of 50 a second.
func routeReport(reqs []discordtest.Request) string {
	counts := map[string]int{}
	for _, r := range reqs {
		counts[r.Route]++
	}
	var lines []string
	for _, route := range sortedKeys(counts) {
		lines = append(lines, fmt.Sprintf("  %5d  %s", counts[route], route))
	}
	return strings.Join(lines, "\n")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return slices.Clip(keys)
}

// mustActions reads a table's action log.
func mustActions(t *testing.T, h *harness, id int64) []cribbage.LoggedAction {
	t.Helper()
	logged, err := h.store.Actions(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return logged
}

// verifyDeals reads a finished table's thread and checks each hand the way
// a suspicious player would: the seed revealed after the hand has the
// SHA-256 the thread showed at its deal, and /cribbage verify deals from it
// the very cards the show then counted.
func (h *harness) verifyDeals(id int64) {
	h.t.Helper()
	tb := h.table(id)
	var story strings.Builder
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		story.WriteString(m.Text() + "\n")
	}
	commitments := regexp.MustCompile("hand \\d+ commitment `([0-9a-f]{64})`").FindAllStringSubmatch(story.String(), -1)
	seeds := regexp.MustCompile("hand (\\d+) seed `([0-9a-f]{64})`").FindAllStringSubmatch(story.String(), -1)
	if len(commitments) == 0 || len(seeds) != len(commitments) {
		h.t.Fatalf("the thread shows %d commitments and %d seeds", len(commitments), len(seeds))
	}
	shows := regexp.MustCompile(`(?m)^[^\n:]+(?:'s crib)?(?: claims \d+)?: ((?:[0-9AJQK]+[♠♥♦♣] ?){4}) \+`).FindAllStringSubmatch(story.String(), -1)
	for i, s := range seeds {
		seed, err := engine.ParseSeed(s[2])
		if err != nil {
			h.t.Fatal(err)
		}
		if got := seed.Commitment(); got != commitments[i][1] {
			h.t.Errorf("hand %s: the seed revealed has commitment %s, the deal showed %s", s[1], got, commitments[i][1])
		}
		a := h.command(alice, "verify", discordtest.Opt{Name: "seed", Value: s[2]}, discordtest.Opt{Name: "players", Value: tb.Options.Players})
		if !strings.Contains(a.Response.Data.Content, commitments[i][1]) {
			h.t.Errorf("/cribbage verify does not show the commitment:\n%s", a.Response.Data.Content)
		}
		dealt := engine.Deal(seed, tb.Options.Players)
		all := dealt.Crib
		for _, hand := range dealt.Hands {
			all |= hand
			if !strings.Contains(a.Response.Data.Content, engine.DisplayCards(hand.Cards())) {
				h.t.Errorf("/cribbage verify does not show a hand dealt: %s", engine.DisplayCards(hand.Cards()))
			}
		}
		// Every card the show counts this hand was dealt from this seed.
		n := 0
		for _, show := range shows {
			cards, err := engine.ParseCards(strings.TrimSpace(show[1]))
			if set := engine.SetOf(cards...); err == nil && all&set == set {
				n++
			}
		}
		// The last hand may end the game in the play, before any show.
		if n == 0 && i < len(seeds)-1 {
			h.t.Errorf("hand %s: no show in the thread counts cards dealt from its seed", s[1])
		}
	}
}

// checkFourColourShows checks a four-colour table's show pictures are
// queued to be drawn in four colours.
func (h *harness) checkFourColourShows(id int64) {
	h.t.Helper()
	queued, err := h.store.TableOutbox(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	shows := 0
	for _, it := range queued {
		var p struct {
			Pictures []picture.Cards
		}
		json.Unmarshal([]byte(it.Payload), &p)
		for _, pic := range p.Pictures {
			shows++
			if !pic.FourColour {
				h.t.Errorf("a show picture of a four-colour table in two colours: %s", it.Payload)
			}
		}
	}
	if shows == 0 {
		h.t.Error("no show picture was queued")
	}
}
