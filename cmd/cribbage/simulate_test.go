package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/engine/ai"
)

func TestSimulateCommand(t *testing.T) {
	code, stdout, stderr := runCLI(t, context.Background(), nil, "simulate", "--games", "40", "--seats", "expert,random", "--seed", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r ai.SimReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Games != 40 || r.Levels[0].Level != ai.Expert || r.Levels[0].Wins+r.Levels[1].Wins != 40 {
		t.Errorf("report %+v", r)
	}
	_, again, _ := runCLI(t, context.Background(), nil, "simulate", "--games", "40", "--seats", "expert,random", "--seed", "3", "--json")
	if again != stdout {
		t.Error("the same seed gave another report")
	}
	code, text, _ := runCLI(t, context.Background(), nil, "simulate", "--games", "10", "--seats", "easy,greedy")
	if code != 0 || !strings.Contains(text, "win rate") || !strings.Contains(text, "greedy") {
		t.Errorf("text report: %s", text)
	}
	for _, bad := range [][]string{{"--seats", "expert"}, {"--seats", "expert,wizard"}, {"--games", "0"}, {"--points", "100"}} {
		if code, _, stderr := runCLI(t, context.Background(), nil, append([]string{"simulate"}, bad...)...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}
