package tournament

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/golden"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// TestGameStateSaysHowAGameWasWon: a game won by resignation or forfeit
// says so beside its score, which otherwise reads as a game nobody played.
func TestGameStateSaysHowAGameWasWon(t *testing.T) {
	for _, c := range []struct {
		reason engine.ResultReason
		scores []int
		want   string
	}{
		{engine.ReasonTarget, []int{121, 95}, "table 7: Ann won 121–95 (2 GP)"},
		{engine.ReasonResigned, []int{0, 0}, "table 7: Ann won 0–0, by resignation (2 GP)"},
		{engine.ReasonForfeit, []int{40, 52}, "table 7: Ann won 40–52, by forfeit (2 GP)"},
	} {
		tb := &cribbage.Table{ID: 7, Status: cribbage.StatusFinished, Seats: []cribbage.Seat{{Name: "Ann"}, {Name: "Bob"}},
			State: &engine.State{Result: &engine.Result{Reason: c.reason, Winner: 0, Loser: 1, Scores: c.scores, Skunks: []int{0, 0}, Games: 1}}}
		if got := GameState(lang.English, tb); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q", c.reason, got, c.want)
		}
	}
}

// TestGoldenTournamentInFrench holds the tournament message in French to
// a golden file: sign-up open, and the playoff with a qualifying table
// won by forfeit, the standings' column heads and the round names.
func TestGoldenTournamentInFrench(t *testing.T) {
	fr, _ := lang.ByCode("fr")
	entrants := []cribbage.Entrant{{UserID: "a", Name: "Ann"}, {UserID: "b", Name: "Ben"}, {UserID: "c", Name: "Cy"}, {UserID: "d", Name: "Di"}}
	signup := &cribbage.Tournament{ID: 1, Name: "Omnium du club", GamesPerRound: 2, Rounds: 3, Points: 121, Status: cribbage.TournamentSignup, Entrants: entrants}
	golden.JSON(t, "fr-tournament-signup.json", Message(fr, signup, nil))
	playoff := &cribbage.Tournament{ID: 1, Name: "Omnium du club", GamesPerRound: 1, Rounds: 1, Points: 121, Status: cribbage.TournamentPlayoff, Round: 1,
		Entrants: entrants, Pairings: []cribbage.Pairing{{Round: 1, A: "a", B: "b"}, {Round: 1, A: "c", B: "d"}},
		Playoff: [][]cribbage.PlayoffMatch{{{A: "a", B: "d", Winner: "a"}, {A: "b", B: "c"}}, {{A: "a"}}}}
	won := &cribbage.Table{ID: 7, Status: cribbage.StatusFinished, Seats: []cribbage.Seat{{UserID: "a", Name: "Ann"}, {UserID: "b", Name: "Ben"}},
		Tournament: &cribbage.TournamentLink{ID: 1, Round: 1, Pairing: 0, Game: 1},
		State:      &engine.State{Result: &engine.Result{Reason: engine.ReasonForfeit, Winner: 0, Loser: 1, Scores: []int{40, 52}, Skunks: []int{0, 0}, Games: 1}}}
	golden.JSON(t, "fr-tournament-playoff.json", Text(fr, playoff, []*cribbage.Table{won}))
}

// TestTheStandingsPictureIsDrawnWhenItChanges: the director's passes
// draw a tournament's standings picture again only when what it shows
// changed, so a message a refused edit leaves behind is retried without
// drawing it anew each pass.
func TestTheStandingsPictureIsDrawnWhenItChanges(t *testing.T) {
	var d Director
	p := picture.Standings{Title: "Club open", Rows: []picture.StandingRow{{Name: "Ann", GamePoints: 2, Won: 1}, {Name: "Ben"}}}
	first := d.draw(1)(p)
	if again := d.draw(1)(p); len(first) == 0 || &again[0] != &first[0] {
		t.Error("the same standings were drawn again")
	}
	p.Rows = append([]picture.StandingRow{{Name: "Ben", GamePoints: 2, Won: 1}}, picture.StandingRow{Name: "Ann", GamePoints: 2, Won: 1, Spread: -3})
	if changed := d.draw(1)(p); &changed[0] == &first[0] || bytes.Equal(changed, first) {
		t.Error("changed standings kept the old picture")
	}
}
