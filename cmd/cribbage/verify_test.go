package main

import (
	"context"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// TestVerifyDealsWhatTheGameDealt deals a hand in a real game and checks
// `cribbage verify` prints the commitment the deal published and the very
// cards each seat was dealt.
func TestVerifyDealsWhatTheGameDealt(t *testing.T) {
	for _, players := range []int{2, 3, 4} {
		g, _, err := engine.New(engine.Options{Players: players, Target: 121}, engine.SeedFromUint64(1))
		if err != nil {
			t.Fatal(err)
		}
		seed := engine.SeedFromUint64(uint64(40 + players))
		g, events, err := g.Apply(engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI(t, context.Background(), nil, "verify", seed.String(), "--players", string(rune('0'+players)))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(stdout, events[0].Commitment) {
			t.Errorf("%d players: the output does not show the deal's commitment %s:\n%s", players, events[0].Commitment, stdout)
		}
		for i := range players {
			seat := (g.Dealer + 1 + i) % players
			if want := engine.DisplayCards(g.Hands[seat].Cards()); !strings.Contains(stdout, want) {
				t.Errorf("%d players: seat %d was dealt %s, not in:\n%s", players, seat, want, stdout)
			}
		}
		if !strings.Contains(stdout, "starter              "+g.Starter.Display()) {
			t.Errorf("%d players: starter %s not in:\n%s", players, g.Starter.Display(), stdout)
		}
	}
	for _, bad := range [][]string{{"verify"}, {"verify", "abc"}, {"verify", strings.Repeat("0", 64), "--players", "5"}} {
		if code, _, _ := runCLI(t, context.Background(), nil, bad...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, exitUsage)
		}
	}
}

// TestDailyPrintsTheDaysHand: `cribbage daily DATE` shows the hand the
// bot deals that day, each candidate's seed, and every throw with what it
// gives up; `cribbage verify` deals the chosen seed's hands again, the
// player's among them.
func TestDailyPrintsTheDaysHand(t *testing.T) {
	code, stdout, stderr := runCLI(t, context.Background(), nil, "daily", "2026-03-14")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	d, _ := ai.DailyHand("2026-03-14")
	for _, want := range []string{ai.DailySeed, "candidate 3  seed " + d.Seed.String() + "  chosen", "3 players", engine.DisplayCards(d.Dealt.Cards()), "gives up 0.00"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
	code, stdout, _ = runCLI(t, context.Background(), nil, "verify", d.Seed.String(), "--players", "3")
	if code != 0 || !strings.Contains(stdout, engine.DisplayCards(d.Dealt.Cards())) {
		t.Errorf("verify of the daily seed: %d\n%s", code, stdout)
	}
	if code, _, _ := runCLI(t, context.Background(), nil, "daily", "14/03/2026"); code != exitUsage {
		t.Errorf("a date that is not one: exit %d", code)
	}
}
