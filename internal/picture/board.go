package picture

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"strconv"
	"sync"

	"golang.org/x/image/font"
)

// Side is one side of a game on the board: a player, or a partnership.
type Side struct {
	Name string
	// Score is where the front peg stands; Back is the back peg, the score
	// before the side's last move, so the gap between them is that move.
	Score, Back int
	// Winner marks the side that won; Skunk is 1 for a loser skunked and 2
	// for double-skunked.
	Winner bool
	Skunk  int
}

// Board is a cribbage board: the track to Target (121, or 61 for a short
// game) with every side's two pegs.
type Board struct {
	Target int
	Sides  []Side
	// Title is drawn above the pegs' legend, when set.
	Title string
	// Words are the board's own labels, in the reader's language; any
	// left empty is drawn in English.
	Words BoardWords
}

// BoardWords are the labels a board draws itself: a side's result in the
// legend, and the skunk lines across the track.
type BoardWords struct {
	Wins, Skunked, DoubleSkunk string
	SkunkLine, DoubleSkunkLine string
}

// words are w with English for any left empty.
func (w BoardWords) words() BoardWords {
	return BoardWords{Wins: or(w.Wins, "wins"), Skunked: or(w.Skunked, "skunked"), DoubleSkunk: or(w.DoubleSkunk, "double skunk"),
		SkunkLine: or(w.SkunkLine, "skunk line"), DoubleSkunkLine: or(w.DoubleSkunkLine, "double skunk line")}
}

// Key names the picture the board draws: two boards with the same key are
// the same pixels, so a caller that kept the key of the picture it last
// showed knows whether a new one is needed.
func (b Board) Key() string {
	what := fmt.Sprintf("board/v1/%d/%q/%+v", b.Target, b.Title, b.Sides)
	// A board in English keeps the key it had before boards spoke other
	// languages, so no table message redraws its board for that alone.
	if w := b.Words.words(); w != (BoardWords{}).words() {
		what += fmt.Sprintf("/%+v", w)
	}
	h := sha256.Sum256([]byte(what))
	return hex.EncodeToString(h[:8])
}

// The board's geometry, in pixels. The track runs in rows of 30 holes, so
// the rows end on the double-skunk (60) and skunk (90) lines of a 121-point
// game and on the skunk line (30) of a 61-point game.
const (
	boardWidth   = 800
	margin       = 20
	holesPerRow  = 30
	holePitch    = 20.0
	streetGap    = 8.0
	firstHoleX   = 86.0
	lanePitch    = 20.0
	bandPadding  = 8.0
	rowGap       = 26.0
	legendHeight = 40.0
	titleHeight  = 38.0
	holeRadius   = 3.4
	pegRadius    = 8.5
)

// holeX is the x of hole column col (0–29) in every row: streets of five.
func holeX(col int) float64 {
	return firstHoleX + float64(col)*holePitch + float64(col/5)*streetGap
}

// layout is where a board's parts go.
type layout struct {
	rows, lanes int
	legendTop   float64
	trackTop    float64
	bandHeight  float64
	height      int
	gameHoleX   float64
	startHolesX [2]float64
	lastHoleX   float64
}

func (b Board) layout() layout {
	l := layout{rows: max(1, (b.Target-1+holesPerRow-1)/holesPerRow), lanes: max(1, len(b.Sides))}
	top := float64(margin)
	if b.Title != "" {
		top += titleHeight
	}
	l.legendTop = top
	l.trackTop = top + legendHeight*float64(len(b.Sides)) + 12
	l.bandHeight = float64(l.lanes)*lanePitch + 2*bandPadding
	l.height = int(l.trackTop + float64(l.rows)*l.bandHeight + float64(l.rows-1)*rowGap + margin)
	l.lastHoleX = holeX(holesPerRow - 1)
	l.gameHoleX = l.lastHoleX + 44
	l.startHolesX = [2]float64{margin + 22, margin + 42}
	return l
}

// rowTop is the top of track row r's band.
func (l layout) rowTop(r int) float64 { return l.trackTop + float64(r)*(l.bandHeight+rowGap) }

// laneY is the y of lane i's holes in row r.
func (l layout) laneY(r, lane int) float64 {
	return l.rowTop(r) + bandPadding + lanePitch/2 + float64(lane)*lanePitch
}

// pegAt is where a peg of lane stands at score: a start hole below 1, the
// game hole at the target.
func (b Board) pegAt(l layout, lane, score int, back bool) (x, y float64) {
	switch {
	case score <= 0:
		i := 1
		if back {
			i = 0
		}
		return l.startHolesX[i], l.laneY(0, lane)
	case score >= b.Target:
		last := l.rows - 1
		return l.gameHoleX, l.rowTop(last) + l.bandHeight/2
	}
	r, col := (score-1)/holesPerRow, (score-1)%holesPerRow
	return holeX(col), l.laneY(r, lane)
}

// Render draws the board.
func (b Board) Render() *image.RGBA { return b.render() }

