package mock

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// Numbers and milestones, kept as the SQL store keeps them
// (store/numbers.go): a finished game's account (cribbage.Table.Account)
// from its log, a line a person a counted game and a line a throw, each
// milestone recorded once with its news queued in the change that earns
// it. The conformance suite holds the two alike.

// gameLine is one person's numbers from one counted game.
type gameLine struct {
	tableID    int64
	guildID    string
	finishedAt time.Time
	result     cribbage.PlayerResult
	numbers    cribbage.GameNumbers
}

// dealLine is one person's throw in a counted game's deal.
type dealLine struct {
	tableID    int64
	guildID    string
	userID     string
	finishedAt time.Time
	players    int
	deal       cribbage.Deal
	seat       int
	reviewed   bool
	givenUp    float64
}

// earned is a milestone in the records.
type earned struct {
	guildID, userID string
	cribbage.EarnedMilestone
}

// numbers are a store's numbers and milestones; the zero value has none.
type numbers struct {
	games      []gameLine
	deals      []dealLine
	milestones []earned
}

// announce records the milestones earned at table t that are new and
// queues their news after out, the change's own announcements. The
// caller holds the lock.
func (s *Store) announce(t *cribbage.Table, es []cribbage.Earned, out []cribbage.Outbound, at time.Time) {
	for _, e := range s.numbers.record(t.GuildID, es, at) {
		s.queue(t.ID, []cribbage.Outbound{cribbage.MilestoneNews(e, t.ChannelID, out)})
	}
}

// record records the milestones of es not recorded yet in the server,
// and returns them.
func (n *numbers) record(guildID string, es []cribbage.Earned, at time.Time) []cribbage.Earned {
	var out []cribbage.Earned
	for _, e := range es {
		if slices.ContainsFunc(n.milestones, func(m earned) bool {
			return m.guildID == guildID && m.userID == e.UserID && m.Milestone == e.Milestone
		}) {
			continue
		}
		n.milestones = append(n.milestones, earned{guildID: guildID, userID: e.UserID,
			EarnedMilestone: cribbage.EarnedMilestone{Milestone: e.Milestone, TableID: e.TableID, At: ms(at)}})
		out = append(out, e)
	}
	return out
}

// gameEnd writes what finishing table t (as stored, its records written)
// adds to the numbers and milestones, as the store's recordGameEnd does.
// The caller holds the lock.
func (s *Store) gameEnd(t *cribbage.Table, out []cribbage.Outbound) {
	a, err := t.Account(s.actions[t.ID])
	if err != nil {
		a = nil // a game made up in a test: no numbers, as in the store
	}
	if a != nil && t.Counted(t.Assisted) {
		lines := map[int]cribbage.PlayerResult{}
		for _, p := range t.Results() {
			lines[p.Seat] = p
		}
		for _, gn := range t.NumbersOf(a) {
			s.numbers.games = append(s.numbers.games, gameLine{tableID: t.ID, guildID: t.GuildID, finishedAt: t.FinishedAt, result: lines[gn.Seat], numbers: gn})
			for _, d := range a.Deals {
				if d.Seats[gn.Seat].Thrown != 0 {
					s.numbers.deals = append(s.numbers.deals, dealLine{tableID: t.ID, guildID: t.GuildID, userID: gn.UserID,
						finishedAt: t.FinishedAt, players: t.Options.Players, deal: d, seat: gn.Seat})
				}
			}
		}
	}
	s.announce(t, cribbage.GameMilestones(t, a, s.careers(t)), out, t.FinishedAt)
}

