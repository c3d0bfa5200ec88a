package main

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain lets more whole-game tests run at once than there are cores,
// unless -parallel says otherwise or the race detector is on. Such a test spends most of its time
// waiting, not computing: on Discord's rate limits (the fake's, as
// strict as Discord's), on the bot's own pacing, and on discordgo, which
// sleeps a second when it closes a gateway connection. The tests that
// measure time, count the process's goroutines, set the environment or
// start processes of their own do not call t.Parallel, so they run alone,
// before the others.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	// Under the race detector a game is computing, not waiting: more at
	// once than the cores only makes each answer late (Discord's 3 s).
	if !set && !raceDetector {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	os.Exit(m.Run())
}

// parallelUnlessRace is t.Parallel, except under the race detector. A
// tournament of computer entrants is many games searched move by move,
// which the detector makes many times the work. They are played after the
// transactions that open them, so no command waits on them for the
// database (TestAnotherTableMovesWhileComputersPlay), but beside other
// tests on a few cores they still crowd out the bot's answers.
func parallelUnlessRace(t *testing.T) {
	if !raceDetector {
		t.Parallel()
	}
}
