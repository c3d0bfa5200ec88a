package cribbage

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// The daily hand: one discard problem a day for everyone (which hand, and
// how a throw is valued, is engine/ai's DailyHand), answered once by each
// player; a server's games channel gets the day's hand and, the next day,
// how the server answered it.

// Day is a calendar day in UTC, counted from 1970-01-01 (day 0).
type Day int

// DayOf is the UTC day of t.
func DayOf(t time.Time) Day {
	s := t.Unix()
	d := s / secondsADay
	if s%secondsADay < 0 {
		d-- // before 1970: the day it falls in, not the next
	}
	return Day(d)
}

// secondsADay is a day's length: UTC has no leap seconds in Go's time.
const secondsADay = 24 * 60 * 60

// Start is the day's first instant, UTC.
func (d Day) Start() time.Time { return time.Unix(int64(d)*secondsADay, 0).UTC() }

// String writes the day as 2006-01-02, as the daily hand's seed reads it.
func (d Day) String() string { return d.Start().Format(time.DateOnly) }

// MonthStart is the first day of the day's month.
func (d Day) MonthStart() Day {
	t := d.Start()
	return DayOf(time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC))
}

// NextMonth is the first day of the month after the day's.
func (d Day) NextMonth() Day {
	t := d.MonthStart().Start()
	return DayOf(t.AddDate(0, 1, 0))
}

// DailyAnswer is a player's answer to a day's hand: the cards thrown, and
// the points the throw gives up on average against the best one (the
// coach's values; 0 for the best).
type DailyAnswer struct {
	Day    Day
	UserID string
	// Name is the player's name when they answered, for the tables.
	Name string
	// GuildID is the server answered in, or "" outside one (a DM): only a
	// server's own answers are in its reveal and its month's table.
	GuildID string
	Throw   engine.CardSet
	GaveUp  float64
	At      time.Time
}

// DailySettings are where and when a server gets the daily hand: its
// admins set them (/cribbage-admin daily).
type DailySettings struct {
	GuildID string
	// ChannelID is the channel that gets the day's hand and the reveal
	// of the day before, or "" for none.
	ChannelID string
	// Hour is the hour of the day, UTC (0 to 23), from which the post goes
	// out.
	Hour      int
	UpdatedBy string
	UpdatedAt time.Time
}

// DailyTotal is one player's month in a server: the days answered and
// the points given up over them.
type DailyTotal struct {
	UserID string
	Name   string
	Days   int
	GaveUp float64
}

// DailyService keeps the daily hand's answers and each server's post.
type DailyService interface {
	// AnswerDaily records an answer, once a player a day whatever the
	// place: a second answer to the day (a second click, another server, a
	// DM) fails with ErrAnsweredDaily, checked in the write itself.
	AnswerDaily(ctx context.Context, a DailyAnswer) error
	// DailyAnswerOf returns a player's answer to a day, or
	// ErrNoDailyAnswer.
	DailyAnswerOf(ctx context.Context, userID string, day Day) (DailyAnswer, error)
	// DailyAnswers returns a server's answers to a day, in the order
	// given.
	DailyAnswers(ctx context.Context, guildID string, day Day) ([]DailyAnswer, error)
	// DailyHistory returns a player's answers from day from up to (not
	// including) day to, wherever given, oldest first.
	DailyHistory(ctx context.Context, userID string, from, to Day) ([]DailyAnswer, error)
	// DailyTotals returns the players' totals in a server from day from
	// up to (not including) day to, fewest points given up first (then
	// more days, then by user id).
	DailyTotals(ctx context.Context, guildID string, from, to Day) ([]DailyTotal, error)
	// DailySettings returns a server's settings, unset (no channel) if it
	// has none.
	DailySettings(ctx context.Context, guildID string) (DailySettings, error)
	// SetDailySettings saves a server's settings; the store records when.
	SetDailySettings(ctx context.Context, s DailySettings) (DailySettings, error)
	// DailyDue returns the servers whose post of day is due at hour: a
	// channel set, their hour at or before it, and no post of the day
	// claimed yet.
	DailyDue(ctx context.Context, day Day, hour int) ([]DailySettings, error)
	// ClaimDailyPost records a server's post of a day and queues out, in
	// one transaction, unless the day's post is claimed already: of
	// processes racing (replicas, a restart) one posts. It reports
	// whether this call did. The post's announcements go out under a
	// number of their own (OutboxItem.TableID below 0), so no table's
	// story waits on them.
	ClaimDailyPost(ctx context.Context, guildID string, day Day, out []Outbound) (bool, error)
}

// The daily hand's errors.
var (
	// ErrAnsweredDaily means the player has answered the day's hand.
	ErrAnsweredDaily = errors.New("cribbage: the daily hand is answered already")
	// ErrNoDailyAnswer means the player has not answered the day's hand.
	ErrNoDailyAnswer = errors.New("cribbage: no answer to the daily hand")
)

// Streak is how many days in a row, up to today, a player answered, given
// the days they did: today counts if answered, and a streak that ended
// yesterday still stands (today's hand is still open).
func Streak(days []Day, today Day) int {
	seen := map[Day]bool{}
	for _, d := range days {
		seen[d] = true
	}
	d := today
	if !seen[d] {
		d--
	}
	n := 0
	for ; seen[d]; d-- {
		n++
	}
	return n
}

// SortTotals orders a month's totals as DailyTotals returns them: fewest
// points given up first, then more days, then by user id.
func SortTotals(ts []DailyTotal) {
	slices.SortStableFunc(ts, func(a, b DailyTotal) int {
		switch {
		case a.GaveUp < b.GaveUp-1e-9:
			return -1
		case a.GaveUp > b.GaveUp+1e-9:
			return 1
		case a.Days != b.Days:
			return b.Days - a.Days
		case a.UserID < b.UserID:
			return -1
		case a.UserID > b.UserID:
			return 1
		}
		return 0
	})
}

// Totals adds up answers by player (a month's, say), each under the name
// of their latest answer, sorted as SortTotals sorts them. The store and
// its double add up the same way, so the sums agree to the last bit.
func Totals(answers []DailyAnswer) []DailyTotal {
	var out []DailyTotal
	at := map[string]int{}
	var latest []Day
	for _, a := range answers {
		i, ok := at[a.UserID]
		if !ok {
			i = len(out)
			at[a.UserID] = i
			out = append(out, DailyTotal{UserID: a.UserID})
			latest = append(latest, a.Day)
		}
		t := &out[i]
		t.Days++
		t.GaveUp += a.GaveUp
		if a.Day >= latest[i] {
			t.Name, latest[i] = a.Name, a.Day
		}
	}
	SortTotals(out)
	return out
}
