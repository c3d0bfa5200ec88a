package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage/engine"
)

// scoreOutput is the JSON form of `cribbage score --json`.
type scoreOutput struct {
	Hand    []engine.Card      `json:"hand"`
	Starter engine.Card        `json:"starter"`
	Crib    bool               `json:"crib"`
	Total   int                `json:"total"`
	Spoken  string             `json:"spoken"`
	Items   []engine.ScoreItem `json:"items"`
}

// runScore counts a hand the way players count aloud.
func runScore(_ context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	crib := fs.Bool("crib", false, "count as the crib (a flush needs all five cards)")
	asJSON := fs.Bool("json", false, "print the breakdown as JSON")
	starterFlag := fs.String("starter", "", "the starter card (required)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cribbage score [--crib] [--json] CARD CARD CARD CARD --starter CARD\n\nCards are a rank (A 2-10 T J Q K) and a suit (S H D C or ♠ ♥ ♦ ♣), e.g. 5H 10D jc.\n\nflags:")
		fs.PrintDefaults()
	}
	// Flags may come after the cards, as in the usage line.
	cards, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	hand, starter, err := readHand(cards, *starterFlag)
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage score: %v\n", err)
		return exitUsage
	}
	b := engine.ScoreShow(hand, starter, *crib)
	if *asJSON {
		out := scoreOutput{Hand: hand, Starter: starter, Crib: *crib, Total: b.Total, Spoken: b.Spoken(), Items: b.Items}
		if out.Items == nil {
			out.Items = []engine.ScoreItem{}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return 0
	}
	fmt.Fprintf(env.stdout, "%s | %s\n", engine.DisplayCards(hand), starter.Display())
	for _, it := range b.Items {
		fmt.Fprintf(env.stdout, "  %-10s %-18s %2d\n", it.Kind, engine.DisplayCards(it.Cards), it.Points)
	}
	fmt.Fprintf(env.stdout, "%s\ntotal %d\n", b.Spoken(), b.Total)
	return 0
}

// parseInterleaved parses flags that may stand before, between or after
// the positional arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// readHand parses four distinct hand cards and a starter not among them.
func readHand(args []string, starterText string) ([]engine.Card, engine.Card, error) {
	if starterText == "" {
		return nil, engine.NoCard, errors.New("no starter: add --starter CARD")
	}
	all, err := engine.ParseCards(strings.Join(append(append([]string{}, args...), starterText), " "))
	if err != nil {
		return nil, engine.NoCard, err
	}
	if len(all) != 5 {
		return nil, engine.NoCard, fmt.Errorf("a hand is 4 cards, got %d", len(args))
	}
	return all[:4], all[4], nil
}
