package rating_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/cribbage-bot/cribbage/rating"
)

// near reports whether two ratings agree to well below anything shown.
func near(a, b float64) bool {
	return math.Abs(a-b) < 1e-9
}

// play rates one game as its own rating period, as the bot does.
func play(p, opp rating.Rating, s rating.Score) rating.Rating {
	return rating.Update(p, []rating.Result{{Opponent: opp, Score: s}}, rating.Config{})
}

func TestIdle(t *testing.T) {
	tests := []struct {
		name   string
		in     rating.Rating
		wantRD float64
	}{
		// √(60² + (0.06 × 173.7178)²): the volatility, on the Glicko scale,
		// adds in quadrature.
		{"settled player grows", rating.Rating{R: 1700, RD: 60, Volatility: 0.06}, 60.8986},
		{"volatile player grows faster", rating.Rating{R: 1700, RD: 60, Volatility: 0.2}, 69.3334},
		{"growth stops at the newcomer's RD", rating.Rating{R: 1400, RD: 349.9, Volatility: 0.06}, 350},
		{"newcomer stays a newcomer", rating.Rating{R: 1500, RD: 350, Volatility: 0.06}, 350},
		{"RD from a looser config is brought back to the cap", rating.Rating{R: 1500, RD: 500, Volatility: 0.06}, 350},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rating.Idle(tt.in, rating.Config{})
			if math.Abs(got.RD-tt.wantRD) > 0.0001 {
				t.Errorf("RD = %.4f, want %.4f", got.RD, tt.wantRD)
			}
			if got.R != tt.in.R || got.Volatility != tt.in.Volatility {
				t.Errorf("Idle changed more than the RD: %+v from %+v", got, tt.in)
			}
			if none := rating.Update(tt.in, nil, rating.Config{}); none != got {
				t.Errorf("Update with no games = %+v, Idle = %+v", none, got)
			}
		})
	}
}

// TestRDCap checks that no RD the package returns exceeds the newcomer's,
// however long someone is away or however improbable their results.
func TestRDCap(t *testing.T) {
	tests := []struct {
		name  string
		cfg   rating.Config
		start rating.Rating
		opp   rating.Rating
		score rating.Score
	}{
		{"long absence", rating.Config{}, rating.Rating{R: 1500, RD: 50, Volatility: 0.06}, rating.Rating{}, 0},
		{"volatile newcomer loses to a far weaker player", rating.Config{}, rating.Rating{R: 1500, RD: 350, Volatility: 0.5}, rating.Rating{R: 700, RD: 30, Volatility: 0.06}, rating.Loss},
		{"volatile newcomer beats an unknown", rating.Config{}, rating.Rating{R: 1500, RD: 350, Volatility: 1}, rating.Rating{R: 2500, RD: 350, Volatility: 0.06}, rating.Win},
		{"a tighter cap from the config", rating.Config{Initial: rating.Rating{RD: 250}}, rating.Rating{R: 1500, RD: 240, Volatility: 0.3}, rating.Rating{R: 800, RD: 50, Volatility: 0.06}, rating.Loss},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			limit := tt.cfg.Newcomer().RD
			p := tt.start
			for i := range 2000 {
				next := rating.Idle(p, tt.cfg)
				if tt.opp != (rating.Rating{}) {
					next = rating.Update(p, []rating.Result{{Opponent: tt.opp, Score: tt.score}}, tt.cfg)
				} else if next.RD < p.RD {
					t.Fatalf("period %d: idle RD fell from %v to %v", i, p.RD, next.RD)
				}
				if next.RD > limit {
					t.Fatalf("period %d: RD %v above the cap %v", i, next.RD, limit)
				}
				p = next
			}
			if tt.opp == (rating.Rating{}) && p.RD != limit {
				t.Errorf("after 2000 idle periods RD = %v, want the cap %v", p.RD, limit)
			}
		})
	}
}

