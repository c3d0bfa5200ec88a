package ai

// Knowing the score. Near the end of a two-player game points are worth
// what they do to the chance of winning: the pone, who counts first, may
// need only a safe six; a dealer far behind must gamble. winprob_data.go
// holds what a hand of two-player cribbage deals out, measured over
// classic-against-classic hands (the pegging of the pone and the dealer
// together, the pone's hand, the dealer's hand and crib together, and
// the crib alone), and the chance that the pone wins from every pair of
// scores at the start of a hand, computed from them hand by hand in the
// order a hand counts: the play, the pone's hand, the dealer's hand, the
// crib. `go test ./engine/ai -run TestWinTableRegenerates -update`
// writes it again; every run recomputes a sample of it from the shipped
// distributions, and a smaller sample of hands checks the distributions.

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

// poneWins is the chance the pone wins from the start of a hand, needing
// np points while the dealer needs nd (both 1 to maxNeed).
func poneWins(np, nd int) float64 { return prob(winTable[np-1][nd-1]) }

// dealerWinsWithCrib is the chance the dealer wins once both hands are
// counted, needing nd with its crib still to count, while the pone needs
// np: the crib wins outright, or the next hand, which the dealer begins
// as the pone, does.
func dealerWinsWithCrib(np, nd int) float64 {
	w := 0.0
	for c, pc := range cribDist {
		p := prob(pc)
		if p == 0 {
			continue
		}
		if c >= nd {
			w += p
		} else {
			w += p * poneWins(nd-c, np)
		}
	}
	return w
}

// poneWinsAfterHand is the chance the pone wins once it has counted its
// hand without winning, needing np, while the dealer needs nd and has its
// hand and crib to count.
func poneWinsAfterHand(np, nd int) float64 {
	w := 0.0
	for k, pk := range dealDist {
		p := prob(pk)
		if p == 0 || k >= nd {
			continue
		}
		w += p * (1 - poneWins(nd-k, np))
	}
	return w
}

// computeWinTable is the chance the pone wins from the start of a hand,
// for every pair of needs, from the distributions of a hand. Each hand
// scores at least one point (the last card), so needs only fall: the
// table fills from the smallest total need up. When both sides would
// peg out in the same play it calls it even.
func computeWinTable(peg [pegCells][pegCells]float64, pone [handCells]float64, deal [dealCells]float64) [maxNeed][maxNeed]float64 {
	var f, afterPeg, afterHand [maxNeed + 1][maxNeed + 1]float64 // by need, 1-based
	for total := 2; total <= 2*maxNeed; total++ {
		for np := max(1, total-maxNeed); np <= min(maxNeed, total-1); np++ {
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
						w += p * afterPeg[np-x][nd-y]
					}
				}
			}
			f[np][nd] = w
		}
		for np := max(1, total-maxNeed); np <= min(maxNeed, total-1); np++ {
			nd := total - np
			w := 0.0
			for k := 0; k < dealCells && k < nd; k++ {
				w += deal[k] * (1 - f[nd-k][np])
			}
			afterHand[np][nd] = w
		}
		for np := max(1, total-maxNeed); np <= min(maxNeed, total-1); np++ {
			nd := total - np
			w := 0.0
			for j := 0; j < handCells; j++ {
				if j >= np {
					w += pone[j]
				} else {
					w += pone[j] * afterHand[np-j][nd]
				}
			}
			afterPeg[np][nd] = w
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

// raceValue is, at the end of a two-player play that nobody won, the
// chance that side wins, in [−1, 1] (2p − 1): the pone counts its hand
// first, then the dealer its hand and crib. needs are each side's points
// to go, hands what each side's hand counts (both known in a search's
// deal), and the crib is unknown.
func raceValue(m *winMemo, side, pone int, needs [2]int, hands [2]int) float64 {
	dealer := 1 - pone
	var p float64 // the pone's chance
	switch {
	case hands[pone] >= needs[pone]:
		p = 1
	case hands[dealer] >= needs[dealer]:
		p = 0
	default:
		p = 1 - m.dealerWithCrib(needs[pone]-hands[pone], needs[dealer]-hands[dealer])
	}
	if side != pone {
		p = 1 - p
	}
	return 2*p - 1
}

// winMemo keeps, for one decision, the chances discardWinChance looks up
// many times over: the pone's after its hand, and the dealer's with only
// its crib to count, by the two needs.
type winMemo struct {
	afterHand, withCrib [maxNeed + 1][maxNeed + 1]float32
	known               [maxNeed + 1][maxNeed + 1]uint8 // bit 1: afterHand, bit 2: withCrib
}

func (m *winMemo) poneAfterHand(np, nd int) float64 {
	if m.known[np][nd]&1 == 0 {
		m.afterHand[np][nd] = float32(poneWinsAfterHand(np, nd))
		m.known[np][nd] |= 1
	}
	return float64(m.afterHand[np][nd])
}

func (m *winMemo) dealerWithCrib(np, nd int) float64 {
	if m.known[np][nd]&2 == 0 {
		m.withCrib[np][nd] = float32(dealerWinsWithCrib(np, nd))
		m.known[np][nd] |= 2
	}
	return float64(m.withCrib[np][nd])
}

// cell is one outcome of a distribution and its chance.
type cell struct {
	a, b int
	p    float64
}

// likelyPegging and likelyPone are the shipped pegging and pone's hand
// distributions without their negligible outcomes, the lists
// discardWinChance walks for every split.
func likelyPegging() []cell {
	var out []cell
	for x := 0; x < pegCells; x++ {
		for y := 0; y < pegCells; y++ {
			if p := prob(pegDist[x][y]); p >= 1e-5 {
				out = append(out, cell{x, y, p})
			}
		}
	}
	return out
}

func likelyPone() []cell {
	var out []cell
	for j, pj := range poneDist {
		if p := prob(pj); p >= 1e-5 {
			out = append(out, cell{j, 0, p})
		}
	}
	return out
}

// discardWinChance is the chance a two-player side wins after keeping a
// hand whose points over the starters it has not seen are hand (cell a the
// points, p their chance), needing need while the opponent needs theirs:
// the play (peg, cells of the pone's and the dealer's pegging) and the
// opponent's hand (pone, when the side deals) from the measured
// distributions, and the crib from its own.
func discardWinChance(m *winMemo, peg, pone []cell, dealer bool, need, theirs int, hand []cell) float64 {
	np, nd := theirs, need
	if !dealer {
		np, nd = need, theirs
	}
	w := 0.0
	for _, pc := range peg {
		x, y := pc.a, pc.b // the pone's pegging, the dealer's
		var mine float64   // the chance the side wins after this play
		switch {
		case x >= np && y >= nd:
			mine = 0.5
		case x >= np:
			mine = boolFloat(!dealer)
		case y >= nd:
			mine = boolFloat(dealer)
		case !dealer:
			for _, h := range hand {
				if h.a >= np-x {
					mine += h.p
				} else {
					mine += h.p * m.poneAfterHand(np-x-h.a, nd-y)
				}
			}
		default:
			for _, j := range pone {
				if j.a >= np-x {
					continue // the pone wins with its hand
				}
				for _, h := range hand {
					if h.a >= nd-y {
						mine += j.p * h.p
					} else {
						mine += j.p * h.p * m.dealerWithCrib(np-x-j.a, nd-y-h.a)
					}
				}
			}
		}
		w += pc.p * mine
	}
	return w
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
