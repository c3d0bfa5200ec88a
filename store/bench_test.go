package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
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

// seedNumbers writes the numbers of n finished two-player games among
// players people, straight into the tables, the way recordNumbers leaves
// them: two game_numbers rows a game and nine deals a player, reviewed
// but for the last game's. user-0 plays every game when regular is set.
func seedNumbers(b *testing.B, s *Store, n, players int, regular bool) {
	ctx := context.Background()
	err := s.inTx(ctx, func(tx *txn) error {
		for i := 1; i <= n; i++ {
			if _, err := tx.exec(ctx, `INSERT INTO tables (id, guild_id, channel_id, host_id, players, target, status, version, created_at, last_action_at, finished_at)
				VALUES (?, 'g', 'c', 'h', 2, 121, 'finished', 100, ?, ?, ?)`, i, i, i, int64(i)*60000); err != nil {
				return err
			}
			for seat := 0; seat < 2; seat++ {
				user := fmt.Sprintf("user-%d", (i*7+seat*13)%players)
				if regular {
					user = fmt.Sprintf("user-%d", (1+i*7%199)*seat) // user-0 against the others
				}
				if _, err := tx.exec(ctx, `INSERT INTO game_numbers (table_id, seat, guild_id, user_id, finished_at, won,
					skunks_given, double_skunks_given, skunks_taken, double_skunks_taken,
					dealer_deals, dealer_pegging, dealer_hand, dealer_crib, dealer_throws, dealer_given_up,
					pone_deals, pone_pegging, pone_hand, pone_throws, pone_given_up)
					VALUES (?, ?, 'g', ?, ?, ?, 0, 0, 0, 0, 4, 14, 32, 19, 5, 4.5, 5, 10, 41, 5, 3.25)`,
					i, seat, user, int64(i)*60000, (i+seat)%2); err != nil {
					return err
				}
				for hand := 1; hand <= 9; hand++ {
					if _, err := tx.exec(ctx, `INSERT INTO deals (table_id, hand_no, seat, guild_id, user_id, players, dealer_seat, complete,
						dealt, thrown, starter, crib, pegging, hand_points, crib_points, best, best_crib, reviewed, given_up, finished_at)
						VALUES (?, ?, ?, 'g', ?, 2, ?, 1, 63, 3, 20, 15, 2, ?, 4, ?, 0, ?, 0.5, ?)`,
						i, hand, seat, user, hand%2, (i*hand)%25, (i*hand)%25, boolInt(i < n), int64(i)*60000); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPlayerNumbers answers a player's numbers in a server with
// 10,000 finished games among 200 players: an ordinary player of about a
// hundred of them, and a regular who played every one (target: under 20
// ms, as the leaderboard's).
func BenchmarkPlayerNumbers(b *testing.B) {
	for _, bc := range []struct {
		name    string
		regular bool
		user    string
		games   int
	}{{"player of 100", false, "user-7", 0}, {"player of 10000", true, "user-0", 10000}} {
		b.Run(bc.name, func(b *testing.B) {
			s, _ := MustOpen(b)
			seedNumbers(b, s, 10000, 200, bc.regular)
			ctx := context.Background()
			since := fromMillis(5000 * 60000)
			for b.Loop() {
				n, err := s.PlayerNumbers(ctx, "g", bc.user, since)
				if err != nil || n.All.Games == 0 || len(n.Best) != 3 || len(n.Trend) == 0 || (bc.games != 0 && n.All.Games != bc.games) {
					b.Fatalf("%d games, %d best, %v", n.All.Games, len(n.Best), err)
				}
			}
		})
	}
}

// seedPlayedGames writes n whole two-player games, played to 121 by the
// engine (each player throwing its first two cards and laying its first
// legal card), with their logs, tables, seats and records, straight into
// the store as the moves that played them would have left them.
func seedPlayedGames(b *testing.B, s *Store, n int) {
	ctx := context.Background()
	err := s.inTx(ctx, func(tx *txn) error {
		for i := 1; i <= n; i++ {
			seed := engine.SeedFromUint64(uint64(i))
			tb := &cribbage.Table{ID: int64(i), GuildID: "g", ChannelID: "c", HostID: "a", Options: engine.Options{Players: 2, Target: 121},
				Status: cribbage.StatusFinished, Seats: []cribbage.Seat{{UserID: "a", Name: "A"}, {UserID: fmt.Sprint("u", i%50), Name: "B"}}, CutSeed: &seed}
			g, _, err := engine.New(tb.Options, seed)
			if err != nil {
				return err
			}
			var log []cribbage.LoggedAction
			for deal := uint64(i) << 8; g.Phase != engine.PhaseOver; {
				a := nextAction(g, engine.SeedFromUint64(deal))
				deal++
				if g, _, err = g.Apply(a); err != nil {
					return err
				}
				log = append(log, cribbage.LoggedAction{Action: a})
			}
			tb.State, tb.FinishedAt, tb.LastActionAt, tb.CreatedAt = g, fromMillis(int64(i)*60000), fromMillis(int64(i)*60000), fromMillis(int64(i)*60000)
			row, err := encodeTable(tb)
			if err != nil {
				return err
			}
			if _, err := tx.exec(ctx, `INSERT INTO tables (id, guild_id, channel_id, host_id, players, target, status, version, created_at, last_action_at, finished_at, cut_seed, state)
				VALUES (?, 'g', 'c', 'a', 2, 121, 'finished', ?, ?, ?, ?, ?, ?)`, i, len(log), i, i, int64(i)*60000, row.seed, row.state); err != nil {
				return err
			}
			if err := (&Store{}).saveSeats(ctx, tx, tb); err != nil {
				return err
			}
			for v, la := range log {
				raw, _ := json.Marshal(la.Action)
				if _, err := tx.exec(ctx, `INSERT INTO actions (table_id, version, seq, user_id, action, created_at) VALUES (?, ?, 0, '', ?, ?)`, i, v+1, string(raw), i); err != nil {
					return err
				}
			}
			if err := recordResult(ctx, tx, tb); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAccountHistory is the migration that brings numbers in, on a
// store of 1,000 whole games: each game's log played again, its numbers
// and milestones written (a server of 10,000 takes ten times as long,
// once, as the bot starts).
func BenchmarkAccountHistory(b *testing.B) {
	s, _ := MustOpen(b)
	seedPlayedGames(b, s, 1000)
	ctx := context.Background()
	for b.Loop() {
		mustWrite(b, s, `DELETE FROM game_numbers`, `DELETE FROM deals`, `DELETE FROM milestones`)
		if err := s.inTx(ctx, func(tx *txn) error { return accountHistory(ctx, tx) }); err != nil {
			b.Fatal(err)
		}
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM game_numbers`).Scan(&n); err != nil || n != 2000 {
		b.Fatalf("%d game rows, %v", n, err)
	}
}

// BenchmarkMovesWithWhatTheyShow measures a move at many tables at once
// as the live surface follows it: the move saved, then what the table
// message and the two hand views were made to show recorded (RecordShown,
// RecordHandViewShown). It reports the commits a move took; -benchtime
// with a fixed count and the process's CPU beside it say what they cost.
func BenchmarkMovesWithWhatTheyShow(b *testing.B) {
	s, _ := MustOpen(b)
	d, _ := s.db.d.(*sqlite)
	ctx := context.Background()
	const tables = 64
	var ids [tables]int64
	for i := range ids {
		ids[i] = startGame(b, s, newLobby("g", "a", "b")).ID
		for seat := range 2 {
			tok := cribbage.MessageToken{Token: fmt.Sprint("tok-", i, "-", seat), MessageID: fmt.Sprint("view-", i, "-", seat)}
			if err := s.RecordHandView(ctx, ids[i], cribbage.HandView{Seat: seat, Token: tok, Lang: "en"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	var next atomic.Int64
	var batches int64
	if d != nil {
		batches = d.batches.Load()
	}
	b.SetParallelism(tables / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		k := int(next.Add(1)-1) % tables
		id, n := ids[k], 0
		for pb.Next() {
			n++
			t, err := step(b, s, id, fmt.Sprintf("i-%d-%d", k, n))
			if err != nil {
				b.Fatal(err)
			}
			if t.Status != cribbage.StatusPlaying {
				t = startGame(b, s, newLobby("g", "a", "b"))
				id = t.ID
			}
			if err := s.RecordShown(ctx, id, fmt.Sprint("sum-", t.Version)); err != nil {
				b.Fatal(err)
			}
			for seat := range 2 {
				tok := cribbage.MessageToken{Token: fmt.Sprint("tok-", k, "-", seat)}
				if err := s.RecordHandViewShown(ctx, id, seat, tok, t.Version, fmt.Sprint("sum-", t.Version)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	if d != nil {
		b.ReportMetric(float64(d.batches.Load()-batches)/float64(b.N), "commits/op")
	}
}
