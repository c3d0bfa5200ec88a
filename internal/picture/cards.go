package picture

import (
	"image"
	"image/color"
	"sync"

	"github.com/cribbage-bot/cribbage/engine"
	"golang.org/x/image/font"
)

// Hand is one row of a cards picture: a label, its cards, and a note on
// the right (a hand's points, say).
type Hand struct {
	Label string
	Cards []engine.Card
	Note  string
}

// Cards is a picture of hands, each beside the starter when there is one:
// the show, or a hand in a replay.
type Cards struct {
	Hands   []Hand
	Starter engine.Card
	// FourColour draws diamonds blue and clubs green, for players who
	// tell red from black poorly.
	FourColour bool
}

// The cards' geometry, in pixels: large enough that a rank reads on a
// phone, where Discord shows a picture about 330 px wide.
const (
	cardW       = 88.0
	cardH       = 124.0
	cardGap     = 8.0
	starterGap  = 40.0
	labelHeight = 36.0
	rowGapCards = 14.0
	cardsMargin = 18.0
)

var (
	felt       = color.NRGBA{0x1e, 0x5a, 0x3c, 0xff}
	feltEdge   = color.NRGBA{0x12, 0x3d, 0x28, 0xff}
	feltText   = color.NRGBA{0xf4, 0xf1, 0xe6, 0xff}
	feltSoft   = color.NRGBA{0xb9, 0xd6, 0xc4, 0xff}
	cardEdge   = color.NRGBA{0x9e, 0x9e, 0x9e, 0xff}
	cardShadow = color.NRGBA{0x00, 0x00, 0x00, 0x50}
	suitBlack  = color.NRGBA{0x21, 0x21, 0x21, 0xff}
	suitRed    = color.NRGBA{0xc6, 0x28, 0x28, 0xff}
	suitBlue   = color.NRGBA{0x15, 0x65, 0xc0, 0xff}
	suitGreen  = color.NRGBA{0x2e, 0x7d, 0x32, 0xff}
)

// suitColour is a card's ink.
func suitColour(s engine.Suit, fourColour bool) color.NRGBA {
	switch s {
	case engine.Hearts:
		return suitRed
	case engine.Diamonds:
		if fourColour {
			return suitBlue
		}
		return suitRed
	case engine.Clubs:
		if fourColour {
			return suitGreen
		}
	}
	return suitBlack
}

// size is the picture's size: as wide as its longest row.
func (p Cards) size() (w, h int) {
	most := 0
	for _, h := range p.Hands {
		most = max(most, len(h.Cards))
	}
	width := 2*cardsMargin + float64(most)*cardW + float64(max(most-1, 0))*cardGap
	if p.Starter != engine.NoCard {
		width += starterGap + cardW
	}
	width = max(width, 360)
	n := float64(len(p.Hands))
	height := 2*cardsMargin + n*(labelHeight+cardH) + max(n-1, 0)*rowGapCards
	return int(width), int(height)
}

// Render draws the hands, one row each.
func (p Cards) Render() *image.RGBA {
	w, h := p.size()
	cv := &canvas{img: feltOf(w, h)}
	label, note := face(boldFont(), 24), face(regularFont(), 22)
	defer label.Close()
	defer note.Close()
	p.layOut(
		func(top float64, hand Hand) { drawWords(cv, label, note, w, top+wordsBaseline, hand) },
		func(x, y float64, c engine.Card) { cv.sprite(x, y, cardFace(c, p.FourColour)) },
		func(x, y float64) { drawPlus(cv, label, x, y) })
	return cv.img
}

// layOut walks a cards picture, each hand's row in turn: its words, with
// the row's top at top; each card's face, its top left at x, y; and
// before the starter, which follows as a card, the plus sign, where the
// starter's left edge is x. Render and PNG draw what it says where.
func (p Cards) layOut(words func(top float64, hand Hand), card func(x, y float64, c engine.Card), plus func(x, y float64)) {
	y := cardsMargin
	for _, hand := range p.Hands {
		words(y, hand)
		y += labelHeight
		x := cardsMargin
		for _, c := range hand.Cards {
			card(x, y, c)
			x += cardW + cardGap
		}
		if p.Starter != engine.NoCard {
			x += starterGap - cardGap
			plus(x, y)
			card(x, y, p.Starter)
		}
		y += cardH + rowGapCards
	}
}

// wordsBaseline is where a row's words stand below its top.
const wordsBaseline = 26

// drawWords writes a hand's label on the left and its note on the
// right, their baseline at y, on a picture w wide.
func drawWords(cv *canvas, label, note font.Face, w int, y float64, hand Hand) {
	right := float64(w) - cardsMargin
	if hand.Note != "" {
		cv.textRight(note, right, y, feltSoft, hand.Note)
		right -= textWidth(note, hand.Note) + 16
	}
	cv.text(label, cardsMargin, y, feltText, fit(label, hand.Label, right-cardsMargin))
}

// drawPlus writes the plus sign before a starter whose left edge is at
// x, its row of cards at y.
func drawPlus(cv *canvas, label font.Face, x, y float64) {
	cv.textCentre(label, x-starterGap/2, y+cardH/2+9, feltSoft, "+")
}

// felts caches the empty felt of each size a picture has had.
var felts sync.Map // image.Point → *image.RGBA, never written after it is stored

// feltOf returns a new picture of w × h, the felt drawn.
func feltOf(w, h int) *image.RGBA {
	src := emptyFelt(w, h)
	img := image.NewRGBA(src.Rect)
	copy(img.Pix, src.Pix)
	return img
}

// emptyFelt is the felt of w × h, shared: nothing draws on it.
func emptyFelt(w, h int) *image.RGBA {
	size := image.Pt(w, h)
	cached, ok := felts.Load(size)
	if !ok {
		cv := newCanvas(w, h)
		cv.roundRect(0, 0, float64(w), float64(h), 16, feltEdge)
		cv.roundRect(3, 3, float64(w)-3, float64(h)-3, 14, felt)
		cached, _ = felts.LoadOrStore(size, cv.img)
	}
	return cached.(*image.RGBA)
}

// faceKey names a drawn card.
type faceKey struct {
	card       engine.Card
	fourColour bool
}

// cardFaces caches each card as drawn, with its shadow: 104 small pictures
// at most, each drawn once.
var cardFaces sync.Map // faceKey → *image.RGBA, never written after it is stored

// cardFace returns the card face up: rank and suit in the corner, the suit
// large in the middle.
func cardFace(c engine.Card, fourColour bool) *image.RGBA {
	key := faceKey{c, fourColour}
	if cached, ok := cardFaces.Load(key); ok {
		return cached.(*image.RGBA)
	}
	rank, suit, big := face(boldFont(), 28), face(regularFont(), 24), face(regularFont(), 58)
	defer rank.Close()
	defer suit.Close()
	defer big.Close()
	cv := newCanvas(int(cardW+3), int(cardH+4))
	cv.roundRect(1.5, 2.5, cardW+1.5, cardH+2.5, 9, cardShadow)
	cv.roundRect(0, 0, cardW, cardH, 9, cardEdge)
	cv.roundRect(1.2, 1.2, cardW-1.2, cardH-1.2, 8, white)
	ink := suitColour(c.Suit(), fourColour)
	r, s := c.Rank().String(), c.Suit().String()
	cv.textCentre(rank, 19, 31, ink, r)
	cv.textCentre(suit, 19, 55, ink, s)
	cv.textCentre(big, cardW/2+8, cardH-22, ink, s)
	cached, _ := cardFaces.LoadOrStore(key, cv.img)
	return cached.(*image.RGBA)
}
