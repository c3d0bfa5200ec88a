package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cribbage-bot/cribbage"
)

// tournamentState is what a tournament's state column holds: everything
// but what the row's columns hold (its id, server, channel, status,
// version and times, and the MessageBook's message), under names of its own. The names are
// spelled out so that renaming a field of cribbage.Tournament cannot
// silently lose what is stored under the old name.
type tournamentState struct {
	HostID        string                    `json:"host_id"`
	Name          string                    `json:"name"`
	GamesPerRound int                       `json:"games_per_round"`
	Rounds        int                       `json:"rounds"`
	Points        int                       `json:"points"`
	Entrants      []cribbage.Entrant        `json:"entrants"`
	Round         int                       `json:"round"`
	Pairings      []cribbage.Pairing        `json:"pairings"`
	Playoff       [][]cribbage.PlayoffMatch `json:"playoff,omitempty"`
	Champion      string                    `json:"champion,omitempty"`
	Ended         int                       `json:"ended,omitempty"`
	CancelledBy   string                    `json:"cancelled_by,omitempty"`
}

// marshalTournament writes t's state column.
func marshalTournament(t *cribbage.Tournament) ([]byte, error) {
	return json.Marshal(tournamentState{
		HostID: t.HostID, Name: t.Name, GamesPerRound: t.GamesPerRound, Rounds: t.Rounds, Points: t.Points,
		Entrants: t.Entrants, Round: t.Round, Pairings: t.Pairings, Playoff: t.Playoff,
		Champion: t.Champion, Ended: t.Ended, CancelledBy: t.CancelledBy,
	})
}

// unmarshalTournament reads a state column into t, leaving the fields the
// columns hold to the caller.
func unmarshalTournament(data []byte, t *cribbage.Tournament) error {
	var s tournamentState
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	t.HostID, t.Name, t.GamesPerRound, t.Rounds, t.Points = s.HostID, s.Name, s.GamesPerRound, s.Rounds, s.Points
	t.Entrants, t.Round, t.Pairings, t.Playoff = s.Entrants, s.Round, s.Pairings, s.Playoff
	t.Champion, t.Ended, t.CancelledBy = s.Champion, s.Ended, s.CancelledBy
	return nil
}

// tournamentStateMigration rewrites the state of the tournaments stored
// before tournamentState: that was cribbage.Tournament as JSON, under its
// Go field names, columns and all.
const tournamentStateMigration = "0019_tournament_state.sql"

// untaggedTournament is the state as 0018 stored it. Its fields carry no
// tags, so encoding/json matches the stored Go names to them (ignoring
// case); the fields the columns hold are left out and ignored.
type untaggedTournament struct {
	HostID        string
	Name          string
	GamesPerRound int
	Rounds        int
	Points        int
	Entrants      []cribbage.Entrant
	Round         int
	Pairings      []cribbage.Pairing
	Playoff       [][]cribbage.PlayoffMatch
	Champion      string
	Ended         int `json:"ended"`
	CancelledBy   string
}

// retagTournaments rewrites every tournament's state from the untagged
// shape to tournamentState's, in the migration's transaction.
func retagTournaments(ctx context.Context, tx *txn) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, state FROM tournaments ORDER BY id`)
	if err != nil {
		return err
	}
	states := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var state string
		if err := rows.Scan(&id, &state); err != nil {
			rows.Close()
			return err
		}
		var old untaggedTournament
		if err := json.Unmarshal([]byte(state), &old); err != nil {
			rows.Close()
			return fmt.Errorf("store: tournament %d: %w", id, err)
		}
		if states[id], err = json.Marshal(tournamentState(old)); err != nil {
			rows.Close()
			return err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	// The rows are written once they are all read: PostgreSQL takes no
	// statement on a transaction while a query's rows are open.
	for id, state := range states {
		if _, err := tx.exec(ctx, `UPDATE tournaments SET state = ? WHERE id = ?`, string(state), id); err != nil {
			return fmt.Errorf("store: tournament %d: %w", id, err)
		}
	}
	return nil
}
