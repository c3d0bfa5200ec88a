package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// runHealth asks a URL (the bot's /readyz) and exits 0 if it answers 200:
// a container health check for an image with no shell or curl.
func runHealth(ctx context.Context, env *environment, args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(env.stderr, "usage: cribbage health URL")
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args[0], nil)
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage health: %v\n", err)
		return exitUsage
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage health: %v\n", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(env.stderr, "cribbage health: %s\n", resp.Status)
		return 1
	}
	return 0
}
