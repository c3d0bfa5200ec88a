package picture

import (
	"bytes"
	"image"
	"image/png"
	"sync"
)

// encoder keeps its buffers between pictures. A paletted picture of flat
// colours compresses well at the fastest level: the best level would take
// four times as long to save a few kilobytes.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

// PNG encodes a picture, reduced to 256 colours (see paletted).
func PNG(img *image.RGBA) []byte {
	return encode(paletted(img))
}

// encode encodes a paletted picture.
func encode(img *image.Paletted) []byte {
	var buf bytes.Buffer
	if err := encoder.Encode(&buf, img); err != nil {
		// Encoding an in-memory image into a buffer cannot fail but for a
		// zero-sized image, which no picture here is.
		panic("picture: encode a PNG: " + err.Error())
	}
	return buf.Bytes()
}

// bufferPool shares png's encoder buffers between goroutines.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	buf, _ := b.p.Get().(*png.EncoderBuffer)
	return buf
}

func (b *bufferPool) Put(buf *png.EncoderBuffer) { b.p.Put(buf) }
