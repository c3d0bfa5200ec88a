package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// The daily hand's answers and each server's post (cribbage.DailyService).

// dailyColumns are read by scanDaily, in its order.
const dailyColumns = `user_id, day, guild_id, name, thrown, gave_up, answered_at`

// AnswerDaily records an answer, once a player a day: the primary key
// (user_id, day) refuses a second in the insert itself, so two answers at
// the same instant cannot both be written.
func (s *Store) AnswerDaily(ctx context.Context, a cribbage.DailyAnswer) error {
	return s.inTx(ctx, func(tx *txn) error {
		n, err := tx.affected(ctx, `INSERT INTO daily_answers (`+dailyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, day) DO NOTHING`,
			a.UserID, int64(a.Day), a.GuildID, a.Name, int64(a.Throw), a.GaveUp, millis(a.At))
		if err != nil {
			return fmt.Errorf("store: answer the daily hand: %w", err)
		}
		if n != 1 {
			return cribbage.ErrAnsweredDaily
		}
		return recordDailyMilestones(ctx, tx, a)
	})
}

// recordDailyMilestones records, in the transaction of answer a, the
// daily milestones its run of days reaches (cribbage.DailyEarned).
func recordDailyMilestones(ctx context.Context, tx *txn, a cribbage.DailyAnswer) error {
	if a.GuildID == "" {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT day FROM daily_answers WHERE user_id = ? AND day <= ? AND day > ?`, a.UserID, int64(a.Day), int64(a.Day)-31)
	if err != nil {
		return err
	}
	var days []cribbage.Day
	for rows.Next() {
		var d int64
		if err := rows.Scan(&d); err != nil {
			rows.Close()
			return err
		}
		days = append(days, cribbage.Day(d))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = recordMilestones(ctx, tx, a.GuildID, cribbage.DailyEarned(a, days), a.At)
	return err
}

// DailyAnswerOf returns a player's answer to a day.
func (s *Store) DailyAnswerOf(ctx context.Context, userID string, day cribbage.Day) (cribbage.DailyAnswer, error) {
	a, err := scanDaily(s.db.QueryRowContext(ctx, `SELECT `+dailyColumns+` FROM daily_answers WHERE user_id = ? AND day = ?`, userID, int64(day)))
	if errors.Is(err, sql.ErrNoRows) {
		return cribbage.DailyAnswer{}, cribbage.ErrNoDailyAnswer
	}
	return a, err
}

// DailyAnswers returns a server's answers to a day, in the order given.
func (s *Store) DailyAnswers(ctx context.Context, guildID string, day cribbage.Day) ([]cribbage.DailyAnswer, error) {
	return s.dailyRows(ctx, `SELECT `+dailyColumns+` FROM daily_answers WHERE guild_id = ? AND day = ? ORDER BY answered_at, user_id`, guildID, int64(day))
}

// DailyHistory returns a player's answers over [from, to), oldest first.
func (s *Store) DailyHistory(ctx context.Context, userID string, from, to cribbage.Day) ([]cribbage.DailyAnswer, error) {
	return s.dailyRows(ctx, `SELECT `+dailyColumns+` FROM daily_answers WHERE user_id = ? AND day >= ? AND day < ? ORDER BY day`, userID, int64(from), int64(to))
}

// DailyTotals adds up a server's answers over [from, to) by player, in
// Go rather than SQL: the sums and their order then come out the same on
// SQLite and PostgreSQL (and the double), to the last bit.
func (s *Store) DailyTotals(ctx context.Context, guildID string, from, to cribbage.Day) ([]cribbage.DailyTotal, error) {
	answers, err := s.dailyRows(ctx, `SELECT `+dailyColumns+` FROM daily_answers WHERE guild_id = ? AND day >= ? AND day < ? ORDER BY day, user_id`,
		guildID, int64(from), int64(to))
	if err != nil {
		return nil, err
	}
	return cribbage.Totals(answers), nil
}

// dailyRows runs a query for answers.
func (s *Store) dailyRows(ctx context.Context, query string, args ...any) ([]cribbage.DailyAnswer, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.DailyAnswer
	for rows.Next() {
		a, err := scanDaily(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// scanDaily reads one row of dailyColumns.
func scanDaily(r rowScanner) (cribbage.DailyAnswer, error) {
	var a cribbage.DailyAnswer
	var day, thrown, at int64
	if err := r.Scan(&a.UserID, &day, &a.GuildID, &a.Name, &thrown, &a.GaveUp, &at); err != nil {
		return cribbage.DailyAnswer{}, err
	}
	a.Day, a.Throw, a.At = cribbage.Day(day), engine.CardSet(thrown), fromMillis(at)
	return a, nil
}

// DailySettings returns a server's daily settings, unset if it has none.
func (s *Store) DailySettings(ctx context.Context, guildID string) (cribbage.DailySettings, error) {
	ds := cribbage.DailySettings{GuildID: guildID}
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT channel_id, hour, updated_by, updated_at FROM daily_settings WHERE guild_id = ?`, guildID).
		Scan(&ds.ChannelID, &ds.Hour, &ds.UpdatedBy, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return ds, nil
	}
	ds.UpdatedAt = fromMillis(at)
	return ds, err
}

// SetDailySettings saves a server's daily settings, recording when.
func (s *Store) SetDailySettings(ctx context.Context, ds cribbage.DailySettings) (cribbage.DailySettings, error) {
	ds.UpdatedAt = fromMillis(millis(s.now()))
	err := s.exec(ctx, `INSERT INTO daily_settings (guild_id, channel_id, hour, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, hour = excluded.hour,
		updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
		ds.GuildID, ds.ChannelID, ds.Hour, ds.UpdatedBy, millis(ds.UpdatedAt))
	if err != nil {
		return cribbage.DailySettings{}, err
	}
	return ds, nil
}

// DailyDue returns the servers whose post of day is due at hour.
func (s *Store) DailyDue(ctx context.Context, day cribbage.Day, hour int) ([]cribbage.DailySettings, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT guild_id, channel_id, hour, updated_by, updated_at FROM daily_settings ds
		WHERE channel_id <> '' AND hour <= ?
		AND NOT EXISTS (SELECT 1 FROM daily_posts p WHERE p.guild_id = ds.guild_id AND p.day = ?)
		ORDER BY guild_id`, hour, int64(day))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.DailySettings
	for rows.Next() {
		var ds cribbage.DailySettings
		var at int64
		if err := rows.Scan(&ds.GuildID, &ds.ChannelID, &ds.Hour, &ds.UpdatedBy, &at); err != nil {
			return nil, err
		}
		ds.UpdatedAt = fromMillis(at)
		out = append(out, ds)
	}
	return out, rows.Err()
}

// ClaimDailyPost claims a server's post of a day and queues its
// announcements in one transaction. The insert does nothing if the day's
// post is claimed already (by another replica, or before a restart), and
// then nothing is queued: the post goes out once. The announcements are
// queued under -id, the post's own number, below every table's.
func (s *Store) ClaimDailyPost(ctx context.Context, guildID string, day cribbage.Day, out []cribbage.Outbound) (bool, error) {
	claimed := false
	err := s.inTx(ctx, func(tx *txn) error {
		claimed = false
		channel := ""
		if len(out) > 0 {
			channel = out[0].ChannelID
		}
		n, err := tx.affected(ctx, `INSERT INTO daily_posts (id, guild_id, day, channel_id, created_at)
			VALUES (`+s.db.d.newID("daily_posts")+`, ?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING`,
			guildID, int64(day), channel, millis(s.now()))
		if err != nil {
			return fmt.Errorf("store: claim the daily post: %w", err)
		}
		if n != 1 {
			return nil // claimed already
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM daily_posts WHERE guild_id = ? AND day = ?`, guildID, int64(day)).Scan(&id); err != nil {
			return err
		}
		claimed = true
		return s.queue(ctx, tx, -id, out)
	})
	return claimed, err
}
