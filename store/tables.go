package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cribbage-bot/cribbage"
)

// The writes of tables: a new table, and a move (Save) with the next
// table it may make, each one transaction with its actions, announcements
// and interaction.

// CreateTable saves a new table, queues its announcements and records the
// interaction that asked for it, in one transaction. It sets the table's
// id, version and times.
func (s *Store) CreateTable(ctx context.Context, t *cribbage.Table, interactionID string, outbox []cribbage.Outbound, hold cribbage.Hold) (*cribbage.Table, error) {
	t = t.Clone()
	now := s.now()
	t.Version, t.CreatedAt, t.LastActionAt = 1, now, now
	err := s.inTx(ctx, func(tx *txn) error {
		if err := s.claimInteraction(ctx, tx, interactionID, 0); err != nil {
			return err
		}
		if err := s.lockHold(ctx, tx, t, hold); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT `+s.db.d.newID("tables")).Scan(&t.ID); err != nil {
			return err
		}
		if err := s.insertTable(ctx, tx, &cribbage.Change{Table: t, Outbox: outbox}, interactionID); err != nil {
			return err
		}
		return checkHold(ctx, tx, t, hold)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// insertTable writes a new table (its id set), its seats, actions and
// announcements, and ties the interaction to it.
func (s *Store) insertTable(ctx context.Context, tx *txn, ch *cribbage.Change, interactionID string) error {
	t := ch.Table
	row, err := encodeTable(t)
	if err != nil {
		return err
	}
	// A table's tournament is written once, here: a game never changes
	// tournament.
	var tournamentID int64
	if t.Tournament != nil {
		tournamentID = t.Tournament.ID
	}
	if _, err := tx.exec(ctx, `INSERT INTO tables (id, guild_id, channel_id, host_id, players, target, status, version, created_at, last_action_at, four_colour, token_only, tournament_id, tournament, locale)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.GuildID, t.ChannelID, t.HostID, t.Options.Players, t.Options.Target, string(t.Status), t.Version, millis(t.CreatedAt), millis(t.LastActionAt), boolInt(t.FourColour), boolInt(t.TokenOnly), tournamentID, row.tournament, t.Locale); err != nil {
		return fmt.Errorf("store: create table: %w", err)
	}
	if err := s.writeChange(ctx, tx, t, row, t.Version, true, false, ch); err != nil {
		return err
	}
	if interactionID == "" {
		return nil
	}
	_, err = tx.exec(ctx, `UPDATE interactions SET table_id = ? WHERE id = ?`, t.ID, interactionID)
	return err
}

// Save implements cribbage.TableService: it writes a change decided on
// from, the table as read, and compares and swaps the version, so a change
// made meanwhile (by this process or another) is never overwritten: the
// caller gets ErrStale and decides again. When the change finishes the
// game, its result and records are written in the same transaction, and
// so is the table that follows it (cribbage.Change.Next).
func (s *Store) Save(ctx context.Context, from *cribbage.Table, ch *cribbage.Change, interactionID string) (*cribbage.Table, error) {
	if ch == nil || ch.Table == nil {
		return nil, nil
	}
	return s.save(ctx, from, ch, interactionID)
}

// Seen implements cribbage.TableService.
func (s *Store) Seen(ctx context.Context, interactionID string) error {
	return s.checkInteraction(ctx, interactionID)
}

// TableToChange implements cribbage.TableService, in one query: the
// table's row (its message is in it, in columns of its own), whether the
// interaction was applied, and the server's settings, which a server
// without any reads as unset (the defaults of guild_settings' columns).
func (s *Store) TableToChange(ctx context.Context, id int64, interactionID string) (cribbage.ToChange, error) {
	from, m, gs, seen, err := s.readWithMessage(ctx, id, interactionID)
	switch {
	case errors.Is(err, cribbage.ErrNotFound):
		// No table; but a redelivered interaction is told so first.
		if err := s.checkInteraction(ctx, interactionID); err != nil {
			return cribbage.ToChange{}, err
		}
		return cribbage.ToChange{}, err
	case err != nil:
		return cribbage.ToChange{}, err
	case seen:
		return cribbage.ToChange{}, cribbage.ErrDuplicate
	}
	return cribbage.ToChange{From: from, Table: from.Clone(), Message: m, Settings: gs}, nil
}

// TableToShow implements cribbage.MessageBook: the table, its message and
// its server's settings in one query (selectWithMessage), and its hand views
// in a second. A table without a person, or without a game yet, has no
// views to read (only a person opens one, on a game): a tournament's game
// between computers makes a pass a move, and a lobby one a join.
func (s *Store) TableToShow(ctx context.Context, id int64) (cribbage.ToShow, error) {
	t, m, gs, _, err := s.readWithMessage(ctx, id, "")
	if err != nil {
		return cribbage.ToShow{}, err
	}
	var views []cribbage.HandView
	if t.HasPerson() && t.State != nil {
		if views, err = s.HandViews(ctx, id); err != nil {
			return cribbage.ToShow{}, err
		}
	}
	return cribbage.ToShow{Table: t, Message: m, Settings: gs, Views: views}, nil
}

// readWithMessage reads a table with its seats, its message and its
// server's settings in one query (selectWithMessage), and whether the
// interaction (if any) was applied; ErrNotFound for no table.
func (s *Store) readWithMessage(ctx context.Context, id int64, interactionID string) (*cribbage.Table, cribbage.TableMessage, cribbage.GuildSettings, bool, error) {
	var m cribbage.TableMessage
	var gs cribbage.GuildSettings
	st, err := s.db.prepared(ctx, selectWithMessage)
	if err != nil {
		return nil, m, gs, false, err
	}
	var tokenAt, reminder, forfeit, updated int64
	var seen int
	extra := []any{&m.MessageID, &m.ThreadID, &m.Board, &m.EditToken.Token, &m.EditToken.MessageID, &tokenAt, &m.Shown,
		&reminder, &forfeit, &gs.DefaultPoints, &gs.GamesChannel, &gs.MaxOpenTables, &gs.CancelRole, &gs.Language, &gs.UpdatedBy, &updated, &seen}
	t, err := scanTable(withMore{st.QueryRowContext(ctx, interactionID, id), extra}, s.decodeState)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, m, gs, false, cribbage.ErrNotFound
	case err != nil:
		return nil, m, gs, false, err
	case seen != 0:
		// Applied already: the caller is told so, and reads nothing more.
		return t, m, gs, true, nil
	}
	if seats, ok := s.states.seats(t.ID, t.Version); ok {
		t.Seats = seats
	} else {
		if err := loadSeats(ctx, s.db, []*cribbage.Table{t}); err != nil {
			return nil, m, gs, false, err
		}
		s.states.rememberSeats(t.ID, t.Version, t.Seats)
	}
	m.TableID, m.EditToken.At, m.TokenOnly = t.ID, fromMillis(tokenAt), t.TokenOnly
	gs.GuildID = t.GuildID
	gs.ReminderAfter, gs.ForfeitAfter, gs.UpdatedAt = loadedDuration(reminder), loadedDuration(forfeit), fromMillis(updated)
	return t, m, gs, false, nil
}

