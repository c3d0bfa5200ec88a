package cribbage

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
)

// GuildSettings are one server's own settings, which its admins set with
// /cribbage-admin settings. A setting left unset follows the bot's
// default (its configuration, or the game's).
type GuildSettings struct {
	GuildID string
	// ReminderAfter and ForfeitAfter, when set, replace the bot's
	// REMINDER_AFTER and FORFEIT_AFTER at the server's tables; a zero
	// duration turns that timer off there.
	ReminderAfter *time.Duration
	ForfeitAfter  *time.Duration
	// DefaultPoints is the game length /cribbage start uses when it is not
	// given one: 61 or 121, or 0 for the game's default (121).
	DefaultPoints int
	// GamesChannel is the one channel where /cribbage start opens tables,
	// or "" for any channel.
	GamesChannel string
	// MaxOpenTables is the most open tables (lobbies and games) a person
	// may sit at in the server, or 0 for no limit.
	MaxOpenTables int
	// CancelRole is a role whose members may cancel tables, besides the
	// members with Manage Server; "" for none.
	CancelRole string
	// Language is the language of what the server's channels see (the
	// table message, the story, tournaments, the leaderboard), a
	// catalogue name of bot/lang ("fr"), or "" for the server's own
	// locale as Discord sends it.
	Language string
	// UpdatedBy and UpdatedAt say who last changed the settings, and when.
	UpdatedBy string
	UpdatedAt time.Time
}

// Reminder is the reminder period at the server's tables, given the
// bot's own.
func (s GuildSettings) Reminder(def time.Duration) time.Duration {
	if s.ReminderAfter != nil {
		return *s.ReminderAfter
	}
	return def
}

// Forfeit is how long a table waits before a forfeit may be claimed at
// the server's tables, given the bot's own.
func (s GuildSettings) Forfeit(def time.Duration) time.Duration {
	if s.ForfeitAfter != nil {
		return *s.ForfeitAfter
	}
	return def
}

// GuildService keeps each server's settings.
type GuildService interface {
	// GuildSettings returns a server's settings; a server that never set
	// any has them all unset.
	GuildSettings(ctx context.Context, guildID string) (GuildSettings, error)
	// UpdateGuildSettings lets fn change a server's settings and saves
	// them, in one transaction: two admins' changes at once are applied
	// one after the other, neither lost. fn's error saves nothing. The
	// store records when; fn records who (UpdatedBy).
	UpdateGuildSettings(ctx context.Context, guildID string, fn func(s *GuildSettings) error) (GuildSettings, error)
	// AllGuildSettings returns the settings of every server that has set
	// any: the timers read them once a round.
	AllGuildSettings(ctx context.Context) ([]GuildSettings, error)
	// ServerLocale is the server's own locale as Discord last sent it
	// with a table opened there (Table.Locale of its newest), or "" if
	// none was: what a post nobody asked for (the daily hand, a
	// tournament's message) speaks when the admins chose no language.
	ServerLocale(ctx context.Context, guildID string) (string, error)
}

// ErrBadDuration means a duration is not written as one.
var ErrBadDuration = errors.New("cribbage: not a duration")

// ParseDuration reads a waiting time as admins and operators write one: a
// Go duration ("12h", "90m"), a number of days ("7d"), or "0" or "off"
// for none. Negative durations are refused.
func ParseDuration(raw string) (time.Duration, error) {
	raw = strings.ToLower(strings.TrimSpace(raw))
	if raw == "off" {
		return 0, nil
	}
	if days, ok := strings.CutSuffix(raw, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n < 0 || n > 1e5 {
			return 0, ErrBadDuration
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d < 0 {
		return 0, ErrBadDuration
	}
	return d, nil
}
