package cribbage

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// field signs up n entrants, "p1" … "pn", to a tournament of rounds.
func field(t *testing.T, n, gamesPerRound, rounds int) *Tournament {
	t.Helper()
	tr, err := NewTournament("Club open", gamesPerRound, rounds, 121)
	if err != nil {
		t.Fatal(err)
	}
	tr.ID = 7
	for i := 1; i <= n; i++ {
		if err := tr.SignUp(Entrant{UserID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("P%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// finish plays the table a spec opens to its end: the entrant signed up
// first wins, 121 to loserScore (a skunk below 91), a playoff match 2–0.
func finish(tr *Tournament, s TableSpec, id int64, loserScore int) *Table {
	rank := func(u string) int {
		return slices.IndexFunc(tr.Entrants, func(e Entrant) bool { return e.UserID == u })
	}
	w := 0
	if rank(s.Seats[1].UserID) < rank(s.Seats[0].UserID) {
		w = 1
	}
	scores := []int{loserScore, loserScore}
	scores[w] = 121
	skunks := []int{0, 0}
	if loserScore < 91 {
		skunks[1-w] = 1
	}
	link := s.Link
	tb := &Table{ID: id, Status: StatusFinished, Seats: s.Seats, Tournament: &link,
		State: &engine.State{Phase: engine.PhaseOver, Result: &engine.Result{Winner: w, Loser: -1, Scores: scores, Skunks: skunks}}}
	if s.Match {
		tb.Match = &Match{BestOf: 3, Game: 2, Games: []MatchGame{{Winner: w, Points: 2}, {Winner: w, Points: 2}}}
	}
	return tb
}

func TestTournamentToChampion(t *testing.T) {
	for _, tc := range []struct {
		n, games, rounds, playoffRounds int
		champion                        string
	}{
		{5, 1, 3, 1, "p1"},
		{8, 2, 3, 1, "p1"},
		{13, 1, 4, 2, "p1"},
		{4, 1, 5, 1, "p1"}, // more rounds than opponents: the playoff begins after 3
	} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			tr := field(t, tc.n, tc.games, tc.rounds)
			if err := tr.Start(); err != nil {
				t.Fatal(err)
			}
			var tables []*Table
			met := map[[2]string]bool{}
			for step := 0; tr.Status.Open(); step++ {
				if step > 200 {
					t.Fatal("no champion after 200 steps")
				}
				open, err := tr.Advance(tables)
				if err != nil {
					t.Fatal(err)
				}
				if again, _ := tr.Clone().Advance(tables); len(open) == 0 && len(again) != 0 {
					t.Fatal("a second Advance opened tables the first did not")
				}
				for _, s := range open {
					pair := [2]string{s.Seats[0].UserID, s.Seats[1].UserID}
					if !s.Link.Playoff && s.Link.Game == 1 && met[pair] {
						t.Errorf("round %d pairs %v again", s.Link.Round, pair)
					}
					met[pair], met[[2]string{pair[1], pair[0]}] = true, true
					tables = append(tables, finish(tr, s, int64(len(tables)+1), 80+len(tables)%20))
				}
				if len(open) == 0 && tr.Status.Open() {
					t.Fatalf("stuck at %s round %d", tr.Status, tr.Round)
				}
			}
			if tr.Status != TournamentFinished || tr.Champion != tc.champion {
				t.Fatalf("status %s champion %q, want finished %q", tr.Status, tr.Champion, tc.champion)
			}
			if len(tr.Playoff) != tc.playoffRounds {
				t.Errorf("%d playoff rounds, want %d", len(tr.Playoff), tc.playoffRounds)
			}
			st := tr.Standings(tables)
			played := 0
			for _, s := range st {
				played += s.Played + s.Byes
			}
			if want := tr.Round * tc.n; tc.games == 1 && played != want {
				t.Errorf("%d games and byes, want %d", played, want)
			}
			if open, _ := tr.Advance(tables); len(open) != 0 {
				t.Errorf("a finished tournament opens %d tables", len(open))
			}
		})
	}
}

func TestTournamentSignUp(t *testing.T) {
	tr := field(t, 3, 1, 3)
	if c := tr.Clone(); !reflect.DeepEqual(c, tr) {
		// The bot tells a change from none by comparing with a clone.
		t.Errorf("a clone differs: %+v", c)
	}
	for _, tc := range []struct {
		name string
		do   func() error
		want error
	}{
		{"twice", func() error { return tr.SignUp(Entrant{UserID: "p1"}) }, ErrAlreadyEntered},
		{"withdraw stranger", func() error { return tr.Withdraw("x") }, ErrNotEntered},
		{"start short", tr.Start, ErrFewEntrants},
		{"fourth", func() error { return tr.SignUp(Entrant{UserID: "p4"}) }, nil},
		{"withdraw", func() error { return tr.Withdraw("p2") }, nil},
		{"start short again", tr.Start, ErrFewEntrants},
		{"back", func() error { return tr.SignUp(Entrant{UserID: "p2"}) }, nil},
		{"start", tr.Start, nil},
		{"late", func() error { return tr.SignUp(Entrant{UserID: "p5"}) }, ErrSignupClosed},
		{"late withdraw", func() error { return tr.Withdraw("p1") }, ErrSignupClosed},
		{"cancel", func() error { return tr.Cancel("admin") }, nil},
		{"cancel again", func() error { return tr.Cancel("admin") }, ErrTournamentOver},
	} {
		if err := tc.do(); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, bad := range [][3]int{{0, 3, 121}, {1, 0, 121}, {1, 10, 121}, {1, 3, 100}, {3, 3, 121}} {
		if _, err := NewTournament("x", bad[0], bad[1], bad[2]); !errors.Is(err, ErrTournamentSetup) {
			t.Errorf("NewTournament%v: %v", bad, err)
		}
	}
}

// A pairing of two games opens its second after the first, the deal
// passed on; a cancelled game counts for nobody, and a cancelled playoff
// match goes to the higher seed.
func TestTournamentGamesAndCancels(t *testing.T) {
	tr := field(t, 4, 2, 1)
	if err := tr.Start(); err != nil {
		t.Fatal(err)
	}
	open, _ := tr.Advance(nil)
	if len(open) != 2 {
		t.Fatalf("round 1 opens %d tables", len(open))
	}
	first := finish(tr, open[0], 1, 100)
	cancelled := &Table{ID: 2, Status: StatusCancelled, Seats: open[1].Seats, Tournament: &open[1].Link}
	tables := []*Table{first, cancelled}
	open, _ = tr.Advance(tables)
	if len(open) != 2 || open[0].After != first || open[1].After != nil || open[0].Link.Game != 2 || open[1].Link.Game != 2 {
		t.Fatalf("second games: %+v", open)
	}
	for i, s := range open {
		tables = append(tables, finish(tr, s, int64(3+i), 100))
	}
	open, _ = tr.Advance(tables)
	if tr.Status != TournamentPlayoff || len(open) != 1 || !open[0].Match {
		t.Fatalf("status %s, open %+v", tr.Status, open)
	}
	st := tr.Standings(tables)
	if st[0].UserID != "p1" || st[0].GamePoints != 4 || st[0].Spread != 42 {
		t.Errorf("leader %+v", st[0])
	}
	tables = append(tables, &Table{ID: 9, Status: StatusCancelled, Seats: open[0].Seats, Tournament: &open[0].Link})
	if _, err := tr.Advance(tables); err != nil || tr.Champion != open[0].Seats[0].UserID {
		t.Errorf("champion %q, err %v", tr.Champion, err)
	}
}

// A tournament's finished game offers no rematch: the tournament pairs
// the next games.
func TestTournamentGameHasNoRematch(t *testing.T) {
	tr := field(t, 4, 1, 1)
	if err := tr.Start(); err != nil {
		t.Fatal(err)
	}
	open, _ := tr.Advance(nil)
	tb := finish(tr, open[0], 1, 100)
	if _, err := OfferRematch(tb, "p1", Env{}); !errors.Is(err, ErrTournamentGame) {
		t.Errorf("a rematch of a tournament game: %v", err)
	}
}

// PlayoffRounds counts the whole bracket's rounds from its first.
func TestPlayoffRounds(t *testing.T) {
	for _, c := range []struct{ qualifiers, rounds int }{{2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}} {
		tr := &Tournament{Playoff: [][]PlayoffMatch{make([]PlayoffMatch, len(Bracket(c.qualifiers)))}}
		if got := tr.PlayoffRounds(); got != c.rounds {
			t.Errorf("%d qualifiers: %d rounds, want %d", c.qualifiers, got, c.rounds)
		}
	}
	if got := (&Tournament{}).PlayoffRounds(); got != 0 {
		t.Errorf("no playoff yet: %d rounds", got)
	}
}

// refusingComputers fails the test if a computer player is asked to
// decide: a table a change opens is begun, never played.
type refusingComputers struct{ t *testing.T }

func (c refusingComputers) Decide(string, engine.View, uint64) (engine.Action, bool) {
	c.t.Error("a computer decided at a table not yet saved")
	return engine.Action{}, false
}

func (c refusingComputers) Muggins(string, engine.View) (engine.Action, bool) {
	c.t.Error("a computer called muggins at a table not yet saved")
	return engine.Action{}, false
}

func (refusingComputers) Name(level string, seat int) string { return level }

// TestATableOpenedIsBegunNotPlayed: the tables a change opens — a
// tournament's first game and its pairing's next, a playoff match's next
// game — are cut for and dealt, but no computer player decides until the
// table is saved (it has no id before) and continued: then Continue plays
// a game between computer entrants to its end.
func TestATableOpenedIsBegunNotPlayed(t *testing.T) {
	tr := field(t, 4, 2, 1)
	tr.Entrants[2].Computer, tr.Entrants[3].Computer = "plain", "plain"
	if err := tr.Start(); err != nil {
		t.Fatal(err)
	}
	specs, _ := tr.Advance(nil)
	env := testEnv()
	opening := env
	opening.Computers = refusingComputers{t}
	ch, err := tr.OpenTable(specs[1], opening) // Computer p3 v computer p4
	if err != nil {
		t.Fatal(err)
	}
	tb := ch.Table
	switch {
	case tb.ID != 0 || tb.Status != StatusPlaying || tb.CutSeed == nil:
		t.Fatalf("the pairing's table: id %d, %s, cut seed %v", tb.ID, tb.Status, tb.CutSeed)
	case tb.State.Phase != engine.PhaseDiscard || len(ch.Actions) != 1 || ch.Actions[0].Action.Kind != engine.ActDeal:
		t.Fatalf("the pairing's game: phase %v, actions %+v; want the deal alone", tb.State.Phase, ch.Actions)
	case !tb.OwnMove() || ch.Next != nil:
		t.Fatalf("the pairing's table waits on its computers: %v; makes a next %v", tb.OwnMove(), ch.Next != nil)
	}
	// Saved as table 5, it is played by Continue, to the end.
	tb.AssignID(5)
	for tb.Status == StatusPlaying {
		more, _, err := Continue(tb, env)
		if err != nil || more == nil {
			t.Fatalf("Continue stopped the game in phase %v: %v", tb.State.Phase, err)
		}
	}
	if tb.OwnMove() {
		t.Error("a finished game waits on its computers")
	}
	next, err := tr.OpenTable(TableSpec{Link: TournamentLink{ID: tr.ID, Round: 1, Pairing: 1, Game: 2}, Seats: tb.Seats, After: tb}, opening)
	if err != nil || next.Table.State.Dealer == tb.State.Dealer || !next.Table.OwnMove() {
		t.Errorf("the pairing's second game: %v, dealer %d after %d, waits on its computers %v", err, next.Table.State.Dealer, tb.State.Dealer, next.Table.OwnMove())
	}
	people, err := tr.OpenTable(specs[0], opening) // p1 v p2
	if err != nil || people.Table.OwnMove() || people.Table.State.Phase != engine.PhaseDiscard {
		t.Errorf("the people's table: %v, waits on itself %v in phase %v", err, people.Table.OwnMove(), people.Table.State.Phase)
	}
}

// TestAMatchGameBetweenComputersBeginsTheNext: a playoff match's game
// that ends, played by Continue, begins the match's next game as the
// change's Next, dealt and waiting on its computers.
func TestAMatchGameBetweenComputersBeginsTheNext(t *testing.T) {
	env := testEnv()
	tb := &Table{ChannelID: "c", Options: engine.Options{Players: 2, Target: 61}, Status: StatusPlaying,
		Seats: []Seat{{UserID: "computer:1", Computer: "plain"}, {UserID: "computer:2", Computer: "plain"}},
		Match: &Match{BestOf: 3, Game: 1}, Tournament: &TournamentLink{ID: 7, Round: 1, Playoff: true, Game: 1}}
	g, events, err := cut(tb, env)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := begin(tb, g, events, env); err != nil {
		t.Fatal(err)
	}
	tb.AssignID(3)
	var ch *Change
	for tb.Status == StatusPlaying {
		if ch, _, err = Continue(tb, env); err != nil || ch == nil {
			t.Fatalf("Continue: %v, %v", ch, err)
		}
	}
	if tb.Match.ID != 3 || ch.Next == nil {
		t.Fatalf("game 1's match %+v, next %v", tb.Match, ch.Next != nil)
	}
	next := ch.Next.Table
	if next.ID != 0 || next.Tournament.Game != 2 || next.Match.Game != 2 || next.Match.ID != 3 || !next.OwnMove() || next.State.HandNo != 1 {
		t.Errorf("game 2: id %d, link %+v, match %+v, waits on its computers %v", next.ID, next.Tournament, next.Match, next.OwnMove())
	}
}
