package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"github.com/cribbage-bot/cribbage/engine"
)

// A cards picture (a hand's record shows one) is written straight in a
// palette: the felt of each size and each card face are reduced to it
// once, when first drawn, and a picture copies their palette indices. Only
// its words are drawn and reduced anew. Drawing the whole picture and
// reducing it again for every record took several milliseconds of a
// move's CPU, most of it on pixels that are the same in every picture.

// cardsPalette is the palette of every cards picture, made from a sample
// of every card face in both colourings on the felt, with words in both
// of the felt's inks; and the palette index of each colour bucket.
type cardsPalette struct {
	pal   color.Palette
	index *[buckets]uint8
}

// cardsPal is made once, when the first cards picture is written.
var cardsPal = sync.OnceValue(func() cardsPalette {
	var samples []*image.RGBA
	for _, four := range []bool{false, true} {
		var hands []Hand
		for s := engine.Spades; s <= engine.Clubs; s++ {
			var cards []engine.Card
			for r := engine.Ace; r <= engine.King; r++ {
				cards = append(cards, engine.NewCard(r, s))
			}
			hands = append(hands, Hand{Label: "Sample Wg · 0123456789 (ÀÉÍÓÚ)", Cards: cards, Note: "29 points"})
		}
		samples = append(samples, Cards{Hands: hands, Starter: engine.NewCard(engine.Jack, engine.Hearts), FourColour: four}.Render())
	}
	// The felt's rounded corners are a few pixels of each picture, whose
	// shades the faces' antialiasing would crowd out of the palette:
	// small felts, all corner, make them count.
	for range 24 {
		samples = append(samples, feltOf(40, 40))
	}
	// Both samples, one under the other, counted as one picture.
	w, h := 0, 0
	for _, s := range samples {
		w, h = max(w, s.Rect.Dx()), h+s.Rect.Dy()
	}
	all := image.NewRGBA(image.Rect(0, 0, w, h))
	y := 0
	for _, s := range samples {
		draw.Draw(all, s.Rect.Add(image.Pt(0, y)), s, image.Point{}, draw.Src)
		y += s.Rect.Dy()
	}
	pal, index := paletteOf(all)
	return cardsPalette{pal: pal, index: index}
})

// PrepareCards makes the cards pictures' palette now, which the first
// picture would otherwise wait for (about a sixth of a second).
func PrepareCards() { cardsPal() }

// indexed is a piece of a cards picture in the cards palette.
type indexed struct {
	w, h int
	pix  []uint8
}

// reduce is img in the cards palette.
func (cp cardsPalette) reduce(img *image.RGBA) indexed {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := indexed{w: w, h: h, pix: make([]uint8, w*h)}
	cp.reduceInto(out.pix, w, img, 0, 0)
	return out
}

// reduceInto writes img in the cards palette into dst (w wide), its top
// left at x, y.
func (cp cardsPalette) reduceInto(dst []uint8, w int, img *image.RGBA, x, y int) {
	iw, ih := img.Rect.Dx(), img.Rect.Dy()
	for row := range ih {
		src := img.Pix[row*img.Stride : row*img.Stride+4*iw]
		out := dst[(y+row)*w+x : (y+row)*w+x+iw]
		for i := range out {
			out[i] = cp.index[bucket(src[4*i:4*i+4])]
		}
	}
}

// indexedFelts and indexedFaces cache the felt of each size and each card
// face on the felt, in the cards palette.
var (
	indexedFelts sync.Map // image.Point → indexed
	indexedFaces sync.Map // faceKey → indexed
)

// indexedFelt is the empty felt of w × h in the cards palette.
func indexedFelt(w, h int) indexed {
	size := image.Pt(w, h)
	if cached, ok := indexedFelts.Load(size); ok {
		return cached.(indexed)
	}
	cached, _ := indexedFelts.LoadOrStore(size, cardsPal().reduce(emptyFelt(w, h)))
	return cached.(indexed)
}

// indexedFace is a card face with its shadow, on the felt, in the cards
// palette. A card lies on the felt's plain middle, so the face is drawn
// over that colour once for every picture.
func indexedFace(c engine.Card, fourColour bool) indexed {
	key := faceKey{c, fourColour}
	if cached, ok := indexedFaces.Load(key); ok {
		return cached.(indexed)
	}
	face := cardFace(c, fourColour)
	img := image.NewRGBA(face.Rect)
	draw.Draw(img, img.Rect, image.NewUniform(felt), image.Point{}, draw.Src)
	draw.Draw(img, img.Rect, face, image.Point{}, draw.Over)
	cached, _ := indexedFaces.LoadOrStore(key, cardsPal().reduce(img))
	return cached.(indexed)
}

// put copies piece into dst (w wide) with its top left at x, y.
func (piece indexed) put(dst []uint8, w, x, y int) {
	for row := range piece.h {
		at := (y+row)*w + x
		copy(dst[at:at+piece.w], piece.pix[row*piece.w:(row+1)*piece.w])
	}
}

// PNG is the picture as a PNG, in the palette of every cards picture. It
// shows what Render draws, each colour as the nearest of the palette's.
func (p Cards) PNG() []byte {
	w, h := p.size()
	cp := cardsPal()
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	pix := sc.indices(w * h)
	copy(pix, indexedFelt(w, h).pix)
	// A row's words are drawn on a strip of the felt as wide as the
	// picture, and reduced; the strip is reused row after row.
	feltImg := emptyFelt(w, h)
	label, note := face(boldFont(), 24), face(regularFont(), 22)
	defer label.Close()
	defer note.Close()
	strip := &canvas{img: strips.get(image.Rect(0, 0, w, int(labelHeight)))}
	defer strips.Put(strip.img)
	p.layOut(
		func(top float64, hand Hand) {
			row := int(top)
			copy(strip.img.Pix, feltImg.Pix[row*feltImg.Stride:(row+int(labelHeight))*feltImg.Stride])
			drawWords(strip, label, note, w, wordsBaseline, hand)
			cp.reduceInto(pix, w, strip.img, 0, row)
		},
		func(x, y float64, c engine.Card) {
			indexedFace(c, p.FourColour).put(pix, w, int(math.Round(x)), int(math.Round(y)))
		},
		func(x, y float64) {
			// The plus sign, drawn in a box on the felt between the last
			// card's shadow and the starter.
			box := image.Rect(int(x-starterGap+cardGap), int(y), int(x), int(y+cardH))
			sign := &canvas{img: signs.get(image.Rect(0, 0, box.Dx(), box.Dy()))}
			defer signs.Put(sign.img)
			draw.Draw(sign.img, sign.img.Rect, feltImg, box.Min, draw.Src)
			drawPlus(sign, label, x-float64(box.Min.X), y-float64(box.Min.Y))
			cp.reduceInto(pix, w, sign.img, box.Min.X, box.Min.Y)
		})
	return encode(&image.Paletted{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h), Palette: cp.pal})
}

// rgbaPool keeps surfaces of one use between pictures.
type rgbaPool struct{ sync.Pool }

// get returns a surface of bounds r, its pixels not cleared.
func (p *rgbaPool) get(r image.Rectangle) *image.RGBA {
	if img, ok := p.Get().(*image.RGBA); ok && img.Rect == r {
		return img
	}
	return image.NewRGBA(r)
}

// strips are the surfaces a cards picture draws its rows' words on, and
// signs the boxes it draws its plus signs in; each is the felt, copied,
// before it is drawn on.
var strips, signs rgbaPool
