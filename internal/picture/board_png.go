package picture

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	"sync"

	"github.com/klauspost/compress/flate"
)

// A board's PNG is written in bands of rows. The track, the same on every
// board of its size, is reduced to a palette and compressed once, band by
// band; a board draws its title, legend and pegs on a copy of the track
// and compresses again only the bands where that changed a pixel (at two
// players, 6 or 7 of 19), handing the others over as they are.
// Each band is compressed on its own (a fresh dictionary, flushed to a
// byte boundary), so the bands' compressed bytes follow each other in one
// zlib stream as any decoder reads it. Drawing, reducing and compressing
// the whole picture for every move was a tenth of the CPU of the 900-table
// benchmark (the bot, the fake Discord and its players together).

// bandRows is the height of a band. Smaller bands recompress fewer
// unchanged rows around what a board changed; each band costs its own
// Huffman tables, a few dozen bytes, in the file.
const bandRows = 24

// trackPNG is a track's palette and its bands, ready for the boards drawn
// on it.
type trackPNG struct {
	// plte and trns are the palette's PNG chunks' data.
	plte, trns []byte
	// index is the palette index of each bucket (see bucket): a pixel a
	// board drew is written as the palette colour nearest its bucket.
	index *[buckets]uint8
	// pix is the track's pixels as palette indices, row by row.
	pix []uint8
	// bands are the track's compressed bands.
	bands []trackBand
}

// trackBand is one band of the track, compressed.
type trackBand struct {
	deflated []byte
	// adler is the Adler-32 of the band's raw rows (a filter byte, then
	// the row's indices), which the zlib stream's checksum is made of.
	adler uint32
}

// paletteFor makes the palette a track's boards are written in, and the
// palette index of each bucket: the commonest colours of the track with a
// board drawn on it that shows every lane's pegs, a title, a winner and a
// skunk, so that a peg's or a word's colour has its own entry and not the
// nearest wood's. A bucket the sample does not use goes to the palette
// colour nearest its middle.
func paletteFor(track *image.RGBA, sample Board) (color.Palette, *[buckets]uint8) {
	img := image.NewRGBA(track.Rect)
	copy(img.Pix, track.Pix)
	sample.drawOn(&canvas{img: img}, sample.layout())
	return paletteOf(img)
}

// paletteOf is the palette of img's commonest colours (paletted), and the
// palette index of every colour bucket: a bucket img uses goes where
// paletted puts it, any other to the palette colour nearest its middle.
func paletteOf(img *image.RGBA) (color.Palette, *[buckets]uint8) {
	q := quantizers.Get().(*quantizer)
	defer quantizers.Put(q)
	q.count(img)
	pal := q.reduce(img.Rect).Palette
	index := new([buckets]uint8)
	for k := range index {
		if q.counts[k] > 0 {
			index[k] = q.index[k]
			continue
		}
		r, g, b, a := bucketColour(uint16(k))
		index[k] = uint8(nearest(pal, r, g, b, a))
	}
	return pal, index
}

// newTrackPNG writes a track in a palette and compresses its bands.
func newTrackPNG(track *image.RGBA, pal color.Palette, index *[buckets]uint8) *trackPNG {
	tp := &trackPNG{index: index}
	tp.pix = make([]uint8, track.Rect.Dx()*track.Rect.Dy())
	for i := range tp.pix {
		tp.pix[i] = tp.index[bucket(track.Pix[4*i:4*i+4])]
	}
	tp.plte, tp.trns = paletteChunks(pal)
	w, h := track.Rect.Dx(), track.Rect.Dy()
	raw := make([]byte, 0, bandRows*(w+1))
	z := deflaters.Get().(*deflater)
	defer deflaters.Put(z)
	for top := 0; top < h; top += bandRows {
		raw = raw[:0]
		for y := top; y < min(top+bandRows, h); y++ {
			raw = append(raw, 0)
			raw = append(raw, tp.pix[y*w:(y+1)*w]...)
		}
		tp.bands = append(tp.bands, trackBand{deflated: bytes.Clone(z.deflate(raw)), adler: adler32.Checksum(raw)})
	}
	return tp
}

// bucketColour is the colour a bucket stands for: its channels' middle
// (an opaque bucket), or black at its alpha (the rounded corners' few).
func bucketColour(k uint16) (r, g, b, a uint32) {
	if k >= opaqueBuckets {
		alpha := uint32(k-opaqueBuckets)<<3 | 4
		return 0, 0, 0, alpha
	}
	return uint32(k>>10)<<3 | 4, uint32(k>>5&31)<<3 | 4, uint32(k&31)<<3 | 4, 0xff
}

