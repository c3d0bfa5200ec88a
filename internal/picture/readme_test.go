package picture

import (
	"os"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// TestREADMEPictures rewrites the pictures README shows, with -update: the
// board is also what `cribbage board --scores 87,102 --back 80,95 --names
// Alice,Bob` draws, and the show is the one README's story tells.
func TestREADMEPictures(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite docs/*.png")
	}
	board := Board{Target: 121, Sides: []Side{{Name: "Alice", Score: 87, Back: 80}, {Name: "Bob", Score: 102, Back: 95}}}
	show := Cards{Starter: engine.MustParseCard("2C"), Hands: []Hand{
		{Label: "Bob", Cards: engine.MustParseCards("AC 8S 8D 9C"), Note: "2 points"},
		{Label: "Alice", Cards: engine.MustParseCards("5C 6S 8H JS"), Note: "4 points"},
		{Label: "Alice's crib", Cards: engine.MustParseCards("AS AH 2S 3S"), Note: "16 points"},
	}}
	standings := Standings{Title: "Club open", Subtitle: "Champion after 3 rounds · 2 games a pairing · 121 points",
		Rows: []StandingRow{
			{Name: "Alice", GamePoints: 11, Spread: 74, Won: 5, Lost: 1, Qualified: true},
			{Name: "Computer 2 (strong)", GamePoints: 10, Spread: 51, Won: 4, Lost: 1, Byes: 1, Qualified: true},
			{Name: "Bob", GamePoints: 8, Spread: 12, Won: 4, Lost: 2},
			{Name: "Carol", GamePoints: 6, Spread: -9, Won: 3, Lost: 3},
			{Name: "Computer 1 (easy)", GamePoints: 4, Spread: -40, Won: 1, Lost: 4, Byes: 1},
			{Name: "Dan", GamePoints: 2, Spread: -88, Won: 1, Lost: 5},
		},
		Playoff:  []string{"Final: Alice v Computer 2 (strong) — 2–1"},
		Champion: "Alice"}
	for name, png := range map[string][]byte{"../../docs/board.png": PNG(board.Render()), "../../docs/show.png": PNG(show.Render()),
		"../../docs/standings.png": PNG(standings.Render()), "../../docs/trend.png": PNG(fortyGames.Render())} {
		if err := os.WriteFile(name, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
