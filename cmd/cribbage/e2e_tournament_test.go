package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
	"github.com/cribbage-bot/cribbage/store"
)

// Tournaments through the fake Discord: an admin opens one, people sign up
// on its message, computer players fill the field, and the bot runs it to
// a champion while the people resign, forfeit or play their games.

// openTournament has ada open a tournament here and returns it once its
// message is posted.
func (h *harness) openTournament(opts ...discordtest.Opt) *cribbage.Tournament {
	h.t.Helper()
	a := h.admin(ada, "tournament open", append([]discordtest.Opt{{Name: "name", Value: "Club open"}}, opts...)...)
	if !a.Ephemeral() || !strings.Contains(a.Content(), "open for sign-up") {
		h.t.Fatalf("tournament open answered %q", a.Content())
	}
	var tr *cribbage.Tournament
	// The post waits its turn in the channel's rate limit, as Discord
	// keeps it: a busy channel can hold it a few seconds.
	h.within(30*time.Second, "the tournament message", func() bool {
		list, err := h.store.ChannelTournaments(context.Background(), testChannel)
		if err != nil || len(list) == 0 {
			return false
		}
		tr = list[0]
		return h.tournamentMessageID(tr.ID) != ""
	})
	return tr
}

// tournament reads a tournament from the database.
func (h *harness) tournament(id int64) *cribbage.Tournament {
	h.t.Helper()
	tr, err := h.store.Tournament(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return tr
}

// tournamentTables reads a tournament's tables.
func (h *harness) tournamentTables(id int64) []*cribbage.Table {
	h.t.Helper()
	tables, err := h.store.TournamentTables(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return tables
}

// tournamentMessageID is the tournament message's id as recorded, or ""
// before it is posted.
func (h *harness) tournamentMessageID(id int64) string {
	h.t.Helper()
	m, err := h.store.TournamentMessage(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

// tournamentMessage is the tournament message as the channel shows it.
func (h *harness) tournamentMessage(id int64) string {
	h.t.Helper()
	m, ok := h.fake.Message(h.tournamentMessageID(id))
	if !ok {
		h.t.Fatalf("tournament %d has no message", id)
	}
	return m.Text()
}

// personTable is an open table of the tournament where a person sits,
// and the first person there; ok is false when there is none.
func (h *harness) personTable(id int64, people map[string]discordtest.User) (*cribbage.Table, discordtest.User, bool) {
	for _, tb := range h.tournamentTables(id) {
		if tb.Status != cribbage.StatusPlaying {
			continue
		}
		for _, s := range tb.Seats {
			if u, ok := people[s.UserID]; ok && s.Computer == "" {
				return tb, u, true
			}
		}
	}
	return nil, discordtest.User{}, false
}

// playTournament has the people resign every game they are given until
// the tournament is over, calling each with every table before its
// resignation (it may act itself and report true). It returns how many
// games the people were given.
func (h *harness) playTournament(id int64, people map[string]discordtest.User, each func(tb *cribbage.Table, u discordtest.User) bool) int {
	h.t.Helper()
	games := 0
	for {
		var tb *cribbage.Table
		var u discordtest.User
		h.whileMoving(id, "a game for a person, or the champion", func() bool {
			var ok bool
			tb, u, ok = h.personTable(id, people)
			return ok || !h.tournament(id).Status.Open()
		})
		if tb == nil {
			return games
		}
		games++
		if games > 60 {
			h.t.Fatal("the tournament never ends")
		}
		if each != nil && each(tb, u) {
			continue
		}
		h.resignAt(u, tb.ID, tb.Match != nil)
	}
}

// tournamentStall is how long a tournament may go without a change to it
// or its tables before a test waiting on it fails: far longer than one
// game of the strong computer takes on a machine however busy.
const tournamentStall = 20 * time.Second

// whileMoving polls cond until it holds, failing only once the tournament
// has not moved for tournamentStall. Its computer players' games are
// played at the speed of the machine, which a busy one slows many times
// over: a bound on the whole wait (a round's games, or a playoff's) would
// be a timed assertion, while a tournament that does not move at all is
// stuck.
func (h *harness) whileMoving(id int64, what string, cond func() bool) {
	h.t.Helper()
	last, since := "", time.Now()
	for !cond() {
		if mark := h.tournamentMark(id); mark != last {
			last, since = mark, time.Now()
		} else if time.Since(since) > tournamentStall {
			h.t.Fatalf("timed out waiting for %s: the tournament has not moved for %s", what, tournamentStall)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tournamentMark is a tournament's version and its tables' ids and
// versions: it changes with any change to them.
func (h *harness) tournamentMark(id int64) string {
	h.t.Helper()
	mark := fmt.Sprint(h.tournament(id).Version)
	for _, tb := range h.tournamentTables(id) {
		mark += fmt.Sprintf(" %d:%d", tb.ID, tb.Version)
	}
	return mark
}

// checkStandings holds the tournament message to the standings worked out
// from its tables: every entrant's game points and spread.
func (h *harness) checkStandings(id int64) []cribbage.TournamentStanding {
	h.t.Helper()
	tr := h.tournament(id)
	st := tr.Standings(h.tournamentTables(id))
	h.within(10*time.Second, "the tournament message to show the standings", func() bool {
		msg := h.tournamentMessage(id)
		for i, s := range st {
			e := tr.Entrant(s.UserID)
			if !strings.Contains(msg, fmt.Sprintf("%2d  %-19s %3d  %+6d", i+1, e.Name, s.GamePoints, s.Spread)) {
				return false
			}
		}
		return true
	})
	return st
}

// signUp has each person press Sign up on the tournament message.
func (h *harness) signUp(tr *cribbage.Tournament, us ...discordtest.User) {
	h.t.Helper()
	for _, u := range us {
		a := h.click(u, h.tournamentMessageID(tr.ID), "/tsignup/"+itoa64(tr.ID))
		if !strings.Contains(a.Content(), "signed up") {
			h.t.Fatalf("%s's sign-up: %q", u.Name, a.Content())
		}
	}
}

// TestTournamentOfFive: Alice, Bob and three computers; a bye each round
// to someone new, a restart mid-round, and a final. Bad input changes
// nothing, and sign-up closes when the tournament starts.
func TestTournamentOfFive(t *testing.T) {
	parallelUnlessRace(t)
	h := newHarness(t)
	tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 3})
	if a := h.admin(ada, "tournament open", discordtest.Opt{Name: "name", Value: "Another"}); !strings.Contains(a.Content(), "open in this channel already") {
		t.Errorf("a second tournament here: %q", a.Content())
	}
	h.signUp(tr, alice, bob)
	if a := h.click(alice, h.tournamentMessageID(tr.ID), "/tsignup/"+itoa64(tr.ID)); !strings.Contains(a.Content(), "signed up already") {
		t.Errorf("a second sign-up: %q", a.Content())
	}
	if a := h.click(ada, h.tournamentMessageID(tr.ID), "/tstart/"+itoa64(tr.ID)); !strings.Contains(a.Content(), "Too few entrants") {
		t.Errorf("a start with two entrants: %q", a.Content())
	}
	if a := h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 3}); !strings.Contains(a.Content(), "the field is 5") {
		t.Errorf("computers entered: %q", a.Content())
	}
	h.eventually("the message to list the field", func() bool { return strings.Contains(h.tournamentMessage(tr.ID), "Signed up (5)") })
	if a := h.click(bob, h.tournamentMessageID(tr.ID), "/tstart/"+itoa64(tr.ID)); !strings.Contains(a.Content(), "Only members with **Manage Server**") {
		t.Errorf("Bob's start: %q", a.Content())
	}
	if tr := h.tournament(tr.ID); tr.Status != cribbage.TournamentSignup || len(h.tournamentTables(tr.ID)) != 0 {
		t.Fatalf("refusals changed the tournament: %s, %d tables", tr.Status, len(h.tournamentTables(tr.ID)))
	}
	if a := h.click(ada, h.tournamentMessageID(tr.ID), "/tstart/"+itoa64(tr.ID)); !strings.Contains(a.Content(), "has begun") {
		t.Fatalf("the start: %q", a.Content())
	}
	if a := h.click(carol, h.tournamentMessageID(tr.ID), "/tsignup/"+itoa64(tr.ID)); !strings.Contains(a.Content(), "Sign-up is closed") {
		t.Errorf("a late sign-up: %q", a.Content())
	}
	// Round 1 is seeded in sign-up order: Alice meets Bob, and the last
	// computer has the bye.
	first := h.tournament(tr.ID)
	if first.Round != 1 || first.Pairings[0].A != alice.ID || first.Pairings[0].B != bob.ID || first.Pairings[2].B != "" {
		t.Fatalf("round 1: %+v", first.Pairings)
	}
	restarted := false
	h.playTournament(tr.ID, usersOf(alice, bob), func(tb *cribbage.Table, u discordtest.User) bool {
		if restarted || tb.Tournament.Round != 2 {
			return false
		}
		// Mid-round 2: the bot stops and starts again, and the round
		// goes on where it was.
		restarted = true
		h.stopBot()
		h.startBot()
		return false
	})
	if !restarted {
		t.Error("no round 2 game to restart in")
	}
	done := h.tournament(tr.ID)
	if done.Status != cribbage.TournamentFinished || done.Champion == "" || done.Round != 3 || len(done.Playoff) != 1 {
		t.Fatalf("the tournament ended %s, round %d, champion %q, playoff %v", done.Status, done.Round, done.Champion, done.Playoff)
	}
	h.checkPairedOnce(done)
	st := h.checkStandings(tr.ID)
	if top := [2]string{st[0].UserID, st[1].UserID}; done.Playoff[0][0].A != top[0] || done.Playoff[0][0].B != top[1] {
		t.Errorf("the final %+v is not the top two %v", done.Playoff[0][0], top)
	}
	h.eventually("the champion on the message", func() bool {
		return strings.Contains(h.tournamentMessage(tr.ID), "champion: "+done.Entrant(done.Champion).Name)
	})
	// The message carries the standings as a picture too.
	m, _ := h.fake.Message(h.tournamentMessageID(done.ID))
	if data, ok := h.fake.File(m, "standings.png"); !ok || len(data) < 1000 || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("the tournament message's picture: %d bytes, %v", len(data), ok)
	}
	if a := h.club(carol, "tournament"); !strings.Contains(a.Content(), "champion") {
		t.Errorf("/cribbage-club tournament: %q", a.Content())
	}
}

// checkPairedOnce holds a finished tournament to its rules: every round
// pairs everyone once (a bye at most once each), nobody meets twice, and
// each pairing has its games and no more.
func (h *harness) checkPairedOnce(tr *cribbage.Tournament) {
	h.t.Helper()
	met := map[[2]string]bool{}
	byes := map[string]int{}
	for r := 1; r <= tr.Round; r++ {
		seen := map[string]bool{}
		for _, p := range tr.Pairings {
			if p.Round != r {
				continue
			}
			for _, id := range []string{p.A, p.B} {
				if id != "" && seen[id] {
					h.t.Errorf("round %d pairs %s twice", r, id)
				}
				seen[id] = true
			}
			if p.B == "" {
				byes[p.A]++
				continue
			}
			if met[[2]string{p.A, p.B}] {
				h.t.Errorf("%s and %s meet again in round %d", p.A, p.B, r)
			}
			met[[2]string{p.A, p.B}], met[[2]string{p.B, p.A}] = true, true
		}
		if len(seen) != len(tr.Entrants)+boolInt(len(tr.Entrants)%2 == 1) {
			h.t.Errorf("round %d pairs %d of %d entrants", r, len(seen), len(tr.Entrants))
		}
	}
	for id, n := range byes {
		if n > 1 {
			h.t.Errorf("%s had %d byes", id, n)
		}
	}
	games := map[[3]int]int{}
	for _, tb := range h.tournamentTables(tr.ID) {
		if l := tb.Tournament; !l.Playoff {
			games[[3]int{l.Round, l.Pairing, l.Game}]++
		}
	}
	for k, n := range games {
		if n != 1 || k[2] > tr.GamesPerRound {
			h.t.Errorf("game %v opened %d times", k, n)
		}
	}
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTournamentOfEight: two games a pairing each round, the deal passing
// on; Bob forfeits the first game to Alice (she claims the win after the
// forfeit time) and resigns the second; the standings count each a plain
// win of 2 game points, with the spread as the scores stood.
func TestTournamentOfEight(t *testing.T) {
	parallelUnlessRace(t)
	h := newHarness(t)
	tr := h.openTournament(discordtest.Opt{Name: "rounds", Value: 3}, discordtest.Opt{Name: "points", Value: 61})
	h.signUp(tr, alice, bob)
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 6}, discordtest.Opt{Name: "level", Value: "strong"})
	if a := h.admin(ada, "tournament start"); !strings.Contains(a.Content(), "has begun") {
		t.Fatalf("the start: %q", a.Content())
	}
	people := usersOf(alice, bob)
	tb, _, ok := h.personTable(tr.ID, people)
	if !ok || tb.Seats[0].UserID != alice.ID || tb.Seats[1].UserID != bob.ID {
		t.Fatalf("round 1 game 1: %+v", tb)
	}
	h.eventually("the game's table message", func() bool { return h.tableMessage(tb.ID).MessageID != "" })
	msg := h.tableMessage(tb.ID).MessageID
	// Alice throws to the crib; Bob never does.
	h.discard(alice, msg, tb.ID, 2)
	h.fake.Advance(7*24*time.Hour + time.Minute)
	h.wantAnnounced("the forfeit offer", tb.ID, "Claim the win", 1)
	h.click(alice, msg, "/claimwin/"+itoa64(tb.ID))
	forfeited := h.table(tb.ID)
	if r := forfeited.State.Result; forfeited.Status != cribbage.StatusFinished || r == nil || r.Winner != 0 {
		t.Fatalf("after the claim: %s %+v", forfeited.Status, forfeited.State.Result)
	}
	var second *cribbage.Table
	h.eventually("the pairing's second game", func() bool {
		for _, x := range h.tournamentTables(tr.ID) {
			if l := x.Tournament; l.Round == 1 && l.Pairing == 0 && l.Game == 2 {
				second = x
				return true
			}
		}
		return false
	})
	if second.State.Dealer == forfeited.State.Dealer && forfeited.State.Dealer >= 0 {
		// RULES.md "Starting a game": the next game's deal passes on.
		t.Errorf("game 2 is dealt by seat %d, as game 1 was", second.State.Dealer)
	}
	h.resignAt(bob, second.ID, false)
	h.playTournament(tr.ID, people, nil)
	done := h.tournament(tr.ID)
	if done.Status != cribbage.TournamentFinished || done.Champion == "" {
		t.Fatalf("the tournament ended %s, champion %q", done.Status, done.Champion)
	}
	h.checkPairedOnce(done)
	st := h.checkStandings(tr.ID)
	games := done.Games(h.tournamentTables(tr.ID))
	theirs := 0
	for _, g := range games {
		if g.Round != 1 || (g.Winner != bob.ID && g.Loser != bob.ID) {
			continue
		}
		theirs++
		if g.Winner != alice.ID || g.GamePoints != 2 {
			t.Errorf("Bob's forfeit and resignation: %+v", g)
		}
	}
	if theirs != 2 {
		t.Errorf("Alice and Bob played %d games in round 1", theirs)
	}
	if a := standingOf(st, alice.ID); a.Won < 2 || a.GamePoints < 4 {
		t.Errorf("Alice's two wins over Bob are not in her standing: %+v", a)
	}
	for _, s := range st {
		if s.Played+s.Byes != 2*done.Round {
			t.Errorf("%s played %d games in %d rounds of two", s.UserID, s.Played, done.Round)
		}
	}
}

// TestTournamentOfThirteen: a bye each round, four rounds, and a playoff
// of three — the top seed sits out the semi-final. Every game but the
// people's is between computer players; the standings count each skunk
// as 3 game points.
func TestTournamentOfThirteen(t *testing.T) {
	parallelUnlessRace(t)
	h := newHarness(t)
	tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 4})
	h.signUp(tr, alice, bob, carol)
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 5}, discordtest.Opt{Name: "level", Value: "strong"})
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 5})
	h.admin(ada, "tournament start")
	h.playTournament(tr.ID, usersOf(alice, bob, carol), nil)
	done := h.tournament(tr.ID)
	if done.Status != cribbage.TournamentFinished || done.Round != 4 || len(done.Playoff) != 2 {
		t.Fatalf("the tournament ended %s, round %d, playoff %+v", done.Status, done.Round, done.Playoff)
	}
	if semi := done.Playoff[0]; len(semi) != 2 || semi[0].B != "" || semi[1].B == "" {
		t.Errorf("the semi-finals of three: %+v", semi)
	}
	h.checkPairedOnce(done)
	st := h.checkStandings(tr.ID)
	skunks := 0
	for _, g := range done.Games(h.tournamentTables(tr.ID)) {
		if g.GamePoints > 2 {
			skunks++
		}
	}
	// Whether the computers' games hold a skunk depends on which deal
	// each table draws, and the tables draw in whatever order they open:
	// a skunk's 3 game points are the domain's tests' to hold
	// (TestGamePoints, TestTournamentStandingsOrder); here the message shows whatever the
	// standings hold (checkStandings).
	t.Logf("%d skunks; leader %+v", skunks, st[0])
}

