package ai

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// TestDailyHandFromTheSeed deals dates' hands again from the published
// seed as README.md tells a reader to, with nothing of daily.go's: the
// seed text hashed, the board hashed from the seed, the deal, and the
// player's hand counted from the dealer's left. Then it checks the
// pinned hands, so a change to the recipe shows as a change here.
func TestDailyHandFromTheSeed(t *testing.T) {
	tests := []struct {
		date             string
		attempt, dealer  int
		scores           []int
		dealt, bestThrow string
	}{
		{"2026-01-01", 0, 0, []int{56, 80}, "2S 3H 5D 8D TD QC", "2S 3H"},
		{"2026-03-14", 3, 1, []int{66, 72, 89}, "AS 5S 6C 8C TH", "TH"}, // a Saturday: three players
		{"2026-03-15", 0, 0, []int{62, 88}, "AS 3S 4C 7S 7C 9H", "3S 4C"},
		{"2026-07-04", 3, 1, []int{57, 23, 70}, "3D 4S 6H TC QC", "QC"},
	}
	for _, tt := range tests {
		t.Run(tt.date, func(t *testing.T) {
			d, err := DailyHand(tt.date)
			if err != nil {
				t.Fatal(err)
			}
			players := 2
			if day, _ := time.Parse("2006-01-02", tt.date); day.Weekday() == time.Saturday {
				players = 3
			}
			sum := sha256.Sum256([]byte(DailySeed + "/" + tt.date + "/" + fmt.Sprint(d.Attempt)))
			board := sha256.Sum256(sum[:])
			dealer := int(board[0]) % players
			deal := engine.Deal(engine.Seed(sum), players)
			// The deal goes round from the dealer's left, the dealer's
			// hand last; the player sits at seat 0, dealer seats on.
			mine := deal.Hands[((-dealer-1)%players+players)%players]
			if d.Seed != engine.Seed(sum) || d.Dealer != dealer || d.Dealt != mine || d.Options.Players != players {
				t.Errorf("recomputed seed %x dealer %d hand %s at %d players; DailyHand has %s, %d, %s at %d",
					sum, dealer, mine, players, d.Seed, d.Dealer, d.Dealt, d.Options.Players)
			}
			for i, s := range d.Scores {
				want := (int(board[2+2*i])<<8 | int(board[3+2*i])) % 91
				if s != want {
					t.Errorf("seat %d's score %d, recomputed %d", i, s, want)
				}
			}
			if d.Attempt != tt.attempt || d.Dealer != tt.dealer || fmt.Sprint(d.Scores) != fmt.Sprint(tt.scores) ||
				d.Dealt.String() != tt.dealt || engine.FormatCards(d.Splits[0].Throw) != tt.bestThrow {
				t.Errorf("got attempt %d, dealer %d, scores %v, dealt %s, best throw %s", d.Attempt, d.Dealer, d.Scores, d.Dealt,
					engine.FormatCards(d.Splits[0].Throw))
			}
		})
	}
}

// TestDailyHandIsTheFirstWorthThinkingAbout: every candidate before the
// day's is not worth thinking about, the day's is, and the same date
// gives the same hand; boards stay where the coach's points are the
// answer (no side within raceFrom of the end).
func TestDailyHandIsTheFirstWorthThinkingAbout(t *testing.T) {
	day := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range 21 {
		date := day.AddDate(0, 0, i).Format("2006-01-02")
		d, err := DailyHand(date)
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := d.WorthThinking(); !ok || why == "" {
			t.Errorf("%s: the day's hand is not worth thinking about", date)
		}
		for a := range d.Attempt {
			if c, _ := DailyCandidate(date, a); func() bool { ok, _ := c.WorthThinking(); return ok }() {
				t.Errorf("%s: candidate %d was worth thinking about, but %d was chosen", date, a, d.Attempt)
			}
		}
		again, _ := DailyHand(date)
		if again.Seed != d.Seed || again.Dealt != d.Dealt {
			t.Errorf("%s: two hands for one date", date)
		}
		for _, s := range d.Scores {
			if s < 0 || s > DailyMaxScore || d.Options.Target-s <= raceFrom {
				t.Errorf("%s: a score of %d", date, s)
			}
		}
		v := engine.View{Options: d.Options, Scores: d.Scores}
		if racing(v) {
			t.Errorf("%s: the expert would play this board for the win", date)
		}
		if d.Dealt.Len() != d.Options.HandSize() {
			t.Errorf("%s: %d cards", date, d.Dealt.Len())
		}
	}
}

