package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// Each server's settings (cribbage.GuildService), one row a server that
// has set any.

// guildColumns are read by scanGuild, in its order.
const guildColumns = `guild_id, reminder_after, forfeit_after, default_points, games_channel, max_open_tables, cancel_role, language, updated_by, updated_at`

// unsetDuration stores a duration left to the bot's default.
const unsetDuration = -1

// GuildSettings returns a server's settings, all unset if it has none.
func (s *Store) GuildSettings(ctx context.Context, guildID string) (cribbage.GuildSettings, error) {
	gs, err := scanGuild(s.db.QueryRowContext(ctx, `SELECT `+guildColumns+` FROM guild_settings WHERE guild_id = ?`, guildID))
	if errors.Is(err, sql.ErrNoRows) {
		return cribbage.GuildSettings{GuildID: guildID}, nil
	}
	return gs, err
}

// AllGuildSettings returns the settings of every server that has any.
func (s *Store) AllGuildSettings(ctx context.Context) ([]cribbage.GuildSettings, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+guildColumns+` FROM guild_settings ORDER BY guild_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.GuildSettings
	for rows.Next() {
		gs, err := scanGuild(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, gs)
	}
	return out, rows.Err()
}

// UpdateGuildSettings lets fn change a server's settings and saves them in
// one transaction. The row is made if missing and its version bumped
// before it is read: on PostgreSQL that update locks the row, so a second
// admin's change waits for the first and then reads it, and neither is
// lost (SQLite has one writer at a time anyway).
func (s *Store) UpdateGuildSettings(ctx context.Context, guildID string, fn func(gs *cribbage.GuildSettings) error) (cribbage.GuildSettings, error) {
	var saved cribbage.GuildSettings
	err := s.inTx(ctx, func(tx *txn) error {
		if _, err := tx.exec(ctx, `INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING`, guildID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE guild_settings SET version = version + 1 WHERE guild_id = ?`, guildID); err != nil {
			return err
		}
		gs, err := scanGuild(tx.QueryRowContext(ctx, `SELECT `+guildColumns+` FROM guild_settings WHERE guild_id = ?`, guildID))
		if err != nil {
			return err
		}
		if err := fn(&gs); err != nil {
			return err
		}
		gs.GuildID, gs.UpdatedAt = guildID, s.now().UTC()
		if _, err := tx.exec(ctx, `UPDATE guild_settings SET reminder_after = ?, forfeit_after = ?, default_points = ?,
			games_channel = ?, max_open_tables = ?, cancel_role = ?, language = ?, updated_by = ?, updated_at = ? WHERE guild_id = ?`,
			storedDuration(gs.ReminderAfter), storedDuration(gs.ForfeitAfter), gs.DefaultPoints, gs.GamesChannel,
			gs.MaxOpenTables, gs.CancelRole, gs.Language, gs.UpdatedBy, millis(gs.UpdatedAt), guildID); err != nil {
			return err
		}
		saved = gs
		return nil
	})
	if err != nil {
		return cribbage.GuildSettings{}, err
	}
	return saved, nil
}

// scanGuild reads one row of guildColumns.
func scanGuild(r rowScanner) (cribbage.GuildSettings, error) {
	var gs cribbage.GuildSettings
	var reminder, forfeit, updated int64
	if err := r.Scan(&gs.GuildID, &reminder, &forfeit, &gs.DefaultPoints, &gs.GamesChannel, &gs.MaxOpenTables, &gs.CancelRole, &gs.Language,
		&gs.UpdatedBy, &updated); err != nil {
		return cribbage.GuildSettings{}, err
	}
	gs.ReminderAfter, gs.ForfeitAfter, gs.UpdatedAt = loadedDuration(reminder), loadedDuration(forfeit), fromMillis(updated)
	return gs, nil
}

// storedDuration stores a duration in milliseconds, or unsetDuration.
func storedDuration(d *time.Duration) int64 {
	if d == nil {
		return unsetDuration
	}
	return d.Milliseconds()
}

// loadedDuration reads a stored duration back.
func loadedDuration(ms int64) *time.Duration {
	if ms < 0 {
		return nil
	}
	d := time.Duration(ms) * time.Millisecond
	return &d
}

// ServerLocale implements cribbage.GuildService.
func (s *Store) ServerLocale(ctx context.Context, guildID string) (string, error) {
	var locale string
	err := s.db.QueryRowContext(ctx, `SELECT locale FROM tables WHERE guild_id = ? AND locale <> '' ORDER BY id DESC LIMIT 1`, guildID).Scan(&locale)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return locale, err
}
