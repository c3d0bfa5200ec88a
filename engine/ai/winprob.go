package ai

import "github.com/cribbage-bot/cribbage/engine"

// Knowing the score. Near the end of a game between two sides points are
// worth what they do to the chance of winning: the pone, who counts first,
// may need only a safe six; a dealer far behind must gamble. For each
// kind of table with two sides (two players, and partners) a winModel
// holds what a hand deals out, measured over classic-against-classic
// hands: the two sides' pegging together, each hand in the order the show
// counts them (the dealer's hand and crib together, since nothing counts
// between them), and the crib alone; and the chance that the pone's side
// wins from every pair of scores at the start of a hand, computed from
// them hand by hand in the order a hand counts. `go generate ./engine/ai`
// writes the tables again (winprob_data.go, winprob_partners_data.go; see
// generate.go), from the first hands of games seeded one by one, so the
// same on any number of cores; every run recomputes a sample of each from
// its shipped distributions, and a smaller sample of hands checks the
// distributions.

// maxNeed is the most points a side can need: a game of 121.
const maxNeed = 121

// The distributions' supports: points a side can score in one hand's play
// (pegging beyond it is folded into the last cell), in a hand, and in a
// hand and crib together.
const (
	pegCells  = 25
	handCells = 30
	dealCells = 60
)

// probScale is the fixed point of the shipped probabilities.
const probScale = 1 << 16

// prob reads a shipped probability.
func prob(v uint16) float64 { return float64(v) / probScale }

// winModel is what a hand deals out at one kind of table with two sides,
// and the chance the pone's side wins computed from it.
type winModel struct {
	// peg[x][y] is the chance the pone's side pegs x and the dealer's y.
	peg *[pegCells][pegCells]uint16
	// counts are the distributions of the hands in the order they count,
	// the pone's side first and the sides taking turns; the last is the
	// dealer's hand and crib together.
	counts [][]uint16
	crib   *[handCells]uint16
	// table[np-1][nd-1] is the chance the pone's side wins from the start
	// of a hand, needing np while the dealer's side needs nd.
	table *[maxNeed][maxNeed]uint16
}

// The models of the two tables with two sides.
var (
	twoPlayerWin = winModel{
		peg:    &pegDist,
		counts: [][]uint16{poneDist[:], dealDist[:]},
		crib:   &cribDist,
		table:  &winTable,
	}
	partnershipWin = winModel{
		peg:    &partnersPegDist,
		counts: [][]uint16{partnersHandDist[:], partnersHandDist[:], partnersHandDist[:], partnersDealDist[:]},
		crib:   &partnersCribDist,
		table:  &partnersWinTable,
	}
)

// winModelOf is the model of a table, or nil at three and four sides.
func winModelOf(o engine.Options) *winModel {
	switch {
	case o.Players == 2:
		return &twoPlayerWin
	case o.Partners:
		return &partnershipWin
	}
	return nil
}

// poneWins is the chance the pone's side wins from the start of a hand,
// needing np points while the dealer's needs nd (both 1 to maxNeed).
func (m *winModel) poneWins(np, nd int) float64 { return prob(m.table[np-1][nd-1]) }

// dealerWinsWithCrib is the chance the dealer's side wins once every hand
// is counted, needing nd with its crib still to count, while the pone's
// side needs np: the crib wins outright, or the next hand, which the
// dealer's side begins as the pone's, does.
func (m *winModel) dealerWinsWithCrib(np, nd int) float64 {
	w := 0.0
	for c, pc := range m.crib {
		p := prob(pc)
		if p == 0 {
			continue
		}
		if c >= nd {
			w += p
		} else {
			w += p * m.poneWins(nd-c, np)
		}
	}
	return w
}

