package ai

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// TestCribPairIndexNumbersEveryPairOnce: the pairs of ranks, smaller
// first, are numbered 0, 1, 2… up to cribPairs−1, in either order.
func TestCribPairIndexNumbersEveryPairOnce(t *testing.T) {
	next := 0
	for b := engine.Ace; b <= engine.King; b++ {
		for a := engine.Ace; a <= b; a++ {
			if got := cribPairIndex(a, b); got != next {
				t.Fatalf("cribPairIndex(%d, %d) = %d, want %d", a, b, got, next)
			}
			if got := cribPairIndex(b, a); got != next {
				t.Fatalf("cribPairIndex(%d, %d) = %d, want %d", b, a, got, next)
			}
			next++
		}
	}
	if next != cribPairs {
		t.Fatalf("%d pairs, want %d", next, cribPairs)
	}
}

// TestCribReadRegenerates recomputes a sample of the shipped table's
// entries from its generator, which must give them exactly; with -update
// it writes the whole table again.
func TestCribReadRegenerates(t *testing.T) {
	if *update {
		writeCribRead(t)
		return
	}
	n := 2
	if testing.Short() {
		n = 1
	}
	for i := 0; i < n; i++ {
		j := (i*37 + 11) % cribPairs
		a, b := pairOfIndex(j)
		own := i%2 == 0
		role := 0
		if own {
			role = 1
		}
		got := int16(math.Round(100 * cribReadEntry(own, a, b, cribReadSamples, cribReadSeed)))
		if want := cribRead[role][j]; got != want {
			t.Errorf("entry %d,%d own=%v: generator gives %d, table has %d (run with -update after changing the generator)", a, b, own, got, want)
		}
	}
}

// TestCribReadTellsWhatPlayersKnow: whatever a dealer throws, its crib
// is worth less than with two random cards beside them, since the pone
// throws cards that do not go together; and whatever a pone throws, the
// dealer's crib is worth more, since the dealer throws cards that do.
func TestCribReadTellsWhatPlayersKnow(t *testing.T) {
	for i := 0; i < cribPairs; i++ {
		a, b := pairOfIndex(i)
		if v := cribRead[1][i]; v >= 0 {
			t.Errorf("dealer throwing %d and %d: the pone's throws add %.2f to the crib; want less than random", a, b, float64(v)/100)
		}
		if v := cribRead[0][i]; v <= 0 {
			t.Errorf("pone throwing %d and %d: the dealer's throws add %.2f to the crib; want more than random", a, b, float64(v)/100)
		}
	}
}

// pairOfIndex is the pair of ranks cribPairIndex numbers i.
func pairOfIndex(i int) (engine.Rank, engine.Rank) {
	for b := engine.Ace; b <= engine.King; b++ {
		for a := engine.Ace; a <= b; a++ {
			if cribPairIndex(a, b) == i {
				return a, b
			}
		}
	}
	panic("no pair")
}

// writeCribRead generates every entry on every core and writes
// cribread_data.go.
func writeCribRead(t *testing.T) {
	var table [2][cribPairs]int16
	onEveryCore("crib table", 2*cribPairs, func(j int) {
		role, i := j%2, j/2
		a, b := pairOfIndex(i)
		table[role][i] = int16(math.Round(100 * cribReadEntry(role == 1, a, b, cribReadSamples, cribReadSeed)))
	})
	writeGenerated(t, "cribread_data.go", "TestCribReadRegenerates", func(b *bytes.Buffer) {
		fmt.Fprintf(b, "// cribRead is how much a two-player crib differs from engine.ExpectedCrib\n")
		fmt.Fprintf(b, "// in hundredths of a point, when the other player throws as the classic\n")
		fmt.Fprintf(b, "// expert does: for the pone's throw (0) and the dealer's (1), by\n")
		fmt.Fprintf(b, "// cribPairIndex of the ranks thrown (see cribread.go).\n")
		fmt.Fprintf(b, "var cribRead = [2][cribPairs]int16{\n")
		for role := range table {
			writeInt16s(b, table[role][:], 13)
		}
		b.WriteString("}\n")
	})
}
