package mock

import (
	"context"

	"github.com/cribbage-bot/cribbage"
)

var _ cribbage.MessageBook = (*Store)(nil)

// ChannelWebhook implements cribbage.MessageBook.
func (s *Store) ChannelWebhook(ctx context.Context, channelID string) (cribbage.ChannelWebhook, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.webhooks[channelID]
	if !ok {
		return cribbage.ChannelWebhook{}, cribbage.ErrNotFound
	}
	return w, nil
}

// RecordChannelWebhook implements cribbage.MessageBook: what was recorded
// of the channel's webhook is replaced whole, its time kept as the SQL
// store keeps it.
func (s *Store) RecordChannelWebhook(ctx context.Context, w cribbage.ChannelWebhook) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.RefusedAt = ms(w.RefusedAt)
	if s.webhooks == nil {
		s.webhooks = map[string]cribbage.ChannelWebhook{}
	}
	s.webhooks[w.ChannelID] = w
	return nil
}

// ForgetChannelWebhook implements cribbage.MessageBook: only the webhook
// named is forgotten, as the SQL store's delete names it, so one recorded
// meanwhile is kept.
func (s *Store) ForgetChannelWebhook(ctx context.Context, channelID, webhookID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.webhooks[channelID]; ok && w.ID == webhookID {
		delete(s.webhooks, channelID)
	}
	return nil
}
