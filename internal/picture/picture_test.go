package picture

import (
	"bytes"
	"flag"
	"fmt"
	"hash/adler32"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
	"golang.org/x/image/font"
)

var update = flag.Bool("update", false, "rewrite the golden pictures under testdata")

// pictures are the golden cases: every kind of board and of cards picture.
var pictures = []struct {
	name string
	img  func() *image.RGBA
}{
	{"board-two-midgame", func() *image.RGBA {
		return Board{Target: 121, Sides: []Side{{Name: "Alice", Score: 87, Back: 80}, {Name: "Bob", Score: 102, Back: 95}}}.Render()
	}},
	{"board-start-61", func() *image.RGBA {
		return Board{Target: 61, Sides: []Side{{Name: "Alice"}, {Name: "Bob"}}}.Render()
	}},
	{"board-four-final", func() *image.RGBA {
		return Board{Target: 121, Title: "Table 12 · hand 14", Sides: []Side{
			{Name: "Alice", Score: 121, Back: 113, Winner: true},
			{Name: "Bob", Score: 58, Back: 52, Skunk: 2},
			{Name: "Carol", Score: 90, Back: 84, Skunk: 1},
			{Name: "A name far too long to fit on one line of the board", Score: 33, Back: 31, Skunk: 2},
		}}.Render()
	}},
	{"board-three-partway", func() *image.RGBA {
		return Board{Target: 121, Sides: []Side{{Name: "Alice", Score: 5}, {Name: "Bob", Score: 31, Back: 29}, {Name: "Carol", Score: 60, Back: 48}}}.Render()
	}},
	{"show-two-colour", func() *image.RGBA {
		return Cards{Starter: engine.MustParseCard("QC"), Hands: []Hand{
			{Label: "Alice", Cards: engine.MustParseCards("5H 5D 2C 3S"), Note: "12"},
			{Label: "Bob", Cards: engine.MustParseCards("AS TD JH KC"), Note: "3"},
			{Label: "Bob's crib", Cards: engine.MustParseCards("4D 6C 9H 9S"), Note: "6"},
		}}.Render()
	}},
	{"show-four-colour", func() *image.RGBA {
		return Cards{FourColour: true, Starter: engine.MustParseCard("5S"), Hands: []Hand{
			{Label: "Carol", Cards: engine.MustParseCards("5H 5D 5C JS"), Note: "29"},
		}}.Render()
	}},
	{"show-four-players", func() *image.RGBA {
		return Cards{Starter: engine.MustParseCard("TD"), Hands: []Hand{
			{Label: "Alice", Cards: engine.MustParseCards("5H 5D JC QS"), Note: "14 points"},
			{Label: "Bob", Cards: engine.MustParseCards("2C 3C 4C 9D"), Note: "7 points"},
			{Label: "Carol", Cards: engine.MustParseCards("AH 7S 8H KD"), Note: "2 points"},
			{Label: "Dan", Cards: engine.MustParseCards("6D 6S 9H TS"), Note: "8 points"},
			{Label: "Dan's crib", Cards: engine.MustParseCards("AS 2D 8C JH"), Note: "claims 4"},
		}}.Render()
	}},
	{"deal-six-cards", func() *image.RGBA {
		return Cards{Hands: []Hand{{Label: "Alice's deal", Cards: engine.MustParseCards("AH 2D 3C 4S 7H KD")}}}.Render()
	}},
	{"standings-long-playoff", func() *image.RGBA {
		return longPlayoff.Render()
	}},
	{"trend-forty-games", func() *image.RGBA {
		return fortyGames.Render()
	}},
}

