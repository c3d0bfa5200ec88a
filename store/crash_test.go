package store

import (
	"bufio"
	"context"
	"fmt"
	"github.com/cribbage-bot/cribbage"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// crashEnv names the database the crash child writes to.
const crashEnv = "CRIBBAGE_CRASH_CHILD_DB"

// TestCrashChild is the child process of TestKillNineLosesNothing: it plays
// actions as fast as it can, printing each committed version, until killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("run by TestKillNineLosesNothing")
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	tb := startGame(t, s, newLobby("g", "a", "b"))
	queued := 0
	for i := 0; ; i++ {
		next, err := step(t, s, tb.ID, "i-"+strconv.Itoa(i))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		pending, _ := s.PendingOutbox(context.Background(), 1e6)
		queued = len(pending)
		fmt.Printf("committed %d %d %d\n", tb.ID, next.Version, queued)
		if next.Status != cribbage.StatusPlaying {
			// Keep writing: start another game.
			tb = startGame(t, s, newLobby("g", "a", "b"))
		}
	}
}

// TestKillNineLosesNothing kills a writing child process with SIGKILL at
// several moments and checks that every action it reported committed is in
// the reopened database, with its announcements still pending.
func TestKillNineLosesNothing(t *testing.T) {
	skipOnPostgres(t, "a killed process and its database file; PostgreSQL's durability is the server's")
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, after := range []int{3, 17, 60} {
		t.Run(strconv.Itoa(after), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "crash.db")
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), crashEnv+"="+path)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			var lastTable, lastVersion int64
			var lastQueued int
			for n := 0; n < after && sc.Scan(); {
				f := strings.Fields(sc.Text())
				if len(f) == 4 && f[0] == "committed" {
					lastTable, _ = strconv.ParseInt(f[1], 10, 64)
					lastVersion, _ = strconv.ParseInt(f[2], 10, 64)
					lastQueued, _ = strconv.Atoi(f[3])
					n++
				} else if len(f) > 0 && f[0] == "error" {
					t.Fatal(sc.Text())
				}
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			if lastVersion == 0 {
				t.Fatal("the child committed nothing")
			}

			s, err := Open(context.Background(), path)
			if err != nil {
				t.Fatalf("reopen after kill -9: %v", err)
			}
			defer s.Close()
			tb, err := s.Table(context.Background(), lastTable)
			if err != nil {
				t.Fatal(err)
			}
			if tb.Version < lastVersion {
				t.Errorf("version %d after the kill, but %d was committed", tb.Version, lastVersion)
			}
			if err := tb.State.Validate(); err != nil {
				t.Error(err)
			}
			pending, _ := s.PendingOutbox(context.Background(), 1e6)
			if len(pending) < lastQueued {
				t.Errorf("%d announcements pending, %d were committed", len(pending), lastQueued)
			}
			open, _ := s.OpenTables(context.Background())
			if len(open) == 0 {
				t.Error("the unfinished game was not found")
			}
		})
	}
}
