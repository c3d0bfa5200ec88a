// Package rating is Glicko-2, the skill rating of Mark Glickman's
// "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf), written
// from the paper and checked against its worked example. It is pure
// arithmetic: no I/O, no clock and no state between calls.
package rating
