package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// cloneTable returns a copy the caller's function may change freely.
func cloneTable(t *cribbage.Table) *cribbage.Table {
	c := *t
	c.Seats = append([]cribbage.Seat(nil), t.Seats...)
	if t.State != nil {
		c.State = t.State.Clone()
	}
	return &c
}

// CreateTable saves a new table, queues its announcements and records the
// interaction that asked for it, in one transaction. It sets the table's
// id, version and times.
func (s *Store) CreateTable(ctx context.Context, t *cribbage.Table, interactionID string, outbox []cribbage.Outbound) (*cribbage.Table, error) {
	t = cloneTable(t)
	now := s.now()
	t.Version, t.CreatedAt, t.LastActionAt = 1, now, now
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.claimInteraction(ctx, tx, interactionID, 0); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM tables`).Scan(&t.ID); err != nil {
			return err
		}
		return s.insertTable(ctx, tx, &cribbage.Change{Table: t, Outbox: outbox}, interactionID)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// insertTable writes a new table (its id set), its seats, actions and
// announcements, and ties the interaction to it.
func (s *Store) insertTable(ctx context.Context, tx *sql.Tx, ch *cribbage.Change, interactionID string) error {
	t := ch.Table
	if _, err := s.txExec(ctx, tx, `INSERT INTO tables (id, guild_id, channel_id, host_id, players, target, status, version, created_at, last_action_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.GuildID, t.ChannelID, t.HostID, t.Options.Players, t.Options.Target, string(t.Status), t.Version, millis(t.CreatedAt), millis(t.LastActionAt)); err != nil {
		return fmt.Errorf("store: create table: %w", err)
	}
	row, err := encodeTable(t)
	if err != nil {
		return err
	}
	if err := s.saveRow(ctx, tx, t, row, t.Version); err != nil {
		return err
	}
	if err := s.saveSeats(ctx, tx, t); err != nil {
		return err
	}
	if err := s.appendActions(ctx, tx, t, ch.Actions); err != nil {
		return err
	}
	if err := s.queue(ctx, tx, t.ID, ch.Outbox); err != nil {
		return err
	}
	if interactionID == "" {
		return nil
	}
	_, err = s.txExec(ctx, tx, `UPDATE interactions SET table_id = ? WHERE id = ?`, t.ID, interactionID)
	return err
}

