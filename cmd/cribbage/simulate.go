package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage/engine/ai"
)

// runSimulate plays computer against computer and prints how each level
// did, with 95% confidence intervals.
func runSimulate(_ context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	games := fs.Int("games", 1000, "how many games (each deal is played twice, seats swapped)")
	seats := fs.String("seats", "expert,easy", "the two levels: easy, expert, greedy or random")
	seed := fs.Uint64("seed", 1, "the run's seed: the same seed plays the same games")
	target := fs.Int("points", 121, "game length: 121 or 61")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cribbage simulate --games N --seats LEVEL,LEVEL [--seed S] [--points 121|61] [--json]\n\nPlays two-player games between computer levels and reports wins, skunks\nand average points per hand, crib and play with 95% confidence intervals.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	cfg, err := simConfig(*games, *seats, *seed, *target)
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage simulate: %v\n", err)
		return exitUsage
	}
	r := ai.Simulate(cfg)
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(env.stderr, "cribbage simulate: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(env.stdout, "%d games to %d, seed %d, each deal played twice with seats swapped\n\n", r.Games, r.Target, r.Seed)
	fmt.Fprintf(env.stdout, "%-8s %7s %17s %7s %8s %17s %17s %17s\n", "level", "wins", "win rate", "skunks", "doubles", "hand/hand", "crib/crib", "play/hand")
	for _, l := range r.Levels {
		fmt.Fprintf(env.stdout, "%-8s %7d %17s %7d %8d %17s %17s %17s\n", l.Level, l.Wins, l.WinRate, l.Skunks, l.DoubleSkunks, l.HandPoints, l.CribPoints, l.PlayPoints)
	}
	return 0
}

// simConfig checks the flags.
func simConfig(games int, seats string, seed uint64, target int) (ai.SimConfig, error) {
	cfg := ai.SimConfig{Games: games, Seed: seed, Target: target}
	if games < 1 {
		return cfg, errors.New("--games must be at least 1")
	}
	if target != 121 && target != 61 {
		return cfg, errors.New("--points must be 121 or 61")
	}
	parts := strings.Split(seats, ",")
	if len(parts) != 2 {
		return cfg, fmt.Errorf("--seats takes two levels, like expert,easy (got %q)", seats)
	}
	for i, p := range parts {
		l, err := ai.ParseLevel(strings.TrimSpace(p))
		if err != nil {
			return cfg, err
		}
		cfg.Seats[i] = l
	}
	return cfg, nil
}
