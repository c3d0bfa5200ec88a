package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage"
)

// The reads of tables, and the small updates that change no version.

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

// ChannelTables returns the open tables in a channel, or the table whose
// thread the channel is: a command used in a table's thread finds it.
func (s *Store) ChannelTables(ctx context.Context, channelID string) ([]*cribbage.Table, error) {
	return s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables
		WHERE (channel_id = ? OR thread_id = ?) AND status IN ('lobby', 'playing') ORDER BY id`, channelID, channelID)
}

// AwaitingAnswer returns the tables in a server that wait on userID's
// answer: open challenges to them, and open rematch offers they have not
// accepted. The person is in the challenge's and the offer's JSON, which
// each database would read with functions of its own, so the server's
// open challenges and offers (few: both lapse after a day) are read and
// sorted out here.
func (s *Store) AwaitingAnswer(ctx context.Context, guildID, userID string) ([]*cribbage.Table, error) {
	tables, err := s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables WHERE guild_id = ?
		AND ((status = 'lobby' AND challenge <> '') OR (status = 'finished' AND rematch_offer <> '' AND rematch_id = 0))
		ORDER BY id`, guildID)
	if err != nil {
		return nil, err
	}
	var out []*cribbage.Table
	for _, t := range tables {
		if t.AwaitsAnswer(userID) {
			out = append(out, t)
		}
	}
	return out, nil
}

// ThreadTable returns the table whose thread the channel is, whatever its
// status: a command used in the thread of a table that is over is about
// that table, and is told so.
func (s *Store) ThreadTable(ctx context.Context, channelID string) (*cribbage.Table, error) {
	if channelID == "" {
		return nil, cribbage.ErrNotFound
	}
	tables, err := s.loadTables(ctx, s.db, `SELECT `+tableColumns+` FROM tables WHERE thread_id = ? ORDER BY id LIMIT 1`, channelID)
	if err != nil {
		return nil, err
	}
	if len(tables) == 0 {
		return nil, cribbage.ErrNotFound
	}
	return tables[0], nil
}

