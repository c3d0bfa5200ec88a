package rating

import "math"

// Scale is the paper's factor between the Glicko scale players see and
// the Glicko-2 scale the algorithm works on: μ = (r − 1500)/Scale and
// φ = RD/Scale (step 2).
const Scale = 173.7178

// centre is the rating at μ = 0 in step 2's conversion. Only differences
// of μ enter the algorithm, so it stays 1500 whatever Config.Initial says.
const centre = 1500

// maxIterations bounds the loops of step 5. The Illinois search takes two
// steps on the paper's example, and at most 30 over two million random
// periods in FuzzUpdate's ranges; the bound is there so that a
// pathological input (a negative τ, say) costs a poor volatility, never a
// goroutine that does not return.
const maxIterations = 100

// point is a rating on the Glicko-2 scale.
type point struct {
	mu, phi, sigma float64
}

func toPoint(r Rating) point {
	return point{mu: (r.R - centre) / Scale, phi: r.RD / Scale, sigma: r.Volatility}
}

func (p point) rating() Rating {
	return Rating{R: Scale*p.mu + centre, RD: Scale * p.phi, Volatility: p.sigma}
}

// term is what one game contributes to steps 3, 4 and 7: the weight g of
// the opponent's uncertainty, the expected score E and the actual score.
type term struct {
	g, e, s float64
}

// g is the paper's g(φ): a game against an opponent we know less about
// counts for less.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is the paper's E(μ, μj, φj), the score the player is expected
// to make against the opponent, given g(φj).
func expected(mu, muj, gj float64) float64 {
	return 1 / (1 + math.Exp(-gj*(mu-muj)))
}

// terms works out each game's term for player p.
func terms(p point, results []Result) []term {
	ts := make([]term, len(results))
	for i, res := range results {
		o := toPoint(res.Opponent)
		gj := g(o.phi)
		ts[i] = term{g: gj, e: expected(p.mu, o.mu, gj), s: float64(res.Score)}
	}
	return ts
}

// variance is step 3's v, the variance of the player's rating estimated
// from the games alone.
func variance(ts []term) float64 {
	var info float64
	for _, t := range ts {
		info += t.g * t.g * t.e * (1 - t.e)
	}
	return 1 / info
}

// surprise is the sum Σ g(φj)(sj − Ej) of steps 4 and 7: how much better
// than expected the player did, weighted by what each game tells.
func surprise(ts []term) float64 {
	var sum float64
	for _, t := range ts {
		sum += t.g * (t.s - t.e)
	}
	return sum
}

// volatility is step 5: the new σ, the root of the paper's f found by
// the Illinois algorithm (regula falsi that halves the stale end's value
// so that both ends move).
func volatility(phi, sigma, v, delta, tau, eps float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for k < maxIterations && f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; i < maxIterations && math.Abs(B-A) > eps; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		// "≤", not "<": if f(C) is exactly zero, "<" would halve fA for
		// ever while B sits on the root and A never moves.
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// prePeriodPhi is step 6: uncertainty grows with the volatility over a
// period, capped at the newcomer's φ. The cap is the convention of
// Glickman's own Glicko paper (RD = min(√(RD² + c²t), 350)), which
// Glicko-2's step 6 dropped: we never know less about someone than about
// a stranger, and without the cap a long absence would let one game swing
// a returning player's rating further than a newcomer's.
func prePeriodPhi(phi, sigma, maxPhi float64) float64 {
	return math.Min(math.Sqrt(phi*phi+sigma*sigma), maxPhi)
}

// Update rates one rating period: the player's new rating after results,
// the games of the period, each against the opponent's rating at the
// start of the period (the paper's steps 1 to 8). With no results it is
// Idle. It assumes valid ratings (see Rating.Validate) and never changes
// its inputs.
func Update(player Rating, results []Result, cfg Config) Rating {
	cfg = cfg.withDefaults()
	if len(results) == 0 {
		return Idle(player, cfg)
	}
	p := toPoint(player)
	ts := terms(p, results)
	v := variance(ts)
	// Ratings so far apart that E is exactly 0 or 1 in floating point
	// (hundreds of thousands of points; no club gets there) make v
	// infinite and step 5 arithmetic on infinities. Rate it as no game
	// rather than return whatever that arithmetic gives.
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return Idle(player, cfg)
	}
	sum := surprise(ts)
	sigma := volatility(p.phi, p.sigma, v, v*sum, cfg.Tau, cfg.Tolerance)
	phiStar := prePeriodPhi(p.phi, sigma, cfg.Initial.RD/Scale)
	phi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	out := point{mu: p.mu + phi*phi*sum, phi: phi, sigma: sigma}.rating()
	// φ′ is below the capped φ*, but the way back through Scale can round
	// a hair above the cap, and the cap is promised exactly.
	out.RD = math.Min(out.RD, cfg.Initial.RD)
	return out
}

// Idle rates a period in which the player played no game: the rating and
// volatility stay, and the RD grows by the volatility, up to the
// newcomer's RD (step 6 alone, as the paper says for a player who does
// not compete).
func Idle(player Rating, cfg Config) Rating {
	cfg = cfg.withDefaults()
	// Only the RD goes through the Glicko-2 scale, so that R and the
	// volatility come back bit for bit, not rounded by the conversion.
	rd := Scale * prePeriodPhi(player.RD/Scale, player.Volatility, cfg.Initial.RD/Scale)
	player.RD = math.Min(rd, cfg.Initial.RD) // exactly the cap, not a rounding above it
	return player
}

// IdlePeriods rates n periods in a row in which the player played no
// game: Idle n times over, at the cost of one. Each period adds σ² to φ²
// (step 6), so n of them add nσ², as one period at volatility σ√n would;
// the volatility itself stays. With n zero or less the rating is as it
// was.
func IdlePeriods(player Rating, n int, cfg Config) Rating {
	if n <= 0 {
		return player
	}
	wide := player
	wide.Volatility *= math.Sqrt(float64(n))
	wide = Idle(wide, cfg)
	wide.Volatility = player.Volatility
	return wide
}
