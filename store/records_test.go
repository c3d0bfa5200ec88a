package store

import (
	"context"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// finished describes a game result worked out by hand.
type finished struct {
	opts    engine.Options
	seats   []cribbage.Seat
	scores  []int
	winner  int
	skunks  []int
	games   int
	ago     time.Duration
	tallies map[int]engine.Tally
}

// finishGame stores a game that ended with the given result.
func finishGame(t *testing.T, s *Store, c *clock, f finished) {
	t.Helper()
	ctx := context.Background()
	lobby := &cribbage.Table{GuildID: "g", ChannelID: "c", HostID: "h", Options: f.opts, Status: cribbage.StatusLobby, Seats: f.seats}
	tb := startGame(t, s, lobby)
	saved := c.t
	c.t = saved.Add(-f.ago)
	defer func() { c.t = saved.Add(time.Minute) }()
	_, err := servicetest.Update(ctx, s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 0})
		if err != nil {
			return nil, err
		}
		g.Scores = f.scores
		g.Result = &engine.Result{Reason: engine.ReasonTarget, Winner: f.winner, Loser: -1, Scores: f.scores, Skunks: f.skunks, Games: f.games}
		for seat, tl := range f.tallies {
			g.Tally[seat] = tl
		}
		cur.State, cur.Status = g, cribbage.StatusFinished
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func people(ids ...string) []cribbage.Seat {
	var out []cribbage.Seat
	for _, id := range ids {
		if id == "cpu" {
			out = append(out, cribbage.Seat{Computer: "expert", Name: "Computer"})
			continue
		}
		out = append(out, cribbage.Seat{UserID: id, Name: id})
	}
	return out
}

// TestRecords checks the leaderboard, stats and head-to-head after a known
// set of games against figures worked out by hand (see the comments).
func TestRecords(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	two := engine.Options{Players: 2, Target: 121}
	// g1, 40 days ago: alice beats bob 121–85, a skunk (2 games).
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{121, 85}, winner: 0, skunks: []int{0, 1}, games: 2, ago: 40 * 24 * time.Hour})
	// g2: bob beats alice 121–50, a double skunk (4 games).
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{50, 121}, winner: 1, skunks: []int{2, 0}, games: 4})
	// g3: alice beats carol 121–100, with a 29 hand.
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "carol"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1,
		tallies: map[int]engine.Tally{0: {Pegging: 30, HandPoints: 60, Hands: 8, CribPoints: 20, Cribs: 4, BestHand: 29, TwentyNine: 1}}})
	// g4: bob and dan beat alice and carol 121–95.
	finishGame(t, s, c, finished{opts: engine.Options{Players: 4, Partners: true, Target: 121}, seats: people("alice", "bob", "carol", "dan"),
		scores: []int{95, 121}, winner: 1, skunks: []int{0, 0}, games: 1})
	// g5: alice beats the computer 121–70 (kept apart from games between people).
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "cpu"), scores: []int{121, 70}, winner: 0, skunks: []int{0, 1}, games: 2})
	// g6: carol wins a three-hander; alice is skunked on 88, bob double-skunked on 55.
	finishGame(t, s, c, finished{opts: engine.Options{Players: 3, Target: 121}, seats: people("alice", "bob", "carol"),
		scores: []int{88, 55, 121}, winner: 2, skunks: []int{1, 2, 0}, games: 4})

	ctx := context.Background()
	board, err := s.Leaderboard(ctx, "g", 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	// Everyone is provisional after so few games, and ranked by rating:
	// dan won his only game, carol beat two newcomers in the three-hander,
	// and alice lost three of her five. The records are the games' sums.
	want := []cribbage.Standing{
		{Rank: 1, UserID: "dan", Name: "dan", Games: 1, Wins: 1, Losses: 0, GamesWon: 1},
		{Rank: 2, UserID: "carol", Name: "carol", Games: 3, Wins: 1, Losses: 2, GamesWon: 4, SkunksGiven: 2, SkunksTaken: 0},
		{Rank: 3, UserID: "bob", Name: "bob", Games: 4, Wins: 2, Losses: 2, GamesWon: 5, SkunksGiven: 1, SkunksTaken: 2},
		{Rank: 4, UserID: "alice", Name: "alice", Games: 5, Wins: 2, Losses: 3, GamesWon: 3, SkunksGiven: 1, SkunksTaken: 2},
	}
	if len(board) != len(want) {
		t.Fatalf("board %+v", board)
	}
	for i := range want {
		got := board[i]
		if !got.Rating.Provisional || got.Rating.Games != got.Games || i > 0 && got.Rating.R > board[i-1].Rating.R {
			t.Errorf("rank %d rated %+v after %+v", i+1, got.Rating, board[max(i-1, 0)].Rating)
		}
		got.Rating = cribbage.Rating{}
		if got != want[i] {
			t.Errorf("rank %d\n got %+v\nwant %+v", i+1, got, want[i])
		}
	}

	// The last 30 days leave out g1.
	month, _ := s.Leaderboard(ctx, "g", 0, c.t.Add(-30*24*time.Hour))
	for _, st := range month {
		if st.UserID == "alice" && (st.Games != 4 || st.Wins != 1 || st.GamesWon != 1) {
			t.Errorf("alice this month %+v", st)
		}
		if st.UserID == "bob" && (st.Games != 3 || st.GamesWon != 5) {
			t.Errorf("bob this month %+v", st)
		}
	}

	st, err := s.PlayerStats(ctx, "g", "alice")
	if err != nil {
		t.Fatal(err)
	}
	wantPeople := cribbage.Record{Games: 5, Wins: 2, Losses: 3, GamesWon: 3, SkunksGiven: 1, SkunksTaken: 1, DoubleSkunksTaken: 1,
		Pegging: 30, HandPoints: 60, Hands: 8, CribPoints: 20, Cribs: 4, BestHand: 29, TwentyNines: 1}
	if st.People != wantPeople {
		t.Errorf("alice vs people\n got %+v\nwant %+v", st.People, wantPeople)
	}
	if st.Computer.Games != 1 || st.Computer.Wins != 1 || st.Computer.GamesWon != 2 || st.Computer.SkunksGiven != 1 {
		t.Errorf("alice vs the computer %+v", st.Computer)
	}
	// Latest first: g6 lost, g4 lost, g3 won.
	if st.Streak != -2 {
		t.Errorf("streak %d, want -2", st.Streak)
	}

	h, err := s.HeadToHead(ctx, "g", "alice", "bob")
	if err != nil {
		t.Fatal(err)
	}
	if h != (cribbage.HeadToHead{Games: 4, AWins: 1, BWins: 2}) {
		t.Errorf("alice v bob %+v, want 4 games, 1–2", h)
	}
}

// TestAssistedResults: a game in which a player used the coach has its
// result marked assisted, read from the table when the game ends (the
// flag is set outside of updates); a game without is not.
func TestAssistedResults(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	resign := func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 1})
		cur.State, cur.Status = g, cribbage.StatusFinished
		return &cribbage.Change{Table: cur}, err
	}
	tests := []struct {
		name     string
		assisted bool
	}{{"coached", true}, {"unaided", false}}
	for _, tt := range tests {
		tb := startGame(t, s, newLobby("g", "a", "b"))
		if tt.assisted {
			if err := s.MarkAssisted(ctx, tb.ID); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := servicetest.Update(ctx, s, tb.ID, "", resign); err != nil {
			t.Fatal(err)
		}
		if a, err := s.Assisted(ctx, tb.ID); err != nil || a != tt.assisted {
			t.Errorf("%s game: result assisted %v (%v), want %v", tt.name, a, err, tt.assisted)
		}
	}
}