// standingOf finds an entrant's standing.
func standingOf(st []cribbage.TournamentStanding, id string) cribbage.TournamentStanding {
	for _, s := range st {
		if s.UserID == id {
			return s
		}
	}
	return cribbage.TournamentStanding{}
}

// TestTournamentOnPostgres: a tournament of six on PostgreSQL, the bot
// restarted mid-round: every game is opened once. (Replicas racing to
// advance one tournament are the conformance suite's
// TournamentRacesOpenOnce, on PostgreSQL too.)
func TestTournamentOnPostgres(t *testing.T) {
	parallelUnlessRace(t)
	h := newHarnessOn(t, postgresSchema(t), 20*time.Millisecond)
	tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 3})
	h.signUp(tr, alice, bob)
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 4})
	h.admin(ada, "tournament start")
	restarted := false
	h.playTournament(tr.ID, usersOf(alice, bob), func(tb *cribbage.Table, u discordtest.User) bool {
		if !restarted && tb.Tournament.Round == 2 {
			restarted = true
			h.stopBot()
			h.startBot()
		}
		return false
	})
	done := h.tournament(tr.ID)
	if done.Status != cribbage.TournamentFinished || !restarted {
		t.Fatalf("the tournament ended %s (restarted %v)", done.Status, restarted)
	}
	h.checkPairedOnce(done)
	h.checkStandings(tr.ID)
}

