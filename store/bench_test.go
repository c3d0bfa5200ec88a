package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// BenchmarkApplyAndCommit measures one action in one transaction: load,
// apply, save, log, queue and record the interaction (target: under 2 ms).
func BenchmarkApplyAndCommit(b *testing.B) {
	s, _ := MustOpen(b)
	tb := startGame(b, s, newLobby("g", "a", "b"))
	i := 0
	for b.Loop() {
		i++
		next, err := step(b, s, tb.ID, fmt.Sprintf("i-%d", i))
		if err != nil {
			b.Fatal(err)
		}
		if next.Status != cribbage.StatusPlaying {
			tb = startGame(b, s, newLobby("g", "a", "b"))
		}
	}
}

// seedFinishedGames writes n finished two-player games among players
// people, straight into the tables, the way recordResult leaves them.
func seedFinishedGames(b *testing.B, s *Store, n, players int, state string) {
	ctx := context.Background()
	err := s.inTx(ctx, func(tx *txn) error {
		for i := 1; i <= n; i++ {
			if _, err := tx.exec(ctx, `INSERT INTO tables (id, guild_id, channel_id, host_id, players, target, status, version, state, created_at, last_action_at, finished_at)
				VALUES (?, 'g', 'c', 'h', 2, 121, 'finished', 100, ?, ?, ?, ?)`, i, state, i, i, i); err != nil {
				return err
			}
			for seat := 0; seat < 2; seat++ {
				user := fmt.Sprintf("user-%d", (i*7+seat*13)%players)
				won := boolInt((i+seat)%2 == 0)
				if _, err := tx.exec(ctx, `INSERT INTO player_results (table_id, guild_id, user_id, name, seat, side, won, games_won,
					skunks_given, double_skunks_given, skunks_taken, double_skunks_taken, score, pegging, hand_points, hands,
					crib_points, cribs, best_hand, twenty_nines, vs_computer, finished_at)
					VALUES (?, 'g', ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, 121, 30, 60, 9, 20, 4, 20, 0, 0, ?)`,
					i, user, user, seat, seat, won, won*(1+i%3), i); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLeaderboard ranks a server with 10,000 finished games among 200
// rated players (target: under 20 ms).
func BenchmarkLeaderboard(b *testing.B) {
	s, _ := MustOpen(b)
	seedFinishedGames(b, s, 10000, 200, "")
	ctx := context.Background()
	// Each player rated, some settled and some provisional.
	mustWrite(b, s, `INSERT INTO ratings (guild_id, season, user_id, r, rd, volatility, games, rated_at)
		SELECT guild_id, 1, user_id, 1400 + COUNT(*) % 200, 60 + COUNT(*) % 100, 0.06, COUNT(*), MAX(finished_at)
		FROM player_results GROUP BY guild_id, user_id`)
	for b.Loop() {
		board, err := s.Leaderboard(ctx, "g", 0, fromMillis(0))
		if err != nil || len(board) != 200 {
			b.Fatalf("%d rows, %v", len(board), err)
		}
	}
}

// BenchmarkOpenAndFindUnfinished opens a database holding 10,000 stored
// games, 100 of them unfinished, and finds those (target: under 1 s).
func BenchmarkOpenAndFindUnfinished(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	g, _, _ := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(1))
	state, _ := json.Marshal(g)
	seedFinishedGames(b, s, 10000, 200, string(state))
	err = s.inTx(context.Background(), func(tx *txn) error {
		if _, err := tx.exec(context.Background(), `UPDATE tables SET status = 'playing' WHERE id % 100 = 0`); err != nil {
			return err
		}
		_, err := tx.exec(context.Background(), `INSERT INTO seats (table_id, seat, user_id, name) SELECT id, 0, 'a', 'a' FROM tables`)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	for b.Loop() {
		s, err := Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		open, err := s.OpenTables(context.Background())
		if err != nil || len(open) != 100 {
			b.Fatalf("%d open, %v", len(open), err)
		}
		s.Close()
	}
}
