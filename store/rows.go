package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// How a table is stored: its columns encoded and decoded, and loaded
// with its seats.

// tableRow is a table's encoded columns.
type tableRow struct{ state, seed, match, challenge, offer, tournament string }

// encodeTable encodes the columns that need encoding.
func encodeTable(t *cribbage.Table) (tableRow, error) {
	var row tableRow
	if t.State != nil {
		b, err := json.Marshal(t.State)
		if err != nil {
			return row, fmt.Errorf("store: encode state: %w", err)
		}
		row.state = string(b)
	}
	if t.CutSeed != nil {
		row.seed = hex.EncodeToString(t.CutSeed[:])
	}
	var err error
	if row.match, err = encodeJSON(t.Match); err != nil {
		return row, fmt.Errorf("store: encode match: %w", err)
	}
	if row.challenge, err = encodeJSON(t.Challenge); err != nil {
		return row, fmt.Errorf("store: encode challenge: %w", err)
	}
	if row.offer, err = encodeJSON(t.Offer); err != nil {
		return row, fmt.Errorf("store: encode rematch offer: %w", err)
	}
	if row.tournament, err = encodeJSON(t.Tournament); err != nil {
		return row, fmt.Errorf("store: encode tournament: %w", err)
	}
	return row, nil
}

// encodeJSON stores a column's value as JSON, and nil as the empty string.
func encodeJSON[T any](v *T) (string, error) {
	if v == nil {
		return "", nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// decodeJSON reads a column encodeJSON wrote: nil for the empty string.
func decodeJSON[T any](s string) (*T, error) {
	if s == "" {
		return nil, nil
	}
	v := new(T)
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return nil, err
	}
	return v, nil
}

// tableColumns are read by scanTable, in its order. The columns of the
// table's message (tableMessageColumns) are the MessageBook's, read apart
// but by TableToChange and TableToShow, which read both at once
// (selectWithMessage).
const tableColumns = `id, guild_id, channel_id, host_id, players, partners, target,
	manual_counting, muggins, computer, status, version, cut_seed, state, created_at, started_at, last_action_at, finished_at, assisted, reminded_at, forfeit_offered_at, waiting_since, rematch_id, four_colour, token_only,
	cancelled_by, cancel_reason, match_state, challenge, rematch_offer, tournament, locale`

// rowScanner is a *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanTable reads one row of tableColumns; seats are loaded separately.
// decode turns the stored state into a game.
func scanTable(r rowScanner, decode func(id, version int64, state string) (*engine.State, error)) (*cribbage.Table, error) {
	var t cribbage.Table
	var partners, manual, muggins, assisted, fourColour, tokenOnly int
	var status, seed, state, match, challenge, offer, tournament string
	var created, started, last, finished, reminded, offered, waiting int64
	if err := r.Scan(&t.ID, &t.GuildID, &t.ChannelID, &t.HostID, &t.Options.Players, &partners,
		&t.Options.Target, &manual, &muggins, &t.Computer, &status, &t.Version, &seed, &state, &created, &started, &last, &finished, &assisted, &reminded, &offered, &waiting, &t.RematchID, &fourColour, &tokenOnly,
		&t.CancelledBy, &t.CancelReason, &match, &challenge, &offer, &tournament, &t.Locale); err != nil {
		return nil, err
	}
	var err error
	if t.Match, err = decodeJSON[cribbage.Match](match); err != nil {
		return nil, fmt.Errorf("store: table %d: match: %w", t.ID, err)
	}
	if t.Challenge, err = decodeJSON[cribbage.Challenge](challenge); err != nil {
		return nil, fmt.Errorf("store: table %d: challenge: %w", t.ID, err)
	}
	if t.Offer, err = decodeJSON[cribbage.RematchOffer](offer); err != nil {
		return nil, fmt.Errorf("store: table %d: rematch offer: %w", t.ID, err)
	}
	if t.Tournament, err = decodeJSON[cribbage.TournamentLink](tournament); err != nil {
		return nil, fmt.Errorf("store: table %d: tournament: %w", t.ID, err)
	}
	t.Options.Partners, t.Options.ManualCounting, t.Options.Muggins = partners != 0, manual != 0, muggins != 0
	t.Assisted, t.FourColour, t.TokenOnly = assisted != 0, fourColour != 0, tokenOnly != 0
	t.RemindedAt, t.ForfeitOfferedAt, t.WaitingSince = fromMillis(reminded), fromMillis(offered), fromMillis(waiting)
	t.Status = cribbage.Status(status)
	t.CreatedAt, t.StartedAt, t.LastActionAt, t.FinishedAt = fromMillis(created), fromMillis(started), fromMillis(last), fromMillis(finished)
	if seed != "" {
		raw, err := hex.DecodeString(seed)
		if err != nil || len(raw) != len(engine.Seed{}) {
			return nil, fmt.Errorf("store: table %d: bad cut seed", t.ID)
		}
		t.CutSeed = new(engine.Seed)
		copy(t.CutSeed[:], raw)
	}
	if state != "" {
		g, err := decode(t.ID, t.Version, state)
		if err != nil {
			return nil, fmt.Errorf("store: table %d: %w", t.ID, err)
		}
		t.State = g
	}
	return &t, nil
}

// querier is the database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// selectTable reads one table by id.
const selectTable = `SELECT ` + tableColumns + ` FROM tables WHERE id = ?`

// loadTable reads one table with its seats.
func (s *Store) loadTable(ctx context.Context, id int64) (*cribbage.Table, error) {
	st, err := s.db.prepared(ctx, selectTable)
	if err != nil {
		return nil, err
	}
	t, err := scanTable(st.QueryRowContext(ctx, id), s.decodeState)
	if err == nil {
		if seats, ok := s.states.seats(t.ID, t.Version); ok {
			t.Seats = seats
			return t, nil
		}
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, cribbage.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if err := loadSeats(ctx, s.db, []*cribbage.Table{t}); err != nil {
		return nil, err
	}
	s.states.rememberSeats(t.ID, t.Version, t.Seats)
	return t, nil
}

// loadTables reads the tables a query selects (tableColumns), with seats.
func (s *Store) loadTables(ctx context.Context, q querier, query string, args ...any) ([]*cribbage.Table, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var out []*cribbage.Table
	for rows.Next() {
		t, err := scanTable(rows, s.decodeState)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, loadSeats(ctx, q, out)
}

// loadSeats fills the seats of tables.
func loadSeats(ctx context.Context, q querier, tables []*cribbage.Table) error {
	if len(tables) == 0 {
		return nil
	}
	byID := make(map[int64]*cribbage.Table, len(tables))
	ids := make([]string, 0, len(tables))
	args := make([]any, 0, len(tables))
	for _, t := range tables {
		byID[t.ID] = t
		t.Seats = nil
		ids = append(ids, "?")
		args = append(args, t.ID)
	}
	rows, err := q.QueryContext(ctx, `SELECT table_id, seat, user_id, name, computer FROM seats WHERE table_id IN (`+strings.Join(ids, ",")+`) ORDER BY table_id, seat`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n int
		var seat cribbage.Seat
		if err := rows.Scan(&id, &n, &seat.UserID, &seat.Name, &seat.Computer); err != nil {
			return err
		}
		byID[id].Seats = append(byID[id].Seats, seat)
	}
	return rows.Err()
}

// boolInt stores a bool as 0 or 1.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
