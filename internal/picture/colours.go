package picture

import "image/color"

// The board is wood with dark holes: it reads the same on Discord's light
// and dark themes, and its rounded corners are transparent.
var (
	wood      = color.NRGBA{0xdb, 0xb5, 0x84, 0xff}
	woodEdge  = color.NRGBA{0x8a, 0x5a, 0x2e, 0xff}
	woodDark  = color.NRGBA{0xc4, 0x98, 0x62, 0xff}
	ink       = color.NRGBA{0x2b, 0x1a, 0x0e, 0xff}
	inkSoft   = color.NRGBA{0x5c, 0x40, 0x28, 0xff}
	holeInk   = color.NRGBA{0x3a, 0x24, 0x12, 0xff}
	skunkRed  = color.NRGBA{0xb0, 0x1e, 0x1e, 0xff}
	starGold  = color.NRGBA{0xf2, 0xb7, 0x05, 0xff}
	pegShadow = color.NRGBA{0x00, 0x00, 0x00, 0x55}
	highlight = color.NRGBA{0xff, 0xff, 0xff, 0x90}
	white     = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

// sideColours are the pegs' colours, side by side: the Okabe–Ito palette,
// which people with the common colour-vision deficiencies tell apart.
var sideColours = []color.NRGBA{
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
}

// SideColour is the colour of a side's pegs, for text that names the side.
func SideColour(side int) color.NRGBA { return sideColours[side%len(sideColours)] }

// tint mixes c with the wood: a lane's colour behind its holes.
func tint(c color.NRGBA, amount float64) color.NRGBA {
	mix := func(a, b uint8) uint8 { return uint8(float64(a)*amount + float64(b)*(1-amount) + 0.5) }
	return color.NRGBA{mix(c.R, wood.R), mix(c.G, wood.G), mix(c.B, wood.B), 0xff}
}

// lighten mixes c with white.
func lighten(c color.NRGBA, amount float64) color.NRGBA {
	mix := func(a uint8) uint8 { return uint8(float64(a)*(1-amount) + 255*amount + 0.5) }
	return color.NRGBA{mix(c.R), mix(c.G), mix(c.B), c.A}
}
