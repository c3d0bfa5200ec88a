// Package engine implements the rules of cribbage as a pure, deterministic
// state machine, as specified by the project's RULES.md.
//
// A game is plain data (State). Applying an Action by a seat to a State
// yields the next State and the Events that happened, or a typed error that
// leaves the input untouched:
//
//	next, events, err := state.Apply(engine.Action{Kind: engine.ActPlay, Seat: 1, Card: card})
//
// Randomness is an input: every hand is dealt from a 32-byte seed carried by
// the Deal action, so a game replays exactly from its seeds and actions. The
// package does no I/O, reads no clock and keeps no mutable global state; its
// only package-level data are immutable lookup tables derived from the rules.
//
// Seats are numbered clockwise from 0, so "the player to the left" of seat s
// is seat s+1 (mod the number of players). In a partnership game seats 0 and
// 2 play against seats 1 and 3 and each pair shares one score.
package engine

// The golden files under testdata (the seed → deck order and the recorded
// games) are what the tests replay; go generate writes them again, so that
// `go generate ./...` rebuilds every generated file. A difference it makes
// is a change to the rules or the shuffle, to be reviewed, not committed
// blindly.
//go:generate go test -run TestShuffleGolden|TestGoldenTranscripts -update