// TestTournamentPairsAfterARestart: the round's last game ends while no
// bot runs (a replica that recorded the resignation and died before it
// paired the next round); the next bot to start pairs it, once.
func TestTournamentPairsAfterARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tr, tb := h.stoppedInRoundOne()
	reopened := h.reopen()
	env := cribbage.Env{Now: h.fake.Now(), Seeds: func() engine.Seed { return engine.SeedFromUint64(h.seeds.Add(1)) }, Computers: ai.Players{}}
	if _, err := servicetest.Update(context.Background(), reopened, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		ch, _, err := cribbage.Move(cur, engine.Action{Kind: engine.ActResign, Seat: 1}, env)
		return ch, err
	}); err != nil {
		t.Fatal(err)
	}
	cur, err := reopened.Tournament(context.Background(), tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if cur.Round != 1 {
		t.Fatalf("round %d paired with no bot running", cur.Round)
	}
	reopened.Close()
	h.startBot()
	h.eventually("round 2 paired", func() bool { return h.tournament(tr.ID).Round == 2 })
	h.playTournament(tr.ID, usersOf(alice, bob), nil)
	done := h.tournament(tr.ID)
	if done.Status != cribbage.TournamentFinished {
		t.Fatalf("the tournament ended %s", done.Status)
	}
	h.checkPairedOnce(done)
	h.checkStandings(tr.ID)
}

