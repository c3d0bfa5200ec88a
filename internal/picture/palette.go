package picture

import (
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"slices"
	"sync"
)

// paletted reduces img to its 256 most common colours. The pictures are a
// few flat colours plus antialiased edges, so nothing visible is lost, and
// a paletted PNG is a quarter of the bytes to compress and needs no
// per-row filter search: encoding is several times faster and the file
// smaller.
//
// Colours are bucketed by their top five bits a channel (an opaque pixel)
// or by alpha (the few in the rounded corners); the commonest buckets,
// each as its mean colour, make the palette, and every other bucket goes
// to its nearest palette colour.
func paletted(img *image.RGBA) *image.Paletted {
	q := quantizers.Get().(*quantizer)
	defer quantizers.Put(q)
	q.count(img)
	return q.reduce(img.Rect)
}

// count tallies img's pixels into q: each pixel's bucket (keys), and each
// bucket's pixels and the sums of their channels.
func (q *quantizer) count(img *image.RGBA) {
	clear(q.sums[:])
	clear(q.counts[:])
	sums, counts := &q.sums, &q.counts
	keys := slices.Grow(q.keys[:0], len(img.Pix)/4)[:len(img.Pix)/4]
	q.keys = keys
	// Most pixels repeat the one before them (flat colours), so runs of a
	// pixel are added up once, when the run ends.
	// A pixel is compared as one word (its four bytes at once): most of
	// the time goes to that comparison.
	var run uint32
	var runKey uint16
	var runPix [4]uint32
	var runWord uint32
	flush := func() {
		if run > 0 {
			s := &sums[runKey]
			s[0], s[1], s[2], s[3] = s[0]+runPix[0]*run, s[1]+runPix[1]*run, s[2]+runPix[2]*run, s[3]+runPix[3]*run
			counts[runKey] += run
		}
	}
	for i := range keys {
		p := img.Pix[4*i : 4*i+4 : 4*i+4]
		word := binary.LittleEndian.Uint32(p)
		if run > 0 && word == runWord {
			keys[i] = runKey
			run++
			continue
		}
		flush()
		runWord = word
		k := bucket(p)
		keys[i] = k
		run, runKey, runPix = 1, k, [4]uint32{uint32(p[0]), uint32(p[1]), uint32(p[2]), uint32(p[3])}
	}
	flush()
}

// bucket is the bucket of pixel p (its four bytes).
func bucket(p []byte) uint16 {
	if p[3] == 0xff {
		return uint16(p[0]>>3)<<10 | uint16(p[1]>>3)<<5 | uint16(p[2]>>3)
	}
	return opaqueBuckets + uint16(p[3]>>3)
}

// reduce makes the paletted picture of what q counted, of bounds r.
func (q *quantizer) reduce(r image.Rectangle) *image.Paletted {
	sums, counts, index, keys := &q.sums, &q.counts, &q.index, q.keys
	used := q.used[:0]
	for k, n := range counts {
		if n > 0 {
			used = append(used, uint16(k))
		}
	}
	// Commonest first; ties by bucket, so the same picture always gets the
	// same palette (and the same bytes).
	slices.SortFunc(used, func(a, b uint16) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b)) })
	q.used = used
	pal := make(color.Palette, 0, 256)
	for _, k := range used[:min(len(used), 256)] {
		n, s := counts[k], sums[k]
		index[k] = uint8(len(pal))
		pal = append(pal, color.RGBA{uint8(s[0] / n), uint8(s[1] / n), uint8(s[2] / n), uint8(s[3] / n)})
	}
	for _, k := range used[min(len(used), 256):] {
		n, s := counts[k], sums[k]
		index[k] = uint8(nearest(pal, s[0]/n, s[1]/n, s[2]/n, s[3]/n))
	}
	out := image.NewPaletted(r, pal)
	pix := out.Pix[:len(keys)]
	for i, k := range keys {
		pix[i] = index[k]
	}
	return out
}

// The buckets: 15 bits of colour for opaque pixels, then 5 bits of alpha.
const (
	opaqueBuckets = 1 << 15
	buckets       = opaqueBuckets + 1<<5
)

// quantizer is paletted's working memory, kept between pictures: clearing
// it is cheaper than allocating it.
type quantizer struct {
	sums   [buckets][4]uint32
	counts [buckets]uint32
	index  [buckets]uint8
	keys   []uint16
	used   []uint16
}

var quantizers = sync.Pool{New: func() any { return new(quantizer) }}

// nearest is the palette colour closest to r, g, b, a.
func nearest(pal color.Palette, r, g, b, a uint32) int {
	best, bestD := 0, uint32(1<<32-1)
	for i, c := range pal {
		pc := c.(color.RGBA)
		d := sq(uint32(pc.R), r) + sq(uint32(pc.G), g) + sq(uint32(pc.B), b) + sq(uint32(pc.A), a)
		if d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

func sq(x, y uint32) uint32 {
	d := int32(x) - int32(y)
	return uint32(d * d)
}