// TestDailyWorthThinking holds the rule to made-up values: the obvious
// throw (the best hand) giving up enough, or the best two distinct throws
// close.
func TestDailyWorthThinking(t *testing.T) {
	split := func(throw string, hand, total float64) Split {
		return Split{Throw: engine.MustParseCards(throw), Hand: hand, Total: total}
	}
	tests := []struct {
		name   string
		splits []Split
		want   bool
		why    string
	}{
		{"the best hand is the best throw, far ahead", []Split{split("AS 2S", 10, 12), split("3S 4S", 8, 11), split("5S 6S", 7, 9)}, false, ""},
		{"the best hand gives up half a point", []Split{split("AS 2S", 8, 12), split("3S 4S", 10, 11.5), split("5S 6S", 7, 9)}, true, "gives up 0.50"},
		{"the best hand gives up less", []Split{split("AS 2S", 8, 12), split("3S 4S", 10, 11.6), split("5S 6S", 7, 9)}, false, ""},
		{"the best two within 0.2", []Split{split("AS 2S", 10, 12), split("3S 4S", 8, 11.85), split("5S 6S", 7, 9)}, true, "0.15 apart"},
		{"the same answer twice, then far behind", []Split{split("AS 2S", 10, 12), split("AH 2H", 10, 11.999), split("5S 6S", 7, 9)}, false, ""},
		{"the same answer twice, then close", []Split{split("AS 2S", 10, 12), split("AH 2H", 10, 11.999), split("5S 6S", 7, 11.9)}, true, "0.10 apart"},
		{"equal hands: the better of them is the obvious", []Split{split("AS 2S", 10, 12), split("3S 4S", 10, 11), split("5S 6S", 7, 9)}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Daily{Splits: tt.splits}
			ok, why := d.WorthThinking()
			if ok != tt.want || !strings.Contains(why, tt.why) {
				t.Errorf("got %v (%q), want %v (%q)", ok, why, tt.want, tt.why)
			}
		})
	}
}

// TestDailyJudge: a throw's points given up are the coach's best total
// less its own, the best giving up nothing; cards that are not a throw of
// the hand are no answer.
func TestDailyJudge(t *testing.T) {
	d, err := DailyHand("2026-03-15")
	if err != nil {
		t.Fatal(err)
	}
	coach := Splits(d.Options, 0, d.Dealer, d.Dealt)
	for _, s := range coach {
		got, gave, ok := d.Judge(engine.SetOf(s.Throw...))
		if !ok || got.Total != s.Total || gave != coach[0].Total-s.Total {
			t.Errorf("throw %s: %v %.4f %v, the coach has %.4f of %.4f", engine.FormatCards(s.Throw), ok, gave, got.Total, s.Total, coach[0].Total)
		}
	}
	for _, bad := range []string{"", "AS", "AS 3S 4C", "KH QH"} {
		cards, _ := engine.ParseCards(bad)
		if _, _, ok := d.Judge(engine.SetOf(cards...)); ok {
			t.Errorf("%q judged as a throw", bad)
		}
	}
	if _, err := DailyCandidate("2026-13-01", 0); err == nil {
		t.Error("a date that is no date was dealt")
	}
	if hex.EncodeToString(d.Seed[:]) != d.Seed.String() {
		t.Error("the seed prints as something else than its hex")
	}
}
