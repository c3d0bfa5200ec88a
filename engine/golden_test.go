package engine

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestShuffleGolden pins seed → deck order: a change here would make every
// stored game replay differently.
func TestShuffleGolden(t *testing.T) {
	var b strings.Builder
	for _, n := range []uint64{0, 1, 2, 1 << 40} {
		deck := Shuffle(SeedFromUint64(n))
		fmt.Fprintf(&b, "%d: %s\n", n, FormatCards(deck[:]))
	}
	var seed Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	deck := Shuffle(seed)
	fmt.Fprintf(&b, "00..1f: %s\n", FormatCards(deck[:]))
	golden(t, "testdata/shuffle.golden", b.String())
}

// golden compares got with the file, or rewrites it under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

// transcriptTables are the games recorded under testdata/games: the first
// legal move every time, from fixed seeds.
var transcriptTables = map[string]Options{
	"two-121":        {Players: 2, Target: 121},
	"two-61":         {Players: 2, Target: 61},
	"three":          {Players: 3, Target: 121},
	"four":           {Players: 4, Target: 121},
	"partners":       {Players: 4, Partners: true, Target: 121},
	"manual-muggins": {Players: 2, Target: 121, ManualCounting: true, Muggins: true},
}

// TestGoldenTranscripts replays each recorded game (its options, cut seed
// and actions) and compares every event with the transcript. Under -update
// it records the games anew.
func TestGoldenTranscripts(t *testing.T) {
	for name, opts := range transcriptTables {
		t.Run(name, func(t *testing.T) {
			gamePath := filepath.Join("testdata", "games", name+".game")
			if *update {
				recordGame(t, gamePath, opts)
			}
			got := replayGame(t, gamePath)
			golden(t, filepath.Join("testdata", "games", name+".golden"), got)
		})
	}
}

// recordGame plays a game with firstLegal and writes its options and actions.
func recordGame(t *testing.T, path string, opts Options) {
	g := mustNew(t, opts, 11)
	var b strings.Builder
	fmt.Fprintf(&b, "options players=%d partners=%v target=%d manual=%v muggins=%v\ncut 11\n",
		opts.Players, opts.Partners, opts.Target, opts.ManualCounting, opts.Muggins)
	next := seedCounter(1100)
	for g.Phase != PhaseOver {
		a := firstLegal(g, next)
		b.WriteString(a.String() + "\n")
		var err error
		if g, _, err = g.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replayGame reads a recorded game and returns its transcript: each action
// followed by the events it caused.
func replayGame(t *testing.T, path string) string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var opts Options
	var out strings.Builder
	var g *State
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "options "):
			_, err = fmt.Sscanf(line, "options players=%d partners=%t target=%d manual=%t muggins=%t",
				&opts.Players, &opts.Partners, &opts.Target, &opts.ManualCounting, &opts.Muggins)
		case strings.HasPrefix(line, "cut "):
			var n uint64
			fmt.Sscanf(line, "cut %d", &n)
			var events []Event
			g, events, err = New(opts, SeedFromUint64(n))
			writeEvents(&out, line, events)
		default:
			var a Action
			if a, err = ParseAction(line); err == nil {
				var events []Event
				g, events, err = g.Apply(a)
				writeEvents(&out, line, events)
			}
		}
		if err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
	}
	if g == nil || g.Phase != PhaseOver {
		t.Fatalf("%s: the game did not end", path)
	}
	return out.String()
}

func writeEvents(b *strings.Builder, action string, events []Event) {
	b.WriteString("> " + action + "\n")
	for _, e := range events {
		b.WriteString("  " + e.String() + "\n")
	}
}
