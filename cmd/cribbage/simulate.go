package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cribbage-bot/cribbage/engine/ai"
)

// runSimulate plays computer against computer and prints how each level
// did, with 95% confidence intervals. Runs of more than a few hundred
// games show their progress on stderr.
func runSimulate(_ context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	games := fs.Int("games", 1000, "how many games (each deal is played with the levels in every seat)")
	seats := fs.String("seats", "expert,easy", "a level for each seat, two to four of: easy, expert, classic, greedy, random")
	partners := fs.Bool("partners", false, "four seats as two teams: seats 1 & 3 against 2 & 4")
	seed := fs.Uint64("seed", 1, "the run's seed: the same seed plays the same games")
	target := fs.Int("points", 121, "game length: 121 or 61")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: cribbage simulate --games N --seats LEVEL,LEVEL[,LEVEL[,LEVEL]] [--partners] [--seed S] [--points 121|61] [--json]

Plays games between computer levels, a level in each seat, and reports
each level's wins (against the share it would win playing no better than
the others), skunks and average points per hand, crib and play, with 95%
confidence intervals. Each deal is played once for each seat a level can
take, so luck of the cards cancels out.

flags:`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	cfg, err := simConfig(*games, *seats, *partners, *seed, *target)
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage simulate: %v\n", err)
		return exitUsage
	}
	if !*quiet && *games >= progressFrom {
		cfg.Progress = progressBar(env.stderr)
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
	table := fmt.Sprintf("%d players", r.Players)
	if r.Partners {
		table = "partners"
	}
	fmt.Fprintf(env.stdout, "%d games to %d, %s, seed %d, each deal played with the levels in every seat\n\n", r.Games, r.Target, table, r.Seed)
	fmt.Fprintf(env.stdout, "%-8s %5s %7s %17s %6s %7s %8s %17s %17s %17s\n", "level", "seats", "wins", "win rate", "fair", "skunks", "doubles", "hand/hand", "crib/crib", "play/hand")
	for _, l := range r.Levels {
		fmt.Fprintf(env.stdout, "%-8s %5d %7d %17s %6.3f %7d %8d %17s %17s %17s\n", l.Level, l.Seats, l.Wins, l.WinRate, l.FairShare, l.Skunks, l.DoubleSkunks, l.HandPoints, l.CribPoints, l.PlayPoints)
	}
	return 0
}

// progressFrom is the shortest run that shows its progress.
const progressFrom = 500

// progressBar returns a Progress that redraws a bar with the percentage
// done on w whenever the percentage changes, and ends the line at 100%.
func progressBar(w io.Writer) func(done, total int) {
	last := -1
	return func(done, total int) {
		pct := 100 * done / total
		if pct == last {
			return
		}
		last = pct
		const width = 30
		fill := width * done / total
		fmt.Fprintf(w, "\rsimulate [%s%s] %3d%% %d/%d games", strings.Repeat("#", fill), strings.Repeat(".", width-fill), pct, done, total)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

// simConfig checks the flags.
func simConfig(games int, seats string, partners bool, seed uint64, target int) (ai.SimConfig, error) {
	cfg := ai.SimConfig{Games: games, Seed: seed, Target: target, Partners: partners}
	if games < 1 {
		return cfg, errors.New("--games must be at least 1")
	}
	if target != 121 && target != 61 {
		return cfg, errors.New("--points must be 121 or 61")
	}
	parts := strings.Split(seats, ",")
	if len(parts) < 2 || len(parts) > 4 {
		return cfg, fmt.Errorf("--seats takes a level for each of two to four seats, like expert,easy (got %q)", seats)
	}
	if partners && len(parts) != 4 {
		return cfg, errors.New("--partners takes four seats")
	}
	for _, p := range parts {
		l, err := ai.ParseLevel(strings.TrimSpace(p))
		if err != nil {
			return cfg, err
		}
		cfg.Seats = append(cfg.Seats, l)
	}
	return cfg, nil
}
