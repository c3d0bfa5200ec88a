package ai

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// winTableHands and winTableSeed are how winprob_data.go was generated.
const (
	winTableHands = 200_000
	winTableSeed  = 0x77696e // "win"
)

// handSample is what one hand dealt out: each side's pegging (the pone's
// side first), each hand in the order they count, and the crib.
type handSample struct {
	peg   [2]int
	hands [4]int
	crib  int
}

// winKind is a table whose win table ships: its options, the file and
// the names of what is written, how its comments name the two sides, and
// the shipped model.
type winKind struct {
	opts                         engine.Options
	file                         string
	peg, hand, deal, crib, table string
	pone, dealer                 string
	model                        *winModel
}

var winKinds = []winKind{
	{engine.Options{Players: 2, Target: 121}, "winprob_data.go", "pegDist", "poneDist", "dealDist", "cribDist", "winTable", "the pone", "the dealer", &twoPlayerWin},
	{engine.Options{Players: 4, Partners: true, Target: 121}, "winprob_partners_data.go", "partnersPegDist", "partnersHandDist", "partnersDealDist", "partnersCribDist", "partnersWinTable", "the pone's side", "the dealer's side", &partnershipWin},
}

// sampleHands plays classic against classic games at a table and returns
// the first n whole hands (a hand cut short by the game's end is not
// counted) of games 0, 1, 2… in that order, game i dealt from mix(seed,
// i). The games are spread over every core a batch at a time and their
// hands put together in game order, so the sample is a function of o, n
// and seed alone: the same on one core as on many. Given a label, it
// shows how many hands it has on stderr.
func sampleHands(t testing.TB, o engine.Options, n int, seed uint64, label string) []handSample {
	var hands []handSample
	for first := 0; len(hands) < n; {
		// A game to 121 deals five to nine whole hands, so a batch of an
		// eighth of the hands still wanted seldom plays many games more
		// than it needs; the last batches are small.
		games := make([][]handSample, (n-len(hands))/8+16)
		onEveryCore("", len(games), func(j int) {
			games[j] = sampleGame(t, o, mix(seed, uint64(first+j)))
		})
		if t.Failed() {
			return nil // sampleGame said why; the games would fail again
		}
		for _, g := range games {
			hands = append(hands, g...)
		}
		first += len(games)
		if label != "" {
			fmt.Fprintf(os.Stderr, "\r%s: %d of %d hands", label, min(len(hands), n), n)
		}
	}
	if label != "" {
		fmt.Fprintln(os.Stderr)
	}
	return hands[:n]
}

// TestSampleHandsIsTheSameOnAnyCores: the hands the win tables are
// measured on are the first of games 0, 1, 2… played one after another,
// whether the games are spread over one core or four, so that
// TestWinTableRegenerates -update writes the same bytes on any machine.
func TestSampleHandsIsTheSameOnAnyCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, k := range winKinds {
		const n, seed = 300, 99
		var want []handSample
		for game := uint64(0); len(want) < n; game++ {
			want = append(want, sampleGame(t, k.opts, mix(seed, game))...)
		}
		want = want[:n]
		for _, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			if got := sampleHands(t, k.opts, n, seed, ""); !slices.Equal(got, want) {
				t.Errorf("%s: the hands sampled on %d cores are not those of the games in order", k.file, procs)
			}
		}
	}
}

// sampleGame plays one classic game and returns its whole hands.
func sampleGame(t testing.TB, o engine.Options, seed uint64) []handSample {
	g, _, err := engine.New(o, engine.SeedFromUint64(seed))
	if err != nil {
		t.Error(err)
		return nil
	}
	n := o.Players
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
		var h handSample
		for i := 0; i < n; i++ {
			seat := (dealer + 1 + i) % n // in the order the hands count
			h.peg[i%2] += g.Tally[seat].Pegging - before[seat].Pegging
			h.hands[i] = g.Tally[seat].HandPoints - before[seat].HandPoints
		}
		h.crib = g.Tally[dealer].CribPoints - before[dealer].CribPoints
		hands = append(hands, h)
	}
	return hands
}

// shippedDists are a model's distributions as probabilities: the pegging
// and the counts.
func shippedDists(m *winModel) (peg [pegCells][pegCells]float64, counts [][]float64) {
	for x := range peg {
		for y := range peg[x] {
			peg[x][y] = prob(m.peg[x][y])
		}
	}
	for _, c := range m.counts {
		f := make([]float64, len(c))
		for k := range c {
			f[k] = prob(c[k])
		}
		counts = append(counts, f)
	}
	return peg, counts
}