// TestTournamentMessageShowsEachResult: a game's end that opens nothing
// (another pairing of the round still plays) is on the tournament message
// all the same, its result in the standings and beside its pairing.
func TestTournamentMessageShowsEachResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 1})
	h.signUp(tr, alice)
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 2})
	h.signUp(tr, bob)
	if a := h.admin(ada, "tournament start"); !strings.Contains(a.Content(), "has begun") {
		t.Fatalf("the start: %q", a.Content())
	}
	// Round 1 in sign-up order: Alice v Computer 1, Computer 2 v Bob.
	tb, _, ok := h.personTable(tr.ID, usersOf(alice))
	if !ok || tb.Seats[1].Name != "Computer 1 (easy)" {
		t.Fatalf("Alice's table: %+v", tb)
	}
	h.resignAt(alice, tb.ID, false)
	h.within(10*time.Second, "Alice's resignation on the tournament message", func() bool {
		return strings.Contains(h.tournamentMessage(tr.ID), fmt.Sprintf("table %d: Computer 1 (easy) won", tb.ID))
	})
	h.checkStandings(tr.ID)
	if _, _, ok := h.personTable(tr.ID, usersOf(bob)); !ok {
		t.Error("Bob's game is over too")
	}
	h.noIdenticalEdits()
}

