package picture

import (
	"fmt"
	"image"

	"golang.org/x/image/font"
)

// Standings is a tournament's standings as a picture: a title, one row an
// entrant (rank, name, game points, spread, won–lost, byes), and the
// playoff's lines once it has begun. The bot fills it from the domain's
// standings, so the picture and the message's table say the same.
type Standings struct {
	Title    string
	Subtitle string
	Rows     []StandingRow
	// Playoff lines, e.g. "Final: Alice v Bob (1–0)", each drawn whole
	// over as many lines as it takes; the champion's line is drawn in
	// gold.
	Playoff  []string
	Champion string
	// Words are the picture's own labels, in the reader's language; any
	// left empty is drawn in English.
	Words StandingsWords
}

// StandingsWords are the labels the standings picture draws itself: the
// column heads, the playoff's head and the champion's mark.
type StandingsWords struct {
	Player, GamePoints, Spread, WonLost, Bye string
	Playoff, Champion                        string
}

// words are w with English for any left empty.
func (w StandingsWords) words() StandingsWords {
	return StandingsWords{Player: or(w.Player, "Player"), GamePoints: or(w.GamePoints, "GP"), Spread: or(w.Spread, "Spread"),
		WonLost: or(w.WonLost, "W–L"), Bye: or(w.Bye, "Bye"), Playoff: or(w.Playoff, "Playoff, best of 3"), Champion: or(w.Champion, "Champion")}
}

// StandingRow is one entrant's line.
type StandingRow struct {
	Name       string
	GamePoints int
	Spread     int
	Won, Lost  int
	Byes       int
	// Qualified marks an entrant in the playoff.
	Qualified bool
}

// The standings' layout, in pixels.
const (
	standingsWidth = 720
	rowHeight      = 34
	headTop        = 96
	// playoffIndent sets a playoff line's continuation in from its start.
	playoffIndent = 24
)

// standingsColumns are the columns of a row: where "#" and the name
// start, and where each figure ends (they are drawn right-aligned). The
// name has the room up to the game points' column, less their width.
var standingsColumns = struct {
	rank, name, gamePoints, spread, wonLost, byes float64
}{28, 76, 420, 510, 600, 680}

// standingsFaces are the standings' fonts; close them when drawn.
type standingsFaces struct{ title, bold, regular font.Face }

func newStandingsFaces() standingsFaces {
	return standingsFaces{face(boldFont(), 30), face(boldFont(), 20), face(regularFont(), 20)}
}

func (f standingsFaces) Close() {
	f.title.Close()
	f.bold.Close()
	f.regular.Close()
}

// playoffLines are the playoff's lines as drawn: each of s.Playoff
// wrapped to the picture's width, then the champion's, each a list of the
// picture lines it takes.
func (s Standings) playoffLines(f standingsFaces) (playoff [][]string, champion []string) {
	for _, line := range s.Playoff {
		playoff = append(playoff, wrap(f.regular, line, standingsWidth-56-playoffIndent))
	}
	if s.Champion != "" {
		champion = wrap(f.bold, s.Words.words().Champion+": "+s.Champion, standingsWidth-90-playoffIndent)
	}
	return playoff, champion
}

// Render draws the standings on the board's wood, so the picture sits in
// Discord beside the board pictures of the games.
func (s Standings) Render() *image.RGBA {
	f := newStandingsFaces()
	defer f.Close()
	playoff, champion := s.playoffLines(f)
	extra := len(champion)
	for _, lines := range playoff {
		extra += len(lines)
	}
	h := headTop + rowHeight*(len(s.Rows)+1) + 16
	if extra > 0 {
		h += 24 + rowHeight*(extra+1)
	}
	cv := newCanvas(standingsWidth, h)
	cv.roundRect(0, 0, standingsWidth, float64(h), 18, woodEdge)
	cv.roundRect(6, 6, standingsWidth-6, float64(h-6), 14, wood)
	cv.text(f.title, 28, 48, ink, fit(f.title, s.Title, standingsWidth-56))
	cv.text(f.regular, 28, 78, inkSoft, fit(f.regular, s.Subtitle, standingsWidth-56))
	s.drawRows(cv, f)
	if extra == 0 {
		return cv.img
	}
	top := float64(headTop + rowHeight*(len(s.Rows)+1) + 24)
	cv.text(f.bold, 28, top+rowHeight-10, inkSoft, s.Words.words().Playoff)
	n := 1
	for _, lines := range playoff {
		for i, line := range lines {
			n++
			x := 28.0
			if i > 0 {
				x += playoffIndent
			}
			cv.text(f.regular, x, top+float64(rowHeight*n)-10, ink, line)
		}
	}
	for i, line := range champion {
		n++
		y := top + float64(rowHeight*n) - 10
		x := 60.0
		if i == 0 {
			cv.star(40, y-7, 11, starGold)
		} else {
			x += playoffIndent
		}
		cv.text(f.bold, x, y, skunkRed, line)
	}
	return cv.img
}

// drawRows draws the column heads and a row an entrant.
func (s Standings) drawRows(cv *canvas, f standingsFaces) {
	c := standingsColumns
	w := s.Words.words()
	y := float64(headTop + rowHeight - 10)
	cv.text(f.bold, c.rank, y, inkSoft, "#")
	cv.text(f.bold, c.name, y, inkSoft, w.Player)
	for _, head := range []struct {
		x    float64
		text string
	}{{c.gamePoints, w.GamePoints}, {c.spread, w.Spread}, {c.wonLost, w.WonLost}, {c.byes, w.Bye}} {
		cv.textRight(f.bold, head.x, y, inkSoft, head.text)
	}
	nameWidth := c.gamePoints - textWidth(f.bold, w.GamePoints) - 16 - c.name
	for i, r := range s.Rows {
		top := float64(headTop + rowHeight*(i+1))
		if i%2 == 0 {
			cv.rect(20, int(top), standingsWidth-20, int(top)+rowHeight, woodDark)
		}
		y := top + rowHeight - 10
		colour := ink
		if r.Qualified {
			cv.star(c.rank+34, y-7, 8, starGold)
			colour = SideColour(1)
		}
		cv.text(f.regular, c.rank, y, ink, fmt.Sprint(i+1))
		cv.text(f.regular, c.name, y, colour, fit(f.regular, r.Name, nameWidth))
		cv.textRight(f.bold, c.gamePoints, y, ink, fmt.Sprint(r.GamePoints))
		cv.textRight(f.regular, c.spread, y, ink, fmt.Sprintf("%+d", r.Spread))
		cv.textRight(f.regular, c.wonLost, y, ink, fmt.Sprintf("%d–%d", r.Won, r.Lost))
		cv.textRight(f.regular, c.byes, y, ink, fmt.Sprint(r.Byes))
	}
}