// distributions counts hands into the shipped cells, as probabilities:
// the pegging, a hand the dealer's other than the dealer's (all of them
// pooled), the dealer's hand and crib together, and the crib.
func distributions(hands []handSample, players int) (peg [pegCells][pegCells]float64, hand [handCells]float64, deal [dealCells]float64, crib [handCells]float64) {
	w := 1 / float64(len(hands))
	for _, h := range hands {
		peg[min(h.peg[0], pegCells-1)][min(h.peg[1], pegCells-1)] += w
		for i := 0; i < players-1; i++ {
			hand[min(h.hands[i], handCells-1)] += w / float64(players-1)
		}
		deal[min(h.hands[players-1]+h.crib, dealCells-1)] += w
		crib[min(h.crib, handCells-1)] += w
	}
	return
}

// quantize is a probability in the shipped fixed point.
func quantize(p float64) uint16 { return uint16(max(0, min(math.Round(p*probScale), probScale-1))) }

// TestWinTableRegenerates recomputes a sample of each win table from its
// shipped distributions, which must give it exactly, and measures the
// distributions again over fewer hands of another seed, which must agree
// with the shipped ones on the averages. With -update it plays all the
// hands and writes the tables.
func TestWinTableRegenerates(t *testing.T) {
	for _, k := range winKinds {
		t.Run(k.file, func(t *testing.T) {
			if *update {
				writeWinTable(t, k)
				return
			}
			peg, counts := shippedDists(k.model)
			table := computeWinTable(peg, counts)
			for i := 0; i < 50; i++ {
				np, nd := 1+(i*37)%maxNeed, 1+(i*91+5)%maxNeed
				if got, want := quantize(table[np-1][nd-1]), k.model.table[np-1][nd-1]; got != want {
					t.Errorf("pone needing %d, dealer %d: the distributions give %d, the table has %d (run with -update)", np, nd, got, want)
				}
			}
			n := 4000
			if testing.Short() {
				n = 1000
			}
			speg, shand, sdeal, scrib := distributions(sampleHands(t, k.opts, n, 12345, ""), k.opts.Players)
			for _, c := range []struct {
				name      string
				got, want float64
				tolerance float64
			}{
				{"pone's pegging", mean2(speg, 0), mean2(peg, 0), 0.25},
				{"dealer's pegging", mean2(speg, 1), mean2(peg, 1), 0.25},
				{"a hand", mean(shand[:]), mean(counts[0]), 0.4},
				{"dealer's hand and crib", mean(sdeal[:]), mean(counts[len(counts)-1]), 0.6},
				{"crib", mean(scrib[:]), meanShipped(k.model.crib[:]), 0.4},
			} {
				if math.Abs(c.got-c.want) > c.tolerance {
					t.Errorf("%s: %.2f over %d new hands, %.2f shipped", c.name, c.got, n, c.want)
				}
			}
		})
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

// TestWinTableReadsLikeCribbage: at both tables with two sides, the pone
// needing one point all but wins; at the start of a game the dealer is
// ahead, as players know (the first deal is worth about 56%); the closer a
// side is to the end, the better. At partners the pone's side counts two
// hands before the dealer's side has counted both, so needing as many
// points near the end it is further ahead than a pone alone.
func TestWinTableReadsLikeCribbage(t *testing.T) {
	for _, k := range winKinds {
		m := k.model
		if p := m.poneWins(1, 121); p < 0.99 {
			t.Errorf("%s: pone needing 1 against 121 wins %.3f", k.file, p)
		}
		if p := m.poneWins(121, 121); p < 0.38 || p > 0.49 {
			t.Errorf("%s: pone at the start of a game wins %.3f, want the dealer ahead by a little", k.file, p)
		}
		for np := 2; np <= maxNeed; np++ {
			for nd := 1; nd <= maxNeed; nd++ {
				if m.poneWins(np, nd) > m.poneWins(np-1, nd)+0.01 {
					t.Fatalf("%s: pone needing %d against %d wins %.3f, more than needing %d (%.3f)", k.file, np, nd, m.poneWins(np, nd), np-1, m.poneWins(np-1, nd))
				}
			}
		}
	}
	if two, four := twoPlayerWin.poneWins(10, 10), partnershipWin.poneWins(10, 10); four <= two {
		t.Errorf("both needing 10, the pone's side wins %.3f at partners, %.3f at two players", four, two)
	}
}

// writeWinTable plays the hands of a table, computes its win table from
// the distributions as shipped (so the test can recompute it exactly) and
// writes them to the kind's file under its names.
func writeWinTable(t *testing.T, k winKind) {
	o := k.opts
	peg, hand, deal, crib := distributions(sampleHands(t, o, winTableHands, winTableSeed, k.file), o.Players)
	var b bytes.Buffer
	var qpeg [pegCells][pegCells]uint16
	var fpeg [pegCells][pegCells]float64
	for x := range peg {
		for y := range peg[x] {
			qpeg[x][y] = quantize(peg[x][y])
			fpeg[x][y] = prob(qpeg[x][y])
		}
	}
	fmt.Fprintf(&b, "// %s[x][y] is the chance %s pegs x and %s y in a hand\n// (the last cell: that or more), over %d classic hands.\n", k.peg, k.pone, k.dealer, winTableHands)
	fmt.Fprintf(&b, "var %s = [%d][%d]uint16%s\n\n", k.peg, pegCells, pegCells, fmt.Sprintf("%#v", qpeg)[len("[25][25]uint16"):])
	writeDist := func(name, doc string, dist []float64) []float64 {
		q := make([]uint16, len(dist))
		f := make([]float64, len(dist))
		for i, p := range dist {
			q[i] = quantize(p)
			f[i] = prob(q[i])
		}
		fmt.Fprintf(&b, "// %s\nvar %s = [%d]uint16%s\n\n", doc, name, len(q), fmt.Sprintf("%#v", q)[len("[]uint16"):])
		return f
	}
	handDoc := "the pone's hand counts j."
	if o.Players > 2 {
		handDoc = "a hand other than the dealer's counts j."
	}
	fhand := writeDist(k.hand, fmt.Sprintf("%s[j] is the chance %s", k.hand, handDoc), hand[:])
	fdeal := writeDist(k.deal, fmt.Sprintf("%s[k] is the chance the dealer's hand and crib count k together.", k.deal), deal[:])
	writeDist(k.crib, fmt.Sprintf("%s[c] is the chance the crib counts c.", k.crib), crib[:])
	counts := [][]float64{fhand}
	for i := 1; i < o.Players-1; i++ {
		counts = append(counts, fhand)
	}
	counts = append(counts, fdeal)
	table := computeWinTable(fpeg, counts)
	var q [maxNeed][maxNeed]uint16
	for i := range table {
		for j := range table[i] {
			q[i][j] = quantize(table[i][j])
		}
	}
	fmt.Fprintf(&b, "// %s[np-1][nd-1] is the chance %s wins from the start of a\n// hand, needing np points while %s needs nd.\n", k.table, k.pone, k.dealer)
	fmt.Fprintf(&b, "var %s = [%d][%d]uint16%s\n", k.table, maxNeed, maxNeed, fmt.Sprintf("%#v", q)[len("[121][121]uint16"):])
	writeGenerated(t, k.file, "TestWinTableRegenerates", func(out *bytes.Buffer) { out.Write(b.Bytes()) })
}

// TestRaceCountsInOrder: at the end of the play the hands count from the
// dealer's left, the sides taking turns, and the first side to reach its
// need wins, whatever the hands after it hold; only when no hand wins
// does the crib, unknown, leave the race open.
func TestRaceCountsInOrder(t *testing.T) {
	for _, c := range []struct {
		name  string
		model *winModel
		pone  int // the pone's side
		needs [2]int
		hands []int
		want  float64 // side 0's value, or NaN when the crib decides
	}{
		{"pone's hand wins", &twoPlayerWin, 0, [2]int{5, 2}, []int{6, 20}, 1},
		{"dealer's hand wins", &twoPlayerWin, 1, [2]int{4, 10}, []int{6, 4}, 1},
		{"pone short by one", &twoPlayerWin, 0, [2]int{7, 3}, []int{6, 4}, -1},
		{"the crib to come", &twoPlayerWin, 0, [2]int{12, 12}, []int{6, 4}, math.NaN()},
		{"pone's side wins with its second hand", &partnershipWin, 1, [2]int{10, 8}, []int{4, 2, 4, 20}, -1},
		{"dealer's partner wins before the pone's second hand", &partnershipWin, 1, [2]int{9, 9}, []int{4, 9, 12, 0}, 1},
		{"dealer wins with the last hand", &partnershipWin, 0, [2]int{9, 9}, []int{4, 4, 4, 9}, -1},
		{"nobody reaches", &partnershipWin, 0, [2]int{20, 20}, []int{4, 4, 4, 4}, math.NaN()},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &winMemo{model: c.model}
			got := m.raceValue(0, c.pone, c.needs, c.hands)
			if other := m.raceValue(1, c.pone, c.needs, c.hands); math.Abs(got+other) > 1e-9 {
				t.Errorf("side 0 gets %.3f, side 1 %.3f: not opposite", got, other)
			}
			if math.IsNaN(c.want) {
				if got <= -1 || got >= 1 {
					t.Errorf("value %.3f, want the race open", got)
				}
				return
			}
			if got != c.want {
				t.Errorf("value %.3f, want %.0f", got, c.want)
			}
		})
	}
}

