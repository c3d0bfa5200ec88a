package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// recordResult writes a finished game's result and its records, one row
// a seated person (cribbage.Table.Results: who is credited with which
// skunk), in the server's current season, and rates it if the domain
// says it is rated (cribbage.Table.Rated).
func recordResult(ctx context.Context, tx *txn, t *cribbage.Table) error {
	g := t.State
	if g == nil || g.Result == nil {
		return fmt.Errorf("store: table %d finished without a result", t.ID)
	}
	r := g.Result
	scores, err := json.Marshal(r.Scores)
	if err != nil {
		return fmt.Errorf("store: encode scores: %w", err)
	}
	skunks, err := json.Marshal(r.Skunks)
	if err != nil {
		return fmt.Errorf("store: encode skunks: %w", err)
	}
	vsComputer := boolInt(t.HasComputer())
	finished := millis(t.FinishedAt)
	// Read the flag from the row: MarkAssisted sets it outside of updates.
	var assisted int
	if err := tx.QueryRowContext(ctx, `SELECT assisted FROM tables WHERE id = ?`, t.ID).Scan(&assisted); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `INSERT INTO results (table_id, guild_id, reason, winner_side, scores, skunks, games, vs_computer, finished_at, assisted)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.GuildID, string(r.Reason), r.Winner, string(scores), string(skunks), r.Games, vsComputer, finished, assisted); err != nil {
		return fmt.Errorf("store: record result: %w", err)
	}
	season, err := seasonForResult(ctx, tx, t.GuildID)
	if err != nil {
		return err
	}
	lines := t.Results()
	for _, p := range lines {
		tl := p.Tally
		if _, err := tx.exec(ctx, `INSERT INTO player_results (table_id, guild_id, user_id, name, seat, side, won, games_won,
			skunks_given, double_skunks_given, skunks_taken, double_skunks_taken, score, pegging, hand_points, hands,
			crib_points, cribs, best_hand, twenty_nines, vs_computer, finished_at, season)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, t.GuildID, p.UserID, p.Name, p.Seat, p.Side, boolInt(p.Won), p.GamesWon,
			p.SkunksGiven, p.DoubleSkunksGiven, p.SkunksTaken, p.DoubleSkunksTaken, p.Score, tl.Pegging, tl.HandPoints, tl.Hands,
			tl.CribPoints, tl.Cribs, tl.BestHand, tl.TwentyNine, vsComputer, finished, season); err != nil {
			return fmt.Errorf("store: record player result: %w", err)
		}
	}
	if !t.Rated() {
		return nil
	}
	return rateResult(ctx, tx, t.GuildID, season, lines, t.FinishedAt)
}

// Assisted reports whether a finished game's result is marked assisted.
func (s *Store) Assisted(ctx context.Context, tableID int64) (bool, error) {
	var a int
	err := s.db.QueryRowContext(ctx, `SELECT assisted FROM results WHERE table_id = ?`, tableID).Scan(&a)
	if errors.Is(err, sql.ErrNoRows) {
		return false, cribbage.ErrNotFound
	}
	return a != 0, err
}

