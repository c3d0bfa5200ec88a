package cribbage

import (
	"errors"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// dealt returns a game of opts, dealt and with the seats in discarded
// having thrown to the crib.
func dealt(t *testing.T, opts engine.Options, discarded ...int) *engine.State {
	t.Helper()
	g, _, err := engine.New(opts, engine.SeedFromUint64(1))
	if err != nil {
		t.Fatal(err)
	}
	seed := engine.SeedFromUint64(2)
	if g, _, err = g.Apply(engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	for _, s := range discarded {
		if g, _, err = g.Apply(engine.Action{Kind: engine.ActDiscard, Seat: s, Cards: g.Hands[s].Cards()[:opts.DiscardSize()]}); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestForfeitDue: the win may be claimed once a game has waited the
// forfeit time since its last move (or since it began waiting on the
// seat it waits on), never with forfeits off, and never at a table not
// being played.
func TestForfeitDue(t *testing.T) {
	last := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	week := 7 * 24 * time.Hour
	tests := []struct {
		name    string
		status  Status
		waiting time.Time
		now     time.Time
		after   time.Duration
		want    bool
	}{
		{"a week after the last move", StatusPlaying, time.Time{}, last.Add(week), week, true},
		{"a moment before", StatusPlaying, time.Time{}, last.Add(week - time.Millisecond), week, false},
		{"long after", StatusPlaying, time.Time{}, last.Add(30 * week), week, true},
		{"forfeits off", StatusPlaying, time.Time{}, last.Add(30 * week), 0, false},
		{"waiting since later than the last move", StatusPlaying, last.Add(time.Hour), last.Add(week), week, false},
		{"a week after it began waiting", StatusPlaying, last.Add(time.Hour), last.Add(week + time.Hour), week, true},
		{"a lobby", StatusLobby, time.Time{}, last.Add(30 * week), week, false},
		{"a finished game", StatusFinished, time.Time{}, last.Add(30 * week), week, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &Table{Status: tt.status, LastActionAt: last, WaitingSince: tt.waiting}
			if got := tb.ForfeitDue(tt.now, tt.after); got != tt.want {
				t.Errorf("ForfeitDue = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLateSeat: which seat a claimer takes the win from, as the
// engine's forfeit takes it: the first seat the game waits on, so long as
// the claimer's own side keeps nobody waiting.
func TestLateSeat(t *testing.T) {
	two := engine.Options{Players: 2, Target: 121}
	three := engine.Options{Players: 3, Target: 121}
	partners := engine.Options{Players: 4, Partners: true, Target: 121}
	tests := []struct {
		name      string
		opts      engine.Options
		discarded []int
		claimer   int
		want      int
		err       error
	}{
		{"the other player has not thrown", two, []int{0}, 0, 1, nil},
		{"the claimer has not thrown either", two, nil, 0, -1, engine.ErrClaimerWaited},
		{"the claimer is the one waited on", two, []int{0}, 1, -1, engine.ErrClaimerWaited},
		{"two others late: the first", three, []int{0}, 0, 1, nil},
		{"a partner keeps the table waiting", partners, []int{0, 1, 3}, 0, -1, engine.ErrClaimerWaited},
		{"the other pair is late", partners, []int{0, 2}, 2, 1, nil},
		{"the other pair, one of them thrown", partners, []int{0, 1, 2}, 0, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &Table{Status: StatusPlaying, Options: tt.opts, State: dealt(t, tt.opts, tt.discarded...)}
			got, err := tb.LateSeat(tt.claimer)
			if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("LateSeat(%d) = %d, %v; want %d, %v", tt.claimer, got, err, tt.want, tt.err)
			}
			if got < 0 {
				return
			}
			// The engine takes the claim the rule allows.
			if _, _, err := tb.State.Apply(engine.Action{Kind: engine.ActForfeit, Seat: tt.claimer, Other: got}); err != nil {
				t.Errorf("the engine refused the claim: %v", err)
			}
		})
	}
	if got, err := (&Table{Status: StatusLobby}).LateSeat(0); got != -1 || err != nil {
		t.Errorf("a table without a game: %d, %v", got, err)
	}
}

// TestComputerClaimsByThePersonsRule: a tournament's computer entrant
// claims the win by the rule a person claims it by: not before the
// forfeit time, and not while its own side is waited on.
func TestComputerClaimsByThePersonsRule(t *testing.T) {
	two := engine.Options{Players: 2, Target: 121}
	last := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	week := 7 * 24 * time.Hour
	tests := []struct {
		name      string
		discarded []int
		now       time.Time
		claims    bool
	}{
		{"the person has not thrown for a week", []int{1}, last.Add(week), true},
		{"not a week yet", []int{1}, last.Add(week - time.Second), false},
		{"the computer is waited on too", nil, last.Add(week), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := testEnv()
			env.Now = tt.now
			tb := &Table{ID: 5, Status: StatusPlaying, Options: two, LastActionAt: last, Tournament: &TournamentLink{ID: 1},
				Seats: []Seat{{UserID: "ann", Name: "Ann"}, {Computer: "plain", Name: "Computer"}}, State: dealt(t, two, tt.discarded...)}
			ch, err := ComputerClaim(tb, week, env)
			if err != nil {
				t.Fatal(err)
			}
			if got := ch != nil; got != tt.claims {
				t.Fatalf("claimed: %v, want %v", got, tt.claims)
			}
			if ch != nil && (tb.State.Result.Reason != engine.ReasonForfeit || tb.State.Result.Winner != 1) {
				t.Errorf("the claim's result: %+v", tb.State.Result)
			}
		})
	}
}

// TestALobbyLivesADay: CloseLobby closes a lobby only once it has stood
// LobbyLife, and a table past its lobby never.
func TestALobbyLivesADay(t *testing.T) {
	opened := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		status Status
		now    time.Time
		closes bool
	}{
		{"a day on", StatusLobby, opened.Add(24 * time.Hour), true},
		{"a moment before", StatusLobby, opened.Add(24*time.Hour - time.Millisecond), false},
		{"as it opens", StatusLobby, opened, false},
		{"a game being played", StatusPlaying, opened.Add(48 * time.Hour), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &Table{Status: tt.status, CreatedAt: opened}
			ch := CloseLobby(tb, tt.now)
			if got := ch != nil; got != tt.closes {
				t.Fatalf("closed: %v, want %v", got, tt.closes)
			}
			if tt.closes && tb.Status != StatusClosed {
				t.Errorf("status %s", tb.Status)
			}
		})
	}
	if got := (&Table{CreatedAt: opened}).LobbyLapses(); !got.Equal(opened.Add(24 * time.Hour)) {
		t.Errorf("LobbyLapses = %v", got)
	}
}
