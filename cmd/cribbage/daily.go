package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// runDaily prints a date's daily hand as the bot derives it from the
// published seed: every candidate looked at and why it was passed over or
// chosen, the hand, and the coach's value of every throw. With `cribbage
// verify SEED` anyone can deal the chosen candidate again.
func runDaily(_ context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("daily", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cribbage daily [DATE]\n\nDATE is a UTC date written 2006-01-02; today's by default.")
	}
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	date := time.Now().UTC().Format(time.DateOnly)
	switch len(rest) {
	case 0:
	case 1:
		date = rest[0]
	default:
		fs.Usage()
		return exitUsage
	}
	d, err := ai.DailyHand(date)
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage daily: %v\n", err)
		return exitUsage
	}
	out := env.stdout
	fmt.Fprintf(out, "daily hand of %s, from the published seed %s\n", date, ai.DailySeed)
	for a := range d.Attempt + 1 {
		c, _ := ai.DailyCandidate(date, a)
		verdict := "not worth thinking about"
		if ok, why := c.WorthThinking(); ok {
			verdict = "chosen: " + why
		}
		fmt.Fprintf(out, "  candidate %d  seed %s  %s\n", a, c.Seed, verdict)
	}
	fmt.Fprintf(out, "%d players, 121 points; the player is seat 0, seat %d deals; scores %v\n", d.Options.Players, d.Dealer, d.Scores)
	n := d.Options.Players
	place := engine.Deal(d.Seed, n).Seats()[(0-d.Dealer-1+2*n)%n]
	fmt.Fprintf(out, "the player holds %s: \"%s\" in cribbage verify %s --players %d\n",
		engine.DisplayCards(d.Dealt.Cards()), place, d.Seed, n)
	fmt.Fprintln(out, "every throw, as the coach values it (hand, crib for or against, play, total):")
	for _, s := range d.Splits {
		_, gave, _ := d.Judge(engine.SetOf(s.Throw...))
		fmt.Fprintf(out, "  throw %-8s keep %-14s %6.2f %6.2f %6.2f = %6.2f  gives up %.2f\n", engine.DisplayCards(s.Throw), engine.DisplayCards(s.Keep),
			s.Hand, map[bool]float64{true: 1, false: -1}[s.OwnCrib]*s.Crib, s.Play, s.Total, gave)
	}
	return 0
}
