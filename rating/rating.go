package rating

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is returned, wrapped with details, by Rating.Validate.
var ErrInvalid = errors.New("rating: invalid rating")

// ProvisionalRD is the rating deviation above which the bot calls a rating
// provisional. See the package documentation for why it is 110.
const ProvisionalRD = 110

// Rating is one person's skill estimate on the Glicko scale, the scale
// players see: R is the rating, RD the rating deviation (one standard
// deviation of the estimate, in rating points) and Volatility the σ of
// Glicko-2, how erratically the person's results have moved. It is plain
// data, safe to store as JSON and to compare with ==.
type Rating struct {
	R          float64 `json:"r"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// Provisional reports whether the rating is still too uncertain to be
// shown as settled: its RD is above threshold (usually ProvisionalRD).
func (r Rating) Provisional(threshold float64) bool {
	return r.RD > threshold
}

// Validate reports whether r is a rating the algorithm can work with: a
// finite R, and a finite, positive RD and volatility. The store should
// call it on ratings it loads, since Update assumes valid input.
func (r Rating) Validate() error {
	switch {
	case math.IsNaN(r.R) || math.IsInf(r.R, 0):
		return fmt.Errorf("%w: rating %v", ErrInvalid, r.R)
	case !(r.RD > 0) || math.IsInf(r.RD, 0):
		return fmt.Errorf("%w: rating deviation %v", ErrInvalid, r.RD)
	case !(r.Volatility > 0) || math.IsInf(r.Volatility, 0):
		return fmt.Errorf("%w: volatility %v", ErrInvalid, r.Volatility)
	}
	return nil
}

// Score is one game's outcome from the rated person's side.
type Score float64

// The scores of the paper. Cribbage has no draws, but a game abandoned by
// agreement could be scored as one.
const (
	Loss Score = 0
	Draw Score = 0.5
	Win  Score = 1
)

// Result is one game in a rating period: whom the person played, as rated
// at the start of the period, and how it went.
type Result struct {
	Opponent Rating
	Score    Score
}

// The paper's defaults, which a zero Config field stands for.
const (
	defaultTau        = 0.5
	defaultR          = 1500
	defaultRD         = 350
	defaultVolatility = 0.06
	defaultTolerance  = 0.000001
)

// Config holds the system's settings. Its zero value is the paper's
// system, and a zero field takes the paper's value, so Config{Tau: 0.3}
// changes only τ.
type Config struct {
	// Tau is the system constant τ, which limits how fast volatility
	// changes; zero means 0.5. The paper suggests 0.3 to 1.2, smaller for
	// games with more improbable results. It must not be negative.
	Tau float64
	// Initial is a newcomer's rating; a zero field means the paper's
	// 1500, 350 and 0.06. Its RD also caps every RD the package returns.
	Initial Rating
	// Tolerance is ε, where step 5's search for the new volatility stops;
	// zero means 0.000001.
	Tolerance float64
}

// withDefaults fills each zero field with the paper's value.
func (c Config) withDefaults() Config {
	if c.Tau == 0 {
		c.Tau = defaultTau
	}
	if c.Initial.R == 0 {
		c.Initial.R = defaultR
	}
	if c.Initial.RD == 0 {
		c.Initial.RD = defaultRD
	}
	if c.Initial.Volatility == 0 {
		c.Initial.Volatility = defaultVolatility
	}
	if c.Tolerance == 0 {
		c.Tolerance = defaultTolerance
	}
	return c
}

// Newcomer returns the rating of someone who has never played.
func (c Config) Newcomer() Rating {
	return c.withDefaults().Initial
}
