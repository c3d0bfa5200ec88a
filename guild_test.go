package cribbage

import (
	"errors"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"90m", 90 * time.Minute}, {"12h", 12 * time.Hour}, {"2d", 48 * time.Hour}, {"1.5d", 36 * time.Hour},
		{"0", 0}, {"off", 0}, {" OFF ", 0}, {"3D", 72 * time.Hour},
	} {
		if got, err := ParseDuration(tc.in); err != nil || got != tc.want {
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "soon", "-2h", "-1d", "d", "12", "1e9d", "2 days"} {
		if got, err := ParseDuration(bad); !errors.Is(err, ErrBadDuration) {
			t.Errorf("%q: %v, %v; want ErrBadDuration", bad, got, err)
		}
	}
}

func TestCancelEndsOnlyOpenTables(t *testing.T) {
	for _, s := range []Status{StatusLobby, StatusPlaying} {
		tb := &Table{Status: s}
		if err := tb.Cancel("admin", "spam"); err != nil || tb.Status != StatusCancelled || tb.CancelledBy != "admin" || tb.CancelReason != "spam" {
			t.Errorf("%s: %v, %+v", s, err, tb)
		}
	}
	for _, s := range []Status{StatusFinished, StatusClosed, StatusCancelled} {
		tb := &Table{Status: s}
		if err := tb.Cancel("admin", ""); !errors.Is(err, ErrNotOpen) || tb.Status != s {
			t.Errorf("%s: %v, now %s", s, err, tb.Status)
		}
	}
}

func TestGuildSettingsDefaults(t *testing.T) {
	var gs GuildSettings
	if gs.Reminder(time.Hour) != time.Hour || gs.Forfeit(time.Minute) != time.Minute {
		t.Error("unset settings do not follow the bot's")
	}
	off := time.Duration(0)
	gs.ForfeitAfter = &off
	if gs.Forfeit(time.Minute) != 0 {
		t.Error("a forfeit turned off is on")
	}
}
