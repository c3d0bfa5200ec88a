package rating_test

import (
	"math"
	"slices"
	"testing"

	"github.com/cribbage-bot/cribbage/rating"
)

func TestTeam(t *testing.T) {
	tests := []struct {
		name    string
		members []rating.Rating
		want    rating.Rating
	}{
		{"nobody", nil, rating.Rating{}},
		{"one person is themselves",
			[]rating.Rating{{R: 1623, RD: 87, Volatility: 0.061}},
			rating.Rating{R: 1623, RD: 87, Volatility: 0.061}},
		{"two newcomers are as unknown as one",
			[]rating.Rating{{R: 1500, RD: 350, Volatility: 0.06}, {R: 1500, RD: 350, Volatility: 0.06}},
			rating.Rating{R: 1500, RD: 350, Volatility: 0.06}},
		// RD √((100² + 200²) / 2) = 158.1139.
		{"mixed pair",
			[]rating.Rating{{R: 1400, RD: 100, Volatility: 0.05}, {R: 1600, RD: 200, Volatility: 0.07}},
			rating.Rating{R: 1500, RD: 158.1139, Volatility: 0.06}},
	}
	for _, tt := range tests {
		got := rating.Team(tt.members...)
		if math.Abs(got.R-tt.want.R) > 1e-4 || math.Abs(got.RD-tt.want.RD) > 1e-4 || math.Abs(got.Volatility-tt.want.Volatility) > 1e-9 {
			t.Errorf("%s: Team = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestGame checks that both players are rated from the ratings before the
// game, each as an ordinary one-game period.
func TestGame(t *testing.T) {
	a := rating.Rating{R: 1550, RD: 120, Volatility: 0.06}
	b := rating.Rating{R: 1480, RD: 200, Volatility: 0.07}
	for _, s := range []rating.Score{rating.Win, rating.Draw, rating.Loss} {
		gotA, gotB := rating.Game(a, b, s, rating.Config{})
		if want := play(a, b, s); gotA != want {
			t.Errorf("score %v: a = %+v, want %+v", s, gotA, want)
		}
		if want := play(b, a, 1-s); gotB != want {
			t.Errorf("score %v: b = %+v, want %+v", s, gotB, want)
		}
	}
}

func TestTeamGame(t *testing.T) {
	north := rating.Rating{R: 1610, RD: 80, Volatility: 0.06}
	south := rating.Rating{R: 1390, RD: 250, Volatility: 0.06}
	east := rating.Rating{R: 1500, RD: 350, Volatility: 0.06}
	west := rating.Rating{R: 1550, RD: 60, Volatility: 0.06}
	tests := []struct {
		name string
		a, b []rating.Rating
		s    rating.Score
	}{
		{"partners, a win", []rating.Rating{north, south}, []rating.Rating{east, west}, rating.Win},
		{"partners, a loss", []rating.Rating{north, south}, []rating.Rating{east, west}, rating.Loss},
		{"teams of one are a Game", []rating.Rating{north}, []rating.Rating{west}, rating.Win},
		{"no opponents, no game", []rating.Rating{north, south}, nil, rating.Win},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a0, b0 := slices.Clone(tt.a), slices.Clone(tt.b)
			gotA, gotB := rating.TeamGame(tt.a, tt.b, tt.s, rating.Config{})
			if !slices.Equal(tt.a, a0) || !slices.Equal(tt.b, b0) {
				t.Fatalf("TeamGame changed its inputs")
			}
			if len(tt.a) == 0 || len(tt.b) == 0 {
				if !slices.Equal(gotA, tt.a) || !slices.Equal(gotB, tt.b) {
					t.Errorf("with an empty team got %+v, %+v, want the ratings unchanged", gotA, gotB)
				}
				return
			}
			for i, p := range tt.a {
				if want := play(p, rating.Team(tt.b...), tt.s); gotA[i] != want {
					t.Errorf("a[%d] = %+v, want %+v (rated against the other team as one)", i, gotA[i], want)
				}
				if moved := gotA[i].R - p.R; (tt.s == rating.Win) != (moved > 0) {
					t.Errorf("a[%d] moved %v after score %v", i, moved, tt.s)
				}
			}
			for i, p := range tt.b {
				if want := play(p, rating.Team(tt.a...), 1-tt.s); gotB[i] != want {
					t.Errorf("b[%d] = %+v, want %+v (rated against the other team as one)", i, gotB[i], want)
				}
			}
			if len(tt.a) == 1 && len(tt.b) == 1 {
				wantA, wantB := rating.Game(tt.a[0], tt.b[0], tt.s, rating.Config{})
				if gotA[0] != wantA || gotB[0] != wantB {
					t.Errorf("teams of one rate %+v, %+v; Game rates %+v, %+v", gotA[0], gotB[0], wantA, wantB)
				}
			}
		})
	}
}

// TestTeamGameIgnoresPartner pins the limit TeamGame documents: a
// person's new rating does not depend on who their partner was.
func TestTeamGameIgnoresPartner(t *testing.T) {
	me := rating.Rating{R: 1500, RD: 150, Volatility: 0.06}
	them := []rating.Rating{{R: 1500, RD: 100, Volatility: 0.06}, {R: 1500, RD: 100, Volatility: 0.06}}
	partners := []rating.Rating{
		{R: 1100, RD: 60, Volatility: 0.06},
		{R: 1500, RD: 350, Volatility: 0.06},
		{R: 1950, RD: 60, Volatility: 0.06},
	}
	var first rating.Rating
	for i, partner := range partners {
		got, _ := rating.TeamGame([]rating.Rating{me, partner}, them, rating.Win, rating.Config{})
		if i == 0 {
			first = got[0]
		} else if got[0] != first {
			t.Errorf("with partner %+v: %+v, with %+v: %+v", partner, got[0], partners[0], first)
		}
	}
}

// TestRateBouts: a period of bouts is the games it stands for, each
// player rated once from everyone's ratings before it.
func TestRateBouts(t *testing.T) {
	var cfg rating.Config
	ann, bob := rating.Rating{R: 1550, RD: 120, Volatility: 0.06}, rating.Rating{R: 1480, RD: 200, Volatility: 0.06}
	cat, dan := rating.Rating{R: 1700, RD: 60, Volatility: 0.059}, cfg.Newcomer()
	before := map[string]rating.Rating{"ann": ann, "bob": bob, "cat": cat, "dan": dan}
	g1, g2 := rating.Game(ann, bob, rating.Win, cfg)
	pair1, pair2 := rating.TeamGame([]rating.Rating{ann, cat}, []rating.Rating{bob, dan}, rating.Loss, cfg)
	tests := []struct {
		name  string
		bouts []rating.Bout[string]
		want  map[string]rating.Rating
	}{
		{"two people are Game", []rating.Bout[string]{{Winners: []string{"ann"}, Losers: []string{"bob"}}},
			map[string]rating.Rating{"ann": g1, "bob": g2}},
		{"two teams are TeamGame", []rating.Bout[string]{{Winners: []string{"bob", "dan"}, Losers: []string{"ann", "cat"}}},
			map[string]rating.Rating{"ann": pair1[0], "cat": pair1[1], "bob": pair2[0], "dan": pair2[1]}},
		{"a winner against each of three", []rating.Bout[string]{
			{Winners: []string{"cat"}, Losers: []string{"ann"}}, {Winners: []string{"cat"}, Losers: []string{"bob"}}, {Winners: []string{"cat"}, Losers: []string{"dan"}}},
			map[string]rating.Rating{
				"cat": rating.Update(cat, []rating.Result{{Opponent: ann, Score: rating.Win}, {Opponent: bob, Score: rating.Win}, {Opponent: dan, Score: rating.Win}}, cfg),
				"ann": rating.Update(ann, []rating.Result{{Opponent: cat, Score: rating.Loss}}, cfg),
				"bob": rating.Update(bob, []rating.Result{{Opponent: cat, Score: rating.Loss}}, cfg),
				"dan": rating.Update(dan, []rating.Result{{Opponent: cat, Score: rating.Loss}}, cfg)}},
		{"a bout with an empty side is no game", []rating.Bout[string]{{Winners: []string{"ann"}}}, map[string]rating.Rating{}},
		{"no bouts", nil, map[string]rating.Rating{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rating.RateBouts(before, tt.bouts, cfg)
			if len(got) != len(tt.want) {
				t.Fatalf("rated %v, want %v", got, tt.want)
			}
			for k, w := range tt.want {
				if got[k] != w {
					t.Errorf("%s: %+v, want %+v", k, got[k], w)
				}
			}
			if before["ann"] != ann {
				t.Error("RateBouts changed the ratings before")
			}
		})
	}
}

// TestIdlePeriods: n idle periods at once are Idle n times over, up to
// the newcomer's RD, and the volatility stays.
func TestIdlePeriods(t *testing.T) {
	var cfg rating.Config
	settled := rating.Rating{R: 1620, RD: 60, Volatility: 0.06}
	for _, n := range []int{-1, 0, 1, 2, 7, 79, 500} {
		want := settled
		for range n {
			want = rating.Idle(want, cfg)
		}
		got := rating.IdlePeriods(settled, n, cfg)
		if got.R != want.R || got.Volatility != want.Volatility || math.Abs(got.RD-want.RD) > 1e-9 {
			t.Errorf("%d periods: %+v, want %+v", n, got, want)
		}
	}
}
