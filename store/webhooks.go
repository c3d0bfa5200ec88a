package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/cribbage-bot/cribbage"
)

// Each channel's webhook (cribbage.ChannelWebhook), one row a channel
// the bot made one in or was refused one in. It is the MessageBook's: no
// table's row points at it, so a table's change never writes it.

// ChannelWebhook implements cribbage.MessageBook.
func (s *Store) ChannelWebhook(ctx context.Context, channelID string) (cribbage.ChannelWebhook, error) {
	w := cribbage.ChannelWebhook{ChannelID: channelID}
	var refused int64
	err := s.db.QueryRowContext(ctx, `SELECT webhook_id, token, refused_at FROM channel_webhooks WHERE channel_id = ?`, channelID).
		Scan(&w.ID, &w.Token, &refused)
	if errors.Is(err, sql.ErrNoRows) {
		return cribbage.ChannelWebhook{}, cribbage.ErrNotFound
	}
	if err != nil {
		return cribbage.ChannelWebhook{}, err
	}
	w.RefusedAt = fromMillis(refused)
	return w, nil
}

// RecordChannelWebhook implements cribbage.MessageBook: the row is
// replaced whole, so a webhook made after a refusal clears the refusal,
// and a refusal after a webhook was lost clears the lost one.
func (s *Store) RecordChannelWebhook(ctx context.Context, w cribbage.ChannelWebhook) error {
	return s.exec(ctx, `INSERT INTO channel_webhooks (channel_id, webhook_id, token, refused_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (channel_id) DO UPDATE SET webhook_id = excluded.webhook_id, token = excluded.token, refused_at = excluded.refused_at`,
		w.ChannelID, w.ID, w.Token, millis(w.RefusedAt))
}

// ForgetChannelWebhook implements cribbage.MessageBook. The webhook's id
// is part of the condition, in the one statement, so that a process that
// learns its webhook is gone never deletes the new one another process
// made and recorded meanwhile.
func (s *Store) ForgetChannelWebhook(ctx context.Context, channelID, webhookID string) error {
	return s.exec(ctx, `DELETE FROM channel_webhooks WHERE channel_id = ? AND webhook_id = ?`, channelID, webhookID)
}