// PNG is the board as a PNG, in the palette of its track's boards,
// written band by band so that only what differs from the empty track is
// reduced and compressed (see board_png.go). It shows what Render draws,
// each colour as the nearest of the palette's 256.
func (b Board) PNG() []byte {
	l := b.layout()
	tr := b.track(l)
	img := tr.canvas()
	b.drawOn(&canvas{img: img}, l)
	out, changed := tr.png.encode(img, tr.img)
	tr.clean(img, changed)
	return out
}

// render draws the board on a copy of its track.
func (b Board) render() *image.RGBA {
	l := b.layout()
	tr := b.track(l)
	cv := &canvas{img: image.NewRGBA(tr.img.Rect)}
	copy(cv.img.Pix, tr.img.Pix)
	b.drawOn(cv, l)
	return cv.img
}

// drawOn draws what is the board's own on its track: the title, the
// legend and the pegs.
func (b Board) drawOn(cv *canvas, l layout) {
	bold, regular := face(boldFont(), 26), face(regularFont(), 20)
	defer bold.Close()
	defer regular.Close()
	if b.Title != "" {
		cv.text(regular, margin+4, margin+24, inkSoft, fit(regular, b.Title, boardWidth-2*margin))
	}
	b.drawLegend(cv, l, bold, regular)
	// Back pegs first, so a front peg on the same hole (a side that has not
	// moved yet) is the one seen.
	for lane, s := range b.Sides {
		x, y := b.pegAt(l, lane, s.Back, true)
		drawPeg(cv, x, y, SideColour(lane), true)
	}
	for lane, s := range b.Sides {
		x, y := b.pegAt(l, lane, s.Score, false)
		drawPeg(cv, x, y, SideColour(lane), false)
	}
}

// canvas returns a copy of the track to draw a board on. The copies are
// kept between boards, each put back clean (see clean): copying the whole
// track, two megabytes, for every board was an eighth of its time.
func (tr *emptyTrack) canvas() *image.RGBA {
	if img, ok := tr.canvases.Get().(*image.RGBA); ok {
		return img
	}
	img := image.NewRGBA(tr.img.Rect)
	copy(img.Pix, tr.img.Pix)
	return img
}

// clean puts back a copy of the track that a board was drawn on, its
// changed bands (the only ones whose pixels differ from the track's, as
// encode found) copied from the track again.
func (tr *emptyTrack) clean(img *image.RGBA, changed []int) {
	for _, band := range changed {
		top := band * bandRows
		rows := img.Pix[top*img.Stride : min(top+bandRows, img.Rect.Dy())*img.Stride]
		copy(rows, tr.img.Pix[top*img.Stride:])
	}
	tr.canvases.Put(img)
}

// trackKey is what the empty board depends on.
type trackKey struct {
	target, lanes int
	title         bool
	// skunk and double are the skunk lines' labels.
	skunk, double string
}

// emptyTrack is an empty board, and its boards' PNG palette and bands.
type emptyTrack struct {
	img *image.RGBA
	png *trackPNG
	// canvases are copies of img, each the same pixels as img.
	canvases sync.Pool
}

// tracks caches empty boards: a board is mostly its track, the same for
// every game of a size, and copying it is far cheaper than drawing it.
var tracks sync.Map // trackKey → *emptyTrack, whose img and png are never written after it is stored

// track returns the empty board: wood, holes, numbers and lines. It is
// shared: the caller draws on a copy.
func (b Board) track(l layout) *emptyTrack {
	w := b.Words.words()
	key := trackKey{b.Target, l.lanes, b.Title != "", w.SkunkLine, w.DoubleSkunkLine}
	if cached, ok := tracks.Load(key); ok {
		return cached.(*emptyTrack)
	}
	// One track is made at a time: when a hundred tables draw their first
	// boards at once, the first makes it and the others wait for it,
	// rather than each making it.
	trackMaking.Lock()
	defer trackMaking.Unlock()
	if cached, ok := tracks.Load(key); ok {
		return cached.(*emptyTrack)
	}
	cv := newCanvas(boardWidth, l.height)
	small := face(regularFont(), 14)
	cv.roundRect(0, 0, boardWidth, float64(l.height), 18, woodEdge)
	cv.roundRect(4, 4, boardWidth-4, float64(l.height)-4, 15, wood)
	b.drawTrack(cv, l, small)
	small.Close()
	pal, index := paletteFor(cv.img, b.sample(l.lanes))
	tr := &emptyTrack{img: cv.img, png: newTrackPNG(cv.img, pal, index)}
	tracks.Store(key, tr)
	return tr
}

// trackMaking is held while a track is made.
var trackMaking sync.Mutex

// sample is a board on b's track that shows every colour a board can:
// each lane's front and back pegs, scores moved, a winner's star, both
// skunks' words, and a title if the track has room for one. Its words
// are fixed, not b's, so the palette, and so every board's bytes, is the
// same whichever board of the track was drawn first.
func (b Board) sample(lanes int) Board {
	s := Board{Target: b.Target}
	if b.Title != "" {
		s.Title = "Sample title: hand 12 · Wg"
	}
	for lane := range lanes {
		side := Side{Name: "Sample Wg", Score: 10 + 17*lane, Back: 3 + 17*lane, Skunk: lane % 3}
		if lane == 0 {
			side.Winner, side.Skunk = true, 0
		}
		s.Sides = append(s.Sides, side)
	}
	return s
}

