package cribbage

import (
	"reflect"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// finishedTable returns a finished table of opts with the seats of users
// ("cpu" a computer) and the game's result r.
func finishedTable(opts engine.Options, g *engine.State, r engine.Result, users ...string) *Table {
	tb := &Table{Status: StatusFinished, Options: opts}
	for _, u := range users {
		if u == "cpu" {
			tb.Seats = append(tb.Seats, Seat{Computer: "plain", Name: "Computer"})
			continue
		}
		tb.Seats = append(tb.Seats, Seat{UserID: u, Name: "name-" + u})
	}
	if g == nil {
		g = &engine.State{Options: opts, HandNo: 5, Tally: make([]engine.Tally, opts.Players)}
	}
	g = g.Clone()
	g.Phase, g.Result = engine.PhaseOver, &r
	tb.State = g
	return tb
}

// TestResultsCreditSkunks: who is credited with which skunk, worked out
// by hand from RULES.md's lines (at 121: 90 or fewer a skunk, 60 or fewer
// a double).
func TestResultsCreditSkunks(t *testing.T) {
	two := engine.Options{Players: 2, Target: 121}
	three := engine.Options{Players: 3, Target: 121}
	partners := engine.Options{Players: 4, Partners: true, Target: 121}
	type line struct {
		user                                              string
		won                                               bool
		games, given, doubleGiven, taken, doubleTaken, at int
	}
	tests := []struct {
		name  string
		opts  engine.Options
		users []string
		r     engine.Result
		want  []line
	}{
		{"a plain win", two, []string{"ann", "bob"},
			engine.Result{Reason: engine.ReasonTarget, Winner: 0, Loser: -1, Scores: []int{121, 100}, Skunks: []int{0, 0}, Games: 1},
			[]line{{"ann", true, 1, 0, 0, 0, 0, 121}, {"bob", false, 0, 0, 0, 0, 0, 100}}},
		{"a skunk", two, []string{"ann", "bob"},
			engine.Result{Reason: engine.ReasonTarget, Winner: 1, Loser: -1, Scores: []int{85, 121}, Skunks: []int{1, 0}, Games: 2},
			[]line{{"ann", false, 0, 0, 0, 1, 0, 85}, {"bob", true, 2, 1, 0, 0, 0, 121}}},
		{"a three-hander: the winner gives each loser's line", three, []string{"ann", "bob", "cat"},
			engine.Result{Reason: engine.ReasonTarget, Winner: 2, Loser: -1, Scores: []int{88, 55, 121}, Skunks: []int{1, 2, 0}, Games: 4},
			[]line{{"ann", false, 0, 0, 0, 1, 0, 88}, {"bob", false, 0, 0, 0, 0, 1, 55}, {"cat", true, 4, 1, 1, 0, 0, 121}}},
		{"partners are credited alike", partners, []string{"ann", "bob", "cat", "dan"},
			engine.Result{Reason: engine.ReasonTarget, Winner: 0, Loser: -1, Scores: []int{121, 58}, Skunks: []int{0, 2}, Games: 4},
			[]line{{"ann", true, 4, 0, 1, 0, 0, 121}, {"bob", false, 0, 0, 0, 0, 1, 58}, {"cat", true, 4, 0, 1, 0, 0, 121}, {"dan", false, 0, 0, 0, 0, 1, 58}}},
		{"a computer has no line", two, []string{"cpu", "bob"},
			engine.Result{Reason: engine.ReasonTarget, Winner: 0, Loser: -1, Scores: []int{121, 80}, Skunks: []int{0, 1}, Games: 2},
			[]line{{"bob", false, 0, 0, 0, 1, 0, 80}}},
		{"a resignation is never a skunk", two, []string{"ann", "bob"},
			engine.Result{Reason: engine.ReasonResigned, Winner: 1, Loser: 0, Scores: []int{10, 3}, Skunks: []int{0, 0}, Games: 1},
			[]line{{"ann", false, 0, 0, 0, 0, 0, 10}, {"bob", true, 1, 0, 0, 0, 0, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []line
			for _, p := range finishedTable(tt.opts, nil, tt.r, tt.users...).Results() {
				if p.Name != "name-"+p.UserID || p.Side != tt.opts.SideOf(p.Seat) {
					t.Errorf("%s: name %q, side %d at seat %d", p.UserID, p.Name, p.Side, p.Seat)
				}
				got = append(got, line{p.UserID, p.Won, p.GamesWon, p.SkunksGiven, p.DoubleSkunksGiven, p.SkunksTaken, p.DoubleSkunksTaken, p.Score})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("lines:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if got := (&Table{Status: StatusPlaying}).Results(); got != nil {
		t.Errorf("a game without a result has lines: %+v", got)
	}
}

// TestWhichGamesAreRated: people only, and a resignation before any card
// has left a hand rates nobody.
func TestWhichGamesAreRated(t *testing.T) {
	two := engine.Options{Players: 2, Target: 121}
	win := engine.Result{Reason: engine.ReasonTarget, Winner: 0, Loser: -1, Scores: []int{121, 100}, Skunks: []int{0, 0}, Games: 1}
	resigned := engine.Result{Reason: engine.ReasonResigned, Winner: 1, Loser: 0, Scores: []int{0, 0}, Skunks: []int{0, 0}, Games: 1}
	forfeit := engine.Result{Reason: engine.ReasonForfeit, Winner: 0, Loser: 1, Scores: []int{0, 0}, Skunks: []int{0, 0}, Games: 1}
	cut, _, _ := engine.New(two, engine.SeedFromUint64(1))
	tests := []struct {
		name  string
		g     *engine.State
		r     engine.Result
		users []string
		want  bool
	}{
		{"a game played out", nil, win, []string{"ann", "bob"}, true},
		{"a computer opponent", nil, win, []string{"ann", "cpu"}, false},
		{"resigned before the first deal", cut, resigned, []string{"ann", "bob"}, false},
		{"resigned with the cards dealt, none thrown", dealt(t, two), resigned, []string{"ann", "bob"}, false},
		{"resigned after one throw to the crib", dealt(t, two, 1), resigned, []string{"ann", "bob"}, true},
		{"resigned in a later hand", nil, resigned, []string{"ann", "bob"}, true},
		{"a forfeit before any card", dealt(t, two), forfeit, []string{"ann", "bob"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := finishedTable(two, tt.g, tt.r, tt.users...).Rated(); got != tt.want {
				t.Errorf("Rated = %v, want %v", got, tt.want)
			}
		})
	}
	if (&Table{Status: StatusPlaying, State: cut}).Rated() {
		t.Error("a game without a result is rated")
	}
}

// TestCardPlayed follows a game from its cut to the play.
func TestCardPlayed(t *testing.T) {
	two := engine.Options{Players: 2, Target: 121}
	cut, _, _ := engine.New(two, engine.SeedFromUint64(1))
	both := dealt(t, two, 0, 1)
	a := engine.Action{Kind: engine.ActPlay, Seat: both.Turn, Card: both.LegalPlays(both.Turn)[0]}
	laid, _, err := both.Apply(a)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		g    *engine.State
		want bool
	}{
		{"the cut for deal", cut, false},
		{"dealt", dealt(t, two), false},
		{"one thrown", dealt(t, two, 0), true},
		{"both thrown", both, true},
		{"a card laid", laid, true},
	}
	for _, tt := range tests {
		if got := CardPlayed(tt.g); got != tt.want {
			t.Errorf("%s: CardPlayed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRatingBouts: two sides are one bout, side against side; three or
// four players are the winner against each of the others.
func TestRatingBouts(t *testing.T) {
	p := func(user string, side int, won bool) PlayerResult {
		return PlayerResult{UserID: user, Side: side, Won: won}
	}
	tests := []struct {
		name  string
		lines []PlayerResult
		want  []Bout
	}{
		{"two players", []PlayerResult{p("ann", 0, false), p("bob", 1, true)},
			[]Bout{{Winners: []string{"bob"}, Losers: []string{"ann"}}}},
		{"partners", []PlayerResult{p("ann", 0, true), p("bob", 1, false), p("cat", 0, true), p("dan", 1, false)},
			[]Bout{{Winners: []string{"ann", "cat"}, Losers: []string{"bob", "dan"}}}},
		{"three players", []PlayerResult{p("ann", 0, false), p("bob", 1, false), p("cat", 2, true)},
			[]Bout{{Winners: []string{"cat"}, Losers: []string{"ann"}}, {Winners: []string{"cat"}, Losers: []string{"bob"}}}},
		{"four players", []PlayerResult{p("ann", 0, false), p("bob", 1, true), p("cat", 2, false), p("dan", 3, false)},
			[]Bout{{Winners: []string{"bob"}, Losers: []string{"ann"}}, {Winners: []string{"bob"}, Losers: []string{"cat"}}, {Winners: []string{"bob"}, Losers: []string{"dan"}}}},
		{"no winner", []PlayerResult{p("ann", 0, false), p("bob", 1, false)}, nil},
		{"two winners", []PlayerResult{p("ann", 0, true), p("bob", 1, true)}, nil},
		{"one side", []PlayerResult{p("ann", 0, true), p("cat", 0, true)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RatingBouts(tt.lines); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("RatingBouts = %+v, want %+v", got, tt.want)
			}
		})
	}
}