// computeWinTable is the chance the pone's side wins from the start of a
// hand, for every pair of needs, from the distributions of a hand: the
// pegging, then counts, the hands in the order they count (pone's side
// first, taking turns). Each hand pegs at least one point (the last
// card), so needs only fall: the table fills from the smallest total need
// up. When both sides would peg out in the same play it calls it even.
func computeWinTable(peg [pegCells][pegCells]float64, counts [][]float64) [maxNeed][maxNeed]float64 {
	var f [maxNeed + 1][maxNeed + 1]float64 // by need, 1-based
	// after[i][np][nd] is the pone's side's chance with counts[i] next to
	// count; after the last, the next hand begins with the roles swapped.
	after := make([][maxNeed + 1][maxNeed + 1]float64, len(counts))
	last := len(counts) - 1
	for total := 2; total <= 2*maxNeed; total++ {
		from, to := max(1, total-maxNeed), min(maxNeed, total-1)
		for np := from; np <= to; np++ {
			nd := total - np
			w := 0.0
			for x := 0; x < pegCells; x++ {
				for y := 0; y < pegCells; y++ {
					p := peg[x][y]
					switch {
					case p == 0:
					case x >= np && y >= nd:
						w += p / 2
					case x >= np:
						w += p
					case y >= nd:
					default:
						// Each product is rounded before it is added
						// (generate.go says why).
						w += float64(p * after[0][np-x][nd-y])
					}
				}
			}
			f[np][nd] = w
		}
		for i := last; i >= 0; i-- {
			pone := i%2 == 0
			for np := from; np <= to; np++ {
				nd := total - np
				w := 0.0
				for k, p := range counts[i] {
					switch {
					case pone && k >= np:
						w += p
					case pone:
						w += float64(p * after[i+1][np-k][nd])
					case k >= nd:
					case i == last:
						w += float64(p * (1 - f[nd-k][np]))
					default:
						w += float64(p * after[i+1][np][nd-k])
					}
				}
				after[i][np][nd] = w
			}
		}
	}
	var out [maxNeed][maxNeed]float64
	for np := 1; np <= maxNeed; np++ {
		for nd := 1; nd <= maxNeed; nd++ {
			out[np-1][nd-1] = f[np][nd]
		}
	}
	return out
}

// raceValue is, at the end of a play that nobody won, the chance that
// side wins, in [−1, 1] (2p − 1): the hands count in turn, the pone's side
// first, then the crib, which is unknown. needs are each side's points to
// go, hands what each hand counts, in the order they count (all known in
// a search's deal).
func (m *winMemo) raceValue(side, pone int, needs [2]int, hands []int) float64 {
	need := [2]int{needs[pone], needs[1-pone]} // by role: the pone's side, the dealer's
	p, decided := 0.0, false
	for i, h := range hands {
		role := i % 2
		if h >= need[role] {
			p, decided = float64(1-role), true
			break
		}
		need[role] -= h
	}
	if !decided {
		p = 1 - m.dealerWithCrib(need[0], need[1])
	}
	if side != pone {
		p = 1 - p
	}
	return 2*p - 1
}

// winMemo keeps, for one play decision, the dealer's side's chances with
// only its crib to count, by the two needs, which the search looks up at
// the end of every play.
type winMemo struct {
	model    *winModel
	withCrib [maxNeed + 1][maxNeed + 1]float32
	known    [maxNeed + 1][maxNeed + 1]bool
}

func (m *winMemo) dealerWithCrib(np, nd int) float64 {
	if !m.known[np][nd] {
		m.withCrib[np][nd] = float32(m.model.dealerWinsWithCrib(np, nd))
		m.known[np][nd] = true
	}
	return float64(m.withCrib[np][nd])
}

// cell is one outcome of a distribution and its chance.
type cell struct {
	a, b int
	p    float64
}

// likely is a shipped distribution without its negligible outcomes, the
// list a discard's chance walks.
func likely(dist []uint16) []cell {
	var out []cell
	for v, pv := range dist {
		if p := prob(pv); p >= 1e-5 {
			out = append(out, cell{v, 0, p})
		}
	}
	return out
}

// maxStages is the most counts a discard's chance walks: four hands and
// the crib.
const maxStages = 5

