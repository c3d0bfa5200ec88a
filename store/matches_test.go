package store

import (
	"context"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// matchGame finishes one game of a match as the domain leaves it: the
// result, and the match with the game recorded (m, whose ID names the
// match, or 0 for this table's). It returns the table.
func matchGame(t *testing.T, s *Store, seats []cribbage.Seat, m cribbage.Match, g cribbage.MatchGame) *cribbage.Table {
	t.Helper()
	lobby := &cribbage.Table{GuildID: "g", ChannelID: "c", HostID: seats[0].UserID, Options: engine.Options{Players: 2, Target: 121},
		Status: cribbage.StatusLobby, Seats: seats}
	tb := startGame(t, s, lobby)
	tb, err := servicetest.Update(context.Background(), s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		st, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 1 - g.Winner})
		if err != nil {
			return nil, err
		}
		st.Result.Reason = g.Reason
		cur.State, cur.Status = st, cribbage.StatusFinished
		mm := m.Clone()
		if mm.ID == 0 {
			mm.ID = cur.ID
		}
		g.Table = cur.ID
		mm.Games = append(mm.Games, g)
		mm.Game = len(mm.Games)
		cur.Match = mm
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestMatchRecords writes four matches as the domain finishes them and
// checks the rows a tournament will read and the records players see,
// against figures worked out by hand:
//
//   - match 1, best of 3, alice v bob: alice skunks (3), bob wins by
//     resignation (2), alice double-skunks (4): alice 2–1, 7–2 points;
//   - match 2, best of 5, alice v bob: bob wins the first by forfeit and
//     the match with it, 1–0, 2–0 points, conceded;
//   - match 3, best of 3, alice v the computer, 2–0: kept apart;
//   - match 4, best of 3, alice v carol: one game, undecided.
func TestMatchRecords(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	ab := people("alice", "bob")
	win := func(side int, reason engine.ResultReason, points, skunk int) cribbage.MatchGame {
		return cribbage.MatchGame{Winner: side, Reason: reason, Points: points, Skunk: skunk}
	}

	m1 := cribbage.Match{BestOf: 3}
	g1 := matchGame(t, s, ab, m1, win(0, engine.ReasonTarget, 3, 1))
	m1 = *g1.Match
	g2 := matchGame(t, s, ab, m1, win(1, engine.ReasonResigned, 2, 0))
	m1 = *g2.Match
	g3 := matchGame(t, s, ab, m1, win(0, engine.ReasonTarget, 4, 2))
	if g3.Match.Winner() != 0 {
		t.Fatalf("match 1: %+v", g3.Match)
	}
	m2 := matchGame(t, s, ab, cribbage.Match{BestOf: 5, Conceded: true}, win(1, engine.ReasonForfeit, 2, 0))
	cpu := people("alice", "cpu")
	m3 := matchGame(t, s, cpu, cribbage.Match{BestOf: 3}, win(0, engine.ReasonTarget, 2, 0))
	matchGame(t, s, cpu, *m3.Match, win(0, engine.ReasonTarget, 2, 0))
	m4 := matchGame(t, s, people("alice", "carol"), cribbage.Match{BestOf: 3}, win(1, engine.ReasonTarget, 2, 0))

	type gameRow struct {
		game, table, bestOf, winner int64
		reason                      string
		points, skunk, vsComputer   int
	}
	var games []gameRow
	rows, err := s.db.QueryContext(ctx, `SELECT game, table_id, best_of, winner_side, reason, points, skunk, vs_computer FROM match_games WHERE match_id = ? ORDER BY game`, g1.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r gameRow
		if err := rows.Scan(&r.game, &r.table, &r.bestOf, &r.winner, &r.reason, &r.points, &r.skunk, &r.vsComputer); err != nil {
			t.Fatal(err)
		}
		games = append(games, r)
	}
	rows.Close()
	wantGames := []gameRow{
		{1, g1.ID, 3, 0, "target", 3, 1, 0},
		{2, g2.ID, 3, 1, "resigned", 2, 0, 0},
		{3, g3.ID, 3, 0, "target", 4, 2, 0},
	}
	if len(games) != len(wantGames) {
		t.Fatalf("match 1's games: %+v", games)
	}
	for i := range wantGames {
		if games[i] != wantGames[i] {
			t.Errorf("match 1 game %d: %+v, want %+v", i+1, games[i], wantGames[i])
		}
	}

	type resultRow struct {
		match                                   int64
		user                                    string
		side, won, bestOf, gamesWon, gamesLost  int
		pointsFor, pointsAgainst, conceded, cpu int
	}
	rows, err = s.db.QueryContext(ctx, `SELECT match_id, user_id, side, won, best_of, games_won, games_lost, points_for, points_against, conceded, vs_computer
		FROM match_results ORDER BY match_id, side`)
	if err != nil {
		t.Fatal(err)
	}
	var results []resultRow
	for rows.Next() {
		var r resultRow
		if err := rows.Scan(&r.match, &r.user, &r.side, &r.won, &r.bestOf, &r.gamesWon, &r.gamesLost, &r.pointsFor, &r.pointsAgainst, &r.conceded, &r.cpu); err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	rows.Close()
	wantResults := []resultRow{
		{g1.ID, "alice", 0, 1, 3, 2, 1, 7, 2, 0, 0},
		{g1.ID, "bob", 1, 0, 3, 1, 2, 2, 7, 0, 0},
		{m2.ID, "alice", 0, 0, 5, 0, 1, 0, 2, 1, 0},
		{m2.ID, "bob", 1, 1, 5, 1, 0, 2, 0, 1, 0},
		{m3.ID, "alice", 0, 1, 3, 2, 0, 4, 0, 0, 1},
	}
	if len(results) != len(wantResults) {
		t.Fatalf("match results: %+v (match 4, %d, is undecided)", results, m4.ID)
	}
	for i := range wantResults {
		if results[i] != wantResults[i] {
			t.Errorf("result %d: %+v, want %+v", i, results[i], wantResults[i])
		}
	}

	for user, want := range map[string]cribbage.MatchRecord{
		"alice": {Matches: 2, Won: 1, Lost: 1},
		"bob":   {Matches: 2, Won: 1, Lost: 1},
		"carol": {},
	} {
		st, err := s.PlayerStats(ctx, "g", user)
		if err != nil {
			t.Fatal(err)
		}
		if st.Matches != want {
			t.Errorf("%s's matches: %+v, want %+v", user, st.Matches, want)
		}
	}
}
