package mock

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/cribbage-bot/cribbage"
)

var _ cribbage.GuildService = (*Store)(nil)

// GuildSettings implements cribbage.GuildService.
func (s *Store) GuildSettings(ctx context.Context, guildID string) (cribbage.GuildSettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gs, ok := s.guilds[guildID]; ok {
		return cloneGuild(gs), nil
	}
	return cribbage.GuildSettings{GuildID: guildID}, nil
}

// UpdateGuildSettings implements cribbage.GuildService: fn changes a copy,
// saved only if fn succeeds, under the store's lock so that changes at
// once are applied one after the other.
func (s *Store) UpdateGuildSettings(ctx context.Context, guildID string, fn func(gs *cribbage.GuildSettings) error) (cribbage.GuildSettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := cribbage.GuildSettings{GuildID: guildID}
	if cur, ok := s.guilds[guildID]; ok {
		gs = cloneGuild(cur)
	}
	if err := fn(&gs); err != nil {
		return cribbage.GuildSettings{}, err
	}
	gs.GuildID, gs.UpdatedAt = guildID, s.now().UTC()
	if s.guilds == nil {
		s.guilds = map[string]cribbage.GuildSettings{}
	}
	s.guilds[guildID] = cloneGuild(gs)
	return gs, nil
}

// AllGuildSettings implements cribbage.GuildService.
func (s *Store) AllGuildSettings(ctx context.Context) ([]cribbage.GuildSettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []cribbage.GuildSettings
	for _, gs := range s.guilds {
		out = append(out, cloneGuild(gs))
	}
	slices.SortFunc(out, func(a, b cribbage.GuildSettings) int { return strings.Compare(a.GuildID, b.GuildID) })
	return out, nil
}

// cloneGuild copies settings so callers never share their durations.
func cloneGuild(gs cribbage.GuildSettings) cribbage.GuildSettings {
	gs.ReminderAfter, gs.ForfeitAfter = cloneDuration(gs.ReminderAfter), cloneDuration(gs.ForfeitAfter)
	return gs
}

func cloneDuration(d *time.Duration) *time.Duration {
	if d == nil {
		return nil
	}
	c := *d
	return &c
}

// ServerLocale implements cribbage.GuildService.
func (s *Store) ServerLocale(ctx context.Context, guildID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var newest int64
	locale := ""
	for id, t := range s.tables {
		if t.GuildID == guildID && t.Locale != "" && id > newest {
			newest, locale = id, t.Locale
		}
	}
	return locale, nil
}