// Rematch makes prev's rematch in one transaction: fn turns prev and a new
// table (its id and times set) into the change to save, and prev records
// it as its rematch. A table has one rematch: if prev has one already,
// Rematch returns that table and cribbage.ErrRematched, whoever asked.
func (s *Store) Rematch(ctx context.Context, prevID int64, interactionID string, fn func(prev, next *cribbage.Table) (*cribbage.Change, error)) (*cribbage.Table, error) {
	var made *cribbage.Table
	var existing int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		prevs, err := s.loadTables(ctx, tx, `SELECT `+tableColumns+` FROM tables WHERE id = ?`, prevID)
		if err != nil {
			return err
		}
		if len(prevs) == 0 {
			return cribbage.ErrNotFound
		}
		prev := prevs[0]
		if prev.RematchID != 0 {
			existing = prev.RematchID
			return cribbage.ErrRematched
		}
		if err := s.claimInteraction(ctx, tx, interactionID, 0); err != nil {
			return err
		}
		now := s.now()
		next := &cribbage.Table{Version: 1, CreatedAt: now, LastActionAt: now}
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM tables`).Scan(&next.ID); err != nil {
			return err
		}
		ch, err := fn(cloneTable(prev), next)
		if err != nil {
			return err
		}
		ch.Table.ID, ch.Table.Version, ch.Table.CreatedAt, ch.Table.LastActionAt = next.ID, 1, now, now
		if ch.Table.Status == cribbage.StatusPlaying {
			ch.Table.StartedAt = now
		}
		if err := s.insertTable(ctx, tx, ch, interactionID); err != nil {
			return err
		}
		res, err := s.txExec(ctx, tx, `UPDATE tables SET rematch_id = ? WHERE id = ? AND rematch_id = 0`, next.ID, prevID)
		if err != nil {
			return fmt.Errorf("store: record the rematch: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("store: record the rematch: %w", err)
		} else if n != 1 {
			return cribbage.ErrRematched
		}
		made = cloneTable(ch.Table)
		return nil
	})
	if errors.Is(err, cribbage.ErrRematched) && existing != 0 {
		t, lerr := s.Table(ctx, existing)
		if lerr != nil {
			return nil, lerr
		}
		return t, err
	}
	if err != nil {
		return nil, err
	}
	return made, nil
}

// Update is one action, one transaction: it reads the table, lets fn
// decide the change, and saves the new table, appends its actions, queues
// its announcements and records the interaction — all or nothing. fn gets
// a copy to change; returning an error (or a nil Change) writes nothing.
//
// The read and fn run outside the write lock; the write compares and swaps
// the version, so a change made meanwhile (by this process or another) is
// never overwritten: fn is run again on the new table, and if that keeps
// happening the caller gets ErrStale. An interaction seen before fails with
// ErrDuplicate. When the change finishes the game, its result and records
// are written in the same transaction.
func (s *Store) Update(ctx context.Context, id int64, interactionID string, fn func(t *cribbage.Table) (*cribbage.Change, error)) (*cribbage.Table, error) {
	for attempt := 0; ; attempt++ {
		// Checked first so a redelivered interaction is told so, rather
		// than whatever fn would say of it now; the save checks again.
		if err := s.checkInteraction(ctx, interactionID); err != nil {
			return nil, err
		}
		cur, err := s.loadTable(ctx, id)
		if err != nil {
			return nil, err
		}
		ch, err := fn(cloneTable(cur))
		if err != nil {
			return nil, err
		}
		if ch == nil || ch.Table == nil {
			return nil, nil
		}
		saved, err := s.save(ctx, cur, ch, interactionID)
		if errors.Is(err, cribbage.ErrStale) && attempt < maxAttempts {
			continue
		}
		return saved, err
	}
}

// maxAttempts is how often Update retries a change that lost a race.
const maxAttempts = 4

// save writes a change made from cur in one transaction.
func (s *Store) save(ctx context.Context, cur *cribbage.Table, ch *cribbage.Change, interactionID string) (*cribbage.Table, error) {
	t := cloneTable(ch.Table)
	t.ID, t.Version, t.LastActionAt = cur.ID, cur.Version+1, s.now()
	if t.Status == cribbage.StatusPlaying && cur.Status == cribbage.StatusLobby {
		t.StartedAt = t.LastActionAt
	}
	if !t.Status.Open() && cur.Status.Open() {
		t.FinishedAt = t.LastActionAt
	}
	// Encode before taking the write lock, which only the writes need.
	row, err := encodeTable(t)
	if err != nil {
		return nil, err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.claimInteraction(ctx, tx, interactionID, t.ID); err != nil {
			return err
		}
		if err := s.saveRow(ctx, tx, t, row, cur.Version); err != nil {
			return err
		}
		if !slices.Equal(t.Seats, cur.Seats) {
			if err := s.saveSeats(ctx, tx, t); err != nil {
				return err
			}
		}
		if err := s.appendActions(ctx, tx, t, ch.Actions); err != nil {
			return err
		}
		if err := s.queue(ctx, tx, t.ID, ch.Outbox); err != nil {
			return err
		}
		if t.Status == cribbage.StatusFinished && cur.Status != cribbage.StatusFinished {
			return recordResult(ctx, tx, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.states.remember(t.ID, t.Version, t.State)
	s.states.rememberSeats(t.ID, t.Version, t.Seats)
	return t, nil
}

// checkInteraction fails with ErrDuplicate for an interaction already
// processed, before any work is done for it.
func (s *Store) checkInteraction(ctx context.Context, interactionID string) error {
	if interactionID == "" {
		return nil
	}
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM interactions WHERE id = ?`, interactionID).Scan(&one)
	switch {
	case err == nil:
		return cribbage.ErrDuplicate
	case errors.Is(err, sql.ErrNoRows):
		return nil
	}
	return err
}

