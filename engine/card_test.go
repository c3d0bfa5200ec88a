package engine

import (
	"errors"
	"testing"
)

func TestParseCard(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		display string
	}{
		{"AS", "AS", "A♠"}, {"as", "AS", "A♠"}, {"10D", "TD", "10♦"}, {"td", "TD", "10♦"},
		{"5♥", "5H", "5♥"}, {"Jc", "JC", "J♣"}, {"Q♦", "QD", "Q♦"}, {"K♠", "KS", "K♠"}, {" 9h ", "9H", "9♥"},
	}
	for _, tc := range tests {
		c, err := ParseCard(tc.in)
		if err != nil {
			t.Errorf("ParseCard(%q): %v", tc.in, err)
			continue
		}
		if c.String() != tc.want || c.Display() != tc.display {
			t.Errorf("ParseCard(%q) = %s / %s, want %s / %s", tc.in, c, c.Display(), tc.want, tc.display)
		}
	}
	for _, bad := range []string{"", "1S", "11H", "ZZ", "A", "AX", "10", "♠A"} {
		if _, err := ParseCard(bad); !errors.Is(err, ErrBadCard) {
			t.Errorf("ParseCard(%q) error = %v, want ErrBadCard", bad, err)
		}
	}
}

func TestParseCardsRefusesDuplicates(t *testing.T) {
	if _, err := ParseCards("5H 5h"); !errors.Is(err, ErrBadCard) {
		t.Errorf("duplicate accepted: %v", err)
	}
	cs, err := ParseCards("AS, 10D,JC")
	if err != nil || FormatCards(cs) != "AS TD JC" {
		t.Errorf("ParseCards = %v, %v", cs, err)
	}
}

func TestCardsRoundTripAndValues(t *testing.T) {
	seen := CardSet(0)
	for i := uint(0); i < 52; i++ {
		c := cardAt(i)
		back, err := ParseCard(c.String())
		if err != nil || back != c || c.index() != i {
			t.Fatalf("card %d: %s → %v, %v", i, c, back, err)
		}
		seen = seen.Add(c)
	}
	if seen != FullDeck || seen.Len() != 52 {
		t.Errorf("deck set %x", uint64(seen))
	}
	for _, tc := range []struct {
		card  string
		value int
	}{{"AS", 1}, {"9D", 9}, {"TD", 10}, {"JH", 10}, {"QC", 10}, {"KS", 10}} {
		if v := MustParseCard(tc.card).Value(); v != tc.value {
			t.Errorf("%s value %d, want %d", tc.card, v, tc.value)
		}
	}
}
