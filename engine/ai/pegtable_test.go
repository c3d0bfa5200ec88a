package ai

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// update makes the Regenerates tests write the tables they check; go
// generate runs them so (generate.go).
var update = flag.Bool("update", false, "write the generated tables again")

// TestPegIndexNumbersEveryMultisetOnce: the four-rank multisets, in the
// generator's order, are numbered 0, 1, 2… up to pegTableSize−1.
func TestPegIndexNumbersEveryMultisetOnce(t *testing.T) {
	next := 0
	eachRankMultiset(func(r [4]int8) {
		if got := pegIndex(r); got != next {
			t.Fatalf("pegIndex(%v) = %d, want %d", r, got, next)
		}
		next++
	})
	if next != pegTableSize {
		t.Fatalf("%d multisets, want %d", next, pegTableSize)
	}
	keep := engine.MustParseCards("KH 5S AD 5C")
	if got, want := sortedRanks(keep), [4]int8{1, 5, 5, 13}; got != want {
		t.Errorf("sortedRanks = %v, want %v", got, want)
	}
}

// TestPegTableRegenerates recomputes a sample of the shipped table's
// entries from its generator, which must give them exactly; with -update
// it writes the whole table again.
func TestPegTableRegenerates(t *testing.T) {
	if *update {
		writePegTable(t)
		return
	}
	var all [][4]int8
	eachRankMultiset(func(r [4]int8) { all = append(all, r) })
	n := 6
	if testing.Short() {
		n = 2
	}
	for i := 0; i < n; i++ {
		r := all[(i*7919+13)%len(all)]
		dealer := i%2 == 1
		role := 0
		if dealer {
			role = 1
		}
		got := int16(math.Round(100 * pegTableEntry(dealer, r, pegTableSamples, pegTableSeed)))
		if want := pegTable[role][pegIndex(r)]; got != want {
			t.Errorf("entry %v dealer=%v: generator gives %d, table has %d (run with -update after changing the generator)", r, dealer, got, want)
		}
	}
}

// TestPegTableTellsWhatPlayersKnow checks the table against what every
// cribbage player learns: the pone, who leads, does better with low cards
// than with a five, and the dealer, who plays last, pegs more than the
// pone on average.
func TestPegTableTellsWhatPlayersKnow(t *testing.T) {
	low := pegValue(false, engine.MustParseCards("AS 2H 3D 4C"))
	fives := pegValue(false, engine.MustParseCards("5S 5H KD QC"))
	if low <= fives {
		t.Errorf("pone keeping A234 pegs %.2f, keeping 55KQ %.2f; want the low cards ahead", low, fives)
	}
	var pone, dealer float64
	for i := 0; i < pegTableSize; i++ {
		pone += float64(pegTable[0][i])
		dealer += float64(pegTable[1][i])
	}
	if dealer <= pone {
		t.Errorf("average pegging differential: dealer %.2f, pone %.2f; the dealer should peg more", dealer/pegTableSize/100, pone/pegTableSize/100)
	}
}

// writePegTable generates every entry on every core and writes
// pegtable_data.go.
func writePegTable(t *testing.T) {
	var all [][4]int8
	eachRankMultiset(func(r [4]int8) { all = append(all, r) })
	var table [2][pegTableSize]int16
	onEveryCore("peg table", 2*len(all), func(j int) {
		role, r := j%2, all[j/2]
		table[role][pegIndex(r)] = int16(math.Round(100 * pegTableEntry(role == 1, r, pegTableSamples, pegTableSeed)))
	})
	writeGenerated(t, "pegtable_data.go", "TestPegTableRegenerates", func(b *bytes.Buffer) {
		fmt.Fprintf(b, "// pegTable is the pegging term of a discard in hundredths of a point,\n")
		fmt.Fprintf(b, "// for the pone (0) and the dealer (1), by pegIndex of the ranks kept\n")
		fmt.Fprintf(b, "// (see pegtable.go).\n")
		fmt.Fprintf(b, "var pegTable = [2][pegTableSize]int16{\n")
		for role := range table {
			writeInt16s(b, table[role][:], 20)
		}
		b.WriteString("}\n")
	})
}