// claimInteraction records an interaction id, failing with ErrDuplicate if
// it was processed before. An empty id (the bot's own work) is not recorded.
func (s *Store) claimInteraction(ctx context.Context, tx *sql.Tx, interactionID string, tableID int64) error {
	if interactionID == "" {
		return nil
	}
	// The insert fails on the primary key if the id was claimed since
	// checkInteraction looked; DO NOTHING turns that into no row written.
	res, err := s.txExec(ctx, tx, `INSERT INTO interactions (id, table_id, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`, interactionID, tableID, millis(s.now()))
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: claim interaction: %w", err)
	}
	if n != 1 {
		return cribbage.ErrDuplicate
	}
	return nil
}

// tableRow is a table's encoded columns.
type tableRow struct{ state, seed string }

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
	return row, nil
}

// saveRow writes t's columns if the stored version is still expected, and
// fails with ErrStale if it is not.
func (s *Store) saveRow(ctx context.Context, tx *sql.Tx, t *cribbage.Table, row tableRow, expected int64) error {
	o := t.Options
	// thread_id is left out and message_id is only ever filled in, never
	// changed: SetMessages and RecordTableMessage change them without a new
	// version, so writing back the values read before could undo them. A
	// change may record the table message it learnt (a click on it).
	res, err := s.txExec(ctx, tx, `UPDATE tables SET message_id = CASE WHEN message_id = '' THEN ? ELSE message_id END,
		players = ?, partners = ?, target = ?,
		manual_counting = ?, muggins = ?, computer = ?, status = ?, version = ?, cut_seed = ?, state = ?,
		started_at = ?, last_action_at = ?, finished_at = ?, waiting_since = ?
		WHERE id = ? AND version = ?`,
		t.MessageID, o.Players, boolInt(o.Partners), o.Target, boolInt(o.ManualCounting), boolInt(o.Muggins),
		t.Computer, string(t.Status), t.Version, row.seed, row.state,
		millis(t.StartedAt), millis(t.LastActionAt), millis(t.FinishedAt), millis(t.WaitingSince), t.ID, expected)
	if err != nil {
		return fmt.Errorf("store: save table: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: save table: %w", err)
	}
	if n != 1 {
		return cribbage.ErrStale
	}
	return nil
}

// saveSeats replaces the table's seats.
func (s *Store) saveSeats(ctx context.Context, tx *sql.Tx, t *cribbage.Table) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE table_id = ?`, t.ID); err != nil {
		return err
	}
	for i, seat := range t.Seats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seats (table_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)`,
			t.ID, i, seat.UserID, seat.Name, seat.Computer); err != nil {
			return fmt.Errorf("store: save seat: %w", err)
		}
	}
	return nil
}

