package picture

import (
	"fmt"
	"image"
)

// Standings is a tournament's standings as a picture: a title, one row an
// entrant (rank, name, game points, spread, won–lost), and the playoff's
// lines once it has begun. The bot fills it from the domain's standings,
// so the picture and the message's table say the same.
type Standings struct {
	Title    string
	Subtitle string
	Rows     []StandingRow
	// Playoff lines, e.g. "Final: Alice v Bob (1–0)"; the champion's line
	// is drawn in gold.
	Playoff  []string
	Champion string
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
)

// Render draws the standings on the board's wood, so the picture sits in
// Discord beside the board pictures of the games.
func (s Standings) Render() *image.RGBA {
	extra := len(s.Playoff)
	if s.Champion != "" {
		extra++
	}
	h := headTop + rowHeight*(len(s.Rows)+1) + 16
	if extra > 0 {
		h += 24 + rowHeight*(extra+1)
	}
	cv := newCanvas(standingsWidth, h)
	cv.roundRect(0, 0, standingsWidth, float64(h), 18, woodEdge)
	cv.roundRect(6, 6, standingsWidth-6, float64(h-6), 14, wood)
	title, bold, regular := face(boldFont(), 30), face(boldFont(), 20), face(regularFont(), 20)
	defer title.Close()
	defer bold.Close()
	defer regular.Close()
	cv.text(title, 28, 48, ink, fit(title, s.Title, standingsWidth-56))
	cv.text(regular, 28, 78, inkSoft, fit(regular, s.Subtitle, standingsWidth-56))
	cols := []float64{28, 76, 430, 530, 630}
	y := float64(headTop + rowHeight - 10)
	for i, head := range []string{"#", "Player", "GP", "Spread", "W–L"} {
		if i < 2 {
			cv.text(bold, cols[i], y, inkSoft, head)
		} else {
			cv.textRight(bold, cols[i]+50, y, inkSoft, head)
		}
	}
	for i, r := range s.Rows {
		top := float64(headTop + rowHeight*(i+1))
		if i%2 == 0 {
			cv.rect(20, int(top), standingsWidth-20, int(top)+rowHeight, woodDark)
		}
		y := top + rowHeight - 10
		name := r.Name
		if r.Byes > 0 {
			name += fmt.Sprintf(" (%d bye%s)", r.Byes, map[bool]string{true: "s"}[r.Byes > 1])
		}
		colour := ink
		if r.Qualified {
			cv.star(cols[0]+34, y-7, 8, starGold)
			colour = SideColour(1)
		}
		cv.text(regular, cols[0], y, ink, fmt.Sprint(i+1))
		cv.text(regular, cols[1], y, colour, fit(regular, name, cols[2]-cols[1]-40))
		cv.textRight(bold, cols[2]+50, y, ink, fmt.Sprint(r.GamePoints))
		cv.textRight(regular, cols[3]+50, y, ink, fmt.Sprintf("%+d", r.Spread))
		cv.textRight(regular, cols[4]+50, y, ink, fmt.Sprintf("%d–%d", r.Won, r.Lost))
	}
	if extra == 0 {
		return cv.img
	}
	top := float64(headTop + rowHeight*(len(s.Rows)+1) + 24)
	cv.text(bold, 28, top+rowHeight-10, inkSoft, "Playoff, best of 3")
	for i, line := range s.Playoff {
		cv.text(regular, 28, top+float64(rowHeight*(i+2))-10, ink, fit(regular, line, standingsWidth-56))
	}
	if s.Champion != "" {
		y := top + float64(rowHeight*(len(s.Playoff)+2)) - 10
		cv.star(40, y-7, 11, starGold)
		cv.text(bold, 60, y, skunkRed, fit(bold, "Champion: "+s.Champion, standingsWidth-90))
	}
	return cv.img
}
