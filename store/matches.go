package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// A table's next game (a rematch, or a match's next game) and the records
// of matches: each written in the transaction of the change that makes it.

// openTable writes in tx the new table a change opens (ch.Table, with no
// id yet), giving it its id, version and times. With prevID set, the new
// table is prevID's next (a rematch, or a match's next game): a table has
// one, so if prevID has one already, cribbage.ErrRematched undoes the
// whole change. It is only written here: its game is begun, not played
// (see cribbage.Change.Next), so no computer player's search runs while
// the transaction holds the database's writer.
func (s *Store) openTable(ctx context.Context, tx *txn, prevID int64, ch *cribbage.Change) (int64, error) {
	if ch.Table == nil || ch.Next != nil || !ch.Table.Status.Open() {
		return 0, errNotBegun
	}
	now := s.now()
	t := ch.Table.Clone()
	t.Version, t.CreatedAt, t.LastActionAt = 1, now, now
	if t.Status != cribbage.StatusLobby {
		t.StartedAt = now
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT `+s.db.d.newID("tables")).Scan(&id); err != nil {
		return 0, err
	}
	t.AssignID(id)
	if err := s.insertTable(ctx, tx, &cribbage.Change{Table: t, Actions: ch.Actions, Outbox: ch.Outbox}, ""); err != nil {
		return 0, err
	}
	if prevID != 0 {
		n, err := tx.affected(ctx, `UPDATE tables SET rematch_id = ? WHERE id = ? AND rematch_id = 0`, t.ID, prevID)
		if err != nil {
			return 0, fmt.Errorf("store: record the next table: %w", err)
		}
		if n != 1 {
			// Another change made it after prev was read.
			return 0, cribbage.ErrRematched
		}
	}
	return t.ID, nil
}

// errNotBegun refuses a new table that is not a game begun (or a lobby):
// one already over, or one that makes another, would have been played
// before it was saved.
var errNotBegun = errors.New("store: a table a change opens is a game begun, not over, and opens no other")

// offeredAt is when t's open rematch offer was made, or the zero time.
func offeredAt(t *cribbage.Table) time.Time {
	if t.Offer == nil {
		return time.Time{}
	}
	return t.Offer.At
}

// recordMatchGame writes a finished match game, and the match's results
// if the game decided it.
func recordMatchGame(ctx context.Context, tx *txn, t *cribbage.Table) error {
	m := t.Match
	if len(m.Games) == 0 {
		return fmt.Errorf("store: table %d finished a match game the match does not hold", t.ID)
	}
	g := m.Games[len(m.Games)-1]
	vsComputer := boolInt(t.HasComputer())
	finished := millis(t.FinishedAt)
	if _, err := tx.exec(ctx, `INSERT INTO match_games (match_id, game, table_id, guild_id, best_of, winner_side, reason, points, skunk, vs_computer, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.ID, m.Game, t.ID, t.GuildID, m.BestOf, g.Winner, string(g.Reason), g.Points, g.Skunk, vsComputer, finished); err != nil {
		return fmt.Errorf("store: record match game: %w", err)
	}
	winner := m.Winner()
	if winner < 0 {
		return nil
	}
	wins, points := m.Wins(), m.Points()
	for i, seat := range t.Seats {
		if seat.Computer != "" {
			continue
		}
		side := t.Options.SideOf(i)
		if _, err := tx.exec(ctx, `INSERT INTO match_results (match_id, guild_id, user_id, name, side, won, best_of, games_won, games_lost,
			points_for, points_against, conceded, vs_computer, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, t.GuildID, seat.UserID, seat.Name, side, boolInt(side == winner), m.BestOf, wins[side], wins[1-side],
			points[side], points[1-side], boolInt(m.Conceded), vsComputer, finished); err != nil {
			return fmt.Errorf("store: record match result: %w", err)
		}
	}
	return nil
}

// LapsedOffers returns the finished tables whose rematch offer, made at or
// before offeredBefore, is still open.
func (s *Store) LapsedOffers(ctx context.Context, offeredBefore time.Time) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables
		WHERE offered_at > 0 AND offered_at <= ? AND status = 'finished' AND rematch_id = 0 ORDER BY id`, millis(offeredBefore))
}

// matchRecord is a player's record in decided matches between people in
// a server.
func (s *Store) matchRecord(ctx context.Context, guildID, userID string) (cribbage.MatchRecord, error) {
	var r cribbage.MatchRecord
	var won sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), SUM(won) FROM match_results WHERE guild_id = ? AND user_id = ? AND vs_computer = 0`,
		guildID, userID).Scan(&r.Matches, &won)
	r.Won = int(won.Int64)
	r.Lost = r.Matches - r.Won
	return r, err
}