// TestTournamentComputerClaimsAForfeit: a person who leaves their game
// against a computer entrant does not hold the tournament up for ever:
// after the forfeit time the computer takes the win, as a person could
// claim it, and the round goes on.
func TestTournamentComputerClaimsAForfeit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 1})
	h.signUp(tr, alice)
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 3})
	if a := h.admin(ada, "tournament start"); !strings.Contains(a.Content(), "has begun") {
		t.Fatalf("the start: %q", a.Content())
	}
	tb, _, ok := h.personTable(tr.ID, usersOf(alice))
	if !ok {
		t.Fatal("Alice has no game")
	}
	// The computer throws to the crib once the start is answered (the
	// tournament's pass plays it, on the machine's time); from then the
	// game waits on Alice alone, and she never moves. Its claim is the
	// timer pass's, at the fake clock's time a week on.
	h.whileMoving(tr.ID, "the computer's throw", func() bool { return !h.table(tb.ID).OwnMove() })
	h.fake.Advance(7*24*time.Hour + time.Minute)
	h.wantStatus("the computer's forfeit", tb.ID, cribbage.StatusFinished)
	r := h.table(tb.ID).State.Result
	if r == nil || r.Reason != engine.ReasonForfeit || tb.Seats[r.Winner].Computer == "" || cribbage.GamePoints(r) != 2 {
		t.Fatalf("the forfeit: %+v", r)
	}
	h.whileMoving(tr.ID, "the playoff", func() bool { return h.tournament(tr.ID).Status != cribbage.TournamentQualifying })
}

