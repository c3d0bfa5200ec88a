package mock

import (
	"cmp"
	"context"
	"slices"

	"github.com/cribbage-bot/cribbage"
)

var _ cribbage.DailyService = (*Store)(nil)

// daily is the daily hand's state: one answer a player a day, each
// server's settings, and the posts claimed.
type daily struct {
	answers  map[dailyKey]cribbage.DailyAnswer
	settings map[string]cribbage.DailySettings
	posts    map[postKey]int64
}

type dailyKey struct {
	user string
	day  cribbage.Day
}

type postKey struct {
	guild string
	day   cribbage.Day
}

// AnswerDaily implements cribbage.DailyService: a second answer to a day
// is refused under the store's lock, as the SQL store's key refuses it.
func (s *Store) AnswerDaily(ctx context.Context, a cribbage.DailyAnswer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := dailyKey{a.UserID, a.Day}
	if _, ok := s.daily.answers[k]; ok {
		return cribbage.ErrAnsweredDaily
	}
	if s.daily.answers == nil {
		s.daily.answers = map[dailyKey]cribbage.DailyAnswer{}
	}
	a.At = ms(a.At)
	s.daily.answers[k] = a
	var days []cribbage.Day
	for k := range s.daily.answers {
		if k.user == a.UserID {
			days = append(days, k.day)
		}
	}
	s.numbers.record(a.GuildID, cribbage.DailyEarned(a, days), a.At)
	return nil
}

// DailyAnswerOf implements cribbage.DailyService.
func (s *Store) DailyAnswerOf(ctx context.Context, userID string, day cribbage.Day) (cribbage.DailyAnswer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.daily.answers[dailyKey{userID, day}]
	if !ok {
		return cribbage.DailyAnswer{}, cribbage.ErrNoDailyAnswer
	}
	return a, nil
}

// DailyAnswers implements cribbage.DailyService.
func (s *Store) DailyAnswers(ctx context.Context, guildID string, day cribbage.Day) ([]cribbage.DailyAnswer, error) {
	out := s.dailyWhere(func(a cribbage.DailyAnswer) bool { return a.GuildID == guildID && a.Day == day })
	slices.SortFunc(out, func(a, b cribbage.DailyAnswer) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.UserID, b.UserID))
	})
	return out, nil
}

// DailyHistory implements cribbage.DailyService.
func (s *Store) DailyHistory(ctx context.Context, userID string, from, to cribbage.Day) ([]cribbage.DailyAnswer, error) {
	out := s.dailyWhere(func(a cribbage.DailyAnswer) bool { return a.UserID == userID && a.Day >= from && a.Day < to })
	slices.SortFunc(out, func(a, b cribbage.DailyAnswer) int { return cmp.Compare(a.Day, b.Day) })
	return out, nil
}

// DailyTotals implements cribbage.DailyService, adding up in the order
// the SQL store does.
func (s *Store) DailyTotals(ctx context.Context, guildID string, from, to cribbage.Day) ([]cribbage.DailyTotal, error) {
	out := s.dailyWhere(func(a cribbage.DailyAnswer) bool { return a.GuildID == guildID && a.Day >= from && a.Day < to })
	slices.SortFunc(out, func(a, b cribbage.DailyAnswer) int {
		return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.UserID, b.UserID))
	})
	return cribbage.Totals(out), nil
}

// dailyWhere returns the answers that match.
func (s *Store) dailyWhere(match func(a cribbage.DailyAnswer) bool) []cribbage.DailyAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []cribbage.DailyAnswer
	for _, a := range s.daily.answers {
		if match(a) {
			out = append(out, a)
		}
	}
	return out
}

// DailySettings implements cribbage.DailyService.
func (s *Store) DailySettings(ctx context.Context, guildID string) (cribbage.DailySettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ds, ok := s.daily.settings[guildID]; ok {
		return ds, nil
	}
	return cribbage.DailySettings{GuildID: guildID}, nil
}

// SetDailySettings implements cribbage.DailyService.
func (s *Store) SetDailySettings(ctx context.Context, ds cribbage.DailySettings) (cribbage.DailySettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.daily.settings == nil {
		s.daily.settings = map[string]cribbage.DailySettings{}
	}
	ds.UpdatedAt = s.now()
	s.daily.settings[ds.GuildID] = ds
	return ds, nil
}

// DailyDue implements cribbage.DailyService.
func (s *Store) DailyDue(ctx context.Context, day cribbage.Day, hour int) ([]cribbage.DailySettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []cribbage.DailySettings
	for _, ds := range s.daily.settings {
		if _, posted := s.daily.posts[postKey{ds.GuildID, day}]; ds.ChannelID != "" && ds.Hour <= hour && !posted {
			out = append(out, ds)
		}
	}
	slices.SortFunc(out, func(a, b cribbage.DailySettings) int { return cmp.Compare(a.GuildID, b.GuildID) })
	return out, nil
}

// ClaimDailyPost implements cribbage.DailyService: the claim and the
// announcements, under -id, together under the store's lock.
func (s *Store) ClaimDailyPost(ctx context.Context, guildID string, day cribbage.Day, out []cribbage.Outbound) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := postKey{guildID, day}
	if _, ok := s.daily.posts[k]; ok {
		return false, nil
	}
	if s.daily.posts == nil {
		s.daily.posts = map[postKey]int64{}
	}
	id := int64(len(s.daily.posts) + 1)
	s.daily.posts[k] = id
	s.queue(-id, out)
	return true, nil
}
