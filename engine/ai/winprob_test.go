package ai

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// winTableHands and winTableSeed are how winprob_data.go was generated.
const (
	winTableHands = 200_000
	winTableSeed  = 0x77696e // "win"
)

// handSample is what one hand dealt out.
type handSample struct{ ponePeg, dealerPeg, poneHand, dealerHand, crib int }

// sampleHands plays classic against classic two-player games from seed
// until n whole hands are played (a hand cut short by the game's end is
// not counted), split over every core.
func sampleHands(t testing.TB, n int, seed uint64) []handSample {
	workers := runtime.GOMAXPROCS(0)
	out := make([][]handSample, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := n / workers
			if w == 0 {
				want += n % workers
			}
			for game := uint64(0); len(out[w]) < want; game++ {
				out[w] = append(out[w], sampleGame(t, mix(seed, uint64(w), game))...)
			}
			out[w] = out[w][:want]
		}()
	}
	wg.Wait()
	var all []handSample
	for _, o := range out {
		all = append(all, o...)
	}
	return all
}

// sampleGame plays one classic game and returns its whole hands.
func sampleGame(t testing.TB, seed uint64) []handSample {
	g, _, err := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(seed))
	if err != nil {
		t.Error(err)
		return nil
	}
	var hands []handSample
	for step := uint64(0); g.Phase != engine.PhaseOver; step++ {
		before, dealer := g.Tally, g.Dealer
		s := engine.SeedFromUint64(mix(seed, step))
		if g, _, err = g.Apply(engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s}); err != nil {
			t.Error(err)
			return nil
		}
		for g.Phase != engine.PhaseDeal && g.Phase != engine.PhaseOver {
			step++
			a, _ := Decide(Classic, g.ViewFor(g.Waiting()[0]), mix(seed, step))
			if g, _, err = g.Apply(a); err != nil {
				t.Error(err)
				return nil
			}
		}
		if g.Phase == engine.PhaseOver {
			break
		}
		pone := 1 - dealer
		hands = append(hands, handSample{
			ponePeg:    g.Tally[pone].Pegging - before[pone].Pegging,
			dealerPeg:  g.Tally[dealer].Pegging - before[dealer].Pegging,
			poneHand:   g.Tally[pone].HandPoints - before[pone].HandPoints,
			dealerHand: g.Tally[dealer].HandPoints - before[dealer].HandPoints,
			crib:       g.Tally[dealer].CribPoints - before[dealer].CribPoints,
		})
	}
	return hands
}

// shippedDists are the shipped distributions as probabilities.
func shippedDists() (peg [pegCells][pegCells]float64, pone [handCells]float64, deal [dealCells]float64) {
	for x := range peg {
		for y := range peg[x] {
			peg[x][y] = prob(pegDist[x][y])
		}
	}
	for j := range pone {
		pone[j] = prob(poneDist[j])
	}
	for k := range deal {
		deal[k] = prob(dealDist[k])
	}
	return peg, pone, deal
}

// distributions counts hands into the shipped cells, as probabilities.
func distributions(hands []handSample) (peg [pegCells][pegCells]float64, pone [handCells]float64, deal [dealCells]float64, crib [handCells]float64) {
	w := 1 / float64(len(hands))
	for _, h := range hands {
		peg[min(h.ponePeg, pegCells-1)][min(h.dealerPeg, pegCells-1)] += w
		pone[min(h.poneHand, handCells-1)] += w
		deal[min(h.dealerHand+h.crib, dealCells-1)] += w
		crib[min(h.crib, handCells-1)] += w
	}
	return
}

// quantize is a probability in the shipped fixed point.
func quantize(p float64) uint16 { return uint16(max(0, min(math.Round(p*probScale), probScale-1))) }

// TestWinTableRegenerates recomputes a sample of the win table from the
// shipped distributions, which must give it exactly, and measures the
// distributions again over fewer hands of another seed, which must agree
// with the shipped ones on the averages. With -update it plays all the
// hands and writes winprob_data.go.
func TestWinTableRegenerates(t *testing.T) {
	if *update {
		writeWinTable(t)
		return
	}
	peg, pone, deal := shippedDists()
	table := computeWinTable(peg, pone, deal)
	for i := 0; i < 50; i++ {
		np, nd := 1+(i*37)%maxNeed, 1+(i*91+5)%maxNeed
		if got, want := quantize(table[np-1][nd-1]), winTable[np-1][nd-1]; got != want {
			t.Errorf("pone needing %d, dealer %d: the distributions give %d, the table has %d (run with -update)", np, nd, got, want)
		}
	}
	n := 4000
	if testing.Short() {
		n = 1000
	}
	speg, spone, sdeal, scrib := distributions(sampleHands(t, n, 12345))
	for _, c := range []struct {
		name      string
		got, want float64
		tolerance float64
	}{
		{"pone's pegging", mean2(speg, 0), mean2(peg, 0), 0.25},
		{"dealer's pegging", mean2(speg, 1), mean2(peg, 1), 0.25},
		{"pone's hand", mean(spone[:]), mean(pone[:]), 0.4},
		{"dealer's hand and crib", mean(sdeal[:]), mean(deal[:]), 0.6},
		{"crib", mean(scrib[:]), meanShipped(cribDist[:]), 0.4},
	} {
		if math.Abs(c.got-c.want) > c.tolerance {
			t.Errorf("%s: %.2f over %d new hands, %.2f shipped", c.name, c.got, n, c.want)
		}
	}
}

