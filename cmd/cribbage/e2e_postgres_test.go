package main

import (
	"context"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/pgtest"
)

// postgresSchema makes a fresh schema on the test server and returns a
// URL that works in it; the test is skipped without a server.
func postgresSchema(t testing.TB) string {
	t.Helper()
	if !pgtest.Available() {
		t.Skip("games on PostgreSQL: " + pgtest.HowTo)
	}
	return pgtest.Schema(t)
}

// TestWholeGamesOnPostgres plays whole games at 2 and 4 players through the
// fake Discord with the bot on PostgreSQL, restarting it once mid-game;
// the game is recorded and rated.
func TestWholeGamesOnPostgres(t *testing.T) {
	t.Parallel()
	for _, tc := range twoAndFour {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarnessOn(t, postgresSchema(t), 20*time.Millisecond)
			id, msg := h.seat(tc)
			people := usersOf(tc.people...)
			for h.table(id).State.HandNo < 2 {
				h.step(id, msg, people)
			}
			h.stopBot()
			h.startBot()
			h.playToEnd(id, msg, people)
			h.drain()
			final := h.table(id)
			if final.Status != cribbage.StatusFinished {
				t.Fatalf("status %s", final.Status)
			}
			if n := h.tableMessages(id); n != 1 {
				t.Errorf("%d table messages, want 1", n)
			}
			h.verifyDeals(id)
			st, err := h.store.PlayerStats(context.Background(), testGuild, tc.people[0].ID)
			if err != nil || st.People.Games != 1 || st.Rating.Games != 1 || st.Rating.R == 1500 {
				t.Errorf("stats after the game: %+v, %v; want one game, rated", st, err)
			}
		})
	}
}