// TestStrongerOpponentCountsMore checks the point of a rating over a win
// count: beating a stronger player is worth more than beating a weaker
// one, and losing to a weaker player costs more.
func TestStrongerOpponentCountsMore(t *testing.T) {
	tests := []struct {
		name             string
		player           rating.Rating
		weaker, stronger float64
	}{
		{"newcomer", rating.Rating{R: 1500, RD: 350, Volatility: 0.06}, 1300, 1700},
		{"settled, close opponents", rating.Rating{R: 1600, RD: 60, Volatility: 0.06}, 1550, 1650},
		{"settled, far opponents", rating.Rating{R: 1600, RD: 60, Volatility: 0.06}, 1000, 2200},
		{"both above the player", rating.Rating{R: 1400, RD: 120, Volatility: 0.06}, 1500, 1900},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			weak := rating.Rating{R: tt.weaker, RD: 80, Volatility: 0.06}
			strong := rating.Rating{R: tt.stronger, RD: 80, Volatility: 0.06}
			winWeak := play(tt.player, weak, rating.Win).R - tt.player.R
			winStrong := play(tt.player, strong, rating.Win).R - tt.player.R
			if !(winStrong > winWeak && winWeak > 0) {
				t.Errorf("a win gains %.2f against %v and %.2f against %v", winWeak, tt.weaker, winStrong, tt.stronger)
			}
			loseWeak := tt.player.R - play(tt.player, weak, rating.Loss).R
			loseStrong := tt.player.R - play(tt.player, strong, rating.Loss).R
			if !(loseWeak > loseStrong && loseStrong > 0) {
				t.Errorf("a loss costs %.2f against %v and %.2f against %v", loseWeak, tt.weaker, loseStrong, tt.stronger)
			}
		})
	}
}

// TestSymmetric checks that the rating favours neither side of a game
// between equals: a win gains what a loss costs, the winner gains what
// the loser loses, and a draw changes nobody's rating.
func TestSymmetric(t *testing.T) {
	tests := []struct {
		name string
		a    rating.Rating
	}{
		{"newcomers", rating.Rating{R: 1500, RD: 350, Volatility: 0.06}},
		{"settled", rating.Rating{R: 1720, RD: 70, Volatility: 0.06}},
		{"volatile", rating.Rating{R: 1310, RD: 180, Volatility: 0.15}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.a
			won, lost := play(tt.a, b, rating.Win), play(b, tt.a, rating.Loss)
			if !near(won.R-tt.a.R, b.R-lost.R) {
				t.Errorf("winner gains %v, loser loses %v", won.R-tt.a.R, b.R-lost.R)
			}
			if !near(won.RD, lost.RD) || !near(won.Volatility, lost.Volatility) {
				t.Errorf("winner %+v and loser %+v differ in more than R", won, lost)
			}
			if drew := play(tt.a, b, rating.Draw); !near(drew.R, tt.a.R) {
				t.Errorf("a draw between equals moved R from %v to %v", tt.a.R, drew.R)
			}
		})
	}
}

func TestProvisional(t *testing.T) {
	tests := []struct {
		rd   float64
		want bool
	}{
		{350, true},
		{110.01, true},
		{rating.ProvisionalRD, false},
		{60, false},
	}
	for _, tt := range tests {
		r := rating.Rating{R: 1500, RD: tt.rd, Volatility: 0.06}
		if got := r.Provisional(rating.ProvisionalRD); got != tt.want {
			t.Errorf("RD %v: Provisional = %v, want %v", tt.rd, got, tt.want)
		}
	}
}

// TestGamesToSettle pins the numbers the package documentation quotes:
// how many games, each its own period and alternately won and lost, a
// newcomer needs before the rating stops being provisional.
func TestGamesToSettle(t *testing.T) {
	tests := []struct {
		name string
		opp  rating.Rating // zero: a fellow newcomer, rated as they go
		want int
	}{
		{"against settled players", rating.Rating{R: 1500, RD: 60, Volatility: 0.06}, 10},
		{"in a new club, against another newcomer", rating.Rating{}, 14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, other := rating.Config{}.Newcomer(), rating.Config{}.Newcomer()
			games := 0
			for p.Provisional(rating.ProvisionalRD) && games < 100 {
				opp := tt.opp
				if opp == (rating.Rating{}) {
					opp = other
				}
				s := rating.Score(games % 2)
				p, other = play(p, opp, s), play(other, p, 1-s)
				games++
			}
			if games != tt.want {
				t.Errorf("settled after %d games, the documentation says %d", games, tt.want)
			}
		})
	}
}