// encode writes img, the track drawn over, as a PNG: the bands whose rows
// are the track's as compressed once, the others reduced and compressed
// now. It returns the PNG and the changed bands' numbers.
func (tp *trackPNG) encode(img, track *image.RGBA) ([]byte, []int) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	z := deflaters.Get().(*deflater)
	defer deflaters.Put(z)
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	idat := &sc.buf
	idat.Reset()
	idat.Write([]byte{0x78, 0x01}) // zlib: deflate, a 32 KB window, fastest
	var sum uint32 = 1
	var changed []int
	raw := sc.indices(bandRows * (w + 1))[:0]
	for i, band := range tp.bands {
		top := i * bandRows
		rows := min(bandRows, h-top)
		if bytes.Equal(img.Pix[top*img.Stride:(top+rows)*img.Stride], track.Pix[top*track.Stride:(top+rows)*track.Stride]) {
			idat.Write(band.deflated)
			sum = adler32Combine(sum, band.adler, rows*(w+1))
			continue
		}
		changed = append(changed, i)
		raw = raw[:0]
		for y := top; y < top+rows; y++ {
			raw = append(raw, 0)
			raw = tp.reduceRow(raw, img.Pix[y*img.Stride:(y+1)*img.Stride], track.Pix[y*track.Stride:(y+1)*track.Stride], tp.pix[y*w:(y+1)*w])
		}
		idat.Write(z.deflate(raw))
		sum = adler32Combine(sum, adler32.Checksum(raw), len(raw))
	}
	// The last block: empty, stored, marked final.
	idat.Write([]byte{0x01, 0x00, 0x00, 0xff, 0xff})
	idat.Write(binary.BigEndian.AppendUint32(nil, sum))

	return pngFile(w, h, tp.plte, tp.trns, idat.Bytes()), changed
}

// blockPixels is how many pixels reduceRow compares at once: a board
// changes a few short runs of a row (a peg, a word), and comparing a run
// of pixels as bytes is several times faster than pixel by pixel.
const blockPixels = 16

// reduceRow appends a row of a board in the palette: the track's indices
// (idx) where its pixels are the track's (was), and the nearest palette
// colour's where the board drew.
func (tp *trackPNG) reduceRow(raw, row, was []byte, idx []uint8) []byte {
	if bytes.Equal(row, was) {
		return append(raw, idx...)
	}
	w := len(idx)
	for x0 := 0; x0 < w; x0 += blockPixels {
		x1 := min(x0+blockPixels, w)
		if bytes.Equal(row[4*x0:4*x1], was[4*x0:4*x1]) {
			raw = append(raw, idx[x0:x1]...)
			continue
		}
		for x := x0; x < x1; x++ {
			p := row[4*x : 4*x+4 : 4*x+4]
			if binary.LittleEndian.Uint32(p) == binary.LittleEndian.Uint32(was[4*x:4*x+4]) {
				raw = append(raw, idx[x])
			} else {
				raw = append(raw, tp.index[bucket(p)])
			}
		}
	}
	return raw
}

// paletteChunks are the PLTE and tRNS chunks' data of pal: colours not
// premultiplied, and the alphas up to the last colour that is not opaque
// (none if all are).
func paletteChunks(pal color.Palette) (plte, trns []byte) {
	last := -1
	for i, c := range pal {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		plte = append(plte, n.R, n.G, n.B)
		trns = append(trns, n.A)
		if n.A != 0xff {
			last = i
		}
	}
	return plte, trns[:last+1]
}

// writeChunk writes a PNG chunk: its length, type, data and CRC.
func writeChunk(w *bytes.Buffer, kind string, data []byte) {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	w.Write(head[:])
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	w.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
}

// adlerBase is Adler-32's modulus.
const adlerBase = 65521

// adler32Combine is the Adler-32 of two pieces of data one after the
// other, from the first's checksum, the second's and the second's length:
// its sum of bytes adds on, and its sum of sums gains the first's sum of
// bytes once for each of its bytes.
func adler32Combine(a1, a2 uint32, len2 int) uint32 {
	rem := uint64(len2 % adlerBase)
	s1a, s2a := uint64(a1&0xffff), uint64(a1>>16)
	s1b, s2b := uint64(a2&0xffff), uint64(a2>>16)
	// The second piece's sums start from 1, not from the first's s1.
	s1 := (s1a + s1b + adlerBase - 1) % adlerBase
	s2 := (s2a + s2b + rem*s1a + adlerBase - rem) % adlerBase
	return uint32(s2<<16 | s1)
}

// deflater compresses bands, keeping its compressor between them: a new
// flate writer allocates more than a band's worth of memory. It is
// klauspost's (see encode): the standard library's spent most of a band's
// time building its Huffman table, and took about twice as long.
type deflater struct {
	buf bytes.Buffer
	w   *flate.Writer
}

var deflaters = sync.Pool{New: func() any {
	z := &deflater{}
	z.w, _ = flate.NewWriter(&z.buf, flate.BestSpeed) // BestSpeed is a valid level: no error
	return z
}}

// deflate compresses raw on its own, with a fresh dictionary, ending on a
// byte boundary and not final, so that another band may follow. The bytes
// are the deflater's until its next use.
func (z *deflater) deflate(raw []byte) []byte {
	z.buf.Reset()
	z.w.Reset(&z.buf)
	z.w.Write(raw) // writes to a bytes.Buffer do not fail
	z.w.Flush()
	return z.buf.Bytes()
}
