package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// runCLI runs the binary's entry point with the given environment.
func runCLI(t *testing.T, ctx context.Context, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(ctx, &environment{stdout: &out, stderr: &errOut, getenv: envMap(vars)}, args)
	return code, out.String(), errOut.String()
}

func TestServeWithoutTokenExits2(t *testing.T) {
	for _, args := range [][]string{nil, {"serve"}} {
		code, _, stderr := runCLI(t, context.Background(), nil, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 || !strings.Contains(stderr, "DISCORD_TOKEN") {
			t.Errorf("%v: stderr %q, want one line naming DISCORD_TOKEN", args, stderr)
		}
	}
}

func TestServeRefusesBadConfig(t *testing.T) {
	code, _, stderr := runCLI(t, context.Background(), map[string]string{"DISCORD_TOKEN": "t", "LOG_LEVEL": "chatty"})
	if code != exitUsage || !strings.Contains(stderr, "LOG_LEVEL") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, stderr := runCLI(t, context.Background(), nil, "dance")
	if code != exitUsage || !strings.Contains(stderr, "unknown command") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runCLI(t, context.Background(), nil, "help")
	if code != 0 || !strings.Contains(stdout, "serve") {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	code, _, stderr := runCLI(t, context.Background(), nil, "serve", "-h")
	if code != 0 || !strings.Contains(stderr, "DISCORD_TOKEN") {
		t.Errorf("serve -h: exit %d, stderr %q", code, stderr)
	}
}

// TestServeAsksTheConfiguredAPIForTheGateway checks that DISCORD_API_URL
// redirects discordgo's REST calls: the first thing the bot does is ask
// GET /api/v9/gateway/bot how many shards to run (then Open asks for the
// websocket address).
func TestServeAsksTheConfiguredAPIForTheGateway(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		http.Error(w, `{"message":"no gateway here"}`, http.StatusServiceUnavailable)
	}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code, _, stderr := runCLI(t, ctx, map[string]string{
		"DISCORD_TOKEN":   "secret-token-value",
		"DISCORD_API_URL": srv.URL,
		"DATABASE_PATH":   t.TempDir() + "/c.db",
	})
	if code != 1 {
		t.Errorf("exit %d, want 1 (cannot connect)", code)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) == 0 || paths[0] != "GET /api/v9/gateway/bot" {
		t.Fatalf("requests = %v, want GET /api/v9/gateway/bot first", paths)
	}
	if auth != "Bot secret-token-value" {
		t.Errorf("Authorization = %q", auth)
	}
	if strings.Contains(stderr, "secret-token-value") {
		t.Errorf("the token was printed: %q", stderr)
	}
}