// careers are the careers of the people at finished table t, its records
// written.
func (s *Store) careers(t *cribbage.Table) map[string]cribbage.Career {
	out := map[string]cribbage.Career{}
	for _, u := range t.People() {
		var c cribbage.Career
		var people []gameRecord
		for _, g := range s.records.games {
			if g.guildID != t.GuildID || !slices.ContainsFunc(g.lines, func(p cribbage.PlayerResult) bool { return p.UserID == u }) {
				continue
			}
			c.Games++
			if !g.vsComputer {
				people = append(people, g)
				i := slices.IndexFunc(g.lines, func(p cribbage.PlayerResult) bool { return p.UserID == u })
				c.Wins += boolInt(g.lines[i].Won)
			}
		}
		slices.SortFunc(people, func(a, b gameRecord) int {
			return cmp.Or(b.finishedAt.Compare(a.finishedAt), cmp.Compare(b.tableID, a.tableID))
		})
		c.Streak = streak(people, u)
		out[u] = c
	}
	return out
}

// champion records the TournamentWon of the champion a change from
// before to t crowns, with its news in the record of its last table. The
// caller holds the lock.
func (s *Store) champion(before, t *cribbage.Tournament) {
	var last *cribbage.Table
	for _, tb := range s.tables {
		if tb.Tournament != nil && tb.Tournament.ID == t.ID && (last == nil || tb.ID > last.ID) {
			last = tb
		}
	}
	if e, ok := cribbage.ChampionMilestone(before, t, last); ok {
		at := t.FinishedAt
		if at.IsZero() {
			at = last.FinishedAt
		}
		for _, e := range s.numbers.record(t.GuildID, []cribbage.Earned{e}, at) {
			s.queue(last.ID, []cribbage.Outbound{cribbage.MilestoneNews(e, last.ChannelID, nil)})
		}
	}
}

// PlayerNumbers implements cribbage.RecordService.
func (s *Store) PlayerNumbers(ctx context.Context, guildID, userID string, since time.Time) (cribbage.Numbers, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n cribbage.Numbers
	var mine []gameLine
	for _, g := range s.numbers.games {
		if g.guildID != guildID || g.numbers.UserID != userID {
			continue
		}
		mine = append(mine, g)
		p := s.period(g)
		n.All = addPeriod(n.All, p)
		if !g.finishedAt.Before(ms(since)) {
			n.Recent = addPeriod(n.Recent, p)
		}
	}
	slices.SortStableFunc(mine, func(a, b gameLine) int {
		return cmp.Or(a.finishedAt.Compare(b.finishedAt), cmp.Compare(a.tableID, b.tableID))
	})
	for _, g := range mine[max(len(mine)-cribbage.TrendGames, 0):] {
		p := s.period(g)
		d, o := p.Dealer, p.Pone
		n.Trend = append(n.Trend, cribbage.TrendGame{TableID: g.tableID, At: g.finishedAt, Deals: d.Deals + o.Deals,
			Points: d.Pegging + d.Hand + d.Crib + o.Pegging + o.Hand, Throws: d.Throws + o.Throws, GivenUp: d.GivenUp + o.GivenUp})
	}
	n.Best = s.bestHands(guildID, userID)
	for _, m := range s.numbers.milestones {
		if m.guildID == guildID && m.userID == userID {
			n.Milestones = append(n.Milestones, m.EarnedMilestone)
		}
	}
	cribbage.SortMilestones(n.Milestones)
	for _, d := range s.numbers.deals {
		if d.guildID == guildID && d.userID == userID && !d.reviewed {
			n.Unreviewed++
		}
	}
	return n, nil
}

// period is one game line's numbers, with its throws reviewed so far.
func (s *Store) period(g gameLine) cribbage.Period {
	p := cribbage.Period{Games: 1, Wins: boolInt(g.result.Won),
		SkunksGiven: g.result.SkunksGiven + g.result.DoubleSkunksGiven, DoubleSkunksGiven: g.result.DoubleSkunksGiven,
		SkunksTaken: g.result.SkunksTaken + g.result.DoubleSkunksTaken, DoubleSkunksTaken: g.result.DoubleSkunksTaken,
		Dealer: g.numbers.Dealer, Pone: g.numbers.Pone}
	for _, d := range s.numbers.deals {
		if d.tableID != g.tableID || d.seat != g.numbers.Seat || !d.reviewed {
			continue
		}
		r := &p.Pone
		if d.deal.Dealer == d.seat {
			r = &p.Dealer
		}
		r.Throws++
		r.GivenUp += d.givenUp
	}
	return p
}