// drawLegend writes one line per side: its peg colour, name, last move and
// score, and the winner's star or a loser's skunk.
func (b Board) drawLegend(cv *canvas, l layout, bold, regular font.Face) {
	for side, s := range b.Sides {
		y := l.legendTop + float64(side)*legendHeight
		base := y + 28
		drawPeg(cv, margin+16, y+19, SideColour(side), false)
		score := strconv.Itoa(s.Score)
		right := float64(boardWidth - margin - 8)
		cv.textRight(bold, right, base, ink, score)
		right -= textWidth(bold, score) + 12
		if moved := s.Score - s.Back; moved > 0 && s.Score > 0 {
			note := "+" + strconv.Itoa(moved)
			cv.textRight(regular, right, base, inkSoft, note)
			right -= textWidth(regular, note) + 12
		}
		var mark string
		switch {
		case s.Winner:
			mark = b.Words.words().Wins
		case s.Skunk == 1:
			mark = b.Words.words().Skunked
		case s.Skunk >= 2:
			mark = b.Words.words().DoubleSkunk
		}
		x := float64(margin + 36)
		if s.Winner {
			cv.star(x+12, y+18, 13, starGold)
			x += 32
		}
		name := fit(bold, s.Name, right-x-textWidth(regular, mark)-20)
		cv.text(bold, x, base, ink, name)
		if mark != "" {
			c := ink
			if s.Skunk > 0 {
				c = skunkRed
			}
			cv.text(regular, x+textWidth(bold, name)+12, base, c, mark)
		}
	}
}

// drawTrack draws the rows of holes, lane by lane in the sides' colours,
// the start and game holes, the row ends' numbers and the skunk lines.
func (b Board) drawTrack(cv *canvas, l layout, small font.Face) {
	for r := range l.rows {
		top := l.rowTop(r)
		cv.roundRect(firstHoleX-14, top, l.lastHoleX+14, top+l.bandHeight, 10, woodDark)
		for lane := range l.lanes {
			y := l.laneY(r, lane)
			cv.roundRect(firstHoleX-10, y-7, l.lastHoleX+10, y+7, 7, tint(SideColour(lane), 0.28))
			for col := range holesPerRow {
				if r*holesPerRow+col+1 >= b.Target {
					break
				}
				cv.circle(holeX(col), y, holeRadius, holeInk)
			}
		}
		first := strconv.Itoa(r*holesPerRow + 1)
		last := strconv.Itoa(min((r+1)*holesPerRow, b.Target-1))
		mid := top + l.bandHeight/2 + 5
		if r > 0 {
			cv.textRight(small, firstHoleX-18, mid, inkSoft, first)
		}
		if r < l.rows-1 {
			cv.text(small, l.lastHoleX+18, mid, inkSoft, last)
		}
	}
	// Two start holes a lane, left of the first row.
	for lane := range l.lanes {
		y := l.laneY(0, lane)
		for _, x := range l.startHolesX {
			cv.circle(x, y, holeRadius, holeInk)
		}
	}
	// The game hole, shared, at the end of the last row.
	gx, gy := l.gameHoleX, l.rowTop(l.rows-1)+l.bandHeight/2
	cv.circle(gx, gy, 14, woodDark)
	cv.circle(gx, gy, holeRadius+1.5, holeInk)
	cv.textCentre(small, gx, gy-18, inkSoft, strconv.Itoa(b.Target))
	for _, line := range skunkLines(b.Target, b.Words.words()) {
		r := line.after/holesPerRow - 1
		y := l.rowTop(r) + l.bandHeight + rowGap/2
		end := l.lastHoleX + 14
		cv.textRight(small, end, y+5, skunkRed, line.name)
		for x := firstHoleX - 14; x < end-textWidth(small, line.name)-14; x += 12 {
			cv.rect(int(x), int(y)-1, int(x)+7, int(y)+1, skunkRed)
		}
	}
}

// skunkLine is a line across the track after a hole.
type skunkLine struct {
	after int
	name  string
}

// skunkLines are a game's skunk lines (RULES.md "Winning": below 91, and
// below 61 for a double skunk; a 61-point game has one line, below 31).
func skunkLines(target int, w BoardWords) []skunkLine {
	if target <= 61 {
		return []skunkLine{{30, w.SkunkLine}}
	}
	return []skunkLine{{60, w.DoubleSkunkLine}, {90, w.SkunkLine}}
}

// drawPeg draws a peg with its shadow; a back peg is paler, so the front
// peg of each side stands out.
func drawPeg(cv *canvas, x, y float64, c color.NRGBA, back bool) {
	cv.circle(x+1.2, y+1.6, pegRadius, pegShadow)
	if back {
		cv.circle(x, y, pegRadius, c)
		cv.circle(x, y, pegRadius-2.2, lighten(c, 0.55))
		return
	}
	cv.circle(x, y, pegRadius, c)
	cv.circle(x-2.2, y-2.4, 2.4, highlight)
}