// GamesInProgress counts the tables with a game being played.
func (s *Store) GamesInProgress(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM tables WHERE status = 'playing'`).Scan(&n)
	return n, err
}

// tableMessageColumns are read by scanTableMessage, in its order.
const tableMessageColumns = `id, message_id, thread_id, board, edit_token, edit_token_message, edit_token_at, shown, token_only`

// scanTableMessage reads one row of tableMessageColumns.
func scanTableMessage(r rowScanner) (cribbage.TableMessage, error) {
	var m cribbage.TableMessage
	var tokenAt int64
	var tokenOnly int
	if err := r.Scan(&m.TableID, &m.MessageID, &m.ThreadID, &m.Board, &m.EditToken.Token, &m.EditToken.MessageID, &tokenAt, &m.Shown, &tokenOnly); err != nil {
		return cribbage.TableMessage{}, err
	}
	m.EditToken.At, m.TokenOnly = fromMillis(tokenAt), tokenOnly != 0
	return m, nil
}

// selectTableMessage reads one table's message, on every live pass: a
// prepared statement.
const selectTableMessage = `SELECT ` + tableMessageColumns + ` FROM tables WHERE id = ?`

// TableMessage implements cribbage.MessageBook. The message is kept in
// the table's row, in columns no change to the table writes.
func (s *Store) TableMessage(ctx context.Context, id int64) (cribbage.TableMessage, error) {
	st, err := s.db.prepared(ctx, selectTableMessage)
	if err != nil {
		return cribbage.TableMessage{}, err
	}
	m, err := scanTableMessage(st.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return cribbage.TableMessage{}, cribbage.ErrNotFound
	}
	return m, err
}

// TableMessages implements cribbage.MessageBook.
func (s *Store) TableMessages(ctx context.Context, ids []int64) ([]cribbage.TableMessage, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	marks := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		marks[i], args[i] = "?", id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+tableMessageColumns+` FROM tables WHERE id IN (`+strings.Join(marks, ",")+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := map[int64]cribbage.TableMessage{}
	for rows.Next() {
		m, err := scanTableMessage(rows)
		if err != nil {
			return nil, err
		}
		byID[m.TableID] = m
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]cribbage.TableMessage, 0, len(byID))
	for _, id := range ids {
		if m, ok := byID[id]; ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// SetMessages records where the table's public message and thread are.
// It does not change the version: buttons stay valid.
func (s *Store) SetMessages(ctx context.Context, id int64, messageID, threadID string) error {
	return s.exec(ctx, `UPDATE tables SET message_id = ?, thread_id = ? WHERE id = ?`, messageID, threadID, id)
}

// RecordBoard records which board picture the table message shows. Like
// SetMessages it changes no version: buttons stay valid.
func (s *Store) RecordBoard(ctx context.Context, id int64, key string) error {
	return s.exec(ctx, `UPDATE tables SET board = ? WHERE id = ?`, key, id)
}

// RecordShown records a digest of what the table message was last made to
// show. Like RecordBoard it changes no version. It may wait a moment to be
// committed with other writes (execAlong).
func (s *Store) RecordShown(ctx context.Context, id int64, sum string) error {
	return s.execAlong(ctx, `UPDATE tables SET shown = ? WHERE id = ?`, sum, id)
}

// RecordTableMessage records the table message's id if none is recorded
// yet, without changing the version: whichever learns it first (the answer
// that posted it, or a click on it) records it, and nothing overwrites it.
func (s *Store) RecordTableMessage(ctx context.Context, id int64, messageID string) error {
	return s.exec(ctx, `UPDATE tables SET message_id = ? WHERE id = ? AND message_id = ''`, messageID, id)
}

// RecordEditToken records an interaction token that can edit the table
// message, unless a newer one is recorded: of two clicks answered by two
// replicas at once, the later token lives longer.
func (s *Store) RecordEditToken(ctx context.Context, id int64, token cribbage.MessageToken) error {
	at := millis(token.At)
	return s.exec(ctx, `UPDATE tables SET edit_token = ?, edit_token_message = ?, edit_token_at = ? WHERE id = ? AND edit_token_at <= ?`,
		token.Token, token.MessageID, at, id, at)
}

// RecordHandView records a seat's open hand view, unless a newer one is
// recorded: of two clicks answered at once, the later token lives longer.
func (s *Store) RecordHandView(ctx context.Context, id int64, v cribbage.HandView) error {
	at := millis(v.Token.At)
	return s.exec(ctx, `INSERT INTO hand_views (table_id, seat, token, message_id, at, version, lang, shown) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (table_id, seat) DO UPDATE SET token = excluded.token, message_id = excluded.message_id, at = excluded.at, version = excluded.version, lang = excluded.lang, shown = excluded.shown
		WHERE hand_views.at <= excluded.at`,
		id, v.Seat, v.Token.Token, v.Token.MessageID, at, v.Version, v.Lang, v.Shown)
}

// RecordHandViewShown records what a seat's recorded hand view was made
// to show, if tok edits it: tok is its token, or another of its message.
// Like RecordBoard it changes no table version; like RecordShown it may
// wait a moment to be committed with other writes.
func (s *Store) RecordHandViewShown(ctx context.Context, id int64, seat int, tok cribbage.MessageToken, version int64, sum string) error {
	return s.execAlong(ctx, `UPDATE hand_views SET version = ?, shown = ? WHERE table_id = ? AND seat = ? AND (token = ? OR (message_id <> '' AND message_id = ?))`,
		version, sum, id, seat, tok.Token, tok.MessageID)
}

// selectHandViews reads a table's hand views, on every live pass.
const selectHandViews = `SELECT seat, token, message_id, at, version, lang, shown FROM hand_views WHERE table_id = ? ORDER BY seat`

// HandViews returns the hand views recorded at a table, by seat.
func (s *Store) HandViews(ctx context.Context, id int64) ([]cribbage.HandView, error) {
	st, err := s.db.prepared(ctx, selectHandViews)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.HandView
	for rows.Next() {
		var v cribbage.HandView
		var at int64
		if err := rows.Scan(&v.Seat, &v.Token.Token, &v.Token.MessageID, &at, &v.Version, &v.Lang, &v.Shown); err != nil {
			return nil, err
		}
		v.Token.At = fromMillis(at)
		out = append(out, v)
	}
	return out, rows.Err()
}

// MarkAssisted records that a player at the table used the coach. Like
// SetMessages it changes no version: buttons stay valid.
func (s *Store) MarkAssisted(ctx context.Context, id int64) error {
	return s.exec(ctx, `UPDATE tables SET assisted = 1 WHERE id = ?`, id)
}

// Actions returns a table's action log in order.
func (s *Store) Actions(ctx context.Context, id int64) ([]cribbage.LoggedAction, error) {
	return actionsOf(ctx, s.db, id)
}

// actionsOf reads a table's action log in order, from the database or in
// a transaction.
func actionsOf(ctx context.Context, q querier, id int64) ([]cribbage.LoggedAction, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id, action FROM actions WHERE table_id = ? ORDER BY version, seq`, id)
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

// TableVersion implements cribbage.TableService.
func (s *Store) TableVersion(ctx context.Context, id int64) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, `SELECT version FROM tables WHERE id = ?`, id).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, cribbage.ErrNotFound
	}
	return v, err
}
