package ai

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/cribbage-bot/cribbage/engine"
)

// The expert's play searches to the end of the play. The other players'
// cards are hidden, so it deals them many ways consistent with all it has
// seen (determinizations), each weighted by how likely a player was to
// keep such a hand, and for each searches the whole rest of the play with
// every card in the open. A card's value is its weighted average over the
// deals: the points its side pegs from now to the end of the play less the
// other sides', go, last card and 31 included, and a game won or lost in
// the play outweighing any points.
//
// At two players the opponent is searched as the best player it can be
// (laying its cards by policyRank instead won 67.7% of 4,000 games
// against greedy, against 69.1%). At three and four that goes wrong:
// with every card in the open, the opponents would play as if they shared
// their hands against the seat, and a partner would help in ways a partner
// who sees only its own cards cannot. So there the other seats lay what policyRank lays, a player
// seeing one card ahead, and only the seat's own choices are searched.
// Measured over 2,000 partnership games against classic, the expert's
// side pegged 2.99 a hand against 2.98 with every seat searched, 2.97
// against 2.93 with the partner alone laying its highest-scoring card
// (these two with the discard's pegging term at half weight), and 3.06
// against 2.95 with every other seat laying by policyRank.

// winValue is what winning the game during the play is worth, in points.
const winValue = 100

// The budget of one play decision: deals are searched until their nodes
// (cards laid in the search, about 60 ns each on one core) reach it, at
// most maxDeals of them. A play searches a few hundred nodes a deal, so
// it gets every deal but at the first cards of some two-player hands.
const (
	searchBudget = 250_000
	maxDeals     = 128
)

// keepWeight is how strongly a player is assumed to keep a good hand: a
// kept hand whose cards score one point more alone (fifteens, pairs, runs)
// is e^keepWeight times as likely. It weighs the deals at two players
// only: at three and four the weights of three hands multiply, so that a
// few deals carry nearly all the weight, and the expert side pegged less
// with them: over 2,000 partnership games, 2.91 a hand to classic's 2.94
// with them and 2.95 to 2.94 without.
const keepWeight = 0.3

// searcher runs the search of one decision.
type searcher struct {
	nodes int
	// race, near the end of a game of two sides, values the end of the play
	// by the chance of winning the show that follows instead of by points.
	race *race
	// kids are each depth's children, kept here so that a node does not
	// clear a fresh array for them.
	kids [maxPlays + 1][maxMoves]pegState
	// seat is the deciding seat; when ruled is set, every other seat lays
	// what policyRank lays instead of being searched.
	seat  int8
	ruled bool
}

// maxPlays is the most cards a play can lay: four hands of four.
const maxPlays = 16

// race is what decides the show at the end of the play in one of the
// search's deals, at a table of two sides: the pone's side, and what
// each hand counts in the order they count (the starter is up and the
// deal gives every hand).
type race struct {
	pone  int
	hands [4]int
	n     int
	memo  *winMemo
}

// endValue is the value of a play that ended without a winner for the
// side that laid its last card: points are the side's points in the
// search's move, which count for themselves unless the show is a race.
func (sr *searcher) endValue(c *pegState, side int8, points float32) float32 {
	if sr.race == nil {
		return points
	}
	needs := [2]int{int(c.target - c.scores[0]), int(c.target - c.scores[1])}
	return winValue*float32(sr.race.memo.raceValue(int(side), sr.race.pone, needs, sr.race.hands[:sr.race.n])) + sr.gain(points)
}

// gain is what a move's points add by themselves. In a race the play is
// valued by the scores it ends at, and points only break ties: where
// every card wins (or loses) alike, the one that pegs more.
func (sr *searcher) gain(points float32) float32 {
	if sr.race != nil {
		return racePointValue * points
	}
	return points
}

// racePointValue is what a point pegged adds to a race's value, on the
// scale where winning is winValue: a point counts as a two-hundredth of a
// percent of winning, less than any difference the deals can tell.
const racePointValue = 0.01

// raceFrom is how near the end a side must be for the play to be played
// for the win rather than for points: within a hand's reach.
const raceFrom = 30

// racing reports whether a view of a table of two sides (two players,
// or partners) is near enough the end.
func racing(v engine.View) bool {
	if winModelOf(v.Options) == nil {
		return false
	}
	for _, s := range v.Scores {
		if v.Options.Target-s <= raceFrom {
			return true
		}
	}
	return false
}

// maxMoves is the most distinct ranks a seat can hold in the play: every
// kept hand is four cards.
const maxMoves = 4

