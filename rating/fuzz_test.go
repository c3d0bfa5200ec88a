package rating_test

import (
	"math"
	"testing"

	"github.com/cribbage-bot/cribbage/rating"
)

// within maps any finite x into [lo, hi], so the fuzzer's raw numbers
// become ratings in a sane range instead of being thrown away.
func within(x, lo, hi float64) float64 {
	return lo + (hi-lo)*math.Mod(math.Abs(x), 1)
}

// opponents turns each three bytes into a game: the opponent's rating
// (0 to 3060) and RD (1 to 350), and the score.
func opponents(games []byte) []rating.Result {
	var res []rating.Result
	for i := 0; i+2 < len(games) && len(res) < 30; i += 3 {
		res = append(res, rating.Result{
			Opponent: rating.Rating{R: 12 * float64(games[i]), RD: 1 + 349*float64(games[i+1])/255, Volatility: 0.06},
			Score:    rating.Score(games[i+2]%3) / 2,
		})
	}
	return res
}

// FuzzUpdate checks that for any ratings, results and τ in sane ranges
// (ratings 0 to 3060, RD 1 to 350, volatility 0.001 to 1, τ 0.2 to 1.5)
// Update returns a valid rating: nothing NaN or infinite, the RD positive
// and never above the newcomer's, the volatility positive. A rating the
// bot stores must never be one it cannot load.
func FuzzUpdate(f *testing.F) {
	f.Add(0.5, 200.0/350, 0.06, 0.5, []byte{117, 30, 2, 129, 100, 0, 142, 255, 0})
	f.Add(0.0, 1.0, 0.9, 0.99, []byte{255, 0, 0})
	f.Add(0.999, 0.0, 0.0, 0.0, []byte{0, 0, 2, 0, 0, 2, 0, 0, 2})
	f.Add(0.3, 0.5, 0.5, 0.5, []byte{})
	f.Fuzz(func(t *testing.T, r, rd, vol, tau float64, games []byte) {
		for _, x := range []float64{r, rd, vol, tau} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Skip()
			}
		}
		player := rating.Rating{R: within(r, 0, 3060), RD: within(rd, 1, 350), Volatility: within(vol, 0.001, 1)}
		cfg := rating.Config{Tau: within(tau, 0.2, 1.5)}
		res := opponents(games)
		got := rating.Update(player, res, cfg)
		if err := got.Validate(); err != nil {
			t.Fatalf("Update(%+v, %+v, %+v) = %+v: %v", player, res, cfg, got, err)
		}
		if limit := cfg.Newcomer().RD; got.RD > limit {
			t.Fatalf("Update(%+v, %+v, %+v): RD %v above the cap %v", player, res, cfg, got.RD, limit)
		}
	})
}
