package click

import (
	"errors"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

func TestClickIDRoundTrip(t *testing.T) {
	all := engine.CardSet(1<<52 - 1)
	for _, c := range []ID{
		{Action: Join, Table: 1},
		{Action: Hand, Table: 9223372036854775807},
		{Action: Select, Table: 12, View: "1z2y3x", Cards: all},
		{Action: Discard, Table: 12, View: "a", Cards: engine.SetOf(engine.MustParseCards("5H JS")...)},
		{Action: Play, Table: 12, View: "zzzzzzz", Card: engine.MustParseCard("TD")},
		{Action: Claimed, Table: 3, View: "abc"},
		{Action: Hint, Table: 3, View: "abc"},
		{Action: Review, Table: 3},
		{Action: Muggins, Table: 3, View: "abc", Index: 2},
		{Action: DailyOpen, Table: 20526},
		{Action: DailySelect, Table: 20526, Cards: engine.SetOf(engine.MustParseCards("5H JS")...)},
		{Action: DailyThrow, Table: 20526, Cards: engine.SetOf(engine.MustParseCards("5H")...)},
		{Action: DailyMonth, Table: 20526},
	} {
		s := c.String()
		if len(s) > MaxLen {
			t.Errorf("%s is %d characters", s, len(s))
		}
		back, err := Parse(s)
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
		if _, err := Parse(s); !errors.Is(err, ErrBad) {
			t.Errorf("%q accepted", s)
		}
	}
}

// FuzzParseClickID feeds the custom_id parser untrusted input: it must
// never panic, and anything it accepts must be exactly the id the bot
// builds for the click it parsed, under Discord's length limit.
func FuzzParseClickID(f *testing.F) {
	for _, s := range []string{"/join/1", "/sel/12/1z2y3x/fffffffffffff", "/play/3/abc/TD", "/muggins/3/abc/2", "/claimed/9/a", "/play/1/abc/10D", "/dsel/20526/3", "/dthrow/20526/0", "//", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrBad) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if back := c.String(); back != s || len(back) > MaxLen {
			t.Fatalf("%q parsed as %+v, which builds %q", s, c, back)
		}
	})
}

// TestPatterns: every action's pattern starts with its name and a table.
func TestPatterns(t *testing.T) {
	for _, a := range Actions() {
		if p := patterns[a]; !strings.HasPrefix(p, "/"+string(a)+"/{table}") {
			t.Errorf("action %q: %s", a, p)
		}
	}
}