// TestACancelCutShortIsFinishedAtTheNextStart: a cancel saves the
// tournament's end, then cancels its open games one by one. A process that
// dies in between leaves games open; the next bot to start (or any
// replica's next timer pass) cancels them, so nobody plays on a game that
// counts for nothing.
func TestACancelCutShortIsFinishedAtTheNextStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tr, tb := h.stoppedInRoundOne()
	// What the cancel saved before its process died: the tournament's
	// end, not yet its games'.
	reopened := h.reopen()
	if _, err := servicetest.UpdateTournament(context.Background(), reopened, tr.ID, "", func(cur *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		return &cribbage.TournamentChange{Tournament: cur}, cur.Cancel(ada.ID)
	}); err != nil {
		t.Fatal(err)
	}
	reopened.Close()
	h.startBot()
	h.eventually("the game of the cancelled tournament cancelled", func() bool { return h.table(tb.ID).Status == cribbage.StatusCancelled })
	for _, other := range h.tournamentTables(tr.ID) {
		if other.Status.Open() {
			t.Errorf("table %d of the cancelled tournament is still %s", other.ID, other.Status)
		}
	}
}

// stoppedInRoundOne opens a two-round tournament of Alice, Bob and two
// computers, one game a pairing, starts it and stops the bot: it returns
// the tournament and Alice and Bob's open game.
func (h *harness) stoppedInRoundOne() (*cribbage.Tournament, *cribbage.Table) {
	h.t.Helper()
	tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 2})
	h.signUp(tr, alice, bob)
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 2})
	h.admin(ada, "tournament start")
	tb, _, ok := h.personTable(tr.ID, usersOf(alice, bob))
	if !ok {
		h.t.Fatal("no game for Alice and Bob")
	}
	h.stopBot()
	return tr, tb
}

