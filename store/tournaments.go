package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/cribbage-bot/cribbage"
)

// Tournaments (cribbage.TournamentService): one row each, and the tables
// a change opens written in the change's transaction, so a round is never
// paired, nor a game opened, twice.

// tournamentColumns are read by scanTournament, in its order. Its
// message's columns (message_id, shown_version) are the MessageBook's.
const tournamentColumns = `id, guild_id, channel_id, status, version, state, created_at, finished_at`

// scanTournament reads one row of tournamentColumns.
func scanTournament(r rowScanner) (*cribbage.Tournament, error) {
	var id, version, created, finished int64
	var guild, channel, status, state string
	if err := r.Scan(&id, &guild, &channel, &status, &version, &state, &created, &finished); err != nil {
		return nil, err
	}
	var t cribbage.Tournament
	if err := unmarshalTournament([]byte(state), &t); err != nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, err)
	}
	t.ID, t.GuildID, t.ChannelID = id, guild, channel
	t.Status, t.Version = cribbage.TournamentStatus(status), version
	t.CreatedAt, t.FinishedAt = fromMillis(created), fromMillis(finished)
	return &t, nil
}

// loadTournaments reads the tournaments a query selects.
func (s *Store) loadTournaments(ctx context.Context, query string, args ...any) ([]*cribbage.Tournament, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments `+query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*cribbage.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// CreateTournament saves a new tournament and records the interaction.
func (s *Store) CreateTournament(ctx context.Context, t *cribbage.Tournament, interactionID string) (*cribbage.Tournament, error) {
	t = t.Clone()
	t.Version, t.CreatedAt = 1, s.now()
	state, err := marshalTournament(t)
	if err != nil {
		return nil, err
	}
	err = s.inTx(ctx, func(tx *txn) error {
		if err := s.claimInteraction(ctx, tx, interactionID, 0); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT `+s.db.d.newID("tournaments")).Scan(&t.ID); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO tournaments (id, guild_id, channel_id, status, version, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			t.ID, t.GuildID, t.ChannelID, string(t.Status), t.Version, string(state), millis(t.CreatedAt))
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Tournament returns a tournament, or cribbage.ErrTournamentNotFound.
func (s *Store) Tournament(ctx context.Context, id int64) (*cribbage.Tournament, error) {
	t, err := scanTournament(s.db.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, cribbage.ErrTournamentNotFound
	}
	return t, err
}

// TournamentTables returns a tournament's tables in the order they were
// made.
func (s *Store) TournamentTables(ctx context.Context, id int64) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables WHERE tournament_id = ? ORDER BY id`, id)
}

// CancelledTournamentTables returns the open tables of cancelled
// tournaments.
func (s *Store) CancelledTournamentTables(ctx context.Context) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables WHERE tournament_id <> 0 AND status IN ('lobby', 'playing')
		AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'cancelled') ORDER BY id`)
}

// ChannelTournaments returns a channel's tournaments, newest first.
func (s *Store) ChannelTournaments(ctx context.Context, channelID string) ([]*cribbage.Tournament, error) {
	return s.loadTournaments(ctx, `WHERE channel_id = ? ORDER BY id DESC`, channelID)
}

// OpenTournaments returns the tournaments still going on.
func (s *Store) OpenTournaments(ctx context.Context) ([]*cribbage.Tournament, error) {
	return s.loadTournaments(ctx, `WHERE status IN ('signup', 'qualifying', 'playoff') ORDER BY id`)
}

// TournamentMessage implements cribbage.MessageBook.
func (s *Store) TournamentMessage(ctx context.Context, id int64) (string, error) {
	var m string
	err := s.db.QueryRowContext(ctx, `SELECT message_id FROM tournaments WHERE id = ?`, id).Scan(&m)
	if errors.Is(err, sql.ErrNoRows) {
		return "", cribbage.ErrTournamentNotFound
	}
	return m, err
}

// TournamentsToShow returns the tournaments whose message is behind.
func (s *Store) TournamentsToShow(ctx context.Context) ([]*cribbage.Tournament, error) {
	return s.loadTournaments(ctx, `WHERE shown_version < version ORDER BY id`)
}

// MarkTournamentShown records the standings message if none is, and the
// version it shows, never going back.
func (s *Store) MarkTournamentShown(ctx context.Context, id int64, messageID string, version int64) error {
	return s.exec(ctx, `UPDATE tournaments SET message_id = CASE WHEN message_id = '' THEN ? ELSE message_id END,
		shown_version = CASE WHEN shown_version < ? THEN ? ELSE shown_version END WHERE id = ?`, messageID, version, version, id)
}

// SaveTournament implements cribbage.TournamentService: the change and
// the tables it opens, in one transaction, over the version it was
// decided on.
func (s *Store) SaveTournament(ctx context.Context, from *cribbage.Tournament, ch *cribbage.TournamentChange, interactionID string) (*cribbage.Tournament, error) {
	if ch == nil || ch.Tournament == nil {
		return nil, nil
	}
	return s.saveTournament(ctx, from, ch, interactionID)
}

// saveTournament writes a change made from cur.
func (s *Store) saveTournament(ctx context.Context, cur *cribbage.Tournament, ch *cribbage.TournamentChange, interactionID string) (*cribbage.Tournament, error) {
	t := ch.Tournament.Clone()
	t.ID, t.GuildID, t.ChannelID, t.CreatedAt, t.Version = cur.ID, cur.GuildID, cur.ChannelID, cur.CreatedAt, cur.Version+1
	if !t.Status.Open() && cur.Status.Open() {
		t.FinishedAt = s.now()
	}
	state, err := marshalTournament(t)
	if err != nil {
		return nil, err
	}
	err = s.inTx(ctx, func(tx *txn) error {
		if err := s.claimInteraction(ctx, tx, interactionID, 0); err != nil {
			return err
		}
		n, err := tx.affected(ctx, `UPDATE tournaments SET status = ?, version = ?, state = ?, finished_at = ? WHERE id = ? AND version = ?`,
			string(t.Status), t.Version, string(state), millis(t.FinishedAt), t.ID, cur.Version)
		if err != nil {
			return fmt.Errorf("store: save tournament: %w", err)
		}
		if n != 1 {
			return cribbage.ErrStale
		}
		for _, open := range ch.Open {
			if _, err := s.openTable(ctx, tx, 0, open); err != nil {
				return err
			}
		}
		return s.announceChampion(ctx, tx, cur, t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}
