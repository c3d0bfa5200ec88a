package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// runBoard renders a board from scores, as players see it on the table
// message.
func runBoard(_ context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("board", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	scoresFlag := fs.String("scores", "", "every side's score, comma-separated (required), e.g. 87,102")
	backFlag := fs.String("back", "", "every side's back peg, comma-separated (default: the starting holes)")
	namesFlag := fs.String("names", "", "the sides' names, comma-separated (default: Side 1, Side 2, …)")
	target := fs.Int("target", 121, "the game's target: 121 or 61")
	title := fs.String("title", "", "a line above the board")
	out := fs.String("o", "board.png", "the PNG file to write")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cribbage board --scores 87,102 [--back 80,95] [--names Alice,Bob] [--target 121] [-o board.png]\n\nA side at the target wins; the others are marked if skunked.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	b, err := boardFromFlags(*scoresFlag, *backFlag, *namesFlag, *target, *title)
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage board: %v\n", err)
		return exitUsage
	}
	if err := os.WriteFile(*out, b.PNG(), 0o644); err != nil {
		fmt.Fprintf(env.stderr, "cribbage board: %v\n", err)
		return 1
	}
	fmt.Fprintf(env.stdout, "wrote %s\n", *out)
	return 0
}

// boardFromFlags reads the board's flags: 2 to 4 sides, scores within the
// game, back pegs behind the front ones.
func boardFromFlags(scoresFlag, backFlag, namesFlag string, target int, title string) (picture.Board, error) {
	if target != 121 && target != 61 {
		return picture.Board{}, fmt.Errorf("--target is 121 or 61, not %d", target)
	}
	scores, err := numbers(scoresFlag)
	if err != nil || len(scores) < 2 || len(scores) > 4 {
		return picture.Board{}, fmt.Errorf("--scores needs 2 to 4 scores, comma-separated")
	}
	back := make([]int, len(scores))
	if backFlag != "" {
		if back, err = numbers(backFlag); err != nil || len(back) != len(scores) {
			return picture.Board{}, fmt.Errorf("--back needs one score a side")
		}
	}
	var names []string
	if namesFlag != "" {
		if names = strings.Split(namesFlag, ","); len(names) != len(scores) {
			return picture.Board{}, fmt.Errorf("--names needs one name a side")
		}
	}
	b := picture.Board{Target: target, Title: title}
	winner := -1
	for side, s := range scores {
		switch {
		case s < 0 || s > target:
			return picture.Board{}, fmt.Errorf("a score is from 0 to %d, not %d", target, s)
		case back[side] < 0 || back[side] > s:
			return picture.Board{}, fmt.Errorf("a back peg is behind its front peg: %d is not from 0 to %d", back[side], s)
		case s == target && winner >= 0:
			return picture.Board{}, fmt.Errorf("only one side reaches %d", target)
		case s == target:
			winner = side
		}
		name := fmt.Sprintf("Side %d", side+1)
		if names != nil {
			name = strings.TrimSpace(names[side])
		}
		b.Sides = append(b.Sides, picture.Side{Name: name, Score: s, Back: back[side], Winner: s == target})
	}
	if winner >= 0 {
		for side := range b.Sides {
			if side != winner {
				b.Sides[side].Skunk = engine.SkunkLevel(b.Sides[side].Score, target)
			}
		}
	}
	return b, nil
}

// numbers reads comma-separated integers.
func numbers(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