// discardChance is the chance of winning of a seat about to keep a hand,
// for each way to keep: the play from the measured pegging, then the
// hands in the order they count, the seat's own from its kept cards over
// every starter and the others' from the measured distributions, then
// the crib (with the dealer's hand, or alone after the seat's own when
// the seat deals).
type discardChance struct {
	model  *winModel
	peg    []cell
	stages [maxStages]stage
	n      int
	// mine is the stage of the seat's hand, seatIsPone whether the seat's
	// side is the pone's.
	mine       int
	seatIsPone bool
	// memo and stamp keep the chance from each stage on by the needs.
	// The stages after the seat's own hold for every keep; the others
	// hold for one keep, stamped with gen.
	memo  [maxStages][maxNeed + 1][maxNeed + 1]float32
	stamp [maxStages][maxNeed + 1][maxNeed + 1]uint32
	gen   uint32
}

// stage is one count of a hand: its distribution and whose it is (0 the
// pone's side, 1 the dealer's).
type stage struct {
	dist []cell
	role int
}

// newDiscardChance sets up the chance for a seat of the model's table.
func newDiscardChance(m *winModel, seat, dealer int) *discardChance {
	d := &discardChance{model: m, gen: 1}
	for x := 0; x < pegCells; x++ {
		for y := 0; y < pegCells; y++ {
			if p := prob(m.peg[x][y]); p >= 1e-5 {
				d.peg = append(d.peg, cell{x, y, p})
			}
		}
	}
	n := len(m.counts) // a hand a seat
	d.mine = (seat - dealer - 1 + n) % n
	d.seatIsPone = d.mine%2 == 0
	for i := 0; i < n; i++ {
		d.stages[i] = stage{likely(m.counts[i]), i % 2}
	}
	if d.mine == n-1 {
		d.stages[n] = stage{likely(m.crib[:]), 1}
		d.n = n + 1
	} else {
		d.n = n
	}
	return d
}

// withCribShifted is d's table with the crib counting shift points more
// (or fewer) than measured: what a point of crib is worth is how much the
// chance moves with it.
func (d *discardChance) withCribShifted(shift int) *discardChance {
	s := &discardChance{model: d.model, peg: d.peg, stages: d.stages, n: d.n, mine: d.mine, seatIsPone: d.seatIsPone, gen: 1}
	last := &s.stages[s.n-1]
	var shifted []cell
	for _, c := range last.dist {
		v := max(c.a+shift, 0)
		if k := len(shifted); k > 0 && shifted[k-1].a == v {
			shifted[k-1].p += c.p
		} else {
			shifted = append(shifted, cell{v, 0, c.p})
		}
	}
	last.dist = shifted
	return s
}

// chance is the seat's chance of winning keeping a hand that counts as
// hand over the starters, needing need (at least 1) while the other side
// needs theirs.
func (d *discardChance) chance(hand []cell, need, theirs int) float64 {
	d.gen++
	d.stages[d.mine].dist = hand
	np, nd := need, theirs
	if !d.seatIsPone {
		np, nd = theirs, need
	}
	w := 0.0
	for _, pc := range d.peg {
		x, y := pc.a, pc.b
		switch {
		case x >= np && y >= nd:
			w += pc.p / 2
		case x >= np:
			w += pc.p
		case y >= nd:
		default:
			w += pc.p * d.from(0, np-x, nd-y)
		}
	}
	if !d.seatIsPone {
		w = 1 - w
	}
	return w
}

// from is the pone's side's chance with stage i next to count.
func (d *discardChance) from(i, np, nd int) float64 {
	if i == d.n {
		return 1 - d.model.poneWins(nd, np)
	}
	valid := d.stamp[i][np][nd] == d.gen || (i > d.mine && d.stamp[i][np][nd] != 0)
	if valid {
		return float64(d.memo[i][np][nd])
	}
	s := d.stages[i]
	w := 0.0
	for _, c := range s.dist {
		switch {
		case s.role == 0 && c.a >= np:
			w += c.p
		case s.role == 0:
			w += c.p * d.from(i+1, np-c.a, nd)
		case c.a >= nd:
		default:
			w += c.p * d.from(i+1, np, nd-c.a)
		}
	}
	d.memo[i][np][nd] = float32(w)
	d.stamp[i][np][nd] = d.gen
	return w
}
