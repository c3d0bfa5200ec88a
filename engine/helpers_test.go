package engine

import (
	"strconv"
	"testing"
)

// firstLegal returns the first legal action for the seat the game waits on,
// taking hand seeds from next; it is the scripted player of the speed
// targets and the transcripts.
func firstLegal(g *State, nextSeed func() Seed) Action {
	switch g.Phase {
	case PhaseDeal:
		seed := nextSeed()
		return Action{Kind: ActDeal, Seat: g.Dealer, Seed: &seed}
	case PhaseDiscard:
		seat := g.Waiting()[0]
		return Action{Kind: ActDiscard, Seat: seat, Cards: g.Hands[seat].Cards()[:g.Options.DiscardSize()]}
	case PhasePlay:
		return Action{Kind: ActPlay, Seat: g.Turn, Card: g.LegalPlays(g.Turn)[0]}
	case PhaseShow:
		seat, crib := g.ShowOrder(g.Shown)
		return Action{Kind: ActClaim, Seat: seat, Points: g.countShow(seat, crib).Total}
	}
	return Action{}
}

// seedCounter returns a seed source counting up from n.
func seedCounter(n uint64) func() Seed {
	return func() Seed { n++; return SeedFromUint64(n) }
}

// playOut plays g to the end with firstLegal, checking invariants after
// every action, and returns the final state and every event.
func playOut(t testing.TB, g *State, nextSeed func() Seed) (*State, []Event) {
	t.Helper()
	var all []Event
	for steps := 0; g.Phase != PhaseOver; steps++ {
		if steps > 5000 {
			t.Fatalf("game did not end")
		}
		a := firstLegal(g, nextSeed)
		next, events, err := g.Apply(a)
		if err != nil {
			t.Fatalf("apply %+v: %v", a, err)
		}
		if err := next.Validate(); err != nil {
			t.Fatalf("after %+v: %v", a, err)
		}
		for side := range g.Scores {
			if next.Scores[side] < g.Scores[side] {
				t.Fatalf("score went down after %+v", a)
			}
		}
		all = append(all, events...)
		g = next
	}
	return g, all
}

// mustNew starts a game or fails the test.
func mustNew(t testing.TB, opts Options, seed uint64) *State {
	t.Helper()
	g, _, err := New(opts, SeedFromUint64(seed))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// position builds a hand in the play: hands are the kept cards per seat,
// crib the four crib cards; everything else is stock. The seat to the
// dealer's left is to play.
func position(t testing.TB, opts Options, dealer int, hands []string, crib, starter string) *State {
	t.Helper()
	g, _, err := New(opts, SeedFromUint64(1))
	if err != nil {
		t.Fatal(err)
	}
	g.HandNo, g.Dealer, g.Phase, g.StarterUp = 1, dealer, PhasePlay, true
	used := CardSet(0)
	for seat, h := range hands {
		g.Hands[seat] = SetOf(MustParseCards(h)...)
		used |= g.Hands[seat]
	}
	g.Crib = SetOf(MustParseCards(crib)...)
	g.Starter = MustParseCard(starter)
	g.Stock = FullDeck &^ used &^ g.Crib &^ SetOf(g.Starter)
	g.Turn = g.left(dealer)
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}

// apply applies actions in order, failing the test on an error, and returns
// the final state and all events.
func apply(t testing.TB, g *State, actions ...Action) (*State, []Event) {
	t.Helper()
	var all []Event
	for _, a := range actions {
		next, events, err := g.Apply(a)
		if err != nil {
			t.Fatalf("apply %+v: %v", a, err)
		}
		if err := next.Validate(); err != nil {
			t.Fatalf("after %+v: %v", a, err)
		}
		g, all = next, append(all, events...)
	}
	return g, all
}

// plays turns "0:5H 1:TD" into play actions by seat.
func plays(t testing.TB, s string) []Action {
	t.Helper()
	var out []Action
	for _, f := range splitFields(s) {
		if len(f) < 3 || f[1] != ':' {
			t.Fatalf("bad play %q", f)
		}
		out = append(out, Action{Kind: ActPlay, Seat: int(f[0] - '0'), Card: MustParseCard(f[2:])})
	}
	return out
}

// splitFields splits on spaces.
func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// pegged sums the points of events of the given kind by seat.
func pegged(events []Event, kinds ...EventKind) map[int]int {
	out := map[int]int{}
	for _, e := range events {
		for _, k := range kinds {
			if e.Kind == k {
				out[e.Seat] += e.Points
			}
		}
	}
	return out
}

// kinds lists the events' kinds with their seats, for compact assertions.
func kinds(events []Event) string {
	s := ""
	for _, e := range events {
		if s != "" {
			s += " "
		}
		s += e.Kind.String() + ":" + strconv.Itoa(e.Seat)
		if e.Points > 0 {
			s += "+" + strconv.Itoa(e.Points)
		}
	}
	return s
}