// fortyGames is a trend of forty games as the bot draws one: points a
// deal wandering about the published par and rising, throws giving up
// less as they go, a few games with no throw reviewed yet, each line the
// average of the last ten games.
var fortyGames = func() Trend {
	var points, given []float64
	for i := range 40 {
		points = append(points, 11.5+float64(i)*0.06+3*math.Sin(float64(i)*1.7))
		g := 2.2 - float64(i)*0.035 + 0.6*math.Cos(float64(i)*2.3)
		if i >= 37 {
			g = math.NaN()
		}
		given = append(given, g)
	}
	lastTen := func(vs []float64) []float64 {
		var out []float64
		for i := range vs {
			sum, n := 0.0, 0
			for _, v := range vs[max(0, i-9) : i+1] {
				if !math.IsNaN(v) {
					sum, n = sum+v, n+1
				}
			}
			out = append(out, sum/float64(n))
		}
		return out
	}
	return Trend{Title: "Alice · the last 40 games", Subtitle: "two-player games · the line averages the last 10",
		Panels: []TrendPanel{
			{Label: "Points a deal: pegged, held and crib", Values: points, Average: lastTen(points), Reference: 13.15, RefLabel: "ACC 13.15"},
			{Label: "Given up a throw (less is better)", Values: given, Average: lastTen(given), Side: 1, Digits: 1},
		}}
}()

// longPlayoff is a playoff whose lines are too long for one line of the
// picture, in a field with byes.
var longPlayoff = Standings{Title: "The Winter Invitational of the Riverside Cribbage Club", Subtitle: "Playoff, semi-finals · 2 games a pairing · 121 points",
	Rows: []StandingRow{
		{Name: "Bartholomew Fitzgerald-Windsor", GamePoints: 12, Spread: 101, Won: 5, Lost: 1, Byes: 1, Qualified: true},
		{Name: "Computer 12 (strong)", GamePoints: 10, Spread: 48, Won: 4, Lost: 1, Byes: 1, Qualified: true},
		{Name: "Alice", GamePoints: 9, Spread: 30, Won: 4, Lost: 2, Qualified: true},
		{Name: "Maximiliana Rosalind Okonkwo-Strand", GamePoints: 8, Spread: 2, Won: 3, Lost: 2, Byes: 1, Qualified: true},
		{Name: "Bob", GamePoints: 4, Spread: -70, Won: 2, Lost: 4},
		{Name: "Carol", GamePoints: 2, Spread: -111, Won: 1, Lost: 5},
	},
	Playoff: []string{
		"Semi-final: Bartholomew Fitzgerald-Windsor v Maximiliana Rosalind Okonkwo-Strand (2–1) — Bartholomew Fitzgerald-Windsor goes through",
		"Semi-final: Computer 12 (strong) v Alice (0–1)",
		"Final: Bartholomew Fitzgerald-Windsor v the winner of Computer 12 (strong) v Alice",
	},
	Champion: "Bartholomew Fitzgerald-Windsor, who needed a name this long to test the wrapping"}

