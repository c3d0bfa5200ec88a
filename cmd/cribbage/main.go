// Command cribbage runs the cribbage Discord bot and its companion tools.
//
//	cribbage [serve]     run the bot (the default)
//	cribbage score       count a hand and its starter
//	cribbage board       draw a board from scores, as players see it
//	cribbage verify      deal a hand again from its revealed seed
//	cribbage daily       a date's daily hand, from the published seed
//	cribbage simulate    play computer levels against each other
//	cribbage help        list the commands
//
// Each command takes -h for its own help.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/joho/godotenv"
)

// exitUsage is the status for a usage or configuration error.
const exitUsage = 2

// command is one subcommand of the binary.
type command struct {
	summary string
	run     func(ctx context.Context, env *environment, args []string) int
}

// environment is what a command may touch of the process: its output
// streams and its configuration. Tests build one without a real process.
type environment struct {
	stdout, stderr io.Writer
	getenv         func(string) string
}

// commands lists the subcommands by name.
var commands = map[string]command{
	"serve":    {"run the Discord bot (the default)", runServe},
	"board":    {"draw a board: cribbage board --scores 87,102 -o board.png", runBoard},
	"verify":   {"deal a hand again from its revealed seed: cribbage verify SEED", runVerify},
	"daily":    {"a date's daily hand, from the published seed: cribbage daily 2026-03-14", runDaily},
	"health":   {"check a running bot: cribbage health http://127.0.0.1:9090/readyz", runHealth},
	"score":    {"count a hand: cribbage score 5H 5D 5C JS --starter 5S", runScore},
	"simulate": {"play computer against computer: cribbage simulate --games N --seats expert,easy", runSimulate},
}

func main() {
	// A missing .env is normal (Docker passes the environment directly);
	// variables already set are never overridden by godotenv.
	if err := godotenv.Load(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "cribbage: reading .env: %v\n", err)
		os.Exit(exitUsage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, &environment{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}, os.Args[1:])
	stop()
	os.Exit(code)
}

// run dispatches to the subcommand named by args[0], serving by default.
func run(ctx context.Context, env *environment, args []string) int {
	name := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		printHelp(env.stdout)
		return 0
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(env.stderr, "cribbage: unknown command %q\n", name)
		printHelp(env.stderr)
		return exitUsage
	}
	return cmd.run(ctx, env, args)
}

// printHelp lists the subcommands.
func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: cribbage [command] [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "\nRun 'cribbage COMMAND -h' for a command's flags.")
}
