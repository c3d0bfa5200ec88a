//go:build race

package main

// raceDetector is whether the tests run with the race detector, which
// makes every game many times the work: TestMain then runs no more tests
// at once than there are cores.
const raceDetector = true
