package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/cribbage-bot/cribbage/engine"
)

// runVerify deals a hand again from its revealed seed and prints the
// commitment to compare with the one published at the deal.
func runVerify(_ context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	players := fs.Int("players", 2, "how many players the table had: 2, 3 or 4")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cribbage verify [--players N] SEED\n\nSEED is the 64 hex digits a table's thread reveals once a hand is over.\n\nflags:")
		fs.PrintDefaults()
	}
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if len(rest) != 1 || *players < 2 || *players > 4 {
		fs.Usage()
		return exitUsage
	}
	seed, err := engine.ParseSeed(rest[0])
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage verify: %v\n", err)
		return exitUsage
	}
	d := engine.Deal(seed, *players)
	fmt.Fprintf(env.stdout, "seed        %s\ncommitment  %s  (SHA-256 of the seed)\n", seed, seed.Commitment())
	fmt.Fprintf(env.stdout, "dealt at %d players, one card at a time from the dealer's left:\n", *players)
	for i, name := range d.Seats() {
		fmt.Fprintf(env.stdout, "  %-20s %s\n", name, engine.DisplayCards(d.Hands[i].Cards()))
	}
	if d.Crib != 0 {
		fmt.Fprintf(env.stdout, "  %-20s %s\n", "to the crib", engine.DisplayCards(d.Crib.Cards()))
	}
	fmt.Fprintf(env.stdout, "  %-20s %s\n", "starter", d.Starter.Display())
	return 0
}