func mean(dist []float64) float64 {
	m := 0.0
	for v, p := range dist {
		m += float64(v) * p
	}
	return m
}

func meanShipped(dist []uint16) float64 {
	m := 0.0
	for v, p := range dist {
		m += float64(v) * prob(p)
	}
	return m
}

// mean2 is the mean of the pone's (side 0) or the dealer's (1) pegging.
func mean2(peg [pegCells][pegCells]float64, side int) float64 {
	m := 0.0
	for x := range peg {
		for y := range peg[x] {
			m += float64([2]int{x, y}[side]) * peg[x][y]
		}
	}
	return m
}

// TestWinTableReadsLikeCribbage: the pone needing one point all but wins;
// at the start of a game the dealer is ahead, as players know (the first
// deal is worth about 56%); the closer a side is to the end, the better.
func TestWinTableReadsLikeCribbage(t *testing.T) {
	if p := poneWins(1, 121); p < 0.99 {
		t.Errorf("pone needing 1 against 121 wins %.3f", p)
	}
	if p := poneWins(121, 121); p < 0.38 || p > 0.49 {
		t.Errorf("pone at the start of a game wins %.3f, want the dealer ahead by a little", p)
	}
	for np := 2; np <= maxNeed; np++ {
		for nd := 1; nd <= maxNeed; nd++ {
			if poneWins(np, nd) > poneWins(np-1, nd)+0.01 {
				t.Fatalf("pone needing %d against %d wins %.3f, more than needing %d (%.3f)", np, nd, poneWins(np, nd), np-1, poneWins(np-1, nd))
			}
		}
	}
}

// writeWinTable plays the hands, computes the table and writes
// winprob_data.go.
func writeWinTable(t *testing.T) {
	peg, pone, deal, crib := distributions(sampleHands(t, winTableHands, winTableSeed))
	var b bytes.Buffer
	// The table is computed from the distributions as shipped, so the
	// test can recompute it exactly.
	var qpeg [pegCells][pegCells]uint16
	for x := range peg {
		for y := range peg[x] {
			qpeg[x][y] = quantize(peg[x][y])
		}
	}
	fmt.Fprintf(&b, "// pegDist[x][y] is the chance the pone pegs x and the dealer y in a hand\n// (the last cell: that or more), over %d classic hands.\n", winTableHands)
	fmt.Fprintf(&b, "var pegDist = %#v\n\n", qpeg)
	writeDist := func(name, doc string, dist []float64) []uint16 {
		q := make([]uint16, len(dist))
		for i, p := range dist {
			q[i] = quantize(p)
		}
		fmt.Fprintf(&b, "// %s\nvar %s = [%d]uint16%s\n\n", doc, name, len(q), fmt.Sprintf("%#v", q)[len("[]uint16"):])
		return q
	}
	qpone := writeDist("poneDist", "poneDist[j] is the chance the pone's hand counts j.", pone[:])
	qdeal := writeDist("dealDist", "dealDist[k] is the chance the dealer's hand and crib count k together.", deal[:])
	writeDist("cribDist", "cribDist[c] is the chance the crib counts c.", crib[:])
	var fpeg [pegCells][pegCells]float64
	for x := range qpeg {
		for y := range qpeg[x] {
			fpeg[x][y] = prob(qpeg[x][y])
		}
	}
	var fpone [handCells]float64
	for j := range fpone {
		fpone[j] = prob(qpone[j])
	}
	var fdeal [dealCells]float64
	for k := range fdeal {
		fdeal[k] = prob(qdeal[k])
	}
	table := computeWinTable(fpeg, fpone, fdeal)
	var q [maxNeed][maxNeed]uint16
	for i := range table {
		for j := range table[i] {
			q[i][j] = quantize(table[i][j])
		}
	}
	fmt.Fprintf(&b, "// winTable[np-1][nd-1] is the chance the pone wins from the start of a\n// hand, needing np points while the dealer needs nd.\n")
	fmt.Fprintf(&b, "var winTable = %#v\n", q)
	writeGenerated(t, "winprob_data.go", "TestWinTableRegenerates", func(out *bytes.Buffer) { out.Write(b.Bytes()) })
}
