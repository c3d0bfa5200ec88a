package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// canvas is an image being drawn, with one rasterizer reused for every
// shape. Each shape is rasterized over its own bounding box only: a
// rasterizer the size of the whole picture would cost a full-picture pass
// per peg hole.
type canvas struct {
	img *image.RGBA
	z   vector.Rasterizer
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h))}
}

// kappa places the control points of a cubic Bézier quarter circle.
const kappa = 0.5522847498

// shape rasterizes the path that trace draws, relative to (x0, y0), over
// the box x0,y0 to x1,y1, and fills it with c.
func (cv *canvas) shape(x0, y0, x1, y1 float64, c color.Color, trace func(z *vector.Rasterizer, ox, oy float32)) {
	bx, by := int(math.Floor(x0)), int(math.Floor(y0))
	bw, bh := int(math.Ceil(x1))-bx, int(math.Ceil(y1))-by
	if bw <= 0 || bh <= 0 {
		return
	}
	cv.z.Reset(bw, bh)
	cv.z.DrawOp = draw.Over
	trace(&cv.z, float32(bx), float32(by))
	cv.z.Draw(cv.img, image.Rect(bx, by, bx+bw, by+bh), image.NewUniform(c), image.Point{})
}

// circle fills a circle centred on cx, cy.
func (cv *canvas) circle(cx, cy, r float64, c color.Color) {
	cv.shape(cx-r, cy-r, cx+r, cy+r, c, func(z *vector.Rasterizer, ox, oy float32) {
		ellipse(z, float32(cx)-ox, float32(cy)-oy, float32(r))
	})
}

// ellipse traces a circle clockwise (on screen).
func ellipse(z *vector.Rasterizer, cx, cy, r float32) {
	k := r * kappa
	z.MoveTo(cx+r, cy)
	z.CubeTo(cx+r, cy+k, cx+k, cy+r, cx, cy+r)
	z.CubeTo(cx-k, cy+r, cx-r, cy+k, cx-r, cy)
	z.CubeTo(cx-r, cy-k, cx-k, cy-r, cx, cy-r)
	z.CubeTo(cx+k, cy-r, cx+r, cy-k, cx+r, cy)
	z.ClosePath()
}

// roundRect fills a rectangle with corners rounded to radius r.
func (cv *canvas) roundRect(x0, y0, x1, y1, r float64, c color.Color) {
	cv.shape(x0, y0, x1, y1, c, func(z *vector.Rasterizer, ox, oy float32) {
		roundRectPath(z, float32(x0)-ox, float32(y0)-oy, float32(x1)-ox, float32(y1)-oy, float32(r))
	})
}

func roundRectPath(z *vector.Rasterizer, x0, y0, x1, y1, r float32) {
	k := r * kappa
	z.MoveTo(x0+r, y0)
	z.LineTo(x1-r, y0)
	z.CubeTo(x1-r+k, y0, x1, y0+r-k, x1, y0+r)
	z.LineTo(x1, y1-r)
	z.CubeTo(x1, y1-r+k, x1-r+k, y1, x1-r, y1)
	z.LineTo(x0+r, y1)
	z.CubeTo(x0+r-k, y1, x0, y1-r+k, x0, y1-r)
	z.LineTo(x0, y0+r)
	z.CubeTo(x0, y0+r-k, x0+r-k, y0, x0+r, y0)
	z.ClosePath()
}

// polygon fills the polygon through points (x, y pairs).
func (cv *canvas) polygon(pts []float64, c color.Color) {
	x0, y0, x1, y1 := pts[0], pts[1], pts[0], pts[1]
	for i := 0; i < len(pts); i += 2 {
		x0, x1 = min(x0, pts[i]), max(x1, pts[i])
		y0, y1 = min(y0, pts[i+1]), max(y1, pts[i+1])
	}
	cv.shape(x0, y0, x1, y1, c, func(z *vector.Rasterizer, ox, oy float32) {
		z.MoveTo(float32(pts[0])-ox, float32(pts[1])-oy)
		for i := 2; i < len(pts); i += 2 {
			z.LineTo(float32(pts[i])-ox, float32(pts[i+1])-oy)
		}
		z.ClosePath()
	})
}

// star fills a five-pointed star centred on cx, cy: the winner's mark.
func (cv *canvas) star(cx, cy, r float64, c color.Color) {
	pts := make([]float64, 0, 20)
	for i := range 10 {
		rr := r
		if i%2 == 1 {
			rr = r * 0.45
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		pts = append(pts, cx+rr*math.Cos(a), cy+rr*math.Sin(a))
	}
	cv.polygon(pts, c)
}

// rect fills an axis-aligned rectangle without antialiasing (its edges
// are on whole pixels).
func (cv *canvas) rect(x0, y0, x1, y1 int, c color.Color) {
	draw.Draw(cv.img, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{}, draw.Over)
}

// sprite lays a picture drawn earlier with its top left at x, y.
func (cv *canvas) sprite(x, y float64, src *image.RGBA) {
	at := image.Pt(int(math.Round(x)), int(math.Round(y)))
	draw.Draw(cv.img, src.Rect.Add(at), src, image.Point{}, draw.Over)
}

// text draws s with its baseline's left end at x, y.
func (cv *canvas) text(face font.Face, x, y float64, c color.Color, s string) {
	d := font.Drawer{Dst: cv.img, Src: image.NewUniform(c), Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

// textWidth is how wide s is drawn in face.
func textWidth(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// textRight draws s ending at x.
func (cv *canvas) textRight(face font.Face, x, y float64, c color.Color, s string) {
	cv.text(face, x-textWidth(face, s), y, c, s)
}

// textCentre draws s centred on x.
func (cv *canvas) textCentre(face font.Face, x, y float64, c color.Color, s string) {
	cv.text(face, x-textWidth(face, s)/2, y, c, s)
}

// fit shortens s with an ellipsis until it is at most w wide.
func fit(face font.Face, s string, w float64) string {
	if textWidth(face, s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && textWidth(face, string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// wrap breaks s at its spaces into lines no wider than w, so that a long
// line is read whole rather than cut. Only a single word wider than w is
// cut (fit), on a line of its own.
func wrap(face font.Face, s string, w float64) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		next := word
		if cur != "" {
			next = cur + " " + word
		}
		if cur != "" && textWidth(face, next) > w {
			lines = append(lines, fit(face, cur, w))
			next = word
		}
		cur = next
	}
	if cur != "" {
		lines = append(lines, fit(face, cur, w))
	}
	return lines
}
