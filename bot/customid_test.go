package bot

import (
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/engine"
)

func TestClickIDRoundTrip(t *testing.T) {
	all := engine.CardSet(1<<52 - 1)
	for _, c := range []clickID{
		{Action: actJoin, Table: 1},
		{Action: actHand, Table: 9223372036854775807},
		{Action: actSelect, Table: 12, View: "1z2y3x", Cards: all},
		{Action: actDiscard, Table: 12, View: "a", Cards: engine.SetOf(engine.MustParseCards("5H JS")...)},
		{Action: actPlay, Table: 12, View: "zzzzzzz", Card: engine.MustParseCard("TD")},
		{Action: actClaimed, Table: 3, View: "abc"},
		{Action: actHint, Table: 3, View: "abc"},
		{Action: actReview, Table: 3},
		{Action: actMuggins, Table: 3, View: "abc", Index: 2},
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

// FuzzParseClickID feeds the custom_id parser untrusted input: it must
// never panic, and anything it accepts must be exactly the id the bot
// builds for the click it parsed, under Discord's length limit.
func FuzzParseClickID(f *testing.F) {
	for _, s := range []string{"/join/1", "/sel/12/1z2y3x/fffffffffffff", "/play/3/abc/TD", "/muggins/3/abc/2", "/claimed/9/a", "/play/1/abc/10D", "//", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseClickID(s)
		if err != nil {
			if !errors.Is(err, errBadCustomID) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if back := c.String(); back != s || len(back) > maxCustomID {
			t.Fatalf("%q parsed as %+v, which builds %q", s, c, back)
		}
	})
}

// TestRouteTable: every action has one route with a pattern starting with
// its name, and every subcommand (and user command) registered with
// Discord has one handler.
func TestRouteTable(t *testing.T) {
	seen := map[action]bool{}
	for _, r := range clickRoutes {
		if seen[r.action] || !strings.HasPrefix(r.pattern, "/"+string(r.action)+"/{table}") {
			t.Errorf("route %q: %s", r.action, r.pattern)
		}
		seen[r.action] = true
	}
	registered := map[routeKey]bool{}
	for _, c := range commandDefinitions() {
		if c.Type == discordgo.UserApplicationCommand {
			k := routeKey{c.Name, ""}
			registered[k] = true
			if _, ok := commandsByName[k]; !ok {
				t.Errorf("the user command %q is registered but has no route", c.Name)
			}
		}
		for _, o := range c.Options {
			paths := []string{o.Name}
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				paths = nil
				for _, s := range o.Options {
					paths = append(paths, o.Name+" "+s.Name)
				}
			}
			for _, p := range paths {
				k := routeKey{c.Name, p}
				registered[k] = true
				if _, ok := commandsByName[k]; !ok {
					t.Errorf("/%s %s is registered but has no route", c.Name, p)
				}
			}
		}
	}
	for _, r := range commandRoutes {
		if !registered[routeKey{r.command, r.name}] {
			t.Errorf("route /%s %s is not a registered subcommand", r.command, r.name)
		}
	}
}
