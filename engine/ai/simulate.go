package ai

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/cribbage-bot/cribbage/engine"
)

// SimConfig says what to simulate: two levels at a two-player table.
type SimConfig struct {
	// Games is the number of games; each deal is played twice, with the
	// seats swapped, so an odd number is rounded up.
	Games int
	// Seats are the two levels.
	Seats [2]Level
	// Seed makes the whole run reproducible.
	Seed uint64
	// Target is 121 (default) or 61.
	Target int
}

// LevelStats are one level's results over a simulation.
type LevelStats struct {
	Level        Level    `json:"level"`
	Games        int      `json:"games"`
	Wins         int      `json:"wins"`
	WinRate      Estimate `json:"win_rate"`
	Skunks       int      `json:"skunks"`        // skunks given (double skunks included)
	DoubleSkunks int      `json:"double_skunks"` // double skunks given
	HandPoints   Estimate `json:"hand_points"`   // average show points per hand
	CribPoints   Estimate `json:"crib_points"`   // average points per own crib
	PlayPoints   Estimate `json:"play_points"`   // average pegging points per hand
}

// Estimate is a mean with its 95% confidence interval (±Margin).
type Estimate struct {
	Mean   float64 `json:"mean"`
	Margin float64 `json:"margin95"`
}

// String writes the estimate as "4.71 ± 0.03".
func (e Estimate) String() string { return fmt.Sprintf("%.3f ± %.3f", e.Mean, e.Margin) }

// SimReport is the result of a simulation.
type SimReport struct {
	Games  int           `json:"games"`
	Seed   uint64        `json:"seed"`
	Target int           `json:"target"`
	Levels [2]LevelStats `json:"levels"`
}

// gameOutcome is one game seen from each level.
type gameOutcome struct {
	winner           int // index into Seats
	skunk            int // 0, 1 or 2
	hand, crib, play [2]float64
	hasHand, hasCrib [2]bool
}

// Simulate plays the games and reports each level's results. It runs on
// every core and always gives the same report for the same config.
func Simulate(cfg SimConfig) SimReport {
	if cfg.Target == 0 {
		cfg.Target = 121
	}
	pairs := (cfg.Games + 1) / 2
	outcomes := make([]gameOutcome, 2*pairs)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				for swap := 0; swap < 2; swap++ {
					outcomes[2*i+swap] = playGame(cfg, uint64(i), swap == 1)
				}
			}
		}()
	}
	for i := 0; i < pairs; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return summarise(cfg, outcomes)
}

// mix derives independent seeds from a run seed and indexes (splitmix64).
func mix(vals ...uint64) uint64 {
	var h uint64 = 0x9e3779b97f4a7c15
	for _, v := range vals {
		h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
		h ^= h >> 30
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 27
		h *= 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}

// playGame plays deal i; swapped puts the second level in seat 0. Both
// games of a pair get the same cards.
func playGame(cfg SimConfig, i uint64, swapped bool) gameOutcome {
	opts := engine.Options{Players: 2, Target: cfg.Target}
	g, _, err := engine.New(opts, engine.SeedFromUint64(mix(cfg.Seed, i)))
	if err != nil {
		panic(err)
	}
	level := func(seat int) int { // the Seats index playing seat
		if swapped {
			return 1 - seat
		}
		return seat
	}
	for step := uint64(0); g.Phase != engine.PhaseOver; step++ {
		var a engine.Action
		if g.Phase == engine.PhaseDeal {
			seed := engine.SeedFromUint64(mix(cfg.Seed, i, uint64(g.HandNo)+1<<32))
			a = engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}
		} else {
			seat := g.Waiting()[0]
			var ok bool
			a, ok = Decide(cfg.Seats[level(seat)], g.ViewFor(seat), mix(cfg.Seed, i, step, uint64(level(seat))))
			if !ok {
				panic(fmt.Sprintf("ai: no decision in phase %s", g.Phase))
			}
		}
		next, _, err := g.Apply(a)
		if err != nil {
			panic(fmt.Sprintf("ai: %s made an illegal move %v: %v", cfg.Seats[level(a.Seat)], a, err))
		}
		g = next
	}
	var out gameOutcome
	out.winner = level(g.Result.Winner)
	out.skunk = g.Result.Skunks[1-g.Result.Winner]
	for seat := 0; seat < 2; seat++ {
		t, l := g.Tally[seat], level(seat)
		if t.Hands > 0 {
			out.hand[l], out.play[l], out.hasHand[l] = float64(t.HandPoints)/float64(t.Hands), float64(t.Pegging)/float64(t.Hands), true
		}
		if t.Cribs > 0 {
			out.crib[l], out.hasCrib[l] = float64(t.CribPoints)/float64(t.Cribs), true
		}
	}
	return out
}

// summarise turns outcomes into each level's stats.
func summarise(cfg SimConfig, outcomes []gameOutcome) SimReport {
	r := SimReport{Games: len(outcomes), Seed: cfg.Seed, Target: cfg.Target}
	for l := 0; l < 2; l++ {
		st := LevelStats{Level: cfg.Seats[l], Games: len(outcomes)}
		var hands, cribs, plays []float64
		for _, o := range outcomes {
			if o.winner == l {
				st.Wins++
				st.Skunks += min(o.skunk, 1)
				if o.skunk == 2 {
					st.DoubleSkunks++
				}
			}
			if o.hasHand[l] {
				hands, plays = append(hands, o.hand[l]), append(plays, o.play[l])
			}
			if o.hasCrib[l] {
				cribs = append(cribs, o.crib[l])
			}
		}
		p := float64(st.Wins) / float64(st.Games)
		st.WinRate = Estimate{p, 1.96 * math.Sqrt(p*(1-p)/float64(st.Games))}
		st.HandPoints, st.CribPoints, st.PlayPoints = estimate(hands), estimate(cribs), estimate(plays)
		r.Levels[l] = st
	}
	return r
}

// estimate is the mean of xs with a normal 95% interval.
func estimate(xs []float64) Estimate {
	if len(xs) == 0 {
		return Estimate{}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	if len(xs) < 2 {
		return Estimate{Mean: mean}
	}
	sd := math.Sqrt(ss / float64(len(xs)-1))
	return Estimate{mean, 1.96 * sd / math.Sqrt(float64(len(xs)))}
}
