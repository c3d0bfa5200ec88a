package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/cribbage-bot/cribbage"
)

// Seasons lists a server's seasons, oldest first, the current one last.
// Season 1 has no row of its own: it began with the first game between
// people (zero before there is one).
func (s *Store) Seasons(ctx context.Context, guildID string) ([]cribbage.Season, error) {
	out, err := startedSeasons(ctx, s.db, guildID)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT season, COUNT(DISTINCT table_id), MIN(finished_at) FROM player_results
		WHERE guild_id = ? AND vs_computer = 0 GROUP BY season`, guildID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n, games int
		var first int64
		if err := rows.Scan(&n, &games, &first); err != nil {
			return nil, err
		}
		if n < 1 || n > len(out) {
			continue // a season no row names: not one this server has
		}
		out[n-1].Games = games
		if n == 1 && out[0].StartedAt.IsZero() {
			out[0].StartedAt = fromMillis(first)
		}
	}
	return out, rows.Err()
}

// startedSeasons returns season 1 and the seasons admins started, in
// order, without their games.
func startedSeasons(ctx context.Context, q querier, guildID string) ([]cribbage.Season, error) {
	out := []cribbage.Season{{Number: 1}}
	rows, err := q.QueryContext(ctx, `SELECT number, name, started_at, started_by FROM seasons WHERE guild_id = ? ORDER BY number`, guildID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var se cribbage.Season
		var at int64
		if err := rows.Scan(&se.Number, &se.Name, &at, &se.StartedBy); err != nil {
			return nil, err
		}
		if se.Number < 1 {
			continue
		}
		se.StartedAt = fromMillis(at)
		for len(out) < se.Number {
			out = append(out, cribbage.Season{Number: len(out) + 1})
		}
		out[se.Number-1] = se
	}
	return out, rows.Err()
}

// StartSeason starts a server's next season, named name, as userID asked:
// from then on games count in it, and every rating starts again at a
// newcomer's. A current season without a game between people is not
// restarted (cribbage.ErrSeasonUnplayed), so a second click, or two
// admins at once, start one season, not two.
func (s *Store) StartSeason(ctx context.Context, guildID, userID, name string) (cribbage.Season, error) {
	se := cribbage.Season{Name: name, StartedAt: fromMillis(millis(s.now())), StartedBy: userID}
	err := s.inTx(ctx, func(tx *txn) error {
		// Alone with the season: the games finishing now are recorded in
		// the season they finished in, and count towards whether it was
		// played (seasonForResult).
		if err := tx.c.d.lockSeason(ctx, tx, guildID, true); err != nil {
			return err
		}
		current, err := currentSeason(ctx, tx, guildID)
		if err != nil {
			return err
		}
		var one int
		err = tx.QueryRowContext(ctx, `SELECT 1 FROM player_results WHERE guild_id = ? AND season = ? AND vs_computer = 0 LIMIT 1`,
			guildID, current).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return cribbage.ErrSeasonUnplayed
		} else if err != nil {
			return err
		}
		se.Number = current + 1
		// Another admin's season started since current was read (PostgreSQL
		// lets two transactions read it at once) has no games either.
		n, err := tx.affected(ctx, `INSERT INTO seasons (guild_id, number, name, started_at, started_by) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (guild_id, number) DO NOTHING`, guildID, se.Number, se.Name, millis(se.StartedAt), se.StartedBy)
		if err != nil {
			return err
		}
		if n != 1 {
			return cribbage.ErrSeasonUnplayed
		}
		return nil
	})
	if err != nil {
		return cribbage.Season{}, err
	}
	return se, nil
}
