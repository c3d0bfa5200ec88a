package bot

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/tournament"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// The tournament handlers on the in-memory store: who may do what, bad
// input changing nothing, and a cancel that ends the tournament's games.
func TestTournamentHandlers(t *testing.T) {
	u := newUnit(t)
	ctx := context.Background()
	if _, err := u.admin(alice, "tournament open", opt("name", "Club open")); !errors.Is(err, refusal.ErrNotAdmin) {
		t.Errorf("Alice opened a tournament: %v", err)
	}
	for _, sub := range []string{"tournament start", "tournament cancel"} {
		if _, err := u.admin(ada, sub); !errors.Is(err, refusal.ErrNoTournamentHere) {
			t.Errorf("%s with none open: %v", sub, err)
		}
	}
	if _, err := u.admin(ada, "tournament open", opt("name", "   ")); !errors.Is(err, cribbage.ErrTournamentSetup) {
		t.Errorf("a blank name: %v", err)
	}
	if _, err := u.admin(ada, "tournament open", opt("name", "Club open"), opt("games-per-round", 1), opt("rounds", 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := u.admin(ada, "tournament open", opt("name", "Second")); !errors.Is(err, refusal.ErrTournamentHere) {
		t.Errorf("a second tournament here: %v", err)
	}
	if _, err := u.click(alice, "/tsignup/1"); err != nil {
		t.Fatal(err)
	}
	if _, err := u.click(bob, "/tsignup/1"); err != nil {
		t.Fatal(err)
	}
	if _, err := u.click(mallory, "/twithdraw/1"); !errors.Is(err, cribbage.ErrNotEntered) {
		t.Errorf("a stranger's withdrawal: %v", err)
	}
	if _, err := u.admin(ada, "tournament computers", opt("count", 2), opt("level", "strong")); err != nil {
		t.Fatal(err)
	}
	before, _ := u.store.Tournament(ctx, 1)
	if _, err := u.click(alice, "/tstart/1"); !errors.Is(err, refusal.ErrNotTournamentAdm) {
		t.Errorf("Alice started it: %v", err)
	}
	if _, err := u.click(alice, "/tstart/99"); !errors.Is(err, cribbage.ErrTournamentNotFound) {
		t.Errorf("a start of no tournament: %v", err)
	}
	if after, _ := u.store.Tournament(ctx, 1); after.Version != before.Version {
		t.Fatal("a refused start changed the tournament")
	}
	if _, err := u.click(ada, "/tstart/1"); err != nil {
		t.Fatal(err)
	}
	tables, _ := u.store.TournamentTables(ctx, 1)
	if len(tables) != 2 {
		t.Fatalf("round 1 opened %d tables", len(tables))
	}
	// Alice and Bob (signed up first) meet; the computers' game is begun
	// as it opens, dealt and waiting on its computers, and played out
	// after, by the advance that follows the start.
	if tables[0].Status != cribbage.StatusPlaying || tables[1].Status != cribbage.StatusPlaying || !tables[1].OwnMove() || tables[0].OwnMove() {
		t.Errorf("round 1: %s and %s (waiting on its computers: %v)", tables[0].Status, tables[1].Status, tables[1].OwnMove())
	}
	// (That it never gets a table message, however late it is shown, is
	// the live surface's test: bot/live.)
	// The advance plays the computers' game, and counts it (Ended);
	// with the people's game on, advancing again changes nothing.
	if err := u.b.tournaments.Advance(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if played := u.table(tables[1].ID); played.Status != cribbage.StatusFinished {
		t.Errorf("the computers' game after the advance: %s", played.Status)
	}
	started, _ := u.store.Tournament(ctx, 1)
	if started.Ended != 1 {
		t.Errorf("%d games ended, want the computers' 1", started.Ended)
	}
	for range 3 {
		if err := u.b.tournaments.Advance(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	if again, _ := u.store.Tournament(ctx, 1); again.Version != started.Version {
		t.Errorf("advancing with nothing to do moved the version from %d to %d", started.Version, again.Version)
	}
	if _, err := u.click(bob, "/tsignup/1"); !errors.Is(err, cribbage.ErrSignupClosed) {
		t.Errorf("a late sign-up: %v", err)
	}
	if _, err := u.admin(ada, "tournament cancel"); err != nil {
		t.Fatal(err)
	}
	tr, _ := u.store.Tournament(ctx, 1)
	if tr.Status != cribbage.TournamentCancelled || u.table(tables[0].ID).Status != cribbage.StatusCancelled {
		t.Errorf("after the cancel: %s, table %s", tr.Status, u.table(tables[0].ID).Status)
	}
	if r, err := u.route(discordtest.CommandOf(command.Club, guild, channel, alice, "tournament")); err != nil || r.resp == nil {
		t.Errorf("/cribbage-club tournament: %v", err)
	}
}

// A playoff's first round is named for where it stands in the whole
// bracket, not among the rounds made so far: four qualifiers play
// semi-finals first, and the message and the line that pings them say so.
func TestTournamentPlayoffRoundNames(t *testing.T) {
	tr := &cribbage.Tournament{ID: 1, Name: "Club open", GamesPerRound: 1, Rounds: 3, Points: 121, Status: cribbage.TournamentPlayoff,
		Entrants: []cribbage.Entrant{{UserID: "a", Name: "Ann"}, {UserID: "b", Name: "Ben"}, {UserID: "c", Name: "Cy"}, {UserID: "d", Name: "Di"}},
		Playoff:  [][]cribbage.PlayoffMatch{{{A: "a", B: "d"}, {A: "b", B: "c"}}}}
	text := tournament.Text(lang.English, tr, nil)
	if strings.Contains(text, "the final") || strings.Count(text, "a semi-final") != 2 {
		t.Errorf("the semi-finals as the message shows them:\n%s", text)
	}
	next := &cribbage.Table{ChannelID: "c1", Seats: []cribbage.Seat{{UserID: "a", Name: "Ann"}, {UserID: "d", Name: "Di"}},
		Tournament: &cribbage.TournamentLink{ID: 1, Round: 1, Playoff: true, Game: 1}, State: &engine.State{}}
	out := tournament.IntroduceGame(lang.English, tr, nil, next)
	if line := out[len(out)-1].Payload; !strings.Contains(line, "a semi-final, best of 3") {
		t.Errorf("a semi-final's opening line: %q", line)
	}
	tr.Playoff = append(tr.Playoff, []cribbage.PlayoffMatch{{A: "a", B: "b"}})
	if text := tournament.Text(lang.English, tr, nil); strings.Count(text, "a semi-final") != 2 || strings.Count(text, "the final") != 1 {
		t.Errorf("the semi-finals and the final:\n%s", text)
	}
}

// TestALargeFieldKeepsItsRound: a field of 32, two games a pairing, is too
// large for its standings and its round in one message. The tournament
// message keeps every pairing of the round, where entrants find their
// tables, and leaves the standings to the picture; the private copy
// /cribbage-club tournament answers with fits a message too.
func TestALargeFieldKeepsItsRound(t *testing.T) {
	u := newUnit(t)
	if _, err := u.admin(ada, "tournament open", opt("name", "Club open")); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := u.admin(ada, "tournament computers", opt("count", 16)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := u.admin(ada, "tournament start"); err != nil {
		t.Fatal(err)
	}
	tr, _ := u.store.Tournament(context.Background(), 1)
	tables, _ := u.store.TournamentTables(context.Background(), 1)
	text := tournament.Message(lang.English, tr, tables).Text()
	if n := utf8.RuneCountInString(text); n > render.MaxContent {
		t.Fatalf("%d characters", n)
	}
	if strings.Contains(text, "…") || strings.Count(text, "• ") != 16 || !strings.Contains(text, "standings are in the picture") {
		t.Errorf("the round's 16 pairings are not all shown:\n%s", text)
	}
	r, err := u.route(discordtest.CommandOf(command.Club, guild, channel, alice, "tournament"))
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(r.resp.Data.Content); n == 0 || n > render.MaxContent {
		t.Errorf("/cribbage-club tournament answered %d characters", n)
	}
}
