package servicetest

import (
	"cmp"
	"errors"
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/rating"
)

// The records: the leaderboard, stats, head-to-head and seasons, read
// from games finished through Update, never set by hand. The figures are
// worked out in the comments from the domain's policy (Table.Results,
// Table.Rated, RatingBouts) and the rating package's arithmetic, which
// both implementations apply.

// cfg is the rating system of the store and the double: the paper's.
var cfg rating.Config

// seated returns a lobby in guild g with users seated in order, "cpu" a
// computer player.
func seated(opts engine.Options, users ...string) *cribbage.Table {
	t := &cribbage.Table{GuildID: "g", ChannelID: "c1", HostID: "host", Options: opts, Status: cribbage.StatusLobby}
	for _, u := range users {
		if u == "cpu" {
			t.Seats = append(t.Seats, cribbage.Seat{Computer: "expert", Name: "Computer"})
			continue
		}
		t.Seats = append(t.Seats, cribbage.Seat{UserID: u, Name: "name-" + u})
	}
	return t
}

// played is a game's end worked out by hand: the winning side, each
// side's score and skunk line, what the win is worth, and seats' tallies.
type played struct {
	winner  int
	scores  []int
	skunks  []int
	games   int
	tallies map[int]engine.Tally
}

// finishAs plays a game at a new table of tb to the end given, in one
// Update a minute after the last, and returns the finished table.
func (h *harness) finishAs(t *testing.T, tb *cribbage.Table, p played) *cribbage.Table {
	t.Helper()
	h.advance(time.Minute)
	id := h.startGame(t, tb).ID
	done, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 0})
		if err != nil {
			return nil, err
		}
		g.Scores = p.scores
		g.Result = &engine.Result{Reason: engine.ReasonTarget, Winner: p.winner, Loser: -1, Scores: p.scores, Skunks: p.skunks, Games: p.games}
		for seat, tl := range p.tallies {
			g.Tally[seat] = tl
		}
		cur.SetGame(g, h.now())
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return done
}

// resignAt has seat resign a game at a new table of tb, a minute after
// the last: at the cut for deal, or once every player has thrown to the
// crib (throw).
func (h *harness) resignAt(t *testing.T, tb *cribbage.Table, seat int, throw bool) *cribbage.Table {
	t.Helper()
	h.advance(time.Minute)
	id := h.startGame(t, tb).ID
	done, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g := cur.State
		for throw && (g.Phase == engine.PhaseDeal || g.Phase == engine.PhaseDiscard) {
			var err error
			if g, _, err = g.Apply(nextAction(g)); err != nil {
				return nil, err
			}
		}
		g, _, err := g.Apply(engine.Action{Kind: engine.ActResign, Seat: seat})
		if err != nil {
			return nil, err
		}
		cur.SetGame(g, h.now())
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return done
}

// sameRating reports a shown rating other than the one worked out.
func sameRating(t *testing.T, who string, got cribbage.Rating, want rating.Rating, games int) {
	t.Helper()
	w := cribbage.Rating{R: want.R, RD: want.RD, Games: games, Provisional: want.Provisional(rating.ProvisionalRD)}
	if math.Abs(got.R-w.R) > 1e-6 || math.Abs(got.RD-w.RD) > 1e-6 || got.Games != w.Games || got.Provisional != w.Provisional {
		t.Errorf("%s's rating: %+v, want %+v", who, got, w)
	}
}

var (
	two   = engine.Options{Players: 2, Target: 121}
	three = engine.Options{Players: 3, Target: 121}
)

