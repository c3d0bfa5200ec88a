package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
	"github.com/cribbage-bot/cribbage/rating"
)

// mustWrite runs write statements in one transaction.
func mustWrite(t testing.TB, s *Store, stmts ...string) {
	t.Helper()
	err := s.inTx(context.Background(), func(tx *txn) error {
		for _, stmt := range stmts {
			if _, err := tx.exec(context.Background(), stmt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ratingOf reads a player's stored rating in guild g's season, and
// whether there is one.
func ratingOf(t *testing.T, s *Store, season int, user string) (storedRating, bool) {
	t.Helper()
	r, err := scanRating(s.db.QueryRowContext(context.Background(), `SELECT r, rd, volatility, games, rated_at FROM ratings
		WHERE guild_id = 'g' AND season = ? AND user_id = ?`, season, user))
	if errors.Is(err, sql.ErrNoRows) {
		return r, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return r, true
}

// wantRating checks a player's stored rating in season 1 and its games.
func wantRating(t *testing.T, s *Store, user string, want rating.Rating, games int) {
	t.Helper()
	got, ok := ratingOf(t, s, 1, user)
	if !ok {
		t.Fatalf("%s has no rating", user)
	}
	if got.Rating != want || got.games != games {
		t.Errorf("%s: %+v after %d games, want %+v after %d", user, got.Rating, got.games, want, games)
	}
}

var two = engine.Options{Players: 2, Target: 121}

// TestRatingsAreWrittenWithTheResult: the move that ends a game between
// two people rates both, from newcomers, exactly as rating.Game does.
func TestRatingsAreWrittenWithTheResult(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	n := ratingSystem.Newcomer()
	a, b := rating.Game(n, n, rating.Win, ratingSystem)
	wantRating(t, s, "alice", a, 1)
	wantRating(t, s, "bob", b, 1)
	// The second game starts from the first one's ratings; a skunk is one
	// game like any other.
	finishGame(t, s, c, finished{opts: two, seats: people("bob", "alice"), scores: []int{121, 80}, winner: 0, skunks: []int{0, 1}, games: 2})
	b2, a2 := rating.Game(b, a, rating.Win, ratingSystem)
	wantRating(t, s, "alice", a2, 2)
	wantRating(t, s, "bob", b2, 2)
}

// TestAComputerAtTheTableRatesNobody: not the person who beat it, nor a
// person partnered with one.
func TestAComputerAtTheTableRatesNobody(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "cpu"), scores: []int{121, 70}, winner: 0, skunks: []int{0, 1}, games: 2})
	finishGame(t, s, c, finished{opts: engine.Options{Players: 4, Partners: true, Target: 121}, seats: people("alice", "bob", "cpu", "carol"),
		scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	for _, u := range []string{"alice", "bob", "carol"} {
		if r, ok := ratingOf(t, s, 1, u); ok {
			t.Errorf("%s rated %+v after games with a computer", u, r)
		}
	}
}

// TestATeamGameRatesEachPartner: seats 0 and 2 against 1 and 3, each
// person against the other pair (rating.TeamGame).
func TestATeamGameRatesEachPartner(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	// First alice beats bob, so the partners start from different ratings.
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	alice, _ := ratingOf(t, s, 1, "alice")
	bob, _ := ratingOf(t, s, 1, "bob")
	// bob and dan (side 1) beat alice and carol (side 0).
	finishGame(t, s, c, finished{opts: engine.Options{Players: 4, Partners: true, Target: 121}, seats: people("alice", "bob", "carol", "dan"),
		scores: []int{95, 121}, winner: 1, skunks: []int{0, 0}, games: 1})
	n := ratingSystem.Newcomer()
	losers, winners := rating.TeamGame([]rating.Rating{alice.Rating, n}, []rating.Rating{bob.Rating, n}, rating.Loss, ratingSystem)
	wantRating(t, s, "alice", losers[0], 2)
	wantRating(t, s, "carol", losers[1], 1)
	wantRating(t, s, "bob", winners[0], 2)
	wantRating(t, s, "dan", winners[1], 1)
}

// TestAThreeHanderIsTheWinnerAgainstEachOther: carol wins; she has beaten
// alice and bob in one period, each of them has lost to her, and alice's
// 100 to bob's 55 counts for nothing between them.
func TestAThreeHanderIsTheWinnerAgainstEachOther(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	finishGame(t, s, c, finished{opts: engine.Options{Players: 3, Target: 121}, seats: people("alice", "bob", "carol"),
		scores: []int{100, 55, 121}, winner: 2, skunks: []int{0, 2, 0}, games: 4})
	n := ratingSystem.Newcomer()
	lost := rating.Update(n, []rating.Result{{Opponent: n, Score: rating.Loss}}, ratingSystem)
	won := rating.Update(n, []rating.Result{{Opponent: n, Score: rating.Win}, {Opponent: n, Score: rating.Win}}, ratingSystem)
	wantRating(t, s, "alice", lost, 1)
	wantRating(t, s, "bob", lost, 1)
	wantRating(t, s, "carol", won, 1)
}

// TestAResignationIsALossInTheRatings, played through the engine, once a
// card has been thrown.
func TestAResignationIsALossInTheRatings(t *testing.T) {
	s, _ := MustOpen(t)
	tb := startGame(t, s, newLobby("g", "alice", "bob"))
	_, err := servicetest.Update(context.Background(), s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := resignAfterAThrow(cur.State, 0)
		if err != nil {
			return nil, err
		}
		cur.SetGame(g, time.Now())
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n := ratingSystem.Newcomer()
	alice, bob := rating.Game(n, n, rating.Loss, ratingSystem)
	wantRating(t, s, "alice", alice, 1)
	wantRating(t, s, "bob", bob, 1)
}

// TestAResignationBeforeAnyCardRatesNobody: a game resigned before any
// card has left a hand moves no rating, neither the resigner's nor the
// winner's, and is still in the records as the resigner's loss.
func TestAResignationBeforeAnyCardRatesNobody(t *testing.T) {
	tests := []struct {
		name  string
		deals int // actions before the resignation: 0 at the cut, 1 dealt
	}{{"at the cut for deal", 0}, {"dealt, nothing thrown", 1}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := MustOpen(t)
			ctx := context.Background()
			tb := startGame(t, s, newLobby("g", "alice", "bob"))
			_, err := servicetest.Update(ctx, s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
				g := cur.State
				for range tt.deals {
					var err error
					if g, _, err = g.Apply(nextAction(g, engine.SeedFromUint64(7))); err != nil {
						return nil, err
					}
				}
				g, _, err := g.Apply(engine.Action{Kind: engine.ActResign, Seat: 0})
				if err != nil {
					return nil, err
				}
				cur.SetGame(g, time.Now())
				return &cribbage.Change{Table: cur}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range []string{"alice", "bob"} {
				if r, ok := ratingOf(t, s, 1, u); ok {
					t.Errorf("%s rated %+v by a resignation before any card", u, r)
				}
			}
			st, err := s.PlayerStats(ctx, "g", "alice")
			if err != nil {
				t.Fatal(err)
			}
			if st.People.Games != 1 || st.People.Losses != 1 || st.Rating.Games != 0 {
				t.Errorf("alice's stats: %+v, want the loss recorded and no rated game", st)
			}
		})
	}
}

// TestRatingsAndResultAreOneTransaction: a stored rating the algorithm
// cannot use fails the move that finishes the game, and nothing of that
// move is written: no result, no records, no other rating, the table
// still playing.
func TestRatingsAndResultAreOneTransaction(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	mustWrite(t, s, `INSERT INTO ratings (guild_id, season, user_id, r, rd, volatility, games, rated_at)
		VALUES ('g', 1, 'bob', 1500, 0, 0.06, 3, 1)`)
	tb := startGame(t, s, newLobby("g", "alice", "bob"))
	_, err := servicetest.Update(ctx, s, tb.ID, "i-1", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := resignAfterAThrow(cur.State, 1)
		if err != nil {
			return nil, err
		}
		cur.SetGame(g, time.Now())
		return &cribbage.Change{Table: cur}, nil
	})
	if !errors.Is(err, rating.ErrInvalid) {
		t.Fatalf("finishing with a broken rating: %v, want rating.ErrInvalid", err)
	}
	var results, records, ratings int
	s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM results`).Scan(&results)
	s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM player_results`).Scan(&records)
	s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM ratings`).Scan(&ratings)
	if results != 0 || records != 0 || ratings != 1 {
		t.Errorf("after the failed finish: %d results, %d records, %d ratings; want 0, 0, 1", results, records, ratings)
	}
	if got := mustTable(t, s, tb.ID); got.Status != cribbage.StatusPlaying {
		t.Errorf("table %s after the failed finish", got.Status)
	}
	if err := s.checkInteraction(ctx, "i-1"); err != nil {
		t.Errorf("the failed finish recorded its interaction: %v", err)
	}
}

// TestGamesFinishingTogetherAllCount: alice, rated already, finishes
// games at several tables at the same moment. Her rating counts them all,
// one after the other: no write is lost to another.
func TestGamesFinishingTogetherAllCount(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	resign := func(id int64) error {
		_, err := servicetest.Update(ctx, s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			g, _, err := resignAfterAThrow(cur.State, 1)
			if err != nil {
				return nil, err
			}
			cur.SetGame(g, time.Now())
			return &cribbage.Change{Table: cur}, nil
		})
		return err
	}
	if err := resign(startGame(t, s, newLobby("g", "alice", "bob")).ID); err != nil {
		t.Fatal(err)
	}
	const tables = 4
	var ids []int64
	for i := range tables {
		ids = append(ids, startGame(t, s, newLobby("g", "alice", fmt.Sprint("opponent-", i))).ID)
	}
	var wg sync.WaitGroup
	errs := make([]error, tables)
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = resign(id)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Each opponent is a newcomer, so the order they were rated in does
	// not change alice's rating.
	n := ratingSystem.Newcomer()
	want := n
	for range tables + 1 {
		want, _ = rating.Game(want, n, rating.Win, ratingSystem)
	}
	wantRating(t, s, "alice", want, tables+1)
}

// TestIdleWeeks: a rating's RD widens one idle step a whole week away, up
// to a newcomer's; and a player who plays once a week, or stops, moves
// as cribbage.RatingIdle's comment says.
func TestIdleWeeks(t *testing.T) {
	start := time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)
	settled := storedRating{Rating: rating.Rating{R: 1600, RD: 60, Volatility: 0.06}, games: 40, ratedAt: start}
	for _, tc := range []struct {
		after time.Duration
		steps int
	}{{0, 0}, {7*24*time.Hour - time.Second, 0}, {7 * 24 * time.Hour, 1}, {20 * 24 * time.Hour, 2}, {-time.Hour, 0}, {60 * cribbage.RatingIdle, 60}} {
		want := settled.Rating
		for range tc.steps {
			want = rating.Idle(want, ratingSystem)
		}
		if got := settled.at(start.Add(tc.after)); got.R != want.R || got.Volatility != want.Volatility || math.Abs(got.RD-want.RD) > 1e-9 {
			t.Errorf("%v on: %+v, want %d idle steps, %+v", tc.after, got, tc.steps, want)
		}
	}
	if got := settled.at(start.Add(100 * 365 * 24 * time.Hour)); got.RD != ratingSystem.Newcomer().RD || got.R != 1600 {
		t.Errorf("a century away: %+v, want R 1600 and a newcomer's RD", got)
	}

	// Once a week against an even, settled opponent, winning every other
	// game, for two years.
	opp := rating.Rating{R: 1500, RD: 60, Volatility: 0.06}
	weekly := storedRating{Rating: ratingSystem.Newcomer(), ratedAt: start}
	var highest float64
	for week := range 104 {
		at := start.Add(time.Duration(week) * cribbage.RatingIdle)
		before := weekly.at(at)
		if week >= 52 {
			highest = max(highest, before.RD)
		}
		after := rating.RateBouts(map[string]rating.Rating{"a": before, "b": opp},
			bouts([]cribbage.PlayerResult{{UserID: "a", Side: 0, Won: week%2 == 0}, {UserID: "b", Side: 1, Won: week%2 == 1}}), ratingSystem)
		weekly = storedRating{Rating: after["a"], ratedAt: at}
	}
	if highest > 75 {
		t.Errorf("a weekly player's RD reached %.0f before a game in the second year, want about 73", highest)
	}
	t.Logf("a weekly player's RD before a game, second year: at most %.1f", highest)
	// A settled player away: provisional after how many weeks?
	weeks := 0
	for !settled.at(start.Add(time.Duration(weeks) * cribbage.RatingIdle)).Provisional(rating.ProvisionalRD) {
		weeks++
	}
	if weeks < 52 || weeks > 104 {
		t.Errorf("a settled player turns provisional after %d weeks away, want a year to two", weeks)
	}
	t.Logf("a settled player (RD 60) turns provisional after %d weeks away", weeks)
}

// allRatings reads every stored rating, by guild, season and user.
func allRatings(t *testing.T, s *Store) map[string]storedRating {
	t.Helper()
	rows, err := s.db.QueryContext(context.Background(), `SELECT guild_id, season, user_id, r, rd, volatility, games, rated_at FROM ratings`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]storedRating{}
	for rows.Next() {
		var guild, user string
		var season int
		var at int64
		var r storedRating
		if err := rows.Scan(&guild, &season, &user, &r.R, &r.RD, &r.Volatility, &r.games, &at); err != nil {
			t.Fatal(err)
		}
		r.ratedAt = fromMillis(at)
		out[fmt.Sprint(guild, "/", season, "/", user)] = r
	}
	return out
}

// TestHistoryIsRatedWhenRatingsArrive: a database with games finished
// before ratings existed gets, from the migration that brings them, the
// ratings those games would have given as they were played.
func TestHistoryIsRatedWhenRatingsArrive(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, path := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	c.t = c.t.Add(-60 * 24 * time.Hour)
	partners := engine.Options{Players: 4, Partners: true, Target: 121}
	for _, f := range []finished{
		{opts: two, seats: people("alice", "bob"), scores: []int{121, 85}, winner: 0, skunks: []int{0, 1}, games: 2},
		{opts: two, seats: people("carol", "bob"), scores: []int{100, 121}, winner: 1, skunks: []int{0, 0}, games: 1},
		{opts: partners, seats: people("alice", "bob", "carol", "dan"), scores: []int{95, 121}, winner: 1, skunks: []int{0, 0}, games: 1},
		{opts: two, seats: people("alice", "cpu"), scores: []int{121, 70}, winner: 0, skunks: []int{0, 1}, games: 2},
		{opts: engine.Options{Players: 3, Target: 121}, seats: people("alice", "bob", "carol"), scores: []int{88, 55, 121}, winner: 2, skunks: []int{1, 2, 0}, games: 4},
		{opts: two, seats: people("dan", "alice"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1},
	} {
		finishGame(t, s, c, f)
		c.t = c.t.Add(10 * 24 * time.Hour) // some weeks idle between games
	}
	live := allRatings(t, s)
	if len(live) != 4 {
		t.Fatalf("rated as played: %v", live)
	}
	// Back to the schema before ratings, the games' records kept.
	mustWrite(t, s, `DROP INDEX player_results_season_board`, `ALTER TABLE player_results DROP COLUMN season`,
		`DROP TABLE ratings`, `DROP TABLE seasons`, `DELETE FROM schema_migrations WHERE name = '`+ratingsMigration+`'`)
	s.Close()
	again, err := reopen(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	history := allRatings(t, again)
	if len(history) != len(live) {
		t.Errorf("rated from history: %v\nas played: %v", history, live)
	}
	for k, want := range live {
		if got := history[k]; got != want {
			t.Errorf("%s rated from history %+v, as played %+v", k, got, want)
		}
	}
}
