// Package picture draws what players look at: the cribbage board with its
// pegs, cards, and a tournament's standings. Everything is drawn by the
// project from embedded fonts (the Go fonts) with golang.org/x/image's
// antialiasing rasterizer, so a picture depends only on its inputs: the
// same board is the same pixels on every machine, to within the rounding
// of an antialiased edge, which the golden tests pin.
package picture

// The golden pictures under testdata and the pictures README shows
// (docs/*.png) are written again by go generate, the same bytes on any
// number of cores. Not on every machine: where Go fuses multiply-adds
// (arm64, or amd64 built with GOAMD64=v3) the antialiasing, here and in
// golang.org/x/image/vector, rounds a few pixels differently, and
// regenerated with GOAMD64=v3 seven of the ten files changed. The golden
// test allows for that; commit such a change only with a change to the
// drawing.
//go:generate go test -run TestPicturesMatchGolden|TestREADMEPictures -update
