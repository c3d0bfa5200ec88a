package picture

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// PNG encodes a picture, reduced to 256 colours (see paletted).
func PNG(img *image.RGBA) []byte {
	return encode(paletted(img))
}

// encode writes a paletted picture as a PNG: 8 bits an index, each row
// unfiltered (as image/png writes a paletted picture: a filter does not
// help indices), compressed at the fastest level. A paletted picture of
// flat colours compresses well there: the best level would take four
// times as long to save a few kilobytes. The compressor is klauspost's:
// the standard library's took one and a half to two and a half times as
// long at the same level, most of it building a Huffman table for every
// 64 KiB (or every band of a board), and boards and cards pictures were
// a sixth of the bot's CPU at 900 tables (6.6 s of 35.7 in a profiled
// 30-second window before the change). A picture of no pixels,
// or of more colours than a PNG palette holds, is a bug: image/png refused
// one, and encode panics rather than write a file no one can read.
func encode(img *image.Paletted) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 || len(img.Palette) == 0 || len(img.Palette) > 256 {
		panic(fmt.Sprintf("picture: a PNG of %d × %d in %d colours", w, h, len(img.Palette)))
	}
	z := zlibs.Get().(*zlibWriter)
	defer zlibs.Put(z)
	z.buf.Reset()
	z.w.Reset(&z.buf)
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		at := img.PixOffset(img.Rect.Min.X, y)
		z.row = append(append(z.row[:0], 0), img.Pix[at:at+w]...)
		z.w.Write(z.row) // writes to a bytes.Buffer do not fail
	}
	z.w.Close()
	plte, trns := paletteChunks(img.Palette)
	return pngFile(w, h, plte, trns, z.buf.Bytes())
}

// zlibWriter compresses a picture's rows, keeping its compressor and
// buffers between pictures: a new compressor allocates hundreds of
// kilobytes.
type zlibWriter struct {
	buf bytes.Buffer
	w   *zlib.Writer
	row []byte
}

var zlibs = sync.Pool{New: func() any {
	z := &zlibWriter{}
	z.w, _ = zlib.NewWriterLevel(&z.buf, zlib.BestSpeed) // BestSpeed is a valid level: no error
	return z
}}

// pngFile is a paletted PNG of w × h from its palette's chunks' data and
// its compressed rows (a zlib stream).
func pngFile(w, h int, plte, trns, idat []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(idat) + len(plte) + len(trns) + 128)
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 3, 0, 0, 0) // 8 bits an index, paletted, deflate, no filter choice, not interlaced
	writeChunk(&out, "IHDR", ihdr)
	writeChunk(&out, "PLTE", plte)
	if len(trns) > 0 {
		writeChunk(&out, "tRNS", trns)
	}
	writeChunk(&out, "IDAT", idat)
	writeChunk(&out, "IEND", nil)
	return out.Bytes()
}

// scratch is a picture's working memory, kept between pictures: at 900
// tables the boards and cards pictures were an eighth of all the memory
// the benchmark allocated, and the garbage collector's work grows with
// what is allocated.
type scratch struct {
	buf bytes.Buffer
	pix []uint8
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// indices returns the scratch's pixels as n bytes, their values left from
// the picture before.
func (sc *scratch) indices(n int) []uint8 {
	if cap(sc.pix) < n {
		sc.pix = make([]uint8, n)
	}
	return sc.pix[:n]
}