// appendActions logs actions under the table's new version.
func (s *Store) appendActions(ctx context.Context, tx *sql.Tx, t *cribbage.Table, actions []cribbage.LoggedAction) error {
	for i, a := range actions {
		b, err := json.Marshal(a.Action)
		if err != nil {
			return err
		}
		if _, err := s.txExec(ctx, tx, `INSERT INTO actions (table_id, version, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			t.ID, t.Version, i, a.UserID, string(b), millis(t.LastActionAt)); err != nil {
			return fmt.Errorf("store: append action: %w", err)
		}
	}
	return nil
}

// tableColumns are read by scanTable, in its order.
const tableColumns = `id, guild_id, channel_id, host_id, message_id, thread_id, players, partners, target,
	manual_counting, muggins, computer, status, version, cut_seed, state, created_at, started_at, last_action_at, finished_at, assisted, reminded_at, forfeit_offered_at, waiting_since, rematch_id`

// rowScanner is a *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanTable reads one row of tableColumns; seats are loaded separately.
// decode turns the stored state into a game.
func scanTable(r rowScanner, decode func(id, version int64, state string) (*engine.State, error)) (*cribbage.Table, error) {
	var t cribbage.Table
	var partners, manual, muggins, assisted int
	var status, seed, state string
	var created, started, last, finished, reminded, offered, waiting int64
	if err := r.Scan(&t.ID, &t.GuildID, &t.ChannelID, &t.HostID, &t.MessageID, &t.ThreadID, &t.Options.Players, &partners,
		&t.Options.Target, &manual, &muggins, &t.Computer, &status, &t.Version, &seed, &state, &created, &started, &last, &finished, &assisted, &reminded, &offered, &waiting, &t.RematchID); err != nil {
		return nil, err
	}
	t.Options.Partners, t.Options.ManualCounting, t.Options.Muggins = partners != 0, manual != 0, muggins != 0
	t.Assisted = assisted != 0
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

// querier is a *sql.DB or *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// selectTable reads one table by id.
const selectTable = `SELECT ` + tableColumns + ` FROM tables WHERE id = ?`

// loadTable reads one table with its seats.
func (s *Store) loadTable(ctx context.Context, id int64) (*cribbage.Table, error) {
	st, err := s.prepared(ctx, selectTable)
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

// Table returns one table.
func (s *Store) Table(ctx context.Context, id int64) (*cribbage.Table, error) {
	return s.loadTable(ctx, id)
}

// OpenTables returns every table still in use (a lobby or a game on), for
// the bot to resume after a restart.
func (s *Store) OpenTables(ctx context.Context) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id`)
}

// PlayerTables returns the open tables in a server where userID has a seat.
func (s *Store) PlayerTables(ctx context.Context, guildID, userID string) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables
		WHERE guild_id = ? AND status IN ('lobby', 'playing')
		AND id IN (SELECT table_id FROM seats WHERE user_id = ? AND computer = '')
		ORDER BY id`, guildID, userID)
}

// ChannelTables returns the open tables in a channel.
func (s *Store) ChannelTables(ctx context.Context, channelID string) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing') ORDER BY id`, channelID)
}

// SetMessages records where the table's public message and thread are.
// It does not change the version: buttons stay valid.
func (s *Store) SetMessages(ctx context.Context, id int64, messageID, threadID string) error {
	return s.exec(ctx, `UPDATE tables SET message_id = ?, thread_id = ? WHERE id = ?`, messageID, threadID, id)
}

// RecordTableMessage records the table message's id if none is recorded
// yet, without changing the version: whichever learns it first (the answer
// that posted it, or a click on it) records it, and nothing overwrites it.
func (s *Store) RecordTableMessage(ctx context.Context, id int64, messageID string) error {
	return s.exec(ctx, `UPDATE tables SET message_id = ? WHERE id = ? AND message_id = ''`, messageID, id)
}

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
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, millis(at), id, millis(prev))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
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

// MarkAssisted records that a player at the table used the coach. Like
// SetMessages it changes no version: buttons stay valid.
func (s *Store) MarkAssisted(ctx context.Context, id int64) error {
	return s.exec(ctx, `UPDATE tables SET assisted = 1 WHERE id = ?`, id)
}

// Actions returns a table's action log in order.
func (s *Store) Actions(ctx context.Context, id int64) ([]cribbage.LoggedAction, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT user_id, action FROM actions WHERE table_id = ? ORDER BY version, seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.LoggedAction
	for rows.Next() {
		var la cribbage.LoggedAction
		var raw string
		if err := rows.Scan(&la.UserID, &raw); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(raw), &la.Action); err != nil {
			return nil, fmt.Errorf("store: table %d: bad action: %w", id, err)
		}
		out = append(out, la)
	}
	return out, rows.Err()
}

// boolInt stores a bool as 0 or 1.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