// reopen opens the stopped bot's database, as a process that is not the
// bot: the caller closes it before the bot starts again.
func (h *harness) reopen() *store.Store {
	h.t.Helper()
	st, err := store.Open(context.Background(), h.path, store.WithClock(h.fake.Now))
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// heldComputers are engine/ai's players, but the first decision any of
// them is asked for waits, once it has closed asked, until release is
// closed: a test sees what goes on while a computer is thinking.
type heldComputers struct {
	ai.Players
	once    sync.Once
	asked   chan struct{}
	release chan struct{}
}

func (c *heldComputers) Decide(level string, v engine.View, seed uint64) (engine.Action, bool) {
	c.once.Do(func() {
		close(c.asked)
		<-c.release
	})
	return c.Players.Decide(level, v, seed)
}

// TestAnotherTableMovesWhileComputersPlay: a tournament's pairing of two
// computer entrants is played after the transaction that opens it, never
// in it, so while its first computer is thinking (held back here until
// the test lets it go) another table's move is answered and saved — on
// SQLite, whose one writer every table shares, and on PostgreSQL. Then
// the pairing is played, once, and the tournament to its champion. Were
// the computers' decisions made while a write transaction is open, on
// SQLite the start's answer or Alice and Bob's move would wait on the held
// computer for the writer, past Discord's 3 s, and the test would fail.
func TestAnotherTableMovesWhileComputersPlay(t *testing.T) {
	parallelUnlessRace(t)
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			held := &heldComputers{asked: make(chan struct{}), release: make(chan struct{})}
			var once sync.Once
			release := func() { once.Do(func() { close(held.release) }) }
			url := ""
			if db == "postgres" {
				url = postgresSchema(t)
			}
			h := newHarnessWith(t, func(h *harness) { h.databaseURL, h.computers = url, held })
			// Cleanups run last first: the computer is let go before the
			// bot is stopped.
			t.Cleanup(release)
			id, msg := h.open(alice)
			h.click(bob, msg, "/join/"+itoa64(id))
			tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 1})
			h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 4})
			// The start is answered: opening the round's tables plays
			// nothing.
			if a := h.admin(ada, "tournament start"); !strings.Contains(a.Content(), "has begun") {
				t.Fatalf("the start: %q", a.Content())
			}
			select {
			case <-held.asked:
			case <-time.After(30 * time.Second):
				t.Fatal("no computer entrant was asked to decide")
			}
			opened := h.tournamentTables(tr.ID)
			before := h.table(id)
			h.step(id, msg, usersOf(alice, bob))
			if after := h.table(id); after.Version != before.Version+1 {
				t.Fatalf("Alice and Bob's table at version %d after a move from %d", after.Version, before.Version)
			}
			// The pairing's game was being played all along: nothing of
			// it is saved while its computer thinks.
			for _, tb := range h.tournamentTables(tr.ID) {
				if tb.Status != cribbage.StatusPlaying || tb.Version != 1 {
					t.Errorf("tournament table %d is %s at version %d while its computer thinks", tb.ID, tb.Status, tb.Version)
				}
			}
			if len(opened) != 2 {
				t.Fatalf("round 1 opened %d tables, want 2", len(opened))
			}
			release()
			h.whileMoving(tr.ID, "the champion", func() bool { return h.tournament(tr.ID).Status == cribbage.TournamentFinished })
			done := h.tournament(tr.ID)
			h.checkPairedOnce(done)
			for _, tb := range h.tournamentTables(tr.ID) {
				if acts, err := h.store.Actions(context.Background(), tb.ID); err != nil || tb.Status != cribbage.StatusFinished || countDeals(acts) != tb.State.HandNo {
					t.Errorf("table %d: %s, %d deals in the log for %d hands, %v", tb.ID, tb.Status, countDeals(acts), tb.State.HandNo, err)
				}
			}
		})
	}
}

// countDeals counts the deals in an action log: a game played once has
// one a hand.
func countDeals(log []cribbage.LoggedAction) int {
	n := 0
	for _, la := range log {
		if la.Action.Kind == engine.ActDeal {
			n++
		}
	}
	return n
}