// children lays each distinct rank the seat to play may lay, and orders
// them best-scoring first (which lets the two-sided search cut more).
func children(s *pegState, out *[maxMoves]pegState, pts *[maxMoves]float32, order *[maxMoves]int8) int {
	t := s.turn
	room := 31 - s.count
	n := 0
	for m := s.held[t]; m != 0; m &= m - 1 {
		r := int8(bits.TrailingZeros16(m))
		if rankValue(r) > room {
			break // ranks come in order, so no higher one fits either
		}
		out[n] = *s
		p := float32(out[n].play(r))
		pts[n] = p
		i := n
		for i > 0 && pts[order[i-1]] < p {
			order[i] = order[i-1]
			i--
		}
		order[i] = int8(n)
		n++
	}
	return n
}

// expand makes the children the search looks at: every card the seat to
// play may lay, best-scoring first, or, for a seat that lays by rule, the
// one card the rule lays.
func (sr *searcher) expand(s *pegState, out *[maxMoves]pegState, pts *[maxMoves]float32, order *[maxMoves]int8) int {
	if !sr.ruled || s.turn == sr.seat {
		return children(s, out, pts, order)
	}
	out[0] = *s
	pts[0] = float32(out[0].play(policyRank(s)))
	order[0] = 0
	return 1
}

// won reports whether the side that just laid a card won with it.
func won(child *pegState, side int8) bool {
	return child.done && child.scores[side] >= child.target
}