// TestPicturesMatchGolden renders every case and compares the pixels of
// its PNG, as uploaded, with the golden PNG. Antialiasing is float arithmetic, which may round a
// little differently on another CPU, so a channel may be off by a little
// on a few pixels; a moved peg or a changed card is thousands.
func TestPicturesMatchGolden(t *testing.T) {
	for _, tc := range pictures {
		t.Run(tc.name, func(t *testing.T) {
			img := tc.img()
			encoded := PNG(img)
			path := filepath.Join("testdata", tc.name+".png")
			if *update {
				if err := os.WriteFile(path, encoded, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if len(encoded) >= 100<<10 {
				t.Errorf("the PNG is %d KB, over 100 KB", len(encoded)>>10)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			want, err := png.Decode(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			got, err := png.Decode(bytes.NewReader(encoded))
			if err != nil {
				t.Fatal(err)
			}
			if diff, total := differentPixels(got, want); diff*1000 > total {
				t.Errorf("%d of %d pixels differ from %s (more than 0.1%%); look at the new picture with -update and git diff", diff, total, path)
			}
		})
	}
}

// differentPixels counts the pixels where a channel differs by more than
// a rounding's worth; pictures of different sizes differ everywhere.
func differentPixels(a, b image.Image) (diff, total int) {
	ab, bb := a.Bounds(), b.Bounds()
	total = ab.Dx() * ab.Dy()
	if ab.Size() != bb.Size() {
		return total, total
	}
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			for _, d := range [4][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				if max(d[0], d[1])-min(d[0], d[1]) > 12<<8 {
					diff++
					break
				}
			}
		}
	}
	return diff, total
}

func TestDifferentPixelsSeesAMovedPeg(t *testing.T) {
	before := Board{Target: 121, Sides: []Side{{Name: "A", Score: 10, Back: 4}, {Name: "B", Score: 7}}}
	after := before
	after.Sides = []Side{{Name: "A", Score: 12, Back: 10}, {Name: "B", Score: 7}}
	if diff, _ := differentPixels(before.Render(), after.Render()); diff < 200 {
		t.Errorf("two pegs moved but only %d pixels differ", diff)
	}
	if diff, _ := differentPixels(before.Render(), before.Render()); diff != 0 {
		t.Errorf("the same board drawn twice differs in %d pixels", diff)
	}
}

func TestBoardKeyChangesWithWhatIsDrawn(t *testing.T) {
	base := Board{Target: 121, Sides: []Side{{Name: "A", Score: 10, Back: 4}, {Name: "B", Score: 7}}}
	same := Board{Target: 121, Sides: []Side{{Name: "A", Score: 10, Back: 4}, {Name: "B", Score: 7}}}
	if base.Key() != same.Key() {
		t.Error("equal boards have different keys")
	}
	for name, b := range map[string]Board{
		"score":  {Target: 121, Sides: []Side{{Name: "A", Score: 11, Back: 4}, {Name: "B", Score: 7}}},
		"back":   {Target: 121, Sides: []Side{{Name: "A", Score: 10, Back: 5}, {Name: "B", Score: 7}}},
		"name":   {Target: 121, Sides: []Side{{Name: "C", Score: 10, Back: 4}, {Name: "B", Score: 7}}},
		"target": {Target: 61, Sides: []Side{{Name: "A", Score: 10, Back: 4}, {Name: "B", Score: 7}}},
		"winner": {Target: 121, Sides: []Side{{Name: "A", Score: 10, Back: 4, Winner: true}, {Name: "B", Score: 7}}},
		"title":  {Target: 121, Title: "x", Sides: []Side{{Name: "A", Score: 10, Back: 4}, {Name: "B", Score: 7}}},
	} {
		if b.Key() == base.Key() {
			t.Errorf("a board with another %s has the same key", name)
		}
	}
}

// TestBoardWordsAreDrawn: a board labelled in another language has a key
// of its own and other pixels (its skunk lines' labels); English written
// out keeps the key of a board given no words.
func TestBoardWordsAreDrawn(t *testing.T) {
	base := Board{Target: 121, Sides: []Side{{Name: "A", Score: 10, Back: 4, Winner: true}, {Name: "B", Score: 7, Skunk: 1}}}
	english := base
	english.Words = BoardWords{Wins: "wins", Skunked: "skunked", DoubleSkunk: "double skunk", SkunkLine: "skunk line", DoubleSkunkLine: "double skunk line"}
	if english.Key() != base.Key() {
		t.Error("a board with its English words written out changed its key")
	}
	french := base
	french.Words = BoardWords{Wins: "gagne", Skunked: "skunké", SkunkLine: "ligne de skunk", DoubleSkunkLine: "ligne de double skunk"}
	if french.Key() == base.Key() {
		t.Error("a board in French has the English board's key")
	}
	if diff, _ := differentPixels(base.Render(), french.Render()); diff < 100 {
		t.Errorf("the French board differs from the English one in only %d pixels", diff)
	}
}

// BenchmarkRenderBoard is the speed target: a board in under 5 ms on one
// core (run with -cpu 1), drawing and PNG encoding both.
func BenchmarkRenderBoard(b *testing.B) {
	board := Board{Target: 121, Sides: []Side{{Name: "Alice", Score: 87, Back: 80}, {Name: "Bob", Score: 102, Back: 95}}}
	for b.Loop() {
		b.SetBytes(int64(len(board.PNG())))
	}
}

// BenchmarkRenderFourSideBoard is the largest board there is.
func BenchmarkRenderFourSideBoard(b *testing.B) {
	board := Board{Target: 121, Sides: []Side{{Name: "Alice", Score: 87, Back: 80}, {Name: "Bob", Score: 102, Back: 95}, {Name: "Carol", Score: 7}, {Name: "Dan", Score: 64, Back: 60}}}
	for b.Loop() {
		b.SetBytes(int64(len(board.PNG())))
	}
}

// BenchmarkRenderHand is the speed target: a hand and its starter in
// under 3 ms on one core.
func BenchmarkRenderHand(b *testing.B) {
	hand := Cards{Starter: engine.MustParseCard("QC"), Hands: []Hand{{Label: "Alice", Cards: engine.MustParseCards("5H 5D 2C 3S"), Note: "12"}}}
	for b.Loop() {
		b.SetBytes(int64(len(PNG(hand.Render()))))
	}
}

// TestStandingsDrawPlayoffLinesWhole: a playoff line too long for the
// picture is wrapped at its spaces over as many lines as it takes, each
// within the width, and never cut: every word is drawn.
func TestStandingsDrawPlayoffLinesWhole(t *testing.T) {
	f := newStandingsFaces()
	defer f.Close()
	playoff, champion := longPlayoff.playoffLines(f)
	tests := []struct {
		line  string
		drawn []string
		face  font.Face
		width float64
		lines int
	}{
		{longPlayoff.Playoff[0], playoff[0], f.regular, standingsWidth - 56 - playoffIndent, 3},
		{longPlayoff.Playoff[1], playoff[1], f.regular, standingsWidth - 56 - playoffIndent, 1},
		{longPlayoff.Playoff[2], playoff[2], f.regular, standingsWidth - 56 - playoffIndent, 2},
		{"Champion: " + longPlayoff.Champion, champion, f.bold, standingsWidth - 90 - playoffIndent, 2},
	}
	for _, tt := range tests {
		if got := strings.Join(tt.drawn, " "); got != tt.line || len(tt.drawn) != tt.lines {
			t.Errorf("%q drawn as %q, want it whole on %d lines", tt.line, tt.drawn, tt.lines)
		}
		for _, l := range tt.drawn {
			if w := textWidth(tt.face, l); w > tt.width {
				t.Errorf("%q is %.0f pixels wide, more than %.0f", l, w, tt.width)
			}
		}
	}
	short := Standings{Title: "Club open", Rows: make([]StandingRow, 6), Playoff: []string{"Final: A v B"}, Champion: "A"}.Render()
	if d := longPlayoff.Render().Bounds().Dy() - short.Bounds().Dy(); d != 6*rowHeight {
		t.Errorf("six lines more of playoff add %d pixels, want %d", d, 6*rowHeight)
	}
}

// TestStandingsGrowWithTheField: a row an entrant, and the playoff below.
func TestStandingsGrowWithTheField(t *testing.T) {
	small := Standings{Title: "Club open", Rows: make([]StandingRow, 4)}.Render()
	big := Standings{Title: "Club open", Rows: make([]StandingRow, 13)}.Render()
	final := Standings{Title: "Club open", Rows: make([]StandingRow, 13), Playoff: []string{"Final: A v B"}, Champion: "A"}.Render()
	if w := small.Bounds().Dx(); w != standingsWidth || big.Bounds().Dx() != w {
		t.Errorf("widths %d and %d", w, big.Bounds().Dx())
	}
	if d := big.Bounds().Dy() - small.Bounds().Dy(); d != 9*rowHeight {
		t.Errorf("nine more entrants add %d pixels", d)
	}
	if final.Bounds().Dy() <= big.Bounds().Dy() {
		t.Error("the playoff adds nothing")
	}
}

// TestBoardPNGShowsRender holds the board's banded encoding to what
// Render draws, on boards of every size, pegs anywhere and a title: every
// pixel within the palette's rounding; and the same board twice is the
// same bytes, the second drawn on the track the first cached.
func TestBoardPNGShowsRender(t *testing.T) {
	boards := []Board{
		{Target: 121, Sides: []Side{{Name: "Alice", Score: 87, Back: 80}, {Name: "Bob", Score: 102, Back: 95}}},
		{Target: 61, Sides: []Side{{Name: "Alice"}, {Name: "Bob"}}},
		{Target: 61, Sides: []Side{{Name: "Alice", Score: 61, Back: 55, Winner: true}, {Name: "Bob", Score: 12, Back: 3, Skunk: 2}}},
		{Target: 121, Title: "Table 12 · hand 14", Sides: []Side{{Name: "Ann & Cid", Score: 121, Back: 119, Winner: true}, {Name: "Bob & Dee", Score: 90, Back: 84}}},
		{Target: 121, Sides: []Side{{Name: "Alice", Score: 5}, {Name: "Bob", Score: 31, Back: 29}, {Name: "Carol", Score: 60, Back: 48}, {Name: "Dan", Score: 1}}},
		{Target: 121, Sides: []Side{{Name: "Alice", Score: 121, Back: 117, Winner: true}, {Name: "Bob", Score: 58, Skunk: 2}},
			Words: BoardWords{Wins: "gagne", DoubleSkunk: "double skunk", SkunkLine: "ligne de skunk", DoubleSkunkLine: "ligne du double skunk"}},
	}
	for _, b := range boards {
		// The plain encoding reduces the whole picture to 256 colours;
		// the banded one the track and a sample board, so a few rare
		// shades of antialiasing may round differently.
		encoded := pngShowsRender(t, fmt.Sprintf("%+v", b), b.PNG, b.Render(), 5000)
		if len(encoded) >= 40<<10 {
			t.Errorf("%+v: the board is %d KB", b, len(encoded)>>10)
		}
	}
}

// TestAdler32Combine: the checksum of two pieces, combined, is the
// checksum of the whole, for pieces shorter and longer than the modulus.
func TestAdler32Combine(t *testing.T) {
	data := make([]byte, 200000)
	for i := range data {
		data[i] = byte(i*7 + i/251)
	}
	for _, cut := range []int{0, 1, 100, 65520, 65521, 65522, 131100, 199999, 200000} {
		a, b := data[:cut], data[cut:]
		if got, want := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), len(b)), adler32.Checksum(data); got != want {
			t.Errorf("cut at %d: %08x, want %08x", cut, got, want)
		}
	}
}

