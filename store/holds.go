package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/cribbage-bot/cribbage"
)

// The limits a change must keep (cribbage.Hold), checked in the
// transaction that writes it. Each write first takes the dialect's lock on
// every person the hold names, then makes its writes, then counts: of two
// writes holding one person, the second counts after the first has
// committed, and sees its table.

// lockHold takes the dialect's lock on each person h holds, before the
// change's writes.
func (s *Store) lockHold(ctx context.Context, tx *txn, t *cribbage.Table, h cribbage.Hold) error {
	var people []string
	if h.MaxOpenTables > 0 {
		people = append(people, h.People...)
	}
	if h.OneChallenge {
		people = append(people, t.HostID)
	}
	if len(people) == 0 {
		return nil
	}
	return s.db.d.lockPeople(ctx, tx, t.GuildID, people)
}

// checkHold fails with the hold's error if the change just written, in
// tx, breaks it.
func checkHold(ctx context.Context, tx *txn, t *cribbage.Table, h cribbage.Hold) error {
	// A second challenge to the same person is refused for that, even
	// when the server's limit would refuse it too: it says what to do.
	if h.OneChallenge && t.Challenge != nil {
		n, err := openChallenges(ctx, tx, t.GuildID, t.HostID, t.Challenge.UserID)
		if err != nil {
			return err
		}
		if n > 1 {
			return cribbage.ErrChallengedAgain
		}
	}
	if h.MaxOpenTables > 0 {
		for _, p := range h.People {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tables
				WHERE guild_id = ? AND status IN ('lobby', 'playing')
				AND id IN (SELECT table_id FROM seats WHERE user_id = ? AND computer = '')`, t.GuildID, p).Scan(&n); err != nil {
				return fmt.Errorf("store: count open tables: %w", err)
			}
			if n > h.MaxOpenTables {
				return cribbage.ErrTooManyTables
			}
		}
	}
	return nil
}

// openChallenges counts host's open challenges to person in a server. The
// person challenged is in the challenge's JSON, which both databases would
// read with functions of their own, so the host's lobbies (a handful) are
// read and decoded here.
func openChallenges(ctx context.Context, tx *txn, guildID, host, person string) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT challenge FROM tables
		WHERE guild_id = ? AND host_id = ? AND status = 'lobby' AND challenge <> ''`, guildID, host)
	if err != nil {
		return 0, fmt.Errorf("store: read open challenges: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return 0, err
		}
		c, err := decodeJSON[cribbage.Challenge](raw)
		if err != nil {
			return 0, fmt.Errorf("store: read open challenges: %w", err)
		}
		if c.UserID == person && c.Outcome == "" {
			n++
		}
	}
	return n, rows.Err()
}

// personLocks returns the keys of people's locks, sorted and without
// repeats, so that two writes locking the same people take them in the
// same order and never wait on each other in a circle.
func personLocks(guildID string, people []string) []string {
	keys := make([]string, len(people))
	for i, p := range people {
		keys[i] = "cribbage person " + guildID + " " + p
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
