package bot

import (
	"errors"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

func TestClickIDRoundTrip(t *testing.T) {
	all := engine.CardSet(1<<52 - 1)
	for _, c := range []clickID{
		{Action: "join", Table: 1},
		{Action: "hand", Table: 9223372036854775807},
		{Action: "sel", Table: 12, View: "1z2y3x", Cards: all},
		{Action: "discard", Table: 12, View: "a", Cards: engine.SetOf(engine.MustParseCards("5H JS")...)},
		{Action: "play", Table: 12, View: "zzzzzzz", Card: engine.MustParseCard("TD")},
		{Action: "claimed", Table: 3, View: "abc"},
		{Action: "hint", Table: 3, View: "abc"},
		{Action: "review", Table: 3},
		{Action: "muggins", Table: 3, View: "abc", Index: 2},
	} {
		s := c.String()
		if len(s) > maxCustomID {
			t.Errorf("%s is %d characters", s, len(s))
		}
		back, err := parseClickID(s)
		if err != nil || back != c {
			t.Errorf("%s → %+v, %v; want %+v", s, back, err, c)
		}
	}
}

func TestForgedClickIDsAreRefused(t *testing.T) {
	for _, s := range []string{
		"", "join/1", "/join", "/join/x", "/join/-4", "/join/1/extra", "/nuke/1", "/play/1/abc/ZZ",
		"/play/1/abc/10D", "/play/1/ABC/KH", "/sel/1/abc/fffffffffffffffff", "/sel/1/abc/zz",
		"/muggins/1/abc/-1", "/play/1/toolongview/KH", "/" + strings.Repeat("a", 120),
	} {
		if _, err := parseClickID(s); !errors.Is(err, errBadCustomID) {
			t.Errorf("%q accepted", s)
		}
	}
}
