package store

import (
	"context"
	"fmt"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// The timers of games played over days, each fired once.

// IdleTables returns the open tables waiting since idleSince or earlier
// (by WaitingSince, or the last move where that is unset), and the lobbies
// opened before openedBefore.
func (s *Store) IdleTables(ctx context.Context, idleSince, openedBefore time.Time) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables
		WHERE status IN ('lobby', 'playing')
		AND (COALESCE(NULLIF(waiting_since, 0), last_action_at) <= ? OR (status = 'lobby' AND created_at <= ?)) ORDER BY id`,
		millis(idleSince), millis(openedBefore))
}

// MarkReminded records a reminder sent at at and queues its announcement,
// if the table was last reminded at prev: of two bots (or a restart racing
// a timer) only one reminds. It reports whether this call did.
func (s *Store) MarkReminded(ctx context.Context, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error) {
	return s.markTimer(ctx, `UPDATE tables SET reminded_at = ? WHERE id = ? AND reminded_at = ?`, id, prev, at, out)
}

// MarkForfeitOffered records a forfeit offer like MarkReminded.
func (s *Store) MarkForfeitOffered(ctx context.Context, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error) {
	return s.markTimer(ctx, `UPDATE tables SET forfeit_offered_at = ? WHERE id = ? AND forfeit_offered_at = ?`, id, prev, at, out)
}

// markTimer swaps a timer column from prev to at and queues out, together.
func (s *Store) markTimer(ctx context.Context, query string, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error) {
	fired := false
	err := s.inTx(ctx, func(tx *txn) error {
		n, err := tx.affected(ctx, query, millis(at), id, millis(prev))
		if err != nil {
			return fmt.Errorf("store: fire timer: %w", err)
		}
		if n != 1 {
			return nil // another run fired it
		}
		fired = true
		return s.queue(ctx, tx, id, out)
	})
	return fired, err
}
