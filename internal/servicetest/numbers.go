package servicetest

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// A player's numbers and milestones (cribbage.Numbers): read back from
// games played move by move through Update, each move's action logged and
// its events with it, as the bot's moves are.

// PlayKnown plays a known game (the domain's numbers_test.go: gameA
// and gameB) at a new two-player table of alice and bob in server g, a
// move an Update at now: cut seed cut, hand n dealt from seed
// firstDeal+n, each player throwing its first two cards and laying its
// first legal card, until stop; then resigner resigns. Each move logs its
// action and carries its events, as the bot's moves do. It returns the
// finished table.
func PlayKnown(t testing.TB, s cribbage.TableService, now func() time.Time, cut, firstDeal uint64, stop func(g *engine.State) bool, resigner int) *cribbage.Table {
	return PlayKnownAt(t, s, now, seated(two, "alice", "bob"), cut, firstDeal, stop, resigner)
}

// PlayKnownAt is PlayKnown at lobby, an unsaved two-player table.
func PlayKnownAt(t testing.TB, s cribbage.TableService, now func() time.Time, lobby *cribbage.Table, cut, firstDeal uint64, stop func(g *engine.State) bool, resigner int) *cribbage.Table {
	t.Helper()
	tb, err := s.CreateTable(ctx, lobby, "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	seed := engine.SeedFromUint64(cut)
	tb, err = Update(ctx, s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := engine.New(cur.Options, seed)
		cur.State, cur.CutSeed, cur.Status = g, &seed, cribbage.StatusPlaying
		return &cribbage.Change{Table: cur}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	deal := firstDeal
	for tb.Status == cribbage.StatusPlaying {
		tb, err = Update(ctx, s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			g := cur.State
			var a engine.Action
			switch {
			case stop(g):
				a = engine.Action{Kind: engine.ActResign, Seat: resigner}
			case g.Phase == engine.PhaseDeal:
				deal++
				s := engine.SeedFromUint64(deal)
				a = engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s}
			case g.Phase == engine.PhaseDiscard:
				seat := g.Waiting()[0]
				a = engine.Action{Kind: engine.ActDiscard, Seat: seat, Cards: g.Hands[seat].Cards()[:2]}
			default:
				a = engine.Action{Kind: engine.ActPlay, Seat: g.Turn, Card: g.LegalPlays(g.Turn)[0]}
			}
			next, events, err := g.Apply(a)
			if err != nil {
				return nil, err
			}
			cur.SetGame(next, now())
			return &cribbage.Change{Table: cur, Actions: []cribbage.LoggedAction{{Action: a}}, Events: events,
				Outbox: []cribbage.Outbound{{ChannelID: cur.ChannelID, Kind: "line", Payload: a.Kind.String(), Waits: true}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// KnownA and KnownB play the domain's gameA and gameB (PlayKnown); at
// lobby if it is given, a two-player table of the two players.
func KnownA(t testing.TB, s cribbage.TableService, now func() time.Time, lobby ...*cribbage.Table) *cribbage.Table {
	return PlayKnownAt(t, s, now, knownLobby(lobby), 2, 200, func(g *engine.State) bool { return g.HandNo == 3 }, 1)
}

func KnownB(t testing.TB, s cribbage.TableService, now func() time.Time, lobby ...*cribbage.Table) *cribbage.Table {
	return PlayKnownAt(t, s, now, knownLobby(lobby), 3, 300, func(g *engine.State) bool { return g.HandNo == 3 && g.Phase == engine.PhasePlay }, 0)
}

// knownLobby is the lobby given, or alice and bob's in server g.
func knownLobby(lobby []*cribbage.Table) *cribbage.Table {
	if len(lobby) > 0 {
		return lobby[0]
	}
	return seated(two, "alice", "bob")
}

// testNumbersOfKnownGames plays the two known games, A and then B forty
// days later, and checks every number against those worked out by hand
// (the domain's numbers_test.go tells each deal). Only complete deals
// count; hand 3 of each game does not.
//
//	            A: dealer       pone      B: dealer       pone
//	alice   peg 2 hand 2 crib 8  peg 1 hand 2   peg 2 hand 2 crib 12  peg 1 hand 6
//	bob     peg 4 hand 6 crib 7  peg 1 hand 16  peg 2 hand 4 crib 12  peg 4 hand 6
//
// Over both, alice's dealer deals average 2 pegged, 2 held and 10 from
// the crib, her pone deals 1 pegged and 4 held; bob's 3, 5 and 9.5, and
// 2.5 and 11. The last 30 days hold game B alone. Alice won A (Bob
// resigned), Bob won B: each earns a first win, in the record of the
// game's last hand. Alice threw in five deals (both of A's complete
// ones, all three of B's), Bob in five.
func testNumbersOfKnownGames(t *testing.T, h *harness) {
	a := KnownA(t, h.s, h.now)
	h.advance(40 * 24 * time.Hour)
	b := KnownB(t, h.s, h.now)
	since := h.now().Add(-cribbage.RecentDays * 24 * time.Hour)
	type role = cribbage.Role
	want := map[string]cribbage.Numbers{
		"alice": {
			All:    cribbage.Period{Games: 2, Wins: 1, Dealer: role{Deals: 2, Pegging: 4, Hand: 4, Crib: 20}, Pone: role{Deals: 2, Pegging: 2, Hand: 8}},
			Recent: cribbage.Period{Games: 1, Wins: 0, Dealer: role{Deals: 1, Pegging: 2, Hand: 2, Crib: 12}, Pone: role{Deals: 1, Pegging: 1, Hand: 6}},
			Best: []cribbage.BestHand{
				{Points: 12, Crib: true, Cards: cards("2H 3H 3D 4D"), Starter: card("8S"), TableID: b.ID, At: b.FinishedAt},
				{Points: 8, Crib: true, Cards: cards("2C 3C 3H 6S"), Starter: card("6C"), TableID: a.ID, At: a.FinishedAt},
				{Points: 6, Cards: cards("9D JS QC KC"), Starter: card("TS"), TableID: b.ID, At: b.FinishedAt},
			},
			Milestones: []cribbage.EarnedMilestone{{Milestone: cribbage.FirstWin, TableID: a.ID, At: a.FinishedAt}},
			Trend: []cribbage.TrendGame{{TableID: a.ID, At: a.FinishedAt, Deals: 2, Points: 2 + 2 + 8 + 1 + 2},
				{TableID: b.ID, At: b.FinishedAt, Deals: 2, Points: 2 + 2 + 12 + 1 + 6}},
			Unreviewed: 5,
		},
		"bob": {
			All:    cribbage.Period{Games: 2, Wins: 1, Dealer: role{Deals: 2, Pegging: 6, Hand: 10, Crib: 19}, Pone: role{Deals: 2, Pegging: 5, Hand: 22}},
			Recent: cribbage.Period{Games: 1, Wins: 1, Dealer: role{Deals: 1, Pegging: 2, Hand: 4, Crib: 12}, Pone: role{Deals: 1, Pegging: 4, Hand: 6}},
			Best: []cribbage.BestHand{
				{Points: 16, Cards: cards("4S 5S 6D 9S"), Starter: card("6C"), TableID: a.ID, At: a.FinishedAt},
				{Points: 12, Crib: true, Cards: cards("AH AD AC 4H"), Starter: card("TS"), TableID: b.ID, At: b.FinishedAt},
				{Points: 7, Crib: true, Cards: cards("AS 3S 5H 5C"), Starter: card("2C"), TableID: a.ID, At: a.FinishedAt},
			},
			Milestones: []cribbage.EarnedMilestone{{Milestone: cribbage.FirstWin, TableID: b.ID, At: b.FinishedAt}},
			Trend: []cribbage.TrendGame{{TableID: a.ID, At: a.FinishedAt, Deals: 2, Points: 4 + 6 + 7 + 1 + 16},
				{TableID: b.ID, At: b.FinishedAt, Deals: 2, Points: 2 + 4 + 12 + 4 + 6}},
			Unreviewed: 5,
		},
	}
	for user, w := range want {
		got, err := h.s.PlayerNumbers(ctx, "g", user, since)
		if err != nil {
			t.Fatal(err)
		}
		sameNumbers(t, user, got, w)
	}
	alice, _ := h.s.PlayerNumbers(ctx, "g", "alice", since)
	for _, tc := range []struct {
		name string
		r    cribbage.Role
		pts  int
		want float64
	}{
		{"dealer pegging", alice.All.Dealer, alice.All.Dealer.Pegging, 2}, {"dealer hand", alice.All.Dealer, alice.All.Dealer.Hand, 2},
		{"crib", alice.All.Dealer, alice.All.Dealer.Crib, 10}, {"pone pegging", alice.All.Pone, alice.All.Pone.Pegging, 1},
		{"pone hand", alice.All.Pone, alice.All.Pone.Hand, 4}, {"recent crib", alice.Recent.Dealer, alice.Recent.Dealer.Crib, 12},
	} {
		if got, ok := tc.r.PerDeal(tc.pts); !ok || got != tc.want {
			t.Errorf("alice's %s a deal: %v, want %v", tc.name, got, tc.want)
		}
	}
	if n, err := h.s.PlayerNumbers(ctx, "other", "alice", since); err != nil || !reflect.DeepEqual(n, cribbage.Numbers{}) {
		t.Errorf("another server's numbers: %+v, %v", n, err)
	}

	t.Run("reviews", func(t *testing.T) {
		throws, err := h.s.UnreviewedThrows(ctx, "g", "alice", 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, th := range throws {
			got = append(got, fmt.Sprintf("%d/%d/%d dealer %d: %s of %s", th.TableID, th.Hand, th.Seat, th.Dealer, th.Thrown, th.Dealt))
		}
		wantThrows := []string{
			fmt.Sprintf("%d/1/0 dealer 0: 3C 6S of 3C 6S 7D TS TH KH", a.ID), fmt.Sprintf("%d/2/0 dealer 1: 3S 5C of 3S 5C 7D 9S 9H KC", a.ID),
			fmt.Sprintf("%d/1/0 dealer 1: AC 4H of AC 4H 9D JS QC KC", b.ID), fmt.Sprintf("%d/2/0 dealer 0: 2H 3H of 2H 3H 3C 9D QS QH", b.ID),
			fmt.Sprintf("%d/3/0 dealer 1: 2H 4H of 2H 4H 5S 9S TS TC", b.ID),
		}
		if !slices.Equal(got, wantThrows) || throws[0].Options.Players != 2 {
			t.Errorf("alice's throws to review:\n%q\nwant\n%q", got, wantThrows)
		}
		if anyone, err := h.s.UnreviewedThrows(ctx, "", "", 3); err != nil || len(anyone) != 3 || anyone[0].TableID != a.ID {
			t.Errorf("anyone's first three throws: %+v, %v", anyone, err)
		}
		// Alice's dealer throws give up 0.5 and 1.5, her pone throws
		// 0.25, 0.75 and 1; the second review of the first is ignored.
		given := []float64{0.5, 0.25, 0.75, 1.5, 1}
		var reviews []cribbage.ThrowReview
		for i, th := range throws {
			reviews = append(reviews, cribbage.ThrowReview{TableID: th.TableID, Hand: th.Hand, Seat: th.Seat, GivenUp: given[i]})
		}
		if err := h.s.ReviewThrows(ctx, reviews[:2]); err != nil {
			t.Fatal(err)
		}
		again := append([]cribbage.ThrowReview{{TableID: a.ID, Hand: 1, Seat: 0, GivenUp: 9}}, reviews[2:]...)
		if err := h.s.ReviewThrows(ctx, again); err != nil {
			t.Fatal(err)
		}
		n, err := h.s.PlayerNumbers(ctx, "g", "alice", since)
		if err != nil {
			t.Fatal(err)
		}
		if d, p := n.All.Dealer, n.All.Pone; d.Throws != 2 || d.GivenUp != 2 || p.Throws != 3 || p.GivenUp != 2 || n.Unreviewed != 0 {
			t.Errorf("alice's reviewed throws: dealer %+v, pone %+v, %d unreviewed; want 2 giving up 2, 3 giving up 2, none", d, p, n.Unreviewed)
		}
		if d, p := n.Recent.Dealer, n.Recent.Pone; d.Throws != 1 || d.GivenUp != 1.5 || p.Throws != 2 || p.GivenUp != 1.75 {
			t.Errorf("alice's recent reviewed throws: dealer %+v, pone %+v; want 1 giving up 1.5, 2 giving up 1.75", d, p)
		}
		if v, ok := n.All.Pone.GivenUpPerThrow(); !ok || math.Abs(v-2.0/3) > 1e-9 {
			t.Errorf("alice gives up %v a pone throw, want 2/3", v)
		}
		if tr := n.Trend; tr[0].Throws != 2 || tr[0].GivenUp != 0.75 || tr[1].Throws != 3 || tr[1].GivenUp != 3.25 {
			t.Errorf("alice's trend %+v", tr)
		}
		if left, _ := h.s.UnreviewedThrows(ctx, "g", "alice", 10); len(left) != 0 {
			t.Errorf("%d throws left to review", len(left))
		}
	})
}

// sameNumbers reports where a player's numbers differ from those worked
// out.
func sameNumbers(t *testing.T, who string, got, want cribbage.Numbers) {
	t.Helper()
	if got.All != want.All || got.Recent != want.Recent || got.Unreviewed != want.Unreviewed {
		t.Errorf("%s's numbers:\n all %+v\nwant %+v\n recent %+v\n  want %+v\n unreviewed %d, want %d", who, got.All, want.All, got.Recent, want.Recent, got.Unreviewed, want.Unreviewed)
	}
	if !reflect.DeepEqual(got.Best, want.Best) {
		t.Errorf("%s's best hands:\n%+v\nwant\n%+v", who, got.Best, want.Best)
	}
	if !reflect.DeepEqual(got.Milestones, want.Milestones) {
		t.Errorf("%s's milestones: %+v, want %+v", who, got.Milestones, want.Milestones)
	}
	if !reflect.DeepEqual(got.Trend, want.Trend) {
		t.Errorf("%s's trend: %+v, want %+v", who, got.Trend, want.Trend)
	}
}

// cards reads a set of cards; card one card.
func cards(s string) engine.CardSet { return engine.SetOf(engine.MustParseCards(s)...) }
func card(s string) engine.Card     { return engine.MustParseCard(s) }

// twentyNine is the show of the 29 hand by seat.
func twentyNine(seat int) engine.Event {
	cs, st := engine.MustParseCards("5H 5D 5C JS"), engine.MustParseCard("5S")
	b := engine.ScoreShow(cs, st, false)
	return engine.Event{Kind: engine.EvShow, Seat: seat, Cards: cs, Card: st, Items: b.Items, Points: b.Total}
}

// showing saves a change at table id whose events show seat's 29 hand,
// with one announcement of its own that waits (a line) or not (a post).
func (h *harness) showing(id int64, seat int, waits bool) error {
	_, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: cur, Events: []engine.Event{twentyNine(seat)},
			Outbox: []cribbage.Outbound{{ChannelID: cur.ChannelID, Kind: "post", Payload: "the show", Waits: waits}}}, nil
	})
	return err
}

// news lists a table's pending milestone announcements, read back.
func (h *harness) news(t *testing.T, id int64) []cribbage.OutboxItem {
	t.Helper()
	var out []cribbage.OutboxItem
	for _, it := range h.pending(t, id) {
		if it.Kind == cribbage.OutboxMilestone {
			out = append(out, it)
		}
	}
	return out
}

// testMilestoneAnnouncedOnce: a milestone is recorded and its news queued
// with the change that earns it, after the change's own announcements,
// and never again: not by a later change, nor by two at once at two
// tables (two replicas), nor in another server's records.
func testMilestoneAnnouncedOnce(t *testing.T, h *harness) {
	first := h.startGame(t, seated(two, "alice", "bob"))
	if err := h.showing(first.ID, 0, false); err != nil {
		t.Fatal(err)
	}
	items := h.pending(t, first.ID)
	// The 29 is four fives with the starter: four of a kind too.
	if len(items) != 3 || items[0].Payload != "the show" || items[1].Kind != cribbage.OutboxMilestone || items[1].Waits || items[2].Kind != cribbage.OutboxMilestone {
		t.Fatalf("announcements %+v, want the show and then the news of two", items)
	}
	e, err := cribbage.ReadMilestoneNews(items[1].Payload)
	want := cribbage.Earned{UserID: "alice", Name: "name-alice", Milestone: cribbage.TwentyNine, TableID: first.ID}
	if err != nil || e != want {
		t.Errorf("the news: %+v, %v; want %+v", e, err, want)
	}
	n, err := h.s.PlayerNumbers(ctx, "g", "alice", time.Time{})
	if err != nil || len(n.Milestones) != 2 || n.Milestones[0].Milestone != cribbage.TwentyNine || n.Milestones[1].Milestone != cribbage.FourOfAKind ||
		!n.Milestones[0].At.Equal(h.now()) || n.Milestones[0].TableID != first.ID {
		t.Errorf("alice's milestones: %+v, %v", n.Milestones, err)
	}

	// Again at the same table, and at another: nothing new.
	h.advance(time.Minute)
	if err := h.showing(first.ID, 0, false); err != nil {
		t.Fatal(err)
	}
	if got := h.news(t, first.ID); len(got) != 2 {
		t.Errorf("%d milestone announcements after a second 29, want the first two", len(got))
	}
	// A line's news waits for the post that ends its hand.
	if err := h.showing(first.ID, 1, true); err != nil {
		t.Fatal(err)
	}
	if got := h.news(t, first.ID); len(got) != 4 || !got[2].Waits || !got[3].Waits {
		t.Errorf("bob's news after a line: %+v, want two waiting", got[2:])
	}
	elsewhere := h.startGame(t, lobby("other", "alice", "bob"))
	if err := h.showing(elsewhere.ID, 0, false); err != nil {
		t.Fatal(err)
	}
	if got := h.news(t, elsewhere.ID); len(got) != 2 {
		t.Errorf("another server announces %d, want its own two", len(got))
	}

	// Carol's first 29, shown at two tables at the same instant: one
	// announcement between them.
	var wg sync.WaitGroup
	tables := []*cribbage.Table{h.startGame(t, seated(two, "carol", "bob")), h.startGame(t, seated(two, "carol", "dan"))}
	errs := make([]error, len(tables))
	for i, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = h.showing(tb.ID, 0, false)
		}()
	}
	wg.Wait()
	total := 0
	for i, tb := range tables {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		for _, it := range h.news(t, tb.ID) {
			if e, _ := cribbage.ReadMilestoneNews(it.Payload); e.UserID == "carol" && e.Milestone == cribbage.TwentyNine {
				total++
			}
		}
	}
	if total != 1 {
		t.Errorf("carol's 29 announced %d times, want once", total)
	}
}

// testChampionAnnouncedOnce: the change that crowns a tournament's
// champion records their TournamentWon and queues its news at the
// tournament's last table; a later change of the finished tournament
// tells it no more.
func testChampionAnnouncedOnce(t *testing.T, h *harness) {
	tr := h.openTournament(t, 4)
	started, err := UpdateTournament(ctx, h.s, tr.ID, "", advance(true))
	if err != nil {
		t.Fatal(err)
	}
	tables, err := h.s.TournamentTables(ctx, started.ID)
	if err != nil || len(tables) == 0 {
		t.Fatalf("%d tables, %v", len(tables), err)
	}
	last := tables[len(tables)-1]
	crown := func(tr *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		tr.Champion, tr.Status = "p2", cribbage.TournamentFinished
		return &cribbage.TournamentChange{Tournament: tr}, nil
	}
	if _, err := UpdateTournament(ctx, h.s, tr.ID, "", crown); err != nil {
		t.Fatal(err)
	}
	news := h.news(t, last.ID)
	if len(news) != 1 {
		t.Fatalf("%d milestone announcements at the last table, want the champion's", len(news))
	}
	e, err := cribbage.ReadMilestoneNews(news[0].Payload)
	if want := (cribbage.Earned{UserID: "p2", Name: "P2", Milestone: cribbage.TournamentWon, TableID: last.ID}); err != nil || e != want || news[0].Waits {
		t.Errorf("the news %+v (waits %v), %v; want %+v", e, news[0].Waits, err, want)
	}
	if _, err := UpdateTournament(ctx, h.s, tr.ID, "", crown); err != nil {
		t.Fatal(err)
	}
	if got := h.news(t, last.ID); len(got) != 1 {
		t.Errorf("%d announcements after another change, want the one", len(got))
	}
	n, err := h.s.PlayerNumbers(ctx, "g", "p2", time.Time{})
	if err != nil || len(n.Milestones) != 1 || n.Milestones[0].Milestone != cribbage.TournamentWon || n.Milestones[0].TableID != last.ID {
		t.Errorf("the champion's milestones %+v, %v", n.Milestones, err)
	}
}

// testDailyStreakMilestones: the answer that makes seven daily hands in
// a row records A week of daily hands in the server it is given in,
// once; an answer in a DM records nothing, and a run with a day missed
// reaches nothing.
func testDailyStreakMilestones(t *testing.T, h *harness) {
	answer := func(user, guild string, day cribbage.Day) {
		t.Helper()
		if err := h.s.AnswerDaily(ctx, cribbage.DailyAnswer{Day: day, UserID: user, Name: user, GuildID: guild, At: day.Start().Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	milestones := func(user string) []cribbage.Milestone {
		t.Helper()
		n, err := h.s.PlayerNumbers(ctx, "g", user, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		var out []cribbage.Milestone
		for _, m := range n.Milestones {
			out = append(out, m.Milestone)
		}
		return out
	}
	for d := cribbage.Day(20000); d < 20006; d++ {
		answer("alice", "g", d)
		answer("bob", "g", d)
	}
	answer("alice", "", 20006) // the seventh day, in a DM: no server to earn in
	if got := milestones("alice"); len(got) != 0 {
		t.Errorf("alice after six days and a DM: %v", got)
	}
	answer("alice", "g", 20007) // eight in a row, the eighth in the server
	answer("bob", "g", 20007)   // a day missed: a run of one
	if got := milestones("alice"); !slices.Equal(got, []cribbage.Milestone{cribbage.DailyWeek}) {
		t.Errorf("alice after eight days: %v", got)
	}
	answer("alice", "g", 20008)
	if got := milestones("alice"); len(got) != 1 {
		t.Errorf("alice after nine days: %v, want the week once", got)
	}
	if got := milestones("bob"); len(got) != 0 {
		t.Errorf("bob: %v", got)
	}
}
