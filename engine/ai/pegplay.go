package ai

import (
	"math"
	"math/bits"

	"github.com/cribbage-bot/cribbage/engine"
)

// pegState is the play of one hand reduced to what scores in it, for a
// search to copy and advance millions of times without allocating. Suits
// never score in the play, so a hand is its count of cards of each rank.
// The rules are engine's (RULES.md "The play"); TestPegStateMatchesEngine
// holds the two together.
type pegState struct {
	players, sides int8
	// turn is the seat to play; it can always play.
	turn  int8
	count int8
	// series are the ranks laid since the count was last reset.
	series [16]int8
	slen   int8
	left   [4]int8
	hands  [4][14]int8
	// held has bit r set while a seat holds a card of rank r.
	held [4]uint16
	// scores are each side's, and target the game's: a side that reaches
	// it wins at once.
	scores [4]int16
	target int16
	// done is set when the play is over or the game won.
	done bool
}

// rankValue is a rank's value in the count.
func rankValue(r int8) int8 { return min(r, 10) }

// minValue is the value of the lowest card a seat holds, or 99 for none.
func (s *pegState) minValue(seat int8) int8 {
	if s.held[seat] == 0 {
		return 99
	}
	return rankValue(int8(bits.TrailingZeros16(s.held[seat])))
}

// hold gives a seat a card of rank r.
func (s *pegState) hold(seat, r int8) {
	s.hands[seat][r]++
	s.left[seat]++
	s.held[seat] |= 1 << r
}

// canPlay reports whether seat holds a card that fits under 31.
func (s *pegState) canPlay(seat int8) bool { return s.minValue(seat)+s.count <= 31 }

// playPoints is what the last rank of series scores as laid, with count
// the count after it: 15 and 31, pairs of the most recent cards, or the
// longest run of the most recent cards in any order (a pair at the end
// leaves no run, since every run of the last cards would hold both).
func playPoints(series []int8, count int8) int {
	p := 0
	if count == 15 || count == 31 {
		p = 2
	}
	n := len(series)
	last := series[n-1]
	same := 1
	for same < n && series[n-1-same] == last {
		same++
	}
	if same >= 2 {
		return p + same*(same-1)
	}
	var seen uint16
	lo, hi := int8(14), int8(0)
	run := 0
	for k := 1; k <= n; k++ {
		r := series[n-k]
		if seen&(1<<r) != 0 {
			break
		}
		seen |= 1 << r
		lo, hi = min(lo, r), max(hi, r)
		if k >= 3 && int(hi-lo) == k-1 {
			run = k
		}
	}
	return p + run
}

// play lays a card of rank r for the seat to play, and returns the points
// its side scored: the card's, and the go or last card when nobody can
// play after it. It then passes the turn as engine does: to the next seat
// that can play, the same seat last; or, when nobody can, resets the count
// for the seat left of it.
func (s *pegState) play(r int8) int {
	t := s.turn
	s.hands[t][r]--
	if s.hands[t][r] == 0 {
		s.held[t] &^= 1 << r
	}
	s.left[t]--
	s.count += rankValue(r)
	s.series[s.slen] = r
	s.slen++
	pts := playPoints(s.series[:s.slen], s.count)
	side := t % s.sides
	if pts > 0 {
		s.scores[side] += int16(pts)
		if s.scores[side] >= s.target {
			s.done = true
			return pts
		}
	}
	if s.count < 31 {
		for i := int8(1); i <= s.players; i++ {
			next := (t + i) % s.players
			if s.left[next] > 0 && s.canPlay(next) {
				s.turn = next
				return pts
			}
		}
		// Nobody can play: one for the go, or for the last card.
		pts++
		s.scores[side]++
		if s.scores[side] >= s.target {
			s.done = true
			return pts
		}
	}
	lead := (t + 1) % s.players
	for i := int8(0); i < s.players && s.left[lead] == 0; i++ {
		lead = (lead + 1) % s.players
	}
	if s.left[lead] == 0 {
		s.done = true
		return pts
	}
	s.count, s.slen, s.turn = 0, 0, lead
	return pts
}

// newPegState is the play as it stands in a view, with the other seats'
// remaining cards given (hands[seat] for every seat but the viewer's,
// whose own are taken from the view).
func newPegState(v engine.View, others [4]engine.CardSet) pegState {
	o := v.Options
	s := pegState{players: int8(o.Players), sides: int8(o.Sides()), turn: int8(v.Turn), count: int8(v.Count), target: int16(o.Target)}
	for _, c := range v.Series() {
		s.series[s.slen] = int8(c.Rank())
		s.slen++
	}
	for seat := 0; seat < o.Players; seat++ {
		held := others[seat]
		if seat == v.Seat {
			held = v.Remaining
		}
		for _, c := range held.Cards() {
			s.hold(int8(seat), int8(c.Rank()))
		}
	}
	for side, score := range v.Scores {
		s.scores[side] = int16(score)
	}
	return s
}

// policyRank is the rank a player who sees one card ahead lays from s: the
// most its side scores with the card less what the next player can score
// back at once (or plus it, when the next player is a partner); between
// equals, the higher card, keeping the low ones for later counts.
func policyRank(s *pegState) int8 {
	side := s.turn % s.sides
	best, bestValue := int8(-1), float32(-math.MaxFloat32)
	room := 31 - s.count
	for m := s.held[s.turn]; m != 0; m &= m - 1 {
		r := int8(bits.TrailingZeros16(m))
		if rankValue(r) > room {
			break
		}
		c := *s
		v := float32(c.play(r))
		if !c.done {
			reply := bestReply(&c)
			if c.turn%c.sides == side {
				v += reply
			} else {
				v -= reply
			}
		}
		// Rounded before it is added (generate.go says why): the
		// many-seat peg table is played out by this rule.
		v += float32(0.01 * float32(rankValue(r)))
		if v > bestValue {
			best, bestValue = r, v
		}
	}
	return best
}

// bestReply is the most the seat to play can score with its next card,
// a go or last card included: what laying each of its cards with play
// would score, worked out without copying the state for each card, since
// the search asks it at most of its nodes.
func bestReply(s *pegState) float32 {
	t := s.turn
	side := t % s.sides
	best := 0
	room := 31 - s.count
	for m := s.held[t]; m != 0; m &= m - 1 {
		r := int8(bits.TrailingZeros16(m))
		if rankValue(r) > room {
			break
		}
		count := s.count + rankValue(r)
		s.series[s.slen] = r // past the series: s is left as it was
		p := playPoints(s.series[:s.slen+1], count)
		wins := p > 0 && int(s.scores[side])+p >= int(s.target)
		if count < 31 && !wins && !s.anyCanPlayAfter(t, r, count) {
			p++ // the go, or the last card: a card that wins ends the play first
		}
		best = max(best, p)
	}
	return float32(best)
}

// anyCanPlayAfter reports whether any seat could lay a card at count
// after seat t laid a card of rank r.
func (s *pegState) anyCanPlayAfter(t, r, count int8) bool {
	for seat := int8(0); seat < s.players; seat++ {
		held, left := s.held[seat], s.left[seat]
		if seat == t {
			left--
			if s.hands[t][r] == 1 {
				held &^= 1 << r
			}
		}
		if left > 0 && rankValue(int8(bits.TrailingZeros16(held)))+count <= 31 {
			return true
		}
	}
	return false
}
