package ai

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/cribbage-bot/cribbage/engine"
)

// SimConfig says what to simulate: a level in each seat of a table.
type SimConfig struct {
	// Games is the number of games. Each deal is played once for each
	// turn of the seats (levels move one seat to the left each time, so
	// every level plays every seat on the same cards: twice at two
	// players, three times at three, four times at four or partners,
	// which at partners swaps the sides); Games is rounded up to a whole
	// number of deals.
	Games int
	// Seats are the levels in seat order: two, three or four of them.
	// With Partners, seats 1 & 3 play seats 2 & 4.
	Seats    []Level
	Partners bool
	// Seed makes the whole run reproducible.
	Seed uint64
	// Target is 121 (default) or 61.
	Target int
	// Progress, if set, is told after each deal how many games are done.
	Progress func(done, total int)
}

// LevelStats are one level's results over a simulation, over every seat
// it sat in.
type LevelStats struct {
	Level Level `json:"level"`
	// Seats is how many seats the level holds at the table, and
	// FairShare the share of wins it would get if it played no better
	// than the others (its seats' sides over all sides).
	Seats        int      `json:"seats"`
	FairShare    float64  `json:"fair_share"`
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

// SimReport is the result of a simulation: one entry a level, in the
// order the levels first sit.
type SimReport struct {
	Games    int          `json:"games"`
	Seed     uint64       `json:"seed"`
	Target   int          `json:"target"`
	Players  int          `json:"players"`
	Partners bool         `json:"partners,omitempty"`
	Levels   []LevelStats `json:"levels"`
}

// seatStats are one seat's averages over one game.
type seatStats struct {
	hand, crib, play float64
	hasHand, hasCrib bool
}

// gameOutcome is one game: which seat's side won, each side's skunk, and
// each seat's level and averages.
type gameOutcome struct {
	winnerSide int
	skunks     []int
	sideOf     []int
	levels     []Level
	seats      []seatStats
}

// options is the table a config plays at.
func (cfg SimConfig) options() engine.Options {
	return engine.Options{Players: len(cfg.Seats), Partners: cfg.Partners, Target: cfg.Target}
}

// Simulate plays the games and reports each level's results. It runs on
// every core and always gives the same report for the same config.
func Simulate(cfg SimConfig) SimReport {
	if cfg.Target == 0 {
		cfg.Target = 121
	}
	turns := len(cfg.Seats)
	if cfg.Partners {
		turns = 2 // turning the partners' seats twice swaps the sides
	}
	deals := (cfg.Games + turns - 1) / turns
	outcomes := make([]gameOutcome, turns*deals)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				for turn := 0; turn < turns; turn++ {
					outcomes[turns*i+turn] = playGame(cfg, uint64(i), turn)
				}
				if cfg.Progress != nil {
					mu.Lock()
					done += turns
					cfg.Progress(done, len(outcomes))
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < deals; i++ {
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

// playGame plays deal i with the levels turned turn seats to the left:
// seat s is played by cfg.Seats[(s+turn) % players]. Every turn of a deal
// gets the same cards.
func playGame(cfg SimConfig, i uint64, turn int) gameOutcome {
	opts := cfg.options()
	n := opts.Players
	g, _, err := engine.New(opts, engine.SeedFromUint64(mix(cfg.Seed, i)))
	if err != nil {
		panic(err)
	}
	levelAt := func(seat int) int { return (seat + turn) % n } // index into cfg.Seats
	for step := uint64(0); g.Phase != engine.PhaseOver; step++ {
		var a engine.Action
		if g.Phase == engine.PhaseDeal {
			seed := engine.SeedFromUint64(mix(cfg.Seed, i, uint64(g.HandNo)+1<<32))
			a = engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}
		} else {
			seat := g.Waiting()[0]
			var ok bool
			a, ok = Decide(cfg.Seats[levelAt(seat)], g.ViewFor(seat), mix(cfg.Seed, i, step, uint64(levelAt(seat))))
			if !ok {
				panic(fmt.Sprintf("ai: no decision in phase %s", g.Phase))
			}
		}
		next, _, err := g.Apply(a)
		if err != nil {
			panic(fmt.Sprintf("ai: %s made an illegal move %v: %v", cfg.Seats[levelAt(a.Seat)], a, err))
		}
		g = next
	}
	out := gameOutcome{winnerSide: g.Result.Winner, skunks: g.Result.Skunks}
	for seat := 0; seat < n; seat++ {
		t := g.Tally[seat]
		var st seatStats
		if t.Hands > 0 {
			st.hand, st.play, st.hasHand = float64(t.HandPoints)/float64(t.Hands), float64(t.Pegging)/float64(t.Hands), true
		}
		if t.Cribs > 0 {
			st.crib, st.hasCrib = float64(t.CribPoints)/float64(t.Cribs), true
		}
		out.seats = append(out.seats, st)
		out.sideOf = append(out.sideOf, opts.SideOf(seat))
		out.levels = append(out.levels, cfg.Seats[levelAt(seat)])
	}
	return out
}

// summarise turns outcomes into each level's stats.
func summarise(cfg SimConfig, outcomes []gameOutcome) SimReport {
	opts := cfg.options()
	r := SimReport{Games: len(outcomes), Seed: cfg.Seed, Target: cfg.Target, Players: opts.Players, Partners: cfg.Partners}
	var levels []Level
	for _, l := range cfg.Seats {
		if !slices.Contains(levels, l) {
			levels = append(levels, l)
		}
	}
	for _, l := range levels {
		st := LevelStats{Level: l, Games: len(outcomes)}
		sides := map[int]bool{}
		for seat, sl := range cfg.Seats {
			if sl == l {
				st.Seats++
				sides[opts.SideOf(seat)] = true
			}
		}
		st.FairShare = float64(len(sides)) / float64(opts.Sides())
		var hands, cribs, plays []float64
		for _, o := range outcomes {
			won := false
			for seat, sl := range o.levels {
				if sl == l && o.sideOf[seat] == o.winnerSide {
					won = true
				}
			}
			if won {
				st.Wins++
				worst := 0
				for side, sk := range o.skunks {
					if side != o.winnerSide {
						worst = max(worst, sk)
					}
				}
				st.Skunks += min(worst, 1)
				if worst == 2 {
					st.DoubleSkunks++
				}
			}
			for seat, sl := range o.levels {
				if sl != l {
					continue
				}
				if s := o.seats[seat]; s.hasHand {
					hands, plays = append(hands, s.hand), append(plays, s.play)
				}
				if s := o.seats[seat]; s.hasCrib {
					cribs = append(cribs, s.crib)
				}
			}
		}
		p := float64(st.Wins) / float64(st.Games)
		st.WinRate = Estimate{p, 1.96 * math.Sqrt(p*(1-p)/float64(st.Games))}
		st.HandPoints, st.CribPoints, st.PlayPoints = estimate(hands), estimate(cribs), estimate(plays)
		r.Levels = append(r.Levels, st)
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
