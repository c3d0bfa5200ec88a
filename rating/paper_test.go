package rating

import (
	"math"
	"testing"
)

// The worked example of Glickman's "Example of the Glicko-2 system"
// (glicko.net/glicko/glicko2.pdf): a player rated 1500, RD 200, σ 0.06
// plays three opponents in one period with τ = 0.5, winning the first.
// The opponents' volatilities do not enter the algorithm.
var (
	paperPlayer  = Rating{R: 1500, RD: 200, Volatility: 0.06}
	paperResults = []Result{
		{Opponent: Rating{R: 1400, RD: 30, Volatility: 0.06}, Score: Win},
		{Opponent: Rating{R: 1550, RD: 100, Volatility: 0.06}, Score: Loss},
		{Opponent: Rating{R: 1700, RD: 300, Volatility: 0.06}, Score: Loss},
	}
	paperConfig = Config{Tau: 0.5}
)

// round rounds x to the given number of decimal places, as the paper
// prints most of its numbers.
func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// truncate cuts x to the given number of decimal places, as the paper
// prints σ′ (0.0599960 appears as 0.05999).
func truncate(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Trunc(x*p) / p
}

// same reports whether two printed decimals are the same number.
func same(a, b float64) bool {
	return math.Abs(a-b) < 1e-9
}

// TestPaperExample checks Update's answer against the paper's final
// numbers, each to the precision the paper prints it.
func TestPaperExample(t *testing.T) {
	got := Update(paperPlayer, paperResults, paperConfig)
	mu := (got.R - 1500) / Scale
	phi := got.RD / Scale
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		// Step 7.
		{"μ′", round(mu, 4), -0.2069},
		{"φ′", round(phi, 4), 0.8722},
		// Step 5. σ′ is 0.0599960: the paper truncates it rather than
		// rounding to 0.06000.
		{"σ′", truncate(got.Volatility, 5), 0.05999},
		// Step 8.
		{"RD′", round(got.RD, 2), 151.52},
		// Step 8 converts μ′ after rounding it to four places:
		// 173.7178 × −0.2069 + 1500 = 1464.0575. The exact μ′ gives
		// 1464.0507, so r′ is checked the way the paper computed it, and
		// below within what that rounding can move it.
		{"r′ from the printed μ′", round(Scale*round(mu, 4)+1500, 2), 1464.06},
	}
	for _, tt := range tests {
		if !same(tt.got, tt.want) {
			t.Errorf("%s = %v, the paper prints %v", tt.name, tt.got, tt.want)
		}
	}
	// Rounding μ′ to four places moves r′ by up to 173.7178 × 0.00005,
	// and printing r′ to two places by up to 0.005 more.
	if tol := Scale*0.00005 + 0.005; math.Abs(got.R-1464.06) > tol {
		t.Errorf("r′ = %.4f, more than %.4f from the paper's 1464.06", got.R, tol)
	}
}

// TestPaperSteps checks each step against the paper's intermediate
// numbers. From step 3 on the paper computes with its printed, rounded
// values (v = 1.7785 comes from E rounded to three places; unrounded it
// is 1.7790), so each step here is fed the paper's inputs, which checks
// the formula rather than the accumulated rounding.
func TestPaperSteps(t *testing.T) {
	p := toPoint(paperPlayer)
	ts := terms(p, paperResults)
	opp := make([]point, len(paperResults))
	for i, res := range paperResults {
		opp[i] = toPoint(res.Opponent)
	}
	// The paper's table for steps 3 and 4, as printed.
	printed := []term{
		{g: 0.9955, e: 0.639, s: 1},
		{g: 0.9531, e: 0.432, s: 0},
		{g: 0.7242, e: 0.303, s: 0},
	}
	const phi, v, delta, sigma = 1.1513, 1.7785, -0.4834, 0.05999
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"step 2: μ", round(p.mu, 4), 0},
		{"step 2: φ", round(p.phi, 4), phi},
		{"step 2: μ1", round(opp[0].mu, 4), -0.5756},
		{"step 2: φ1", round(opp[0].phi, 4), 0.1727},
		{"step 2: μ2", round(opp[1].mu, 4), 0.2878},
		{"step 2: φ2", round(opp[1].phi, 4), 0.5756},
		{"step 2: μ3", round(opp[2].mu, 4), 1.1513},
		{"step 2: φ3", round(opp[2].phi, 4), 1.7269},
		{"step 3: g(φ1)", round(ts[0].g, 4), 0.9955},
		{"step 3: g(φ2)", round(ts[1].g, 4), 0.9531},
		{"step 3: g(φ3)", round(ts[2].g, 4), 0.7242},
		{"step 3: E1", round(ts[0].e, 3), 0.639},
		{"step 3: E2", round(ts[1].e, 3), 0.432},
		{"step 3: E3", round(ts[2].e, 3), 0.303},
		{"step 3: v", round(variance(printed), 4), v},
		{"step 4: Δ", round(v*surprise(printed), 4), delta},
		{"step 5: σ′", truncate(volatility(phi, 0.06, v, delta, 0.5, defaultTolerance), 5), sigma},
		{"step 6: φ*", round(prePeriodPhi(phi, sigma, math.Inf(1)), 6), 1.152862},
	}
	for _, tt := range tests {
		if !same(tt.got, tt.want) {
			t.Errorf("%s = %v, the paper prints %v", tt.name, tt.got, tt.want)
		}
	}
}