// TestRegularStaysSettled pins the other numbers the documentation
// quotes: with one game a period the RD of a regular settles at about 60,
// and from there it takes 78 periods without a game to turn provisional.
func TestRegularStaysSettled(t *testing.T) {
	p := rating.Config{}.Newcomer()
	opp := rating.Rating{R: 1500, RD: 60, Volatility: 0.06}
	for i := range 1000 {
		p = play(p, opp, rating.Score(i%2))
	}
	if math.Round(p.RD) != 60 {
		t.Errorf("a regular's RD settles at %.2f, the documentation says about 60", p.RD)
	}
	idle := 0
	for !p.Provisional(rating.ProvisionalRD) {
		p = rating.Idle(p, rating.Config{})
		idle++
	}
	if idle != 78 {
		t.Errorf("provisional again after %d idle periods, the documentation says 78", idle)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		r    rating.Rating
		ok   bool
	}{
		{"newcomer", rating.Config{}.Newcomer(), true},
		{"negative rating is still a rating", rating.Rating{R: -40, RD: 30, Volatility: 0.05}, true},
		{"NaN rating", rating.Rating{R: math.NaN(), RD: 30, Volatility: 0.05}, false},
		{"infinite rating", rating.Rating{R: math.Inf(1), RD: 30, Volatility: 0.05}, false},
		{"zero RD", rating.Rating{R: 1500, RD: 0, Volatility: 0.05}, false},
		{"negative RD", rating.Rating{R: 1500, RD: -1, Volatility: 0.05}, false},
		{"NaN RD", rating.Rating{R: 1500, RD: math.NaN(), Volatility: 0.05}, false},
		{"zero volatility", rating.Rating{R: 1500, RD: 30}, false},
		{"infinite volatility", rating.Rating{R: 1500, RD: 30, Volatility: math.Inf(1)}, false},
	}
	for _, tt := range tests {
		err := tt.r.Validate()
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, rating.ErrInvalid)) {
			t.Errorf("%s: Validate() = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

// TestConfigDefaults checks that a zero field is the paper's value.
func TestConfigDefaults(t *testing.T) {
	if got, want := (rating.Config{}).Newcomer(), (rating.Rating{R: 1500, RD: 350, Volatility: 0.06}); got != want {
		t.Errorf("zero Config's newcomer = %+v, want %+v", got, want)
	}
	if got, want := (rating.Config{Initial: rating.Rating{R: 1200}}).Newcomer(), (rating.Rating{R: 1200, RD: 350, Volatility: 0.06}); got != want {
		t.Errorf("newcomer with only R set = %+v, want %+v", got, want)
	}
	explicit := rating.Config{Tau: 0.5, Initial: rating.Rating{R: 1500, RD: 350, Volatility: 0.06}, Tolerance: 0.000001}
	p := rating.Rating{R: 1580, RD: 90, Volatility: 0.07}
	res := []rating.Result{{Opponent: rating.Rating{R: 1450, RD: 120, Volatility: 0.06}, Score: rating.Loss}}
	if a, b := rating.Update(p, res, rating.Config{}), rating.Update(p, res, explicit); a != b {
		t.Errorf("zero Config rates %+v, the paper's values %+v", a, b)
	}
}

// TestUpdateLeavesInputs checks that Update reads its results and never
// writes them, so a caller can rate both sides from the same slice.
func TestUpdateLeavesInputs(t *testing.T) {
	res := []rating.Result{
		{Opponent: rating.Rating{R: 1400, RD: 30, Volatility: 0.06}, Score: rating.Win},
		{Opponent: rating.Rating{R: 1700, RD: 300, Volatility: 0.06}, Score: rating.Loss},
	}
	before := slices.Clone(res)
	rating.Update(rating.Config{}.Newcomer(), res, rating.Config{})
	if !slices.Equal(res, before) {
		t.Errorf("Update changed its results: %+v, was %+v", res, before)
	}
}

// TestCertainResultIsNoGame checks the guard against ratings so far apart
// that the expected score is exactly 0 or 1 in floating point: step 3's v
// would be infinite, so the game is rated as none.
func TestCertainResultIsNoGame(t *testing.T) {
	p := rating.Rating{R: 1500, RD: 120, Volatility: 0.06}
	far := rating.Rating{R: 1_000_000, RD: 30, Volatility: 0.06}
	for _, s := range []rating.Score{rating.Win, rating.Loss} {
		got := play(p, far, s)
		if want := rating.Idle(p, rating.Config{}); got != want {
			t.Errorf("score %v against %v: %+v, want the idle %+v", s, far.R, got, want)
		}
	}
}
