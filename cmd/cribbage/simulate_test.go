package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/engine/ai"
)

func TestSimulateCommand(t *testing.T) {
	t.Parallel()
	// The games are the test's whole cost (the expert's search, 600 games
	// for a run long enough to show progress): -short plays fewer expert
	// games and the long run to 61, and checks the same.
	games, long := 40, []string{}
	if testing.Short() {
		games, long = 10, []string{"--points", "61"}
	}
	n := strconv.Itoa(games)
	code, stdout, stderr := runCLI(t, context.Background(), nil, "simulate", "--games", n, "--seats", "expert,random", "--seed", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r ai.SimReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Games != games || r.Levels[0].Level != ai.Expert || r.Levels[0].Wins+r.Levels[1].Wins != games {
		t.Errorf("report %+v", r)
	}
	_, again, _ := runCLI(t, context.Background(), nil, "simulate", "--games", n, "--seats", "expert,random", "--seed", "3", "--json")
	if again != stdout {
		t.Error("the same seed gave another report")
	}
	code, text, _ := runCLI(t, context.Background(), nil, "simulate", "--games", "10", "--seats", "easy,greedy")
	if code != 0 || !strings.Contains(text, "win rate") || !strings.Contains(text, "greedy") {
		t.Errorf("text report: %s", text)
	}
	// Three seats, and partners; a long run shows its progress on
	// stderr and keeps stdout for the report.
	code, out, progress := runCLI(t, context.Background(), nil, append([]string{"simulate", "--games", "600", "--seats", "greedy,random,random", "--json"}, long...)...)
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Players != 3 || len(r.Levels) != 2 || r.Levels[1].Seats != 2 {
		t.Errorf("three seats: exit %d, %s", code, out)
	}
	if !strings.Contains(progress, "100% 600/600 games") || strings.Contains(out, "%") {
		t.Errorf("progress: stderr %q", progress)
	}
	code, out, _ = runCLI(t, context.Background(), nil, "simulate", "--games", "8", "--seats", "expert,random,expert,random", "--partners", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.Partners || r.Levels[0].FairShare != 0.5 {
		t.Errorf("partners: exit %d, %s", code, out)
	}
	for _, bad := range [][]string{{"--seats", "expert"}, {"--seats", "expert,wizard"}, {"--games", "0"}, {"--points", "100"},
		{"--seats", "expert,easy,easy,easy,easy"}, {"--seats", "expert,easy,easy", "--partners"}} {
		if code, _, stderr := runCLI(t, context.Background(), nil, append([]string{"simulate"}, bad...)...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}
