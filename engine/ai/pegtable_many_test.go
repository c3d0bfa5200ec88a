package ai

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// TestManyPegTableRegenerates recomputes a sample of the shipped
// three- and four-seat table's entries from its generator, which must give
// them exactly; with -update it writes the whole table again.
func TestManyPegTableRegenerates(t *testing.T) {
	if *update {
		writeManyPegTable(t)
		return
	}
	var all [][4]int8
	eachRankMultiset(func(r [4]int8) { all = append(all, r) })
	n := 6
	if testing.Short() {
		n = 2
	}
	for i := 0; i < n; i++ {
		r := all[(i*7919+29)%len(all)]
		kind := i % manyTables
		order := i % manyTableOptions[kind].Players
		got := int16(math.Round(100 * manyPegEntry(kind, order, r, manyPegSamples, manyPegSeed)))
		if want := manyPegTable[kind][order][pegIndex(r)]; got != want {
			t.Errorf("entry %v table %d place %d: generator gives %d, table has %d (run with -update after changing the generator)", r, kind, order, got, want)
		}
	}
}

// TestManyPegTableTellsWhatPlayersKnow checks the table against what
// players learn at every table: the dealer, who plays last, pegs more than
// the player who leads, and the leader does better with low cards than
// with a pair of fives.
func TestManyPegTableTellsWhatPlayersKnow(t *testing.T) {
	low, fives := engine.MustParseCards("AS 2H 3D 4C"), engine.MustParseCards("5S 5H KD QC")
	for kind, o := range manyTableOptions {
		var leader, dealer float64
		for i := 0; i < pegTableSize; i++ {
			leader += float64(manyPegTable[kind][0][i])
			dealer += float64(manyPegTable[kind][o.Players-1][i])
		}
		if dealer <= leader {
			t.Errorf("%+v: average pegging of the leader %.2f, of the dealer %.2f; the dealer should peg more", o, leader/pegTableSize/100, dealer/pegTableSize/100)
		}
		if l, f := pegValueMany(o, 0, low), pegValueMany(o, 0, fives); l <= f {
			t.Errorf("%+v: the leader keeping A234 pegs %.2f, keeping 55KQ %.2f; want the low cards ahead", o, l, f)
		}
	}
}

// writeManyPegTable generates every entry on every core and writes
// pegtable_many_data.go.
func writeManyPegTable(t *testing.T) {
	var all [][4]int8
	eachRankMultiset(func(r [4]int8) { all = append(all, r) })
	type job struct{ kind, order, i int }
	var jobs []job
	for kind, o := range manyTableOptions {
		for order := 0; order < o.Players; order++ {
			for i := range all {
				jobs = append(jobs, job{kind, order, i})
			}
		}
	}
	var table [manyTables][4][pegTableSize]int16
	onEveryCore("many-seat peg table", len(jobs), func(n int) {
		j := jobs[n]
		r := all[j.i]
		table[j.kind][j.order][pegIndex(r)] = int16(math.Round(100 * manyPegEntry(j.kind, j.order, r, manyPegSamples, manyPegSeed)))
	})
	writeGenerated(t, "pegtable_many_data.go", "TestManyPegTableRegenerates", func(b *bytes.Buffer) {
		fmt.Fprintf(b, "// manyPegTable is the pegging term of a discard at tables of three and\n")
		fmt.Fprintf(b, "// four, in hundredths of a point, by table (threeHanded, fourHanded,\n")
		fmt.Fprintf(b, "// partnership), place in the play (0 leads) and pegIndex of the ranks\n")
		fmt.Fprintf(b, "// kept (see pegtable_many.go).\n")
		fmt.Fprintf(b, "var manyPegTable = [manyTables][4][pegTableSize]int16{\n")
		for kind := range table {
			b.WriteString("{\n")
			for order := range table[kind] {
				writeInt16s(b, table[kind][order][:], 20)
			}
			b.WriteString("},\n")
		}
		b.WriteString("}\n")
	})
}