// testRecordsFromFinishedGames plays four games and reads every record
// back:
//
//	g1  alice beats bob 121–85, a skunk (2 games); tallies for both
//	g2  carol wins a three-hander: alice 88 (a skunk), bob 55 (a double)
//	g3  alice beats the computer 121–100: her computer record, unrated
//	g4  bob resigns to alice at the cut: her win, his loss, unrated
//
// Against people, alice has 3 games, 2 wins (g1, g4) and 1 loss; 3 games
// won (2 + 1); 1 skunk given, 1 taken. Bob: 3 games, 3 losses, 2 skunks
// taken. Carol: 1 win worth 4 games, 2 skunks given (one double). The
// ratings count g1 and g2 only: alice and bob rating.Game from newcomers,
// then each losing to carol, who beat both in one period.
func testRecordsFromFinishedGames(t *testing.T, h *harness) {
	g1 := h.finishAs(t, seated(two, "alice", "bob"), played{winner: 0, scores: []int{121, 85}, skunks: []int{0, 1}, games: 2,
		tallies: map[int]engine.Tally{0: {Pegging: 20, HandPoints: 50, Hands: 5, CribPoints: 12, Cribs: 2, BestHand: 16}, 1: {Pegging: 10, HandPoints: 40, Hands: 5, CribPoints: 9, Cribs: 3, BestHand: 12}}})
	g2 := h.finishAs(t, seated(three, "alice", "bob", "carol"), played{winner: 2, scores: []int{88, 55, 121}, skunks: []int{1, 2, 0}, games: 4,
		tallies: map[int]engine.Tally{0: {Pegging: 5, HandPoints: 30, Hands: 4, BestHand: 20}}})
	h.finishAs(t, seated(two, "alice", "cpu"), played{winner: 0, scores: []int{121, 100}, skunks: []int{0, 0}, games: 1,
		tallies: map[int]engine.Tally{0: {Pegging: 7, HandPoints: 45, Hands: 6, CribPoints: 8, Cribs: 3, BestHand: 29, TwentyNine: 1}}})
	g4 := h.resignAt(t, seated(two, "alice", "bob"), 1, false)

	n := cfg.Newcomer()
	a1, b1 := rating.Game(n, n, rating.Win, cfg)
	ratings := map[string]rating.Rating{
		"alice": rating.Update(a1, []rating.Result{{Opponent: n, Score: rating.Loss}}, cfg),
		"bob":   rating.Update(b1, []rating.Result{{Opponent: n, Score: rating.Loss}}, cfg),
		"carol": rating.Update(n, []rating.Result{{Opponent: a1, Score: rating.Win}, {Opponent: b1, Score: rating.Win}}, cfg),
	}
	rated := map[string]int{"alice": 2, "bob": 2, "carol": 1}

	t.Run("Leaderboard", func(t *testing.T) {
		want := map[string]cribbage.Standing{
			"alice": {Games: 3, Wins: 2, Losses: 1, GamesWon: 3, SkunksGiven: 1, SkunksTaken: 1},
			"bob":   {Games: 3, Wins: 0, Losses: 3, GamesWon: 0, SkunksGiven: 0, SkunksTaken: 2},
			"carol": {Games: 1, Wins: 1, Losses: 0, GamesWon: 4, SkunksGiven: 2, SkunksTaken: 0},
		}
		board, err := h.s.Leaderboard(ctx, "g", 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		checkBoard(t, board, want, ratings, rated)
		// Since g2: g2 and g4 count in the lines; the ratings are the
		// season's.
		since, err := h.s.Leaderboard(ctx, "g", 1, g2.FinishedAt)
		if err != nil {
			t.Fatal(err)
		}
		checkBoard(t, since, map[string]cribbage.Standing{
			"alice": {Games: 2, Wins: 1, Losses: 1, GamesWon: 1, SkunksTaken: 1},
			"bob":   {Games: 2, Wins: 0, Losses: 2, SkunksTaken: 1},
			"carol": {Games: 1, Wins: 1, GamesWon: 4, SkunksGiven: 2},
		}, ratings, rated)
		if board, err := h.s.Leaderboard(ctx, "other", 0, time.Time{}); err != nil || len(board) != 0 {
			t.Errorf("another server's board: %+v, %v", board, err)
		}
	})

	t.Run("PlayerStats", func(t *testing.T) {
		st, err := h.s.PlayerStats(ctx, "g", "alice")
		if err != nil {
			t.Fatal(err)
		}
		people := cribbage.Record{Games: 3, Wins: 2, Losses: 1, GamesWon: 3, SkunksGiven: 1, SkunksTaken: 1,
			Pegging: 25, HandPoints: 80, Hands: 9, CribPoints: 12, Cribs: 2, BestHand: 20}
		computer := cribbage.Record{Games: 1, Wins: 1, GamesWon: 1, Pegging: 7, HandPoints: 45, Hands: 6, CribPoints: 8, Cribs: 3, BestHand: 29, TwentyNines: 1}
		if st.People != people || st.Computer != computer {
			t.Errorf("alice's records:\n people %+v\n   want %+v\n computer %+v\n     want %+v", st.People, people, st.Computer, computer)
		}
		if st.Name != "name-alice" || st.Streak != 1 || !st.LastPlayed.Equal(g4.FinishedAt) || st.Season != 1 || st.Matches != (cribbage.MatchRecord{}) {
			t.Errorf("alice's stats: name %q, streak %d, last played %v (want %v), season %d, matches %+v",
				st.Name, st.Streak, st.LastPlayed, g4.FinishedAt, st.Season, st.Matches)
		}
		sameRating(t, "alice", st.Rating, ratings["alice"], 2)
		bob, err := h.s.PlayerStats(ctx, "g", "bob")
		if err != nil {
			t.Fatal(err)
		}
		if bob.Streak != -3 || bob.People.DoubleSkunksTaken != 1 || bob.People.SkunksTaken != 1 {
			t.Errorf("bob's stats: streak %d, %+v", bob.Streak, bob.People)
		}
		nobody, err := h.s.PlayerStats(ctx, "g", "dan")
		if err != nil {
			t.Fatal(err)
		}
		if nobody.People != (cribbage.Record{}) || nobody.Streak != 0 || !nobody.LastPlayed.IsZero() {
			t.Errorf("a player with no games: %+v", nobody)
		}
		sameRating(t, "dan", nobody.Rating, n, 0)
	})

	t.Run("HeadToHead", func(t *testing.T) {
		for _, tt := range []struct {
			a, b string
			want cribbage.HeadToHead
		}{
			{"alice", "bob", cribbage.HeadToHead{Games: 3, AWins: 2, BWins: 0}},
			{"bob", "alice", cribbage.HeadToHead{Games: 3, AWins: 0, BWins: 2}},
			{"alice", "carol", cribbage.HeadToHead{Games: 1, AWins: 0, BWins: 1}},
			{"alice", "dan", cribbage.HeadToHead{}},
		} {
			if got, err := h.s.HeadToHead(ctx, "g", tt.a, tt.b); err != nil || got != tt.want {
				t.Errorf("%s against %s: %+v, %v; want %+v", tt.a, tt.b, got, err, tt.want)
			}
		}
	})

	t.Run("Seasons", func(t *testing.T) {
		seasons, err := h.s.Seasons(ctx, "g")
		if err != nil {
			t.Fatal(err)
		}
		if len(seasons) != 1 || seasons[0].Number != 1 || seasons[0].Games != 3 || !seasons[0].StartedAt.Equal(g1.FinishedAt) {
			t.Errorf("seasons %+v, want season 1 of 3 games begun %v", seasons, g1.FinishedAt)
		}
	})
}

// checkBoard compares a leaderboard with the lines and ratings worked
// out: ranked by rating, all of them provisional.
func checkBoard(t *testing.T, board []cribbage.Standing, want map[string]cribbage.Standing, ratings map[string]rating.Rating, rated map[string]int) {
	t.Helper()
	order := slices.Collect(maps.Keys(want))
	slices.SortFunc(order, func(a, b string) int { return cmp.Compare(ratings[b].R, ratings[a].R) })
	if len(board) != len(order) {
		t.Fatalf("board %+v, want %v", board, order)
	}
	for i, st := range board {
		w := want[order[i]]
		w.Rank, w.UserID, w.Name, w.Rating = i+1, order[i], "name-"+order[i], st.Rating
		if st != w {
			t.Errorf("line %d: %+v\n   want %+v", i+1, st, w)
		}
		sameRating(t, st.UserID, st.Rating, ratings[st.UserID], rated[st.UserID])
	}
}

// testSeasonsStartAfresh: a server without games, or with games against
// the computer only, has an unplayed season 1, which no admin restarts.
// Once people have played, season 2 starts: its board is empty, then has
// only its own games, rated from newcomers; season 1's board stays as it
// ended, while the current season's ratings widen with the weeks away.
func testSeasonsStartAfresh(t *testing.T, h *harness) {
	if seasons, err := h.s.Seasons(ctx, "g"); err != nil || len(seasons) != 1 || seasons[0] != (cribbage.Season{Number: 1}) {
		t.Errorf("a new server's seasons: %+v, %v", seasons, err)
	}
	if board, err := h.s.Leaderboard(ctx, "g", 0, time.Time{}); err != nil || len(board) != 0 {
		t.Errorf("a new server's board: %+v, %v", board, err)
	}
	if _, err := h.s.Leaderboard(ctx, "g", 2, time.Time{}); !errors.Is(err, cribbage.ErrNoSeason) {
		t.Errorf("season 2 of a new server: %v, want ErrNoSeason", err)
	}
	if _, err := h.s.StartSeason(ctx, "g", "admin", ""); !errors.Is(err, cribbage.ErrSeasonUnplayed) {
		t.Errorf("a new season of a new server: %v, want ErrSeasonUnplayed", err)
	}
	h.finishAs(t, seated(two, "alice", "cpu"), played{winner: 0, scores: []int{121, 100}, skunks: []int{0, 0}, games: 1})
	if _, err := h.s.StartSeason(ctx, "g", "admin", ""); !errors.Is(err, cribbage.ErrSeasonUnplayed) {
		t.Errorf("a new season after a game against the computer: %v, want ErrSeasonUnplayed", err)
	}

	g1 := h.finishAs(t, seated(two, "alice", "bob"), played{winner: 0, scores: []int{121, 100}, skunks: []int{0, 0}, games: 1})
	n := cfg.Newcomer()
	a1, b1 := rating.Game(n, n, rating.Win, cfg)
	h.advance(time.Hour)
	se, err := h.s.StartSeason(ctx, "g", "admin", "Winter")
	if err != nil {
		t.Fatal(err)
	}
	second := cribbage.Season{Number: 2, Name: "Winter", StartedAt: h.now(), StartedBy: "admin"}
	if se.Number != second.Number || se.Name != second.Name || !se.StartedAt.Equal(second.StartedAt) || se.StartedBy != second.StartedBy {
		t.Errorf("started %+v, want %+v", se, second)
	}
	if _, err := h.s.StartSeason(ctx, "g", "admin", ""); !errors.Is(err, cribbage.ErrSeasonUnplayed) {
		t.Errorf("a second click: %v, want ErrSeasonUnplayed", err)
	}
	if board, err := h.s.Leaderboard(ctx, "g", 0, time.Time{}); err != nil || len(board) != 0 {
		t.Errorf("the new season's board: %+v, %v", board, err)
	}

	h.finishAs(t, seated(two, "bob", "carol"), played{winner: 0, scores: []int{121, 100}, skunks: []int{0, 0}, games: 1})
	b2, c2 := rating.Game(n, n, rating.Win, cfg)
	board, err := h.s.Leaderboard(ctx, "g", 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(board) != 2 || board[0].UserID != "bob" || board[1].UserID != "carol" {
		t.Fatalf("season 2's board: %+v", board)
	}
	sameRating(t, "bob", board[0].Rating, b2, 1)
	sameRating(t, "carol", board[1].Rating, c2, 1)
	alice, err := h.s.PlayerStats(ctx, "g", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if alice.Season != 2 || alice.People.Games != 1 {
		t.Errorf("alice in season 2: season %d, %+v", alice.Season, alice.People)
	}
	sameRating(t, "alice", alice.Rating, n, 0)

	seasons, err := h.s.Seasons(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(seasons) != 2 || seasons[0].Games != 1 || !seasons[0].StartedAt.Equal(g1.FinishedAt) ||
		seasons[1].Number != 2 || seasons[1].Name != "Winter" || seasons[1].StartedBy != "admin" || !seasons[1].StartedAt.Equal(second.StartedAt) || seasons[1].Games != 1 {
		t.Errorf("seasons %+v", seasons)
	}

	// Three weeks on: the current season's ratings are shown three idle
	// periods wider; season 1's as it ended.
	h.advance(3 * cribbage.RatingIdle)
	bob, err := h.s.PlayerStats(ctx, "g", "bob")
	if err != nil {
		t.Fatal(err)
	}
	sameRating(t, "bob", bob.Rating, rating.IdlePeriods(b2, 3, cfg), 1)
	past, err := h.s.Leaderboard(ctx, "g", 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(past) != 2 || past[0].UserID != "alice" || past[1].UserID != "bob" {
		t.Fatalf("season 1's board: %+v", past)
	}
	sameRating(t, "alice", past[0].Rating, a1, 1)
	sameRating(t, "bob", past[1].Rating, b1, 1)
	if _, err := h.s.Leaderboard(ctx, "g", 3, time.Time{}); !errors.Is(err, cribbage.ErrNoSeason) {
		t.Errorf("season 3: %v, want ErrNoSeason", err)
	}
}

// testResignationsAndRatings: a resignation before any card rates nobody
// but is in the records; once the cards are thrown, it is the resigner's
// rated loss.
func testResignationsAndRatings(t *testing.T, h *harness) {
	n := cfg.Newcomer()
	tests := []struct {
		name  string
		throw bool
		rated bool
	}{{"at the cut", false, false}, {"after the throw", true, true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.resignAt(t, seated(two, "ann-"+tt.name, "ben-"+tt.name), 0, tt.throw)
			for _, who := range []string{"ann-", "ben-"} {
				st, err := h.s.PlayerStats(ctx, "g", who+tt.name)
				if err != nil {
					t.Fatal(err)
				}
				if st.People.Games != 1 || st.People.Wins != map[string]int{"ann-": 0, "ben-": 1}[who] {
					t.Errorf("%s's record: %+v", who, st.People)
				}
				want, games := n, 0
				if tt.rated {
					a, b := rating.Game(n, n, rating.Loss, cfg)
					want, games = map[string]rating.Rating{"ann-": a, "ben-": b}[who], 1
				}
				sameRating(t, who+tt.name, st.Rating, want, games)
			}
		})
	}
}

// testMatchesInStats: a decided match between people counts in both
// players' stats, won and lost; a match still on, or one against the
// computer, counts in neither.
func testMatchesInStats(t *testing.T, h *harness) {
	finishMatchGame := func(tb *cribbage.Table, conceded bool) {
		t.Helper()
		h.advance(time.Minute)
		id := h.startGame(t, tb).ID
		_, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 1})
			if err != nil {
				return nil, err
			}
			cur.SetGame(g, h.now())
			cur.Match = &cribbage.Match{ID: cur.ID, BestOf: 3, Game: 1, Conceded: conceded,
				Games: []cribbage.MatchGame{{Table: cur.ID, Winner: 0, Reason: g.Result.Reason, Points: cribbage.GamePoints(g.Result)}}}
			return &cribbage.Change{Table: cur}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	finishMatchGame(seated(two, "alice", "bob"), true)  // bob resigns the match
	finishMatchGame(seated(two, "alice", "bob"), false) // game 1 of a match still on
	finishMatchGame(seated(two, "alice", "cpu"), true)  // against the computer
	for user, want := range map[string]cribbage.MatchRecord{"alice": {Matches: 1, Won: 1}, "bob": {Matches: 1, Lost: 1}} {
		st, err := h.s.PlayerStats(ctx, "g", user)
		if err != nil {
			t.Fatal(err)
		}
		if st.Matches != want {
			t.Errorf("%s's matches: %+v, want %+v", user, st.Matches, want)
		}
	}
}
