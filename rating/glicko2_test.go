package rating

import (
	"math"
	"testing"
)

// paperF is the function of step 5 whose root is ln σ′², written out
// again from the paper so that a slip in volatility's copy shows.
func paperF(x, phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	num := math.Exp(x) * (delta*delta - phi*phi - v - math.Exp(x))
	den := 2 * math.Pow(phi*phi+v+math.Exp(x), 2)
	return num/den - (x-a)/math.Pow(tau, 2)
}

// TestVolatilityIsRoot checks that step 5 lands on the root of f: the
// Illinois algorithm keeps the root between its two ends and stops when
// they are ε apart, so f changes sign across the answer ± ε. The paper's
// example barely moves σ, so the cases here are ones where it moves a
// lot, on both of the paper's ways of choosing the second end B.
func TestVolatilityIsRoot(t *testing.T) {
	tests := []struct {
		name                      string
		phi, sigma, v, delta, tau float64
		wantBigDelta, wantSigmaUp bool
	}{
		{name: "paper", phi: 1.1513, sigma: 0.06, v: 1.7785, delta: -0.4834, tau: 0.5},
		{name: "upset, small tau", phi: 0.3, sigma: 0.06, v: 0.5, delta: 3, tau: 0.3, wantBigDelta: true, wantSigmaUp: true},
		{name: "upset, large tau", phi: 0.3, sigma: 0.06, v: 0.5, delta: 3, tau: 1.2, wantBigDelta: true, wantSigmaUp: true},
		{name: "huge upset", phi: 0.2, sigma: 0.04, v: 20, delta: -40, tau: 0.5, wantBigDelta: true, wantSigmaUp: true},
		{name: "as expected, large tau", phi: 0.5, sigma: 0.2, v: 4, delta: 0, tau: 1.2},
		{name: "as expected, tiny tau", phi: 0.5, sigma: 0.2, v: 4, delta: 0, tau: 0.05},
		{name: "high volatility settles", phi: 2, sigma: 0.5, v: 2, delta: 0.1, tau: 0.5},
	}
	const eps = defaultTolerance
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if big := tt.delta*tt.delta > tt.phi*tt.phi+tt.v; big != tt.wantBigDelta {
				t.Fatalf("case takes the Δ² > φ² + v branch: %v, want %v", big, tt.wantBigDelta)
			}
			got := volatility(tt.phi, tt.sigma, tt.v, tt.delta, tt.tau, eps)
			x := math.Log(got * got)
			lo := paperF(x-2*eps, tt.phi, tt.sigma, tt.v, tt.delta, tt.tau)
			hi := paperF(x+2*eps, tt.phi, tt.sigma, tt.v, tt.delta, tt.tau)
			if lo*hi > 0 {
				t.Errorf("σ′ = %v: f(ln σ′² ± 2ε) = %v, %v, no root between", got, lo, hi)
			}
			if up := got > tt.sigma; up != tt.wantSigmaUp {
				t.Errorf("σ′ = %v from σ = %v: rose %v, want %v", got, tt.sigma, up, tt.wantSigmaUp)
			}
		})
	}
}

// TestTauLimitsVolatility checks what τ is for: the same surprise moves
// the volatility further under a larger τ.
func TestTauLimitsVolatility(t *testing.T) {
	taus := []float64{0.2, 0.3, 0.5, 0.8, 1.2}
	prev := 0.0
	for _, tau := range taus {
		got := volatility(0.3, 0.06, 0.5, 3, tau, defaultTolerance)
		if got <= prev {
			t.Errorf("τ = %v: σ′ = %v, not above %v from a smaller τ", tau, got, prev)
		}
		prev = got
	}
}