// value2 is the value of the play from here for the side to move, with
// two sides (two players, or partners): its points to the end of the play
// less the other side's. Alpha-beta: the result is exact inside
// (alpha, beta) and a bound outside it.
func (sr *searcher) value2(s *pegState, alpha, beta float32, depth int) float32 {
	sr.nodes++
	side := s.turn % s.sides
	kids := &sr.kids[depth]
	var pts [maxMoves]float32
	var order [maxMoves]int8
	n := sr.expand(s, kids, &pts, &order)
	best := float32(-math.MaxFloat32)
	for _, k := range order[:n] {
		c, p := &kids[k], sr.gain(pts[k])
		var v float32
		switch {
		case won(c, side):
			v = winValue
		case c.done:
			v = sr.endValue(c, side, p)
		case c.turn%c.sides == side:
			v = p + sr.value2(c, alpha-p, beta-p, depth+1)
		default:
			v = p - sr.value2(c, p-beta, p-alpha, depth+1)
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// valueN is the play from here with three or four sides: each seat lays
// the card best for its side, its points less the others' average, and
// the result is every side's points from here (max-n).
func (sr *searcher) valueN(s *pegState, depth int) [4]float32 {
	sr.nodes++
	var best [4]float32
	side := s.turn % s.sides
	kids := &sr.kids[depth]
	var pts [maxMoves]float32
	var order [maxMoves]int8
	n := sr.expand(s, kids, &pts, &order)
	bestU := float32(-math.MaxFloat32)
	for _, i := range order[:n] {
		c := &kids[i]
		var v [4]float32
		switch {
		case won(c, side):
			v[side] = winValue
		case c.done:
			v[side] = pts[i]
		default:
			v = sr.valueN(c, depth+1)
			v[side] += pts[i]
		}
		if u := utility(v, side, s.sides); u > bestU {
			bestU, best = u, v
		}
	}
	return best
}

// utility is what a result is worth to one side: its points less the
// other sides' average.
func utility(v [4]float32, side, sides int8) float32 {
	var others float32
	for s := int8(0); s < sides; s++ {
		if s != side {
			others += v[s]
		}
	}
	return v[side] - others/float32(sides-1)
}

// playValues is the expert's weighing of the legal cards of the seat to
// play: for each rank it may lay (ranks[i]), the weighted average over
// the deals searched of what laying it is worth.
func playValues(v engine.View, rng *rand.Rand) (ranks []int8, values []float64) {
	for _, c := range v.Legal {
		r := int8(c.Rank())
		if !containsRank(ranks, r) {
			ranks = append(ranks, r)
		}
	}
	values = make([]float64, len(ranks))
	if len(ranks) == 1 {
		return ranks, values
	}
	o := v.Options
	sr := searcher{seat: int8(v.Seat), ruled: o.Players > 2}
	limits := goLimits(v)
	var memo *winMemo
	if racing(v) {
		memo = &winMemo{model: winModelOf(o)}
	}
	var total float64
	for deal := 0; deal < maxDeals && sr.nodes < searchBudget; deal++ {
		others, weight := dealHidden(v, limits, rng)
		if memo != nil {
			sr.race = raceIn(v, others, memo)
		}
		base := newPegState(v, others)
		for i, r := range ranks {
			val := sr.valueOf(base, r)
			values[i] += weight * float64(val)
		}
		total += weight
	}
	for i := range values {
		values[i] /= total
	}
	return ranks, values
}

// valueOf is what laying a card of rank r from s is worth to the side of
// the seat to play, searched to the end of the play.
func (sr *searcher) valueOf(s pegState, r int8) float32 {
	side := s.turn % s.sides
	p := sr.gain(float32(s.play(r)))
	switch {
	case won(&s, side):
		return winValue
	case s.done:
		return sr.endValue(&s, side, p)
	case s.sides == 2 && s.turn%2 == side:
		return p + sr.value2(&s, -math.MaxFloat32, math.MaxFloat32, 1)
	case s.sides == 2:
		return p - sr.value2(&s, -math.MaxFloat32, math.MaxFloat32, 1)
	}
	res := sr.valueN(&s, 1)
	res[side] += p
	return utility(res, side, s.sides)
}

// raceIn is the show's race in a deal of the hidden cards: each seat's
// hand is what it has laid this hand and what the deal gives it.
func raceIn(v engine.View, others [4]engine.CardSet, memo *winMemo) *race {
	o := v.Options
	n := o.Players
	r := &race{pone: o.SideOf((v.Dealer + 1) % n), n: n, memo: memo}
	for i := 0; i < n; i++ {
		seat := (v.Dealer + 1 + i) % n // the hands count from the dealer's left
		hand := v.Hand
		if seat != v.Seat {
			hand = others[seat]
			for _, p := range v.Plays {
				if p.Seat == seat {
					hand = hand.Add(p.Card)
				}
			}
		}
		r.hands[i] = engine.ScoreShow(hand.Cards(), v.Starter, false).Total
	}
	return r
}

func containsRank(ranks []int8, r int8) bool {
	for _, x := range ranks {
		if x == r {
			return true
		}
	}
	return false
}

// goLimits reads from the play so far, for each seat, the highest L such
// that it could lay no card of value L or less at some point this hand:
// a seat that says go at count c holds nothing of 31−c or less, and the
// cards it still holds it held then. The play shows every go: a reset
// that was not at 31 means nobody could play, and a turn that passed over
// a seat with cards means that seat could not.
func goLimits(v engine.View) [4]int8 {
	var limits [4]int8
	n := v.Options.Players
	var left [4]int
	for s := 0; s < n; s++ {
		left[s] = 4
	}
	saidGo := func(from, to, count int) {
		// Seats strictly after from and before to, or all the others
		// when they are the same seat.
		for s := (from + 1) % n; s != to && s != from; s = (s + 1) % n {
			if left[s] > 0 {
				limits[s] = max(limits[s], int8(31-count))
			}
		}
	}
	allStuck := func(count int) {
		if count == 31 {
			return
		}
		for s := 0; s < n; s++ {
			if left[s] > 0 {
				limits[s] = max(limits[s], int8(31-count))
			}
		}
	}
	count, prev := 0, -1
	for i, p := range v.Plays {
		val := p.Card.Value()
		switch {
		case i == 0:
		case count == 31 || count+val > 31:
			allStuck(count)
			count = 0
		default:
			saidGo(prev, p.Seat, count)
		}
		count += val
		left[p.Seat]--
		prev = p.Seat
	}
	switch {
	case prev < 0:
	case v.SeriesStart == len(v.Plays):
		allStuck(count)
	default:
		saidGo(prev, v.Seat, count)
	}
	return limits
}

// dealHidden deals the cards the other seats still hold, from the cards
// the seat has not seen, consistent with every go; and returns the deal's
// weight: how likely the players were to keep those hands.
func dealHidden(v engine.View, limits [4]int8, rng *rand.Rand) ([4]engine.CardSet, float64) {
	var hands [4]engine.CardSet
	pool := v.Unseen()
	var played [4]engine.CardSet
	for _, p := range v.Plays {
		played[p.Seat] = played[p.Seat].Add(p.Card)
	}
	// The most constrained seats are dealt first.
	order := make([]int, 0, 4)
	for s := 0; s < v.Options.Players; s++ {
		if s != v.Seat && v.CardsLeft[s] > 0 {
			order = append(order, s)
		}
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && limits[order[j]] > limits[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, s := range order {
		allowed := pool
		for _, c := range pool.Cards() {
			if int8(c.Value()) <= limits[s] {
				allowed = allowed.Remove(c)
			}
		}
		if allowed.Len() < v.CardsLeft[s] {
			allowed = pool // what was seen contradicts itself; deal anyway
		}
		hands[s] = sample(allowed, v.CardsLeft[s], rng)
		pool &^= hands[s]
	}
	if v.Options.Players > 2 {
		return hands, 1 // deals are weighed at two players only: see keepWeight
	}
	logw := passedPoints * float64(pointsPassed(v, hands, played))
	for _, s := range order {
		logw += keepWeight * float64(quickScore(hands[s]|played[s]))
	}
	return hands, math.Exp(logw)
}

// passedPoints is how much less likely a deal is for each time it has a
// player pass up points in the play: players take the points they see,
// so one who laid a card that scored less than another it held probably
// did not hold that other card (e^−1.2, about a third as likely).
const passedPoints = -1.2

// pointsPassed counts the plays so far, by the seats other than v's, that
// scored less than another card the deal gives that seat could have laid.
func pointsPassed(v engine.View, hands, played [4]engine.CardSet) int {
	var held [4]engine.CardSet
	for s := range held {
		held[s] = hands[s] | played[s]
	}
	var series [16]int8
	n, count, passed := 0, 0, 0
	for i, p := range v.Plays {
		val := p.Card.Value()
		if i > 0 && (count == 31 || count+val > 31) {
			n, count = 0, 0
		}
		if p.Seat != v.Seat {
			best := -1
			for _, c := range held[p.Seat].Cards() {
				if c.Value()+count <= 31 {
					series[n] = int8(c.Rank())
					best = max(best, playPoints(series[:n+1], int8(count+c.Value())))
				}
			}
			series[n] = int8(p.Card.Rank())
			if best > playPoints(series[:n+1], int8(count+val)) {
				passed++
			}
		}
		held[p.Seat] = held[p.Seat].Remove(p.Card)
		series[n] = int8(p.Card.Rank())
		n, count = min(n+1, len(series)-1), count+val
	}
	return passed
}

// sample draws k cards of a set at random.
func sample(s engine.CardSet, k int, rng *rand.Rand) engine.CardSet {
	cards := s.Cards()
	var out engine.CardSet
	for i := 0; i < k && i < len(cards); i++ {
		j := i + rng.IntN(len(cards)-i)
		cards[i], cards[j] = cards[j], cards[i]
		out = out.Add(cards[i])
	}
	return out
}

// quickScore is what cards score among themselves, without a starter:
// fifteens, pairs and runs. It is how good a kept hand looks at a glance.
func quickScore(s engine.CardSet) int {
	cards := s.Cards()
	n := len(cards)
	pts := 0
	for mask := 1; mask < 1<<n; mask++ {
		sum := 0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				sum += cards[i].Value()
			}
		}
		if sum == 15 {
			pts += 2
		}
	}
	var byRank [15]int
	for _, c := range cards {
		byRank[c.Rank()]++
	}
	for r := 1; r <= 13; r++ {
		pts += byRank[r] * (byRank[r] - 1)
	}
	for r := 1; r <= 11; r++ {
		length, ways := 0, 1
		for r+length <= 13 && byRank[r+length] > 0 {
			ways *= byRank[r+length]
			length++
		}
		if length >= 3 && (r == 1 || byRank[r-1] == 0) {
			pts += length * ways
		}
	}
	return pts
}

// expertPlay is the card the expert lays: the best rank by the search.
func expertPlay(v engine.View, rng *rand.Rand) engine.Card {
	ranks, values := playValues(v, rng)
	return cardOfRank(v.Legal, ranks[bestRank(ranks, values)])
}

// bestRank is the index of the best value, ties to the lower card (it
// fits under 31 later).
func bestRank(ranks []int8, values []float64) int {
	best := 0
	for i := range ranks {
		if values[i] > values[best]+1e-9 || (math.Abs(values[i]-values[best]) <= 1e-9 && ranks[i] < ranks[best]) {
			best = i
		}
	}
	return best
}

// cardOfRank is a legal card of rank r: suits never score in the play.
func cardOfRank(legal []engine.Card, r int8) engine.Card {
	for _, c := range legal {
		if int8(c.Rank()) == r {
			return c
		}
	}
	return legal[0]
}
