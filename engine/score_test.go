package engine

import (
	"strconv"
	"testing"
)

func TestScoreShow(t *testing.T) {
	tests := []struct {
		name    string
		hand    string
		starter string
		crib    bool
		want    int
		spoken  string
	}{
		{"the 29 hand", "5H 5D 5C JS", "5S", false, 29, ""},
		{"four fives and a jack not of the suit", "5H 5D 5C 5S", "JH", false, 28, ""},
		{"run of four and a fifteen", "7H 8D 9C TS", "2C", false, 6, "fifteen two and a run of four is six"},
		{"double run of three", "3H 4D 4C 5S", "KC", false, 10, "fifteen two and a double run of three is ten"},
		{"triple run", "3H 3D 3C 4S", "5H", false, 21, ""},
		{"double double run", "3H 3D 4C 4S", "5H", false, 20, ""},
		{"fifteens and a pair", "5H 5D 2C 3S", "QC", false, 10, "fifteen two, fifteen four, fifteen six, fifteen eight and a pair is ten"},
		{"hand flush of four", "2H 4H 6H QH", "KS", false, 4, "a flush of four is four"},
		{"hand flush of five", "2H 4H 6H QH", "KH", false, 5, ""},
		{"crib flush of four scores nothing", "2H 4H 6H QH", "KS", true, 0, "nineteen"},
		{"crib flush of five", "2H 4H 6H QH", "KH", true, 5, ""},
		{"his nobs", "JH 2C 4D 6S", "9H", false, 5, "fifteen two, fifteen four and his nobs is five"},
		{"jack of another suit is no nobs", "JC 2C 4D 6S", "9H", false, 4, "fifteen two, fifteen four"},
		{"nothing is nineteen", "AS 3D 9C JH", "QC", false, 0, "nineteen"},
		{"runs never wrap: Q K A", "QH KD AC 7S", "9C", false, 0, ""},
		{"ten and jack are no pair", "TH JD 4C 6S", "8C", false, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hand := MustParseCards(tc.hand)
			starter := MustParseCard(tc.starter)
			b := ScoreShow(hand, starter, tc.crib)
			if b.Total != tc.want {
				t.Errorf("breakdown total %d, want %d: %+v", b.Total, tc.want, b.Items)
			}
			if fast := ScoreHand([4]Card(hand), starter, tc.crib); fast != b.Total {
				t.Errorf("fast scorer %d, breakdown %d", fast, b.Total)
			}
			if tc.spoken != "" && b.Spoken() != tc.spoken {
				t.Errorf("spoken %q, want %q", b.Spoken(), tc.spoken)
			}
		})
	}
}

// TestBreakdownItems checks which cards each item names.
func TestBreakdownItems(t *testing.T) {
	b := ScoreShow(MustParseCards("3H 4D 4C 5S"), MustParseCard("KC"), false)
	var got []string
	for _, it := range b.Items {
		got = append(got, it.Kind.String()+" "+FormatCards(it.Cards)+" "+strconv.Itoa(it.Points))
	}
	want := []string{
		"fifteen 5S KC 2",
		"pair 4D 4C 2",
		"run 3H 4D 5S 3",
		"run 3H 4C 5S 3",
	}
	if len(got) != len(want) {
		t.Fatalf("items %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// TestFastScorerAgreesWithBreakdown compares the two scorers on many hands,
// crib and not.
func TestFastScorerAgreesWithBreakdown(t *testing.T) {
	deck := Shuffle(SeedFromUint64(7))
	for i := 0; i+5 <= 52*20; i += 5 {
		if i%52 > 47 {
			continue
		}
		j := i % 52
		if j+5 > 52 {
			continue
		}
		hand := [4]Card(deck[j : j+4])
		starter := deck[j+4]
		for _, crib := range []bool{false, true} {
			if fast, slow := ScoreHand(hand, starter, crib), ScoreShow(hand[:], starter, crib).Total; fast != slow {
				t.Errorf("%s | %s crib=%v: fast %d, breakdown %d", FormatCards(hand[:]), starter, crib, fast, slow)
			}
		}
		deck = Shuffle(SeedFromUint64(uint64(i) + 100))
	}
}

func TestPlayScoring(t *testing.T) {
	tests := []struct {
		name   string
		series string
		want   string // kinds and points
	}{
		{"fifteen", "5H TD", "fifteen 2"},
		{"pair", "7H 7D", "pair 2"},
		{"three of a kind", "7H 7D 7C", "pair 6"},
		{"four of a kind", "7H 7D 7C 7S", "pair 12"},
		{"pair needs the same rank, not value", "TH JD", ""},
		{"run out of order", "3H 5D 4C", "run 3"},
		{"run of four out of order", "3H 5D 4C 6S", "run 4"},
		{"run broken by a pair", "3H 4D 4C 5S", ""},
		{"run after the pair", "4H 3D 4C 5S", "run 3"},
		{"31 is two", "KH QD AC JS", "thirty-one 2"},
		{"31 with a pair", "TH 5D 8C 8S", "thirty-one 2 pair 2"},
		{"a run of the last cards only", "AS 8H 2D 3C", ""},
		{"longest run counts", "AS 2H 3D 4C 5S", "fifteen 2 run 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			series := MustParseCards(tc.series)
			count := 0
			for _, c := range series {
				count += c.Value()
			}
			got := ""
			for _, it := range scorePlay(series, count) {
				if got != "" {
					got += " "
				}
				got += it.Kind.String() + " " + strconv.Itoa(it.Points)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func BenchmarkScoreHand(b *testing.B) {
	showTable()
	hands := [][4]Card{}
	var starters []Card
	for i := uint64(0); i < 64; i++ {
		d := Shuffle(SeedFromUint64(i))
		hands = append(hands, [4]Card(d[:4]))
		starters = append(starters, d[4])
	}
	i, sink := 0, 0
	for b.Loop() {
		sink += ScoreHand(hands[i&63], starters[i&63], false)
		i++
	}
	_ = sink
}

// TestSpokenPlay says what a card laid in the play scored.
func TestSpokenPlay(t *testing.T) {
	pair := ScoreItem{Kind: KindPair, Points: 2}
	tests := []struct {
		items []ScoreItem
		want  string
	}{
		{[]ScoreItem{{Kind: KindFifteen, Points: 2}}, "fifteen"},
		{[]ScoreItem{{Kind: KindFifteen, Points: 2}, pair}, "fifteen and a pair"},
		{[]ScoreItem{{Kind: KindPair, Points: 6}}, "three of a kind"},
		{[]ScoreItem{{Kind: KindPair, Points: 12}}, "four of a kind"},
		{[]ScoreItem{{Kind: KindRun, Points: 4}}, "a run of four"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := SpokenPlay(tt.items); got != tt.want {
			t.Errorf("SpokenPlay(%v) = %q, want %q", tt.items, got, tt.want)
		}
	}
}
