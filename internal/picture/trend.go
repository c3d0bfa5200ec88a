package picture

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"golang.org/x/image/font"
)

// Trend is a player's numbers game by game, as small charts one above
// the other: where a run of games is going reads better from a line than
// from a column of averages. Each panel plots a value a game as a dot,
// its running average as a line, and a reference (the published figure
// to read it against) as a dashed line. It is drawn on the board's wood
// with large text, as it is read on a phone, where Discord shows it at
// half its width or less.
type Trend struct {
	Title    string
	Subtitle string
	Panels   []TrendPanel
	// Oldest and Latest label the time axis's ends, in the reader's
	// language; English when empty.
	Oldest, Latest string
}

// TrendPanel is one chart of a Trend.
type TrendPanel struct {
	// Label names what is plotted: "Points a deal".
	Label string
	// Values are a value a game, oldest first; NaN for a game without
	// one (its throws not reviewed yet).
	Values []float64
	// Average is the running average drawn as a line, a value a game.
	Average []float64
	// Reference is drawn dashed across the chart, labelled RefLabel,
	// unless RefLabel is empty.
	Reference float64
	RefLabel  string
	// Side picks the colour of the dots and line (SideColour).
	Side int
	// Digits are the decimals of the axis labels.
	Digits int
}

// The trend's layout, in pixels.
const (
	trendWidth      = 720
	trendHead       = 96
	trendPanel      = 230
	trendPlotLeft   = 96
	trendPlotRight  = trendWidth - 30
	trendPlotTop    = 44 // below the panel's label
	trendPlotBottom = trendPanel - 30
)

// trendFaces are the trend's fonts; close them when drawn.
type trendFaces struct{ title, label, small font.Face }

func newTrendFaces() trendFaces {
	return trendFaces{face(boldFont(), 32), face(boldFont(), 24), face(regularFont(), 22)}
}

func (f trendFaces) Close() {
	f.title.Close()
	f.label.Close()
	f.small.Close()
}

// Render draws the trend.
func (tr Trend) Render() *image.RGBA {
	f := newTrendFaces()
	defer f.Close()
	h := trendHead + trendPanel*len(tr.Panels) + 10
	cv := newCanvas(trendWidth, h)
	cv.roundRect(0, 0, trendWidth, float64(h), 18, woodEdge)
	cv.roundRect(6, 6, trendWidth-6, float64(h-6), 14, wood)
	cv.text(f.title, 28, 50, ink, fit(f.title, tr.Title, trendWidth-56))
	cv.text(f.small, 28, 82, inkSoft, fit(f.small, tr.Subtitle, trendWidth-56))
	for i, p := range tr.Panels {
		p.draw(cv, f, float64(trendHead+trendPanel*i), or(tr.Oldest, "oldest"), or(tr.Latest, "latest"))
	}
	return cv.img
}

// draw draws the panel with its top at top.
func (p TrendPanel) draw(cv *canvas, f trendFaces, top float64, oldest, latest string) {
	cv.text(f.label, 28, top+30, ink, p.Label)
	lo, hi := p.scale()
	x0, x1 := float64(trendPlotLeft), float64(trendPlotRight)
	y0, y1 := top+trendPlotTop, top+trendPlotBottom
	cv.roundRect(x0-8, y0-8, x1+8, y1+8, 8, woodDark)
	y := func(v float64) float64 { return y1 - (v-lo)/(hi-lo)*(y1-y0) }
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		cv.textRight(f.small, x0-16, y(v)+8, inkSoft, fmt.Sprintf("%.*f", p.Digits, v))
		cv.line(x0-8, y(v), x0, y(v), 2, inkSoft)
	}
	n := len(p.Values)
	x := func(i int) float64 {
		if n == 1 {
			return (x0 + x1) / 2
		}
		return x0 + float64(i)*(x1-x0)/float64(n-1)
	}
	colour := SideColour(p.Side)
	var prev []float64
	for i, v := range p.Average {
		if math.IsNaN(v) {
			continue
		}
		if prev != nil {
			cv.line(prev[0], prev[1], x(i), y(v), 6, colour)
		}
		prev = []float64{x(i), y(v)}
	}
	for i, v := range p.Values {
		if !math.IsNaN(v) {
			cv.circle(x(i), y(v), 6.5, lighten(colour, 0.35))
		}
	}
	if p.RefLabel != "" {
		// Over the dots, its label on a patch of wood of its own, so it
		// reads whatever lies under it.
		ry := y(p.Reference)
		cv.dashed(x0, ry, x1, ry, 3, skunkRed)
		w := textWidth(f.small, p.RefLabel)
		ly := ry - 10
		if ry-y0 < 34 {
			ly = ry + 30 // under the line when it runs along the top
		}
		cv.roundRect(x1-w-14, ly-22, x1+2, ly+7, 6, wood)
		cv.textRight(f.small, x1-6, ly, skunkRed, p.RefLabel)
	}
	if n > 0 {
		cv.text(f.small, x0, y1+28, inkSoft, oldest)
		cv.textRight(f.small, x1, y1+28, inkSoft, latest)
	}
}

// scale is the panel's axis: from the lowest to the highest of its values
// and reference, widened to whole numbers with a little room.
func (p TrendPanel) scale() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range append(append([]float64{}, p.Values...), p.Average...) {
		if !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if p.RefLabel != "" {
		lo, hi = min(lo, p.Reference), max(hi, p.Reference)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if lo > 0 && lo < 2 {
		lo = 0
	}
	if hi-lo < 2 {
		hi = lo + 2
	}
	if int(hi-lo)%2 == 1 {
		hi++ // the middle label a whole number too
	}
	return lo, hi
}

// line draws a segment w wide with round ends.
func (cv *canvas) line(x0, y0, x1, y1, w float64, c color.Color) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l > 0 {
		nx, ny := -dy/l*w/2, dx/l*w/2
		cv.polygon([]float64{x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny}, c)
	}
	cv.circle(x0, y0, w/2, c)
	cv.circle(x1, y1, w/2, c)
}

// dashed draws a dashed segment w wide.
func (cv *canvas) dashed(x0, y0, x1, y1, w float64, c color.Color) {
	const on, off = 14.0, 10.0
	l := math.Hypot(x1-x0, y1-y0)
	for d := 0.0; d < l; d += on + off {
		e := min(d+on, l)
		cv.line(x0+(x1-x0)*d/l, y0+(y1-y0)*d/l, x0+(x1-x0)*e/l, y0+(y1-y0)*e/l, w, c)
	}
}

// or is s, or english when s is empty.
func or(s, english string) string {
	if s == "" {
		return english
	}
	return s
}
