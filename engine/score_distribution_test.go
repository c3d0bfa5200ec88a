package engine

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"
)

// allCards lists the deck in index order.
func allCards() []Card {
	out := make([]Card, 52)
	for i := range out {
		out[i] = cardAt(uint(i))
	}
	return out
}

// showDistribution counts the show score of every (four-card hand, starter)
// combination: all 12,994,800 of them.
func showDistribution() (counts [30]int) {
	deck := allCards()
	for a := 0; a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				for d := c + 1; d < 52; d++ {
					hc := newHandCounter([4]Card{deck[a], deck[b], deck[c], deck[d]})
					for s := 0; s < 52; s++ {
						if s == a || s == b || s == c || s == d {
							continue
						}
						counts[hc.score(deck[s], false)]++
					}
				}
			}
		}
	}
	return counts
}

// TestShowDistributionMatchesPublishedTable checks the scorer against the
// published count of show scores over every combination.
func TestShowDistributionMatchesPublishedTable(t *testing.T) {
	// A copy of ../shared/data/hand-score-distribution.csv.
	f, err := os.Open("testdata/hand-score-distribution.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want [30]int
	for _, row := range rows[1:] {
		score, err1 := strconv.Atoi(row[0])
		count, err2 := strconv.Atoi(row[1])
		if err1 != nil || err2 != nil || score < 0 || score >= len(want) {
			t.Fatalf("bad row %v", row)
		}
		want[score] = count
	}
	got := showDistribution()
	total, sum := 0, 0
	for score, n := range got {
		total += n
		sum += score * n
		if n != want[score] {
			t.Errorf("score %d: %d combinations, published %d", score, n, want[score])
		}
	}
	if total != 12994800 {
		t.Errorf("enumerated %d combinations, want 12994800", total)
	}
	if mean := float64(sum) / float64(total); mean < 4.7691515 || mean > 4.7691525 {
		t.Errorf("mean %.7f, want 4.769152", mean)
	}
}

// BenchmarkShowDistribution scores all 12,994,800 combinations once per
// iteration (target: under 50 ms).
func BenchmarkShowDistribution(b *testing.B) {
	showTable()
	for b.Loop() {
		showDistribution()
	}
}