// TestDiscardChanceAgreesWithTheTable: a seat other than the dealer whose
// kept hand counts like the measured hands has the chance the win table
// gives its side, at every place in the count of both tables.
func TestDiscardChanceAgreesWithTheTable(t *testing.T) {
	for _, k := range winKinds {
		n := k.opts.Players
		for seat := 1; seat < n; seat++ { // the dealer is seat 0
			d := newDiscardChance(k.model, seat, 0)
			hand := likely(k.model.counts[0])
			for _, needs := range [][2]int{{5, 5}, {12, 3}, {3, 12}, {20, 25}, {31, 31}, {60, 45}} {
				got := d.chance(hand, needs[0], needs[1])
				np, nd := needs[0], needs[1]
				want := k.model.poneWins(np, nd)
				if k.opts.SideOf(seat) == k.opts.SideOf(0) {
					want = 1 - k.model.poneWins(nd, np)
				}
				if math.Abs(got-want) > 0.002 {
					t.Errorf("%s seat %d needing %d against %d: chance %.4f, table %.4f", k.file, seat, np, nd, got, want)
				}
			}
		}
	}
}

// TestRaceInCountsFromTheDealersLeft: at partners the race lists the
// hands from the dealer's left, each the cards the deal gives a seat and
// those it laid, and the seat's own hand.
func TestRaceInCountsFromTheDealersLeft(t *testing.T) {
	o := engine.Options{Players: 4, Partners: true, Target: 121}
	v := engine.View{
		Options: o, Seat: 3, Dealer: 2,
		Hand:    engine.SetOf(engine.MustParseCards("5H 5D JC 10S")...),
		Starter: engine.MustParseCard("KS"),
		Plays:   []engine.Play{{Seat: 3, Card: engine.MustParseCard("JC")}, {Seat: 0, Card: engine.MustParseCard("2C")}},
	}
	var others [4]engine.CardSet
	others[0] = engine.SetOf(engine.MustParseCards("4C 6D 9H")...)    // 2C laid: 2 4 6 9 K, a fifteen
	others[1] = engine.SetOf(engine.MustParseCards("7C 8C 9C 9D")...) // runs and a pair
	others[2] = engine.SetOf(engine.MustParseCards("AS 3H 8H QD")...) // nothing
	r := raceIn(v, others, &winMemo{model: &partnershipWin})
	want := []int{
		engine.ScoreShow(v.Hand.Cards(), v.Starter, false).Total, // seat 3 counts first
		engine.ScoreShow(engine.MustParseCards("2C 4C 6D 9H"), v.Starter, false).Total,
		engine.ScoreShow(others[1].Cards(), v.Starter, false).Total,
		engine.ScoreShow(others[2].Cards(), v.Starter, false).Total,
	}
	if r.pone != o.SideOf(3) || r.n != 4 || !slices.Equal(r.hands[:r.n], want) {
		t.Errorf("race pone %d hands %v, want pone %d hands %v", r.pone, r.hands[:r.n], o.SideOf(3), want)
	}
}

