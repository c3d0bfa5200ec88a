package picture

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// The Go fonts are parsed once. A parsed font is read-only and safe to
// share; a face is not (it caches glyph masks), so each picture makes its
// own faces from these.
var (
	regularFont = sync.OnceValue(func() *opentype.Font { return mustParse(goregular.TTF) })
	boldFont    = sync.OnceValue(func() *opentype.Font { return mustParse(gobold.TTF) })
)

func mustParse(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		// The fonts are compiled into the binary: failing to parse them is
		// a broken build, not a runtime condition.
		panic(fmt.Sprintf("picture: parse an embedded font: %v", err))
	}
	return f
}

// face returns a face of f at size pixels, hinted so small text stays crisp.
func face(f *opentype.Font, size float64) font.Face {
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("picture: a face of %.0f px: %v", size, err))
	}
	return fc
}
