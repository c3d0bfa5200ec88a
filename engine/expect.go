package engine

// Expected show scores over unknown cards, computed exactly. The rank part
// of a score (fifteens, pairs, runs) depends only on ranks, so the sums run
// over rank combinations, each weighted by how many card combinations have
// those ranks among the unseen cards; flush and nobs add independently and
// are counted from the suits. That makes an exact discard evaluation take
// microseconds instead of enumerating every combination of cards.

// unseenCounts tallies a card set by rank (1..13) and suit.
func unseenCounts(unseen CardSet) (byRank [14]int, bySuit [4]int, n int) {
	for s := unseen; s != 0; s &= s - 1 {
		c := cardAt(uint(trailingZeros(s)))
		byRank[c.Rank()]++
		bySuit[c.Suit()]++
		n++
	}
	return byRank, bySuit, n
}

// ExpectedHand returns the average show score of four kept cards over every
// starter among unseen.
func ExpectedHand(hand [4]Card, unseen CardSet) float64 {
	byRank, bySuit, n := unseenCounts(unseen)
	if n == 0 {
		return 0
	}
	hc := newHandCounter(hand)
	sum := 0
	for r := 1; r <= 13; r++ {
		sum += byRank[r] * int(hc.row[r-1])
	}
	if hc.flushSuit >= 0 {
		// 4 with any starter, one more with a starter of the suit.
		sum += 4*n + bySuit[hc.flushSuit]
	}
	for s := 0; s < 4; s++ {
		if hc.nobsSuits&(1<<s) != 0 {
			sum += bySuit[s]
		}
	}
	return float64(sum) / float64(n)
}

// ExpectedCrib returns the average score of a crib holding known (one or
// two cards) and 4-len(known) more cards drawn from unseen, with a starter
// drawn from the rest of unseen, over every such draw.
func ExpectedCrib(known []Card, unseen CardSet) float64 {
	byRank, bySuit, n := unseenCounts(unseen)
	k := len(known)
	m := 4 - k
	if m < 1 || m > 3 || n < m+1 {
		return 0
	}
	e := cribEnum{table: showTable(), byRank: &byRank, k: k, m: m}
	for i, c := range known {
		e.ranks[i] = int(c.Rank())
	}
	e.draw(1, 0)
	total := binom(n, m) * (n - m)
	return float64(e.sum+cribSuitPoints(known, unseen, bySuit, n, m)) / float64(total)
}

// cribEnum enumerates the ranks of the unknown crib cards and the starter.
type cribEnum struct {
	table  []uint8
	byRank *[14]int
	ranks  [4]int // known ranks, then the drawn ones
	k, m   int
	sum    int
}

// draw chooses the drawn ranks in non-decreasing order from rank from on.
func (e *cribEnum) draw(from, depth int) {
	if depth == e.m {
		e.leaf()
		return
	}
	for r := from; r <= 13; r++ {
		if e.byRank[r] == 0 {
			continue
		}
		e.ranks[e.k+depth] = r
		e.draw(r, depth+1)
	}
}

// leaf adds the points of one rank combination over every starter rank,
// weighted by the card combinations it stands for.
func (e *cribEnum) leaf() {
	var drawn [14]int
	for _, r := range e.ranks[e.k:] {
		drawn[r]++
	}
	// The drawn ranks come in non-decreasing order: each distinct rank r
	// drawn n times stands for C(unseen of rank r, n) card choices.
	weight := 1
	for i := e.k; i < 4; i++ {
		if r := e.ranks[i]; i == e.k || r != e.ranks[i-1] {
			weight *= binom(e.byRank[r], drawn[r])
		}
	}
	if weight == 0 {
		return
	}
	sorted := e.ranks
	sort4(&sorted)
	base := ((((sorted[0]-1)*13+sorted[1]-1)*13+sorted[2]-1)*13 + sorted[3] - 1) * 13
	for rs := 1; rs <= 13; rs++ {
		if left := e.byRank[rs] - drawn[rs]; left > 0 {
			e.sum += weight * left * int(e.table[base+rs-1])
		}
	}
}

// cribSuitPoints totals, over every draw, the crib flush (all five cards of
// one suit, 5 points) and his nobs (a jack of the starter's suit, 1 point).
func cribSuitPoints(known []Card, unseen CardSet, bySuit [4]int, n, m int) int {
	sum := 0
	flush := true
	for _, c := range known[1:] {
		flush = flush && c.Suit() == known[0].Suit()
	}
	if flush {
		s := bySuit[known[0].Suit()]
		sum += 5 * binom(s, m) * (s - m)
	}
	for _, c := range known {
		if c.Rank() == Jack {
			// Any starter of the jack's suit, the draw from the rest.
			sum += bySuit[c.Suit()] * binom(n-1, m)
		}
	}
	for s := Spades; s <= Clubs; s++ {
		if j := NewCard(Jack, s); unseen.Has(j) {
			// The jack drawn into the crib, a starter of its suit, and
			// the other drawn cards from the rest.
			sum += (bySuit[s] - 1) * binom(n-2, m-1)
		}
	}
	return sum
}

// sort4 sorts four ints in place.
func sort4(a *[4]int) {
	if a[0] > a[1] {
		a[0], a[1] = a[1], a[0]
	}
	if a[2] > a[3] {
		a[2], a[3] = a[3], a[2]
	}
	if a[0] > a[2] {
		a[0], a[2] = a[2], a[0]
	}
	if a[1] > a[3] {
		a[1], a[3] = a[3], a[1]
	}
	if a[1] > a[2] {
		a[1], a[2] = a[2], a[1]
	}
}

// binom returns n choose k (0 outside 0 ≤ k ≤ n).
func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}