// TestABoardsBytesDoNotDependOnTheBoardBefore: a board's PNG is the same
// bytes whichever board of its track was drawn first (the track's palette
// is made from a fixed sample), so golden files and replicas agree; and
// the copy of the track it is drawn on, used by the board before, was put
// back clean.
func TestABoardsBytesDoNotDependOnTheBoardBefore(t *testing.T) {
	board := Board{Target: 61, Title: "After hand 3", Sides: []Side{{Name: "Ann & Cid", Score: 40, Back: 33}, {Name: "Bob & Dee", Score: 22, Back: 20}}}
	first := []Board{
		{Target: 61, Title: "Table 9 · a much longer title", Sides: []Side{{Name: "Zed", Score: 61, Winner: true}, {Name: "Yan", Score: 5, Skunk: 2}},
			Words: BoardWords{Wins: "gagne", DoubleSkunk: "double skunk"}},
		board,
	}
	var want []byte
	for i, f := range first {
		tracks.Clear()
		f.PNG()
		got := board.PNG()
		if i == 0 {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Fatal("the same board is different bytes after another board of its track was drawn first")
		}
	}
}

// TestCardsPNGShowsRender holds a cards picture written in the cards
// palette to what Render draws: one hand with a starter and a note,
// the show of a four-hand game with a crib, four colours, a row with
// no starter, and words in French; every pixel within the palette's
// rounding, and the same picture twice the same bytes.
func TestCardsPNGShowsRender(t *testing.T) {
	pictures := []Cards{
		{Starter: engine.MustParseCard("QC"), Hands: []Hand{{Label: "Alice", Cards: engine.MustParseCards("5H 5D 2C 3S"), Note: "12"}}},
		{Starter: engine.MustParseCard("5S"), Hands: []Hand{
			{Label: "Bob · hand", Cards: engine.MustParseCards("JH 5C 5D TS"), Note: "29 points"},
			{Label: "Alice · hand", Cards: engine.MustParseCards("AH 2H 3H 4H"), Note: "10"},
			{Label: "Bob's crib", Cards: engine.MustParseCards("KD KC 9S 8S"), Note: "2"}}},
		{Starter: engine.MustParseCard("7D"), FourColour: true, Hands: []Hand{
			{Label: "Zoé · main", Cards: engine.MustParseCards("7C 8D 9H TS"), Note: "Muggins : 4 points"},
			{Label: "Le crib de Léa", Cards: engine.MustParseCards("2D 3C 4H 6S")}}},
		{Hands: []Hand{{Label: "Replay · hand 3", Cards: engine.MustParseCards("AS 2D 3C 4H 5S 6D")}}},
	}
	for _, p := range pictures {
		pngShowsRender(t, fmt.Sprintf("%+v", p), p.PNG, p.Render(), 2000)
	}
}

