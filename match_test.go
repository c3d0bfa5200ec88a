package cribbage

import (
	"errors"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// result is a finished game's result between two sides, as the engine
// records it: Skunks is 0 for the winner, and a resignation or forfeit
// has none.
func result(reason engine.ResultReason, winner int, scores [2]int, target int) *engine.Result {
	r := &engine.Result{Reason: reason, Winner: winner, Loser: -1, Scores: scores[:], Skunks: make([]int, 2), Games: 1}
	if reason == engine.ReasonTarget {
		r.Skunks[1-winner] = engine.SkunkLevel(scores[1-winner], target)
	} else {
		r.Loser = 1 - winner
	}
	return r
}

// TestGamePoints holds the game points to the ACC's count: a win 2, a
// skunk 3, a double skunk 4 where the game has that line (121 points,
// loser on 60 or fewer; RULES.md "Winning"), and a resignation or forfeit
// a plain win whatever the score.
func TestGamePoints(t *testing.T) {
	tests := []struct {
		name string
		r    *engine.Result
		want int
	}{
		{"a win", result(engine.ReasonTarget, 0, [2]int{121, 91}, 121), 2},
		{"a skunk: the loser on 90", result(engine.ReasonTarget, 1, [2]int{90, 121}, 121), 3},
		{"a skunk: the loser on 61", result(engine.ReasonTarget, 0, [2]int{124, 61}, 121), 3},
		{"a double skunk: the loser on 60", result(engine.ReasonTarget, 0, [2]int{121, 60}, 121), 4},
		{"a double skunk: the loser on 0", result(engine.ReasonTarget, 1, [2]int{0, 121}, 121), 4},
		{"61 points: a win", result(engine.ReasonTarget, 0, [2]int{61, 31}, 61), 2},
		{"61 points: a skunk on 30", result(engine.ReasonTarget, 0, [2]int{61, 30}, 61), 3},
		{"61 points has no double skunk", result(engine.ReasonTarget, 0, [2]int{61, 2}, 61), 3},
		{"a resignation far ahead", result(engine.ReasonResigned, 0, [2]int{100, 20}, 121), 2},
		{"a forfeit far ahead", result(engine.ReasonForfeit, 1, [2]int{5, 118}, 121), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GamePoints(tt.r); got != tt.want {
				t.Errorf("GamePoints = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestMatchScore: the match goes to the first side with a majority of the
// games, not of the game points; a conceded match goes to the last game's
// winner whatever the score.
func TestMatchScore(t *testing.T) {
	win := func(side, points int) MatchGame {
		return MatchGame{Winner: side, Points: points, Reason: engine.ReasonTarget}
	}
	tests := []struct {
		name     string
		m        Match
		wins     [2]int
		points   [2]int
		winner   int
		gameNext int
	}{
		{"no game yet", Match{BestOf: 3}, [2]int{}, [2]int{}, -1, 1},
		{"one all", Match{BestOf: 3, Games: []MatchGame{win(0, 2), win(1, 4)}}, [2]int{1, 1}, [2]int{2, 4}, -1, 3},
		{"two of three", Match{BestOf: 3, Games: []MatchGame{win(0, 2), win(1, 4), win(0, 2)}}, [2]int{2, 1}, [2]int{4, 4}, 0, 4},
		{"two straight", Match{BestOf: 3, Games: []MatchGame{win(1, 3), win(1, 2)}}, [2]int{0, 2}, [2]int{0, 5}, 1, 3},
		{"two of five is not yet", Match{BestOf: 5, Games: []MatchGame{win(1, 3), win(1, 2)}}, [2]int{0, 2}, [2]int{0, 5}, -1, 3},
		{"three of five", Match{BestOf: 5, Games: []MatchGame{win(1, 3), win(0, 4), win(1, 2), win(0, 2), win(1, 2)}}, [2]int{2, 3}, [2]int{6, 7}, 1, 6},
		{"conceded after one", Match{BestOf: 5, Conceded: true, Games: []MatchGame{win(0, 2)}}, [2]int{1, 0}, [2]int{2, 0}, 0, 2},
		{"conceded by the leader", Match{BestOf: 3, Conceded: true, Games: []MatchGame{win(0, 4), win(1, 2)}}, [2]int{1, 1}, [2]int{4, 2}, 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.Wins(); got != tt.wins {
				t.Errorf("Wins = %v, want %v", got, tt.wins)
			}
			if got := tt.m.Points(); got != tt.points {
				t.Errorf("Points = %v, want %v", got, tt.points)
			}
			if got := tt.m.Winner(); got != tt.winner {
				t.Errorf("Winner = %d, want %d", got, tt.winner)
			}
			if got := tt.m.Over(); got != (tt.winner >= 0) {
				t.Errorf("Over = %v", got)
			}
			if got := tt.m.next().Game; got != tt.gameNext {
				t.Errorf("the next game is %d, want %d", got, tt.gameNext)
			}
		})
	}
}

// TestNewMatch: best of 3 or 5, between two sides.
func TestNewMatch(t *testing.T) {
	two := engine.Options{Players: 2, Target: 121}
	teams := engine.Options{Players: 4, Partners: true, Target: 121}
	for _, tt := range []struct {
		bestOf int
		o      engine.Options
		want   error
	}{
		{3, two, nil}, {5, teams, nil},
		{1, two, ErrMatchLength}, {4, two, ErrMatchLength}, {7, two, ErrMatchLength},
		{3, engine.Options{Players: 3, Target: 121}, ErrMatchSides},
		{5, engine.Options{Players: 4, Target: 61}, ErrMatchSides},
	} {
		m, err := NewMatch(tt.bestOf, tt.o)
		if !errors.Is(err, tt.want) {
			t.Errorf("best of %d at %+v: %v, want %v", tt.bestOf, tt.o, err, tt.want)
		}
		if err == nil && (m.BestOf != tt.bestOf || m.Game != 1 || len(m.Games) != 0) {
			t.Errorf("best of %d: %+v", tt.bestOf, m)
		}
	}
}

// twoPeople is a lobby of two people, seated, to be started.
func twoPeople(bestOf int) *Table {
	tb := &Table{ID: 7, GuildID: "g", ChannelID: "c", HostID: "ann", Options: engine.Options{Players: 2, Target: 121}, Status: StatusLobby,
		Seats: []Seat{{UserID: "ann", Name: "Ann"}, {UserID: "bob", Name: "Bob"}}}
	if bestOf != 0 {
		tb.Match = &Match{BestOf: bestOf, Game: 1}
	}
	return tb
}

// nextOf saves the table a change calls for as the store does: the new
// table of Change.Next gets its id (AssignID) and version.
func nextOf(t *testing.T, ch *Change, id int64) (*Table, *Change) {
	t.Helper()
	if ch.Next == nil {
		t.Fatal("the change makes no next table")
	}
	if ch.Next.Table.ID != 0 || ch.Next.Next != nil {
		t.Fatalf("the next table has id %d and makes another: %v", ch.Next.Table.ID, ch.Next.Next != nil)
	}
	ch.Next.Table.AssignID(id)
	ch.Next.Table.Version = 1
	return ch.Next.Table, ch.Next
}

// resign has seat resign the table's game.
func resign(t *testing.T, tb *Table, seat int, env Env) *Change {
	t.Helper()
	ch, _, err := Move(tb, engine.Action{Kind: engine.ActResign, Seat: seat}, env)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// TestAMatchGoesOnUntilDecided: a best of 3 whose games end by
// resignation. Each game's end makes the next game, with the deal passed
// on and the match score carried; the game that decides the match makes
// none, and its match says who won.
func TestAMatchGoesOnUntilDecided(t *testing.T) {
	env := testEnv()
	g1 := twoPeople(3)
	if _, _, err := Start(g1, env); err != nil {
		t.Fatal(err)
	}
	if g1.Match.ID != g1.ID || g1.Match.Game != 1 {
		t.Fatalf("the first game's match: %+v", g1.Match)
	}
	ch := resign(t, g1, 1, env) // Bob resigns: Ann 1, Bob 0
	if g1.Status != StatusFinished || len(g1.Match.Games) != 1 || g1.Match.Games[0].Points != 2 || g1.Match.Over() {
		t.Fatalf("after game 1: %s, %+v", g1.Status, g1.Match)
	}
	g2, nch := nextOf(t, ch, 8)
	switch {
	case g2.Status != StatusPlaying || g2.State.HandNo != 1:
		t.Fatalf("game 2: %s, hand %d", g2.Status, g2.State.HandNo)
	case g2.State.Dealer != 1-g1.State.Dealer:
		t.Errorf("game 2 dealer %d after %d: the deal alternates", g2.State.Dealer, g1.State.Dealer)
	case g2.Match.ID != 7 || g2.Match.Game != 2 || g2.Match.Wins() != [2]int{1, 0}:
		t.Errorf("game 2's match: %+v", g2.Match)
	case g2.HostID != "ann" || g2.Seats[0].UserID != "ann" || g2.Seats[1].UserID != "bob" || g2.GuildID != "g" || g2.ChannelID != "c":
		t.Errorf("game 2 at %s/%s hosted by %s, seated %+v", g2.GuildID, g2.ChannelID, g2.HostID, g2.Seats)
	case nch.Follows != g1 || len(nch.Events) == 0:
		t.Errorf("game 2 follows %v with %d events, want table 7's and its deal", nch.Follows, len(nch.Events))
	}
	if g1.Match.Games[0].Table != 7 || len(g1.Match.Games) != 1 {
		t.Errorf("game 2 changed game 1's match: %+v", g1.Match)
	}

	ch = resign(t, g2, 0, env) // Ann resigns: one all
	g3, _ := nextOf(t, ch, 9)
	if g3.Match.Game != 3 || g3.State.Dealer != 1-g2.State.Dealer {
		t.Fatalf("game 3: %+v, dealer %d after %d", g3.Match, g3.State.Dealer, g2.State.Dealer)
	}
	ch = resign(t, g3, 0, env) // Ann resigns again: Bob wins 2–1
	if ch.Next != nil {
		t.Error("the deciding game makes a next game")
	}
	if w := g3.Match.Winner(); w != 1 || g3.Match.Wins() != [2]int{1, 2} || g3.Match.Points() != [2]int{2, 4} {
		t.Errorf("the match: winner %d, %v, points %v", w, g3.Match.Wins(), g3.Match.Points())
	}
}

// TestResigningTheMatch: ResignMatch ends the game and the match with it,
// at any score; at a game of its own there is no match to resign.
func TestResigningTheMatch(t *testing.T) {
	env := testEnv()
	tb := twoPeople(5)
	if _, _, err := Start(tb, env); err != nil {
		t.Fatal(err)
	}
	ch, _, err := ResignMatch(tb, 0, env)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Next != nil || !tb.Match.Conceded || tb.Match.Winner() != 1 || tb.State.Result.Reason != engine.ReasonResigned {
		t.Errorf("after resigning the match: next %v, %+v", ch.Next != nil, tb.Match)
	}
	single := twoPeople(0)
	if _, _, err := Start(single, env); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ResignMatch(single, 0, env); !errors.Is(err, ErrNoMatch) || single.Status != StatusPlaying {
		t.Errorf("resigning a match at a single game: %v, %s", err, single.Status)
	}
}

// TestAForfeitEndsTheMatch: the forfeit is a plain win of 2 game points,
// and the side that kept the table waiting loses the match.
func TestAForfeitEndsTheMatch(t *testing.T) {
	env := testEnv()
	tb := twoPeople(3)
	if _, _, err := Start(tb, env); err != nil {
		t.Fatal(err)
	}
	// Ann throws; the table waits on Bob, and Ann claims the forfeit.
	hand := tb.State.ViewFor(0).Hand.Cards()
	if _, _, err := Move(tb, engine.Action{Kind: engine.ActDiscard, Seat: 0, Cards: hand[:2]}, env); err != nil {
		t.Fatal(err)
	}
	ch, _, err := Move(tb, engine.Action{Kind: engine.ActForfeit, Seat: 0, Other: 1}, env)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Next != nil || tb.Match.Winner() != 0 || tb.Match.Points() != [2]int{2, 0} || tb.Match.Games[0].Reason != engine.ReasonForfeit {
		t.Errorf("after the forfeit: next %v, %+v", ch.Next != nil, tb.Match)
	}
}

// TestAMatchGameCountsItsSkunk plays a whole game of a match to its end
// against the plain computer: the match counts what the result says, a
// skunk 3 and a double skunk 4.
func TestAMatchGameCountsItsSkunk(t *testing.T) {
	env := testEnv()
	tb := personAndComputer()
	tb.Match = &Match{BestOf: 3, Game: 1}
	if _, _, err := Start(tb, env); err != nil {
		t.Fatal(err)
	}
	var last *Change
	for tb.Status == StatusPlaying {
		v := tb.State.ViewFor(0)
		a := engine.Action{Kind: engine.ActDiscard, Seat: 0, Cards: v.Hand.Cards()[:2]}
		if v.Phase == engine.PhasePlay {
			a = engine.Action{Kind: engine.ActPlay, Seat: 0, Card: v.Legal[0]}
		}
		ch, _, err := Move(tb, a, env)
		if err != nil {
			t.Fatal(err)
		}
		last = ch
	}
	r := tb.State.Result
	g := tb.Match.Games[0]
	loser := r.Scores[1-r.Winner]
	want := 2
	switch {
	case loser <= 60:
		want = 4
	case loser <= 90:
		want = 3
	}
	if g.Winner != r.Winner || g.Points != want || g.Reason != engine.ReasonTarget || g.Table != tb.ID {
		t.Errorf("scores %v: the match recorded %+v, want %d points", r.Scores, g, want)
	}
	if last.Next == nil {
		t.Error("the first game of three makes no next game")
	}
}
