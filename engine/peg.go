package engine

// ScorePlay returns what the last card of series scored as it was laid,
// with count the running count after it. It is scorePlay, for computer
// players weighing a card before laying it.
func ScorePlay(series []Card, count int) []ScoreItem { return scorePlay(series, count) }

// scorePlay returns what the last card of series scored as it was laid,
// with count the running count after it (RULES.md "The play"): 15 and 31
// score 2, pairs among the most recent cards 2, 6 or 12 (same rank, not
// value), and the longest run formed by the most recent cards, in any
// order, one a card. The series holds only cards since the last reset, so
// nothing combines across a go or 31.
func scorePlay(series []Card, count int) []ScoreItem {
	var items []ScoreItem
	switch count {
	case 15:
		items = append(items, ScoreItem{Kind: KindFifteen, Cards: cloneCards(series), Points: 2})
	case 31:
		items = append(items, ScoreItem{Kind: KindThirtyOne, Cards: cloneCards(series), Points: 2})
	}
	n := len(series)
	last := series[n-1]
	same := 1
	for same < n && series[n-1-same].Rank() == last.Rank() {
		same++
	}
	if same >= 2 {
		// 2 for a pair, 6 for three of a kind, 12 for four: 2 a pair of cards.
		items = append(items, ScoreItem{Kind: KindPair, Cards: cloneCards(series[n-same:]), Points: same * (same - 1)})
	}
	if length := runLength(series); length >= 3 {
		items = append(items, ScoreItem{Kind: KindRun, Cards: cloneCards(series[n-length:]), Points: length})
	}
	return items
}

// runLength returns the longest N ≥ 3 such that the last N cards of series
// are N consecutive ranks in some order, or 0.
func runLength(series []Card) int {
	for length := len(series); length >= 3; length-- {
		var seen uint16
		lo, hi := King, Ace
		ok := true
		for _, c := range series[len(series)-length:] {
			r := c.Rank()
			if seen&(1<<r) != 0 {
				ok = false // a pair breaks the run
				break
			}
			seen |= 1 << r
			lo, hi = min(lo, r), max(hi, r)
		}
		if ok && int(hi-lo) == length-1 {
			return length
		}
	}
	return 0
}

// cloneCards copies a card slice so items never alias the state.
func cloneCards(cards []Card) []Card { return append([]Card(nil), cards...) }