// TestDiscardForTheWinReachesTheNeed: a pone who counts first and needs a
// few points keeps the hand that reaches them more often, over the one
// worth more on average with its crib and play.
func TestDiscardForTheWinReachesTheNeed(t *testing.T) {
	o := engine.Options{Players: 2, Target: 121}
	reach := func(keep []engine.Card, unseen engine.CardSet, need int) int {
		n := 0
		for _, s := range unseen.Cards() {
			if engine.ScoreShow(keep, s, false).Total >= need {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		dealt, keep string
		need        int
	}{
		{"2C 6H TS QS QC KH", "2C TS QS QC", 7},
		{"AS 2C 6S 7C TD JS", "AS 2C 6S 7C", 6},
	} {
		hand := engine.SetOf(engine.MustParseCards(c.dealt)...)
		v := engine.View{Options: o, Seat: 1, Dealer: 0, Hand: hand, Scores: []int{115, 121 - c.need}}
		splits := Splits(o, 1, 0, hand)
		got := splitForTheWin(v, winModelOf(o), splits)
		want := engine.MustParseCards(c.keep)
		if engine.SetOf(got.Keep...) != engine.SetOf(want...) {
			t.Errorf("%s needing %d: keeps %v, want %v", c.dealt, c.need, got.Keep, want)
		}
		unseen := engine.FullDeck &^ hand
		if r, best := reach(got.Keep, unseen, c.need), reach(splits[0].Keep, unseen, c.need); r <= best {
			t.Errorf("%s: the kept hand reaches %d on %d starters, the best by points %v on %d", c.dealt, c.need, r, splits[0].Keep, best)
		}
	}
}