// pngShowsRender checks that a picture's own PNG encoding, encode, shows
// what Render drew, rendered: no more pixels differ from it than in the
// plain encoding (PNG), and one in per more; and that encoding it twice
// gives the same bytes. It returns the bytes.
func pngShowsRender(t *testing.T, name string, encode func() []byte, rendered *image.RGBA, per int) []byte {
	t.Helper()
	encoded := encode()
	got, err := png.Decode(bytes.NewReader(encoded))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	plain, err := png.Decode(bytes.NewReader(PNG(rendered)))
	if err != nil {
		t.Fatal(err)
	}
	was, _ := differentPixels(plain, rendered)
	if diff, total := differentPixels(got, rendered); diff > was+total/per {
		t.Errorf("%s: %d of %d pixels differ from what Render draws (%d in the plain encoding)", name, diff, total, was)
	}
	if again := encode(); !bytes.Equal(again, encoded) {
		t.Errorf("%s: the same picture twice is different bytes", name)
	}
	return encoded
}

// BenchmarkCardsPNG is a two-player show's picture (two hands and the
// crib, beside the starter), written in the cards palette.
func BenchmarkCardsPNG(b *testing.B) {
	show := Cards{Starter: engine.MustParseCard("5S"), Hands: []Hand{
		{Label: "Bob · hand", Cards: engine.MustParseCards("JH 5C 5D TS"), Note: "29 points"},
		{Label: "Alice · hand", Cards: engine.MustParseCards("AH 2H 3H 4H"), Note: "10"},
		{Label: "Bob's crib", Cards: engine.MustParseCards("KD KC 9S 8S"), Note: "2"}}}
	b.Run("palette", func(b *testing.B) {
		for b.Loop() {
			b.SetBytes(int64(len(show.PNG())))
		}
	})
	b.Run("render-and-reduce", func(b *testing.B) {
		for b.Loop() {
			b.SetBytes(int64(len(PNG(show.Render()))))
		}
	})
}