// Leaderboard ranks the players of a server's season (0: the current one)
// who finished a game between people in it since since (the zero time for
// the whole season): settled ratings first, then provisional ones, each by
// rating. Each line's record counts those games. Every ranked player is
// returned; the caller shows the top and where a player stands.
func (s *Store) Leaderboard(ctx context.Context, guildID string, season int, since time.Time) ([]cribbage.Standing, error) {
	current, err := currentSeason(ctx, s.db, guildID)
	if err != nil {
		return nil, err
	}
	if season == 0 {
		season = current
	}
	if season < 1 || season > current {
		return nil, cribbage.ErrNoSeason
	}
	ratings, err := seasonRatings(ctx, s.db, guildID, season)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT user_id, MAX(name), COUNT(*), SUM(won), SUM(games_won),
		SUM(skunks_given + double_skunks_given), SUM(skunks_taken + double_skunks_taken)
		FROM player_results WHERE guild_id = ? AND season = ? AND vs_computer = 0 AND finished_at >= ?
		GROUP BY user_id`, guildID, season, millis(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	now := s.now()
	var out []cribbage.Standing
	for rows.Next() {
		var st cribbage.Standing
		if err := rows.Scan(&st.UserID, &st.Name, &st.Games, &st.Wins, &st.GamesWon, &st.SkunksGiven, &st.SkunksTaken); err != nil {
			return nil, err
		}
		st.Losses = st.Games - st.Wins
		r, ok := ratings[st.UserID]
		st.Rating = shownRating(r, ok, season == current, now)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b cribbage.Standing) int {
		if a.Rating.Provisional != b.Rating.Provisional {
			return cmp.Compare(boolInt(a.Rating.Provisional), boolInt(b.Rating.Provisional))
		}
		return cmp.Or(cmp.Compare(b.Rating.R, a.Rating.R), cmp.Compare(b.Games, a.Games), cmp.Compare(a.UserID, b.UserID))
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// PlayerStats returns one player's stats in a server, and their rating in
// the current season as it stands now.
func (s *Store) PlayerStats(ctx context.Context, guildID, userID string) (cribbage.Stats, error) {
	var st cribbage.Stats
	rows, err := s.db.QueryContext(ctx, `SELECT vs_computer, MAX(name), COUNT(*), SUM(won), SUM(games_won),
		SUM(skunks_given), SUM(double_skunks_given), SUM(skunks_taken), SUM(double_skunks_taken),
		SUM(pegging), SUM(hand_points), SUM(hands), SUM(crib_points), SUM(cribs), MAX(best_hand), SUM(twenty_nines), MAX(finished_at)
		FROM player_results WHERE guild_id = ? AND user_id = ? GROUP BY vs_computer`, guildID, userID)
	if err != nil {
		return st, err
	}
	for rows.Next() {
		var vs int
		var r cribbage.Record
		var name string
		var last int64
		if err := rows.Scan(&vs, &name, &r.Games, &r.Wins, &r.GamesWon, &r.SkunksGiven, &r.DoubleSkunksGiven, &r.SkunksTaken,
			&r.DoubleSkunksTaken, &r.Pegging, &r.HandPoints, &r.Hands, &r.CribPoints, &r.Cribs, &r.BestHand, &r.TwentyNines, &last); err != nil {
			rows.Close()
			return st, err
		}
		r.Losses = r.Games - r.Wins
		st.Name = name
		if fromMillis(last).After(st.LastPlayed) {
			st.LastPlayed = fromMillis(last)
		}
		if vs == 1 {
			st.Computer = r
		} else {
			st.People = r
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, err
	}
	if st.Streak, err = streakOf(ctx, s.db, guildID, userID); err != nil {
		return st, err
	}
	if st.Matches, err = s.matchRecord(ctx, guildID, userID); err != nil {
		return st, err
	}
	if st.Season, err = currentSeason(ctx, s.db, guildID); err != nil {
		return st, err
	}
	r, err := loadRating(ctx, s.db, guildID, st.Season, userID)
	if err != nil && !errors.Is(err, errNoRating) {
		return st, err
	}
	st.Rating = shownRating(r, err == nil, true, s.now())
	return st, nil
}

// streakOf counts the latest run of wins (positive) or losses (negative)
// in games between people.
func streakOf(ctx context.Context, q querier, guildID, userID string) (int, error) {
	rows, err := q.QueryContext(ctx, `SELECT won FROM player_results WHERE guild_id = ? AND user_id = ? AND vs_computer = 0
		ORDER BY finished_at DESC, table_id DESC LIMIT 200`, guildID, userID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	streak := 0
	for rows.Next() {
		var won int
		if err := rows.Scan(&won); err != nil {
			return 0, err
		}
		switch {
		case streak == 0 && won == 1, streak > 0 && won == 1:
			streak++
		case streak == 0, streak < 0 && won == 0:
			streak--
		default:
			return streak, nil
		}
	}
	return streak, rows.Err()
}

// HeadToHead returns a's and b's record in games where they sat on
// opposite sides in a server.
func (s *Store) HeadToHead(ctx context.Context, guildID, a, b string) (cribbage.HeadToHead, error) {
	var h cribbage.HeadToHead
	var aWins, bWins sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), SUM(pa.won), SUM(pb.won) FROM player_results pa
		JOIN player_results pb ON pb.table_id = pa.table_id AND pb.side <> pa.side
		WHERE pa.guild_id = ? AND pa.user_id = ? AND pb.user_id = ?`, guildID, a, b).Scan(&h.Games, &aWins, &bWins)
	h.AWins, h.BWins = int(aWins.Int64), int(bWins.Int64)
	return h, err
}