// selectWithMessage is the query of TableToChange and TableToShow:
// tableColumns, then the message's (tableMessageColumns but the two the
// table has), then the server's settings (guildColumns but its id), then
// whether the interaction was applied. A table outside a server joins no
// settings.
var selectWithMessage = `SELECT ` + qualified("t.", tableColumns) + `,
	t.message_id, t.thread_id, t.board, t.edit_token, t.edit_token_message, t.edit_token_at, t.shown,
	COALESCE(g.reminder_after, -1), COALESCE(g.forfeit_after, -1), COALESCE(g.default_points, 0), COALESCE(g.games_channel, ''),
	COALESCE(g.max_open_tables, 0), COALESCE(g.cancel_role, ''), COALESCE(g.language, ''), COALESCE(g.updated_by, ''), COALESCE(g.updated_at, 0),
	(SELECT COUNT(*) FROM interactions WHERE id = ?)
	FROM tables t LEFT JOIN guild_settings g ON g.guild_id = t.guild_id AND t.guild_id <> ''
	WHERE t.id = ?`

// qualified prefixes each of a list of columns with prefix.
func qualified(prefix, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = prefix + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// withMore scans a row's first columns into what its caller gives, and
// the rest into more.
type withMore struct {
	r    rowScanner
	more []any
}

// Scan implements rowScanner.
func (w withMore) Scan(dest ...any) error { return w.r.Scan(append(dest, w.more...)...) }

// save writes a change made from cur in one transaction.
func (s *Store) save(ctx context.Context, cur *cribbage.Table, ch *cribbage.Change, interactionID string) (*cribbage.Table, error) {
	t := ch.Table.Clone()
	t.ID, t.Version, t.LastActionAt = cur.ID, cur.Version+1, s.now()
	if t.Status == cribbage.StatusPlaying && cur.Status == cribbage.StatusLobby {
		t.StartedAt = t.LastActionAt
	}
	if !t.Status.Open() && cur.Status.Open() {
		t.FinishedAt = t.LastActionAt
	}
	// Encode before taking the write lock, which only the writes need;
	// and play a game this change finishes again from its log, for its
	// numbers.
	row, err := encodeTable(t)
	if err != nil {
		return nil, err
	}
	acct, err := s.account(ctx, cur, ch)
	if err != nil {
		return nil, err
	}
	moved, err := moveOnly(cur, t, row)
	if err != nil {
		return nil, err
	}
	err = s.inTx(ctx, func(tx *txn) error {
		if err := s.claimInteraction(ctx, tx, interactionID, t.ID); err != nil {
			return err
		}
		if err := s.lockHold(ctx, tx, t, ch.Hold); err != nil {
			return err
		}
		if err := s.writeChange(ctx, tx, t, row, cur.Version, !slices.Equal(t.Seats, cur.Seats), moved, ch); err != nil {
			return err
		}
		if err := s.announceMilestones(ctx, tx, t, cribbage.MilestonesNow(t, ch.Events), ch.Outbox, t.LastActionAt); err != nil {
			return err
		}
		if t.Status == cribbage.StatusFinished && cur.Status != cribbage.StatusFinished {
			if err := recordResult(ctx, tx, t); err != nil {
				return err
			}
			if t.Match != nil {
				if err := recordMatchGame(ctx, tx, t); err != nil {
					return err
				}
			}
			if err := s.recordGameEnd(ctx, tx, t, acct, ch.Outbox); err != nil {
				return err
			}
		}
		if ch.Next != nil {
			id, err := s.openTable(ctx, tx, t.ID, ch.Next)
			if err != nil {
				return err
			}
			t.RematchID = id
		}
		return checkHold(ctx, tx, t, ch.Hold)
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
func (s *Store) claimInteraction(ctx context.Context, tx *txn, interactionID string, tableID int64) error {
	if interactionID == "" {
		return nil
	}
	// The insert fails on the primary key if the id was claimed since
	// checkInteraction looked; DO NOTHING turns that into no row written.
	n, err := tx.affected(ctx, `INSERT INTO interactions (id, table_id, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`, interactionID, tableID, millis(s.now()))
	if err != nil {
		return fmt.Errorf("store: claim interaction: %w", err)
	}
	if n != 1 {
		return cribbage.ErrDuplicate
	}
	return nil
}

// writeChange writes a change to table t in tx: its row (if the stored
// version is still expected), its seats if they changed, its actions and
// its announcements.
func (s *Store) writeChange(ctx context.Context, tx *txn, t *cribbage.Table, row tableRow, expected int64, seats, moved bool, ch *cribbage.Change) error {
	save := s.saveRow
	if moved {
		save = s.saveMove
	}
	if err := save(ctx, tx, t, row, expected); err != nil {
		return err
	}
	if seats {
		if err := s.saveSeats(ctx, tx, t); err != nil {
			return err
		}
	}
	if err := s.appendActions(ctx, tx, t, ch.Actions); err != nil {
		return err
	}
	return s.queue(ctx, tx, t.ID, ch.Outbox)
}

// saveRow writes t's columns if the stored version is still expected, and
// fails with ErrStale if it is not.
func (s *Store) saveRow(ctx context.Context, tx *txn, t *cribbage.Table, row tableRow, expected int64) error {
	o := t.Options
	// The columns of the table's message are left out: the MessageBook
	// records them without a new version, and they are not the table's.
	return swapRow(ctx, tx, saveRowSQL,
		t.HostID, o.Players, boolInt(o.Partners), o.Target, boolInt(o.ManualCounting), boolInt(o.Muggins),
		t.Computer, string(t.Status), t.Version, row.seed, row.state,
		millis(t.StartedAt), millis(t.LastActionAt), millis(t.FinishedAt), millis(t.WaitingSince), t.CancelledBy, t.CancelReason,
		row.match, row.challenge, row.offer, millis(offeredAt(t)), t.ID, expected)
}

// swapRow runs update, a table's row written if its stored version is
// still the one its last argument expects, and fails with ErrStale if it
// is not.
func swapRow(ctx context.Context, tx *txn, update string, args ...any) error {
	n, err := tx.affected(ctx, update, args...)
	if err != nil {
		return fmt.Errorf("store: save table: %w", err)
	}
	if n != 1 {
		return cribbage.ErrStale
	}
	return nil
}

// saveRowSQL is saveRow's statement. A column added to it must be added
// to moveOnly's comparison too, or a change of it alone would be saved
// as a move and lost (TestOnlyAMoveIsSavedAsOne fails until it is).
const saveRowSQL = `UPDATE tables SET host_id = ?, players = ?, partners = ?, target = ?,
		manual_counting = ?, muggins = ?, computer = ?, status = ?, version = ?, cut_seed = ?, state = ?,
		started_at = ?, last_action_at = ?, finished_at = ?, waiting_since = ?, cancelled_by = ?, cancel_reason = ?,
		match_state = ?, challenge = ?, rematch_offer = ?, offered_at = ?
		WHERE id = ? AND version = ?`

// saveMove is saveRow for a change that set only the columns a move
// sets (moveOnly): the table's version, its game, the time of its last
// action and since when it waits. SQLite rewrites the entries of every
// index on a column an UPDATE sets, whether its value changed or not;
// setting every column made each move rewrite the entries of four
// indexes (status, server, idle tables, rematch offers), a page of the
// write-ahead log each, where only the idle tables' one changes.
// (PostgreSQL writes a new version of the row, and its index entries,
// either way: the narrower statement saves it little.)
func (s *Store) saveMove(ctx context.Context, tx *txn, t *cribbage.Table, row tableRow, expected int64) error {
	return swapRow(ctx, tx, `UPDATE tables SET version = ?, state = ?, last_action_at = ?, waiting_since = ?
		WHERE id = ? AND version = ?`,
		t.Version, row.state, millis(t.LastActionAt), millis(t.WaitingSince), t.ID, expected)
}

// moveOnly reports whether t, cur as a change left it, differs from cur
// in no column of saveRow but those saveMove writes. row is t's encoding.
// (offered_at is the rematch offer's own time, compared with the offer.)
func moveOnly(cur, t *cribbage.Table, row tableRow) (bool, error) {
	was, err := encodeTable(&cribbage.Table{CutSeed: cur.CutSeed, Match: cur.Match, Challenge: cur.Challenge, Offer: cur.Offer})
	if err != nil {
		return false, err
	}
	return cur.HostID == t.HostID && cur.Options == t.Options && cur.Computer == t.Computer && cur.Status == t.Status &&
		was.seed == row.seed && was.match == row.match && was.challenge == row.challenge && was.offer == row.offer &&
		cur.StartedAt.Equal(t.StartedAt) && cur.FinishedAt.Equal(t.FinishedAt) &&
		cur.CancelledBy == t.CancelledBy && cur.CancelReason == t.CancelReason, nil
}

// saveSeats replaces the table's seats.
func (s *Store) saveSeats(ctx context.Context, tx *txn, t *cribbage.Table) error {
	if _, err := tx.exec(ctx, `DELETE FROM seats WHERE table_id = ?`, t.ID); err != nil {
		return err
	}
	for i, seat := range t.Seats {
		if _, err := tx.exec(ctx, `INSERT INTO seats (table_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)`,
			t.ID, i, seat.UserID, seat.Name, seat.Computer); err != nil {
			return fmt.Errorf("store: save seat: %w", err)
		}
	}
	return nil
}

// appendActions logs actions under the table's new version.
func (s *Store) appendActions(ctx context.Context, tx *txn, t *cribbage.Table, actions []cribbage.LoggedAction) error {
	for i, a := range actions {
		b, err := json.Marshal(a.Action)
		if err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO actions (table_id, version, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			t.ID, t.Version, i, a.UserID, string(b), millis(t.LastActionAt)); err != nil {
			return fmt.Errorf("store: append action: %w", err)
		}
	}
	return nil
}