// addPeriod adds two periods' numbers.
func addPeriod(a, b cribbage.Period) cribbage.Period {
	a.Games += b.Games
	a.Wins += b.Wins
	a.SkunksGiven += b.SkunksGiven
	a.DoubleSkunksGiven += b.DoubleSkunksGiven
	a.SkunksTaken += b.SkunksTaken
	a.DoubleSkunksTaken += b.DoubleSkunksTaken
	a.Dealer.Add(b.Dealer)
	a.Pone.Add(b.Pone)
	return a
}

// bestHands are a player's three best hands or cribs, as the store
// orders them: best first, then the latest.
func (s *Store) bestHands(guildID, userID string) []cribbage.BestHand {
	var out []cribbage.BestHand
	var all []dealLine
	for _, d := range s.numbers.deals {
		if d.guildID == guildID && d.userID == userID {
			all = append(all, d)
		}
	}
	slices.SortStableFunc(all, func(a, b dealLine) int {
		return cmp.Or(cmp.Compare(best(b), best(a)), b.finishedAt.Compare(a.finishedAt), cmp.Compare(b.tableID, a.tableID), cmp.Compare(b.deal.Hand, a.deal.Hand))
	})
	for _, d := range all {
		if len(out) == 3 || best(d) < 0 {
			break
		}
		ds := d.deal.Seats[d.seat]
		b := cribbage.BestHand{Points: best(d), Cards: ds.Kept(), Starter: d.deal.Starter, TableID: d.tableID, At: d.finishedAt}
		if ds.CribShown && (!ds.HandShown || ds.Crib > ds.Hand) {
			b.Crib, b.Cards = true, d.deal.Crib
		}
		out = append(out, b)
	}
	return out
}

// best is the better of a throw's hand and crib as scored, or -1.
func best(d dealLine) int {
	ds := d.deal.Seats[d.seat]
	b := -1
	if ds.HandShown {
		b = ds.Hand
	}
	if ds.CribShown {
		b = max(b, ds.Crib)
	}
	return b
}

// UnreviewedThrows implements cribbage.RecordService.
func (s *Store) UnreviewedThrows(ctx context.Context, guildID, userID string, limit int) ([]cribbage.Throw, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var todo []dealLine
	for _, d := range s.numbers.deals {
		if !d.reviewed && (userID == "" || d.guildID == guildID && d.userID == userID) {
			todo = append(todo, d)
		}
	}
	slices.SortStableFunc(todo, func(a, b dealLine) int {
		return cmp.Or(a.finishedAt.Compare(b.finishedAt), cmp.Compare(a.tableID, b.tableID), cmp.Compare(a.deal.Hand, b.deal.Hand), cmp.Compare(a.seat, b.seat))
	})
	var out []cribbage.Throw
	for _, d := range todo[:min(limit, len(todo))] {
		ds := d.deal.Seats[d.seat]
		out = append(out, cribbage.Throw{TableID: d.tableID, Hand: d.deal.Hand, Seat: d.seat, Dealer: d.deal.Dealer,
			Options: engine.Options{Players: d.players, Target: 121}, Dealt: ds.Dealt, Thrown: ds.Thrown})
	}
	return out, nil
}

// ReviewThrows implements cribbage.RecordService.
func (s *Store) ReviewThrows(ctx context.Context, reviews []cribbage.ThrowReview) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range reviews {
		for i := range s.numbers.deals {
			d := &s.numbers.deals[i]
			if d.tableID == r.TableID && d.deal.Hand == r.Hand && d.seat == r.Seat && !d.reviewed {
				d.reviewed, d.givenUp = true, r.GivenUp
			}
		}
	}
	return nil
}
