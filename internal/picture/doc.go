// Package picture draws what players look at: the cribbage board with its
// pegs, and cards. Everything is drawn by the project from embedded fonts
// (the Go fonts) with golang.org/x/image's antialiasing rasterizer, so a
// picture depends only on its inputs: the same board is the same pixels on
// every machine, which the golden tests pin.
package picture

// The golden pictures under testdata and the pictures README shows
// (docs/*.png) are written again by go generate.
//go:generate go test -run TestPicturesMatchGolden|TestREADMEPictures -update
