package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/rating"
)

// shown is a rating as the leaderboard shows it, with its games.
func shown(r rating.Rating, games int) cribbage.Rating {
	return cribbage.Rating{R: r.R, RD: r.RD, Games: games, Provisional: r.Provisional(rating.ProvisionalRD)}
}

// TestANewSeasonStartsAfreshAndThePastStays: alice beats bob twice in
// season 1; an admin starts season 2, where bob beats carol. Season 2's
// ratings start from newcomers; season 1's board, a year on, is as the
// season left it; and the seasons list both.
func TestANewSeasonStartsAfreshAndThePastStays(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	first := c.t
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	before, err := s.Leaderboard(ctx, "g", 0, time.Time{})
	if err != nil || len(before) != 2 || before[0].UserID != "alice" {
		t.Fatalf("season 1 board %+v, %v", before, err)
	}

	c.t = c.t.Add(time.Hour)
	started := c.t
	se, err := s.StartSeason(ctx, "g", "admin", "Winter")
	if err != nil {
		t.Fatal(err)
	}
	if want := (cribbage.Season{Number: 2, Name: "Winter", StartedAt: started, StartedBy: "admin"}); se != want {
		t.Errorf("started %+v, want %+v", se, want)
	}
	// Nothing has been played in season 2: a second click starts nothing.
	if _, err := s.StartSeason(ctx, "g", "admin", "Again"); !errors.Is(err, cribbage.ErrSeasonUnplayed) {
		t.Errorf("a second new season before any game: %v, want ErrSeasonUnplayed", err)
	}
	if board, err := s.Leaderboard(ctx, "g", 0, time.Time{}); err != nil || len(board) != 0 {
		t.Errorf("season 2 before a game: %+v, %v", board, err)
	}
	st, _ := s.PlayerStats(ctx, "g", "alice")
	if want := shown(ratingSystem.Newcomer(), 0); st.Season != 2 || st.Rating != want || st.People.Games != 2 {
		t.Errorf("alice in season 2 before a game: season %d, %+v, %d games; want 2, %+v, her 2 games", st.Season, st.Rating, st.People.Games, want)
	}

	finishGame(t, s, c, finished{opts: two, seats: people("bob", "carol"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	n := ratingSystem.Newcomer()
	bob, carol := rating.Game(n, n, rating.Win, ratingSystem)
	board, err := s.Leaderboard(ctx, "g", 2, time.Time{})
	if err != nil || len(board) != 2 || board[0].UserID != "bob" || board[0].Rating != shown(bob, 1) || board[1].Rating != shown(carol, 1) ||
		board[0].Games != 1 || board[0].Wins != 1 {
		t.Errorf("season 2 board %+v, %v; want bob %+v and carol %+v, one game each", board, err, bob, carol)
	}

	// A year on, season 1 is as it ended: no wider, the same lines.
	c.t = c.t.Add(365 * 24 * time.Hour)
	past, err := s.Leaderboard(ctx, "g", 1, time.Time{})
	if err != nil || len(past) != len(before) {
		t.Fatalf("season 1 a year on: %+v, %v", past, err)
	}
	for i := range past {
		if past[i] != before[i] {
			t.Errorf("season 1, rank %d a year on\n got %+v\nwant %+v", i+1, past[i], before[i])
		}
	}
	for _, bad := range []int{3, -1} {
		if _, err := s.Leaderboard(ctx, "g", bad, time.Time{}); !errors.Is(err, cribbage.ErrNoSeason) {
			t.Errorf("season %d: %v, want ErrNoSeason", bad, err)
		}
	}

	seasons, err := s.Seasons(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	want := []cribbage.Season{
		{Number: 1, StartedAt: first, Games: 2},
		{Number: 2, Name: "Winter", StartedAt: started, StartedBy: "admin", Games: 1},
	}
	if len(seasons) != len(want) || seasons[0] != want[0] || seasons[1] != want[1] {
		t.Errorf("seasons\n got %+v\nwant %+v", seasons, want)
	}
}

// TestSeasonsOfAServerWithoutGames: season 1, not begun, and no way to
// start another; games against the computer do not begin it.
func TestSeasonsOfAServerWithoutGames(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "cpu"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	seasons, err := s.Seasons(ctx, "g")
	if err != nil || len(seasons) != 1 || seasons[0] != (cribbage.Season{Number: 1}) {
		t.Errorf("seasons %+v, %v; want season 1 alone, not begun", seasons, err)
	}
	if _, err := s.StartSeason(ctx, "g", "admin", ""); !errors.Is(err, cribbage.ErrSeasonUnplayed) {
		t.Errorf("a new season before any game: %v, want ErrSeasonUnplayed", err)
	}
	if seasons, _ := s.Seasons(ctx, "other"); len(seasons) != 1 || seasons[0].Number != 1 {
		t.Errorf("another server's seasons: %+v", seasons)
	}
}

// TestTwoAdminsStartOneSeason: two new seasons asked for at once start
// one; the other is told the season has no games yet.
func TestTwoAdminsStartOneSeason(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.StartSeason(context.Background(), "g", "admin", "")
		}()
	}
	wg.Wait()
	started := 0
	for _, err := range errs {
		switch {
		case err == nil:
			started++
		case !errors.Is(err, cribbage.ErrSeasonUnplayed):
			t.Error(err)
		}
	}
	if seasons, _ := s.Seasons(context.Background(), "g"); started != 1 || len(seasons) != 2 {
		t.Errorf("%d started, seasons %+v; want one, season 2", started, seasons)
	}
}

// TestSettledRanksAboveProvisional: bob's lucky first win puts his rating
// above alice's, but hers is settled and his is not, so she ranks first.
// Away long enough, her rating turns provisional again as shown, without
// anything written.
func TestSettledRanksAboveProvisional(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "carol"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	finishGame(t, s, c, finished{opts: two, seats: people("bob", "carol"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	// As if alice had played many games and settled at 1550.
	mustWrite(t, s, `UPDATE ratings SET r = 1550, rd = 60 WHERE user_id = 'alice'`)
	board, err := s.Leaderboard(ctx, "g", 0, time.Time{})
	if err != nil || len(board) != 3 {
		t.Fatalf("board %+v, %v", board, err)
	}
	if board[0].UserID != "alice" || board[0].Rating.Provisional || board[1].UserID != "bob" || !board[1].Rating.Provisional ||
		board[1].Rating.R <= board[0].Rating.R {
		t.Errorf("board %+v; want alice settled first, bob provisional and higher second", board)
	}
	c.t = c.t.Add(80 * cribbage.RatingIdle)
	board, _ = s.Leaderboard(ctx, "g", 0, time.Time{})
	st, _ := s.PlayerStats(ctx, "g", "alice")
	if !st.Rating.Provisional || st.Rating.R != 1550 || board[0].UserID != "bob" {
		t.Errorf("80 weeks on: alice %+v, board %+v; want her provisional at 1550, bob first", st.Rating, board)
	}
	if r, _ := ratingOf(t, s, 1, "alice"); r.RD != 60 {
		t.Errorf("showing a rating wrote it: RD %v", r.RD)
	}
}
