package ai

import (
	"math/rand/v2"
	"sort"

	"github.com/cribbage-bot/cribbage/engine"
)

// choosePlay picks the card a level lays.
func choosePlay(level Level, v engine.View, rng *rand.Rand) engine.Card {
	legal := v.Legal
	switch level {
	case Expert:
		return expertPlay(v, rng)
	case Classic:
		return bestPlay(v).Card
	case Greedy, Easy:
		best, bestPts := legal[0], -1
		for _, c := range legal {
			if p := points(v.Series(), v.Count, c); p > bestPts {
				best, bestPts = c, p
			}
		}
		if level == Easy && bestPts == 0 {
			return legal[rng.IntN(len(legal))]
		}
		return best
	}
	return legal[rng.IntN(len(legal))]
}

// points is what laying c on the series would score.
func points(series []engine.Card, count int, c engine.Card) int {
	s := append(append(make([]engine.Card, 0, len(series)+1), series...), c)
	total := 0
	for _, it := range engine.ScorePlay(s, count+c.Value()) {
		total += it.Points
	}
	return total
}

// PlayAdvice is the expert's card to lay, with why: what it pegs now,
// whether it wins the game, and what the expert's search expects of it.
type PlayAdvice struct {
	Card   engine.Card
	Points int
	Wins   bool
	// Net is what the seat's side is expected to peg from now to the end
	// of the play, this card included, less the other sides' (their
	// average, at a table of three or four).
	Net float64
	// Racing is set near the end of a game of two sides (two players or
	// partners), when the card is chosen for the chance of winning the
	// game, Chance, not for points.
	Racing bool
	Chance float64
	// Only is set when no other card fits: nothing was weighed.
	Only bool
}

// AdvisePlay is the expert's play for the coach: the card the expert
// would lay from v, the view of the seat to play, and why.
func AdvisePlay(v engine.View, seed uint64) PlayAdvice {
	rng := rand.New(rand.NewPCG(seed, 0x6372696262616765))
	ranks, values := playValues(v, rng)
	best := bestRank(ranks, values)
	a := PlayAdvice{Card: cardOfRank(v.Legal, ranks[best]), Racing: racing(v)}
	a.Points = points(v.Series(), v.Count, a.Card)
	a.Wins = v.Scores[v.Options.SideOf(v.Seat)]+a.Points >= v.Options.Target
	if a.Racing {
		a.Chance = (values[best]/winValue + 1) / 2
	} else {
		a.Net = values[best]
	}
	if len(ranks) == 1 {
		a = PlayAdvice{Card: a.Card, Points: a.Points, Wins: a.Wins, Only: true}
	}
	return a
}

// playChoice is a card with why it was chosen.
type playChoice struct {
	Card engine.Card
	// Points is what the card scores now; Reply the points the next
	// player is expected to score back, welcome if it is a partner.
	Points int
	Reply  float64
	Wins   bool
	Value  float64
}

// bestPlay weighs every legal card: what it scores now, what the next
// player is expected to score in reply given the cards unseen, whether it
// wins, and whether the seat keeps a card to answer with.
func bestPlay(v engine.View) playChoice {
	o := v.Options
	side := o.SideOf(v.Seat)
	series := v.Series()
	unseen := v.Unseen()
	next := v.NextToPlay()
	partner := next >= 0 && o.SideOf(next) == side
	// The closer an opponent is to winning, the more their points cost.
	weight := 1.0
	for s, score := range v.Scores {
		if s != side && score >= o.Target-8 {
			weight = 3
		}
	}
	var best playChoice
	for i, c := range v.Legal {
		ch := playChoice{Card: c, Points: points(series, v.Count, c)}
		ch.Wins = v.Scores[side]+ch.Points >= o.Target
		if next >= 0 {
			ch.Reply = expectedReply(append(append([]engine.Card(nil), series...), c), v.Count+c.Value(), unseen, v.CardsLeft[next])
		}
		// Each product is rounded before it is added (generate.go says
		// why): the win tables are measured on these plays.
		ch.Value = float64(ch.Points) - float64(weight*ch.Reply)
		if partner {
			ch.Value = float64(ch.Points) + ch.Reply
		}
		if ch.Wins {
			ch.Value += 1000
		}
		// Keep a card of the same rank to answer a pair with three of a kind.
		if !partner && hasRank(v.Remaining.Remove(c), c.Rank()) {
			ch.Value += 0.3
		}
		// Between equals, keep the low cards: they fit under 31 later.
		ch.Value += float64(float64(c.Value()) * 0.01)
		if i == 0 || ch.Value > best.Value {
			best = ch
		}
	}
	return best
}

// hasRank reports whether set holds a card of rank r.
func hasRank(set engine.CardSet, r engine.Rank) bool {
	for _, c := range set.Cards() {
		if c.Rank() == r {
			return true
		}
	}
	return false
}

// expectedReply is the points a player holding hand unseen cards is
// expected to score with their best reply: ranks by the points they would
// make, each weighted by the chance the player holds one and none better.
func expectedReply(series []engine.Card, count int, unseen engine.CardSet, hand int) float64 {
	if hand == 0 {
		return 0
	}
	var byRank [14]int
	n := 0
	for _, c := range unseen.Cards() {
		byRank[c.Rank()]++
		n++
	}
	type option struct {
		pts  int
		prob float64
	}
	var opts []option
	for r := engine.Ace; r <= engine.King; r++ {
		c := engine.NewCard(r, engine.Spades)
		if byRank[r] == 0 || count+c.Value() > 31 {
			continue
		}
		p := points(series, count, c)
		if p == 0 {
			continue
		}
		// The chance of holding at least one card of the rank.
		none := 1.0
		for i := 0; i < hand; i++ {
			none *= float64(n-byRank[r]-i) / float64(n-i)
		}
		opts = append(opts, option{p, 1 - none})
	}
	sort.Slice(opts, func(i, j int) bool { return opts[i].pts > opts[j].pts })
	e, noneBetter := 0.0, 1.0
	for _, o := range opts {
		e += float64(float64(o.pts) * o.prob * noneBetter) // rounded first: see generate.go
		noneBetter *= 1 - o.prob
	}
	return e
}
