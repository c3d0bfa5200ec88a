package ai

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// The daily hand: one discard problem a day, the same for everyone, fixed
// in advance by a published seed and the date, so anyone can deal it
// again and check it was not chosen after the answers came in. The recipe
// (README.md, "The daily hand", says it for people):
//
//   - candidate a of a date is dealt from the seed SHA-256 of the text
//     DailySeed + "/" + the date as 2006-01-02 + "/" + a in decimal
//     (a = 0, 1, 2 …), by engine.Deal, at three players on a Saturday
//     and two on every other day (UTC dates);
//   - its board is SHA-256 of that seed's 32 bytes: byte 0 mod the
//     players is the dealer's seat, and the two bytes from 2+2i (big
//     endian) mod 91 are seat i's score; the player is seat 0, so their
//     cards are the deal's hand leadOrder(0, dealer) from the dealer's
//     left;
//   - the day's hand is the first candidate worth thinking about
//     (Daily.WorthThinking), looking at no more than DailyAttempts; if
//     none is, the first.
//
// Every score is at most 90 of 121: more than raceFrom from the end, where
// the expert values a throw by its points over every starter (Splits)
// rather than by its chance of winning. So the coach's expected points —
// the numbers the daily hand is judged by — are the right answer at every
// board the daily hand shows; the score changes nothing in it.

// DailySeed is the daily hand's published seed: 32 bytes drawn once from
// crypto/rand, in hex, and never changed (a change would change every
// day's hand, past ones included).
const DailySeed = "271301c02a19c1aa25ceea857795e413b93fa451556f2fc0d2b290de62fdb058"

// DailyAttempts is how many candidates a day looks at for one worth
// thinking about.
const DailyAttempts = 64

// DailyMaxScore is the highest score a daily board shows.
const DailyMaxScore = 90

// The thresholds of Daily.WorthThinking, in points on average.
const (
	// DailyObviousCost: the obvious throw (the best hand kept, crib and
	// play ignored) gives up at least this much against the best.
	DailyObviousCost = 0.5
	// DailyClose: the best two throws that differ are within this.
	DailyClose = 0.2
	// dailySame is how near two throws' totals are for them to be the
	// same answer (swapping one suit for another, say).
	dailySame = 0.005
)

// Daily is one daily hand (or a candidate for one): the player, seat 0,
// holds Dealt with Dealer dealing and the board at Scores, and throws to
// the crib.
type Daily struct {
	// Date is the day, written 2006-01-02 (UTC).
	Date    string
	Attempt int
	Seed    engine.Seed
	// Options are the table's: two or three players, 121 points.
	Options engine.Options
	Dealer  int
	// Scores are every seat's, the player's first.
	Scores []int
	Dealt  engine.CardSet
	// Splits are the coach's values of every throw (Splits), best first.
	Splits []Split
}

// DailyCandidate deals candidate attempt of a date (written 2006-01-02)
// and values its throws.
func DailyCandidate(date string, attempt int) (Daily, error) {
	day, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return Daily{}, fmt.Errorf("ai: daily hand of %q: %w", date, err)
	}
	players := 2
	if day.Weekday() == time.Saturday {
		players = 3
	}
	seed := engine.Seed(sha256.Sum256(fmt.Appendf(nil, "%s/%s/%d", DailySeed, date, attempt)))
	board := sha256.Sum256(seed[:])
	d := Daily{Date: date, Attempt: attempt, Seed: seed, Options: engine.Options{Players: players, Target: 121},
		Dealer: int(board[0]) % players, Scores: make([]int, players)}
	for i := range d.Scores {
		d.Scores[i] = int(binary.BigEndian.Uint16(board[2+2*i:])) % (DailyMaxScore + 1)
	}
	d.Dealt = engine.Deal(seed, players).Hands[leadOrder(d.Options, 0, d.Dealer)]
	d.Splits = Splits(d.Options, 0, d.Dealer, d.Dealt)
	return d, nil
}

// DailyHand is the daily hand of a date (written 2006-01-02): its first
// candidate worth thinking about.
func DailyHand(date string) (Daily, error) {
	first, err := DailyCandidate(date, 0)
	if err != nil {
		return Daily{}, err
	}
	for a := range DailyAttempts {
		d := first
		if a > 0 {
			d, _ = DailyCandidate(date, a)
		}
		if ok, _ := d.WorthThinking(); ok {
			return d, nil
		}
	}
	return first, nil
}

// WorthThinking reports whether a daily hand is worth thinking about, and
// why: the obvious throw — the one that keeps the best hand (Hand, the
// crib and the play ignored; of equal hands the best in all) — gives up
// at least DailyObviousCost against the best, or the best two throws that
// are not the same answer (totals more than dailySame apart) are within
// DailyClose of each other.
func (d Daily) WorthThinking() (bool, string) {
	best := d.Splits[0]
	obvious := best
	for _, s := range d.Splits {
		if s.Hand > obvious.Hand+1e-9 {
			obvious = s
		}
	}
	if cost := best.Total - obvious.Total; cost >= DailyObviousCost {
		return true, fmt.Sprintf("keeping the best hand, %s, gives up %.2f", engine.DisplayCards(obvious.Keep), cost)
	}
	if next, ok := d.RunnerUp(); ok && best.Total-next.Total < DailyClose {
		return true, fmt.Sprintf("the best two throws are %.2f apart", best.Total-next.Total)
	}
	return false, ""
}

// RunnerUp is the best throw that is not the same answer as the best.
func (d Daily) RunnerUp() (Split, bool) {
	for _, s := range d.Splits[1:] {
		if d.Splits[0].Total-s.Total > dailySame {
			return s, true
		}
	}
	return Split{}, false
}

// Judge values a throw: its split, and the points it gives up on average
// against the best (0 for the best, or one as good); false if the cards
// are not a throw of the hand.
func (d Daily) Judge(throw engine.CardSet) (Split, float64, bool) {
	for _, s := range d.Splits {
		if engine.SetOf(s.Throw...) == throw {
			return s, max(d.Splits[0].Total-s.Total, 0), true
		}
	}
	return Split{}, 0, false
}
