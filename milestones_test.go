package cribbage

import (
	"reflect"
	"slices"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// shown is the event of a hand (or crib) counted in the show.
func shown(seat int, hand, starter string, crib bool) engine.Event {
	cs, st := engine.MustParseCards(hand), engine.MustParseCard(starter)
	b := engine.ScoreShow(cs, st, crib)
	return engine.Event{Kind: engine.EvShow, Seat: seat, Crib: crib, Cards: cs, Card: st, Items: b.Items, Points: b.Total}
}

// personAndBob is a two-player table of alice and bob in its second hand.
func personAndBob() *Table {
	return &Table{ID: 7, Options: engine.Options{Players: 2, Target: 121}, Seats: []Seat{{UserID: "alice", Name: "Alice"}, {UserID: "bob", Name: "Bob"}},
		State: &engine.State{HandNo: 2, Phase: engine.PhasePlay}}
}

// milestonesOf lists what earned says each user earned, in order.
func milestonesOf(earned []Earned) map[string][]Milestone {
	out := map[string][]Milestone{}
	for _, e := range earned {
		out[e.UserID] = append(out[e.UserID], e.Milestone)
	}
	return out
}

func TestMilestonesNow(t *testing.T) {
	pair12 := engine.Event{Kind: engine.EvPlay, Seat: 1, Card: engine.MustParseCard("7C"), Items: []engine.ScoreItem{{Kind: engine.KindPair, Points: 12}}, Points: 12}
	run5 := engine.Event{Kind: engine.EvPlay, Seat: 0, Items: []engine.ScoreItem{{Kind: engine.KindRun, Points: 5}, {Kind: engine.KindFifteen, Points: 2}}, Points: 7}
	run4 := engine.Event{Kind: engine.EvPlay, Seat: 0, Items: []engine.ScoreItem{{Kind: engine.KindRun, Points: 4}}, Points: 4}
	muggins := engine.Event{Kind: engine.EvMuggins, Seat: 1, Other: 0, Items: []engine.ScoreItem{{Kind: engine.KindMuggins, Points: 3}}, Points: 3}
	overClaim := engine.Event{Kind: engine.EvMuggins, Seat: 1, Other: 0, Items: []engine.ScoreItem{{Kind: engine.KindOverClaim, Points: 3}}, Points: 3}
	claim29 := shown(0, "5H 5D 5C JS", "5S", false)
	claim29.Kind, claim29.Points, claim29.Claimed, claim29.Missed = engine.EvClaim, 20, 20, 9
	for _, tc := range []struct {
		name   string
		events []engine.Event
		want   map[string][]Milestone
	}{
		{"the 29 hand, and not also a 20", []engine.Event{shown(0, "5H 5D 5C JS", "5S", false)}, map[string][]Milestone{"alice": {TwentyNine, FourOfAKind}}},
		{"a 29 claimed as 20 is still held", []engine.Event{claim29}, map[string][]Milestone{"alice": {TwentyNine, FourOfAKind}}},
		{"28 and four of a kind", []engine.Event{shown(1, "5H 5D 5C 5S", "KH", false)}, map[string][]Milestone{"bob": {TwentyEight, FourOfAKind}}},
		{"a 24 crib", []engine.Event{shown(1, "4H 4D 5C 6S", "6H", true)}, map[string][]Milestone{"bob": {TwentyFour}}},
		{"A-7-7-7-7: 24 and four of a kind", []engine.Event{shown(0, "7H 7D 7C 7S", "AH", false)}, map[string][]Milestone{"alice": {TwentyFour, FourOfAKind}}},
		{"a 20", []engine.Event{shown(0, "5H 5D JC QS", "5S", false)}, map[string][]Milestone{"alice": {Twenty}}},
		{"19 is nothing", []engine.Event{shown(0, "2H 4D 8C TS", "KS", false)}, map[string][]Milestone{}},
		{"a five-card flush", []engine.Event{shown(0, "2H 4H 8H TH", "KH", false)}, map[string][]Milestone{"alice": {FiveCardFlush}}},
		{"a four-card flush is no milestone", []engine.Event{shown(0, "2H 4H 8H TH", "KS", false)}, map[string][]Milestone{}},
		{"double pair royal in the play", []engine.Event{pair12}, map[string][]Milestone{"bob": {DoublePairRoyal}}},
		{"a run of five in the play, not of four", []engine.Event{run4, run5}, map[string][]Milestone{"alice": {RunOfFive}}},
		{"muggins taken, not an over-claim's excess", []engine.Event{overClaim, muggins}, map[string][]Milestone{"bob": {Muggins}}},
		{"once a change", []engine.Event{shown(0, "5H 5D JC QS", "5S", false), shown(0, "5H 5D JC KS", "5S", true)}, map[string][]Milestone{"alice": {Twenty}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := milestonesOf(MilestonesNow(personAndBob(), tc.events))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("earned %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMilestonesNowNamesTheHandAndThePerson: news carries the person's
// name and the table, and the hand whose record tells it: the hand shown,
// when the change deals the next one too.
func TestMilestonesNowNamesTheHandAndThePerson(t *testing.T) {
	tb := personAndBob()
	tb.State.HandNo = 3
	events := []engine.Event{shown(0, "5H 5D 5C JS", "5S", false), {Kind: engine.EvHandOver, N: 2}, {Kind: engine.EvDeal, N: 3}}
	got := MilestonesNow(tb, events)
	want := []Earned{{UserID: "alice", Name: "Alice", Milestone: TwentyNine, TableID: 7, Hand: 2}, {UserID: "alice", Name: "Alice", Milestone: FourOfAKind, TableID: 7, Hand: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("earned %+v, want %+v", got, want)
	}
	tb.Seats[0] = Seat{Computer: "expert", Name: "Computer"}
	if got := MilestonesNow(tb, events); len(got) != 0 {
		t.Errorf("a computer earned %+v", got)
	}
}

// over is a finished table of opts with the seats of users ("easy" or
// "expert" a computer of that level), won by side winner with scores; the
// game has had a card played unless unplayed.
func over(opts engine.Options, winner int, scores []int, reason engine.ResultReason, users ...string) *Table {
	tb := &Table{ID: 9, Options: opts, Status: StatusFinished}
	for _, u := range users {
		if u == "easy" || u == "expert" {
			tb.Seats = append(tb.Seats, Seat{Computer: u, Name: "Computer"})
			continue
		}
		tb.Seats = append(tb.Seats, Seat{UserID: u, Name: u})
	}
	r := &engine.Result{Reason: reason, Winner: winner, Loser: -1, Scores: scores, Skunks: make([]int, len(scores)), Games: 1}
	if reason == engine.ReasonTarget {
		for side, s := range scores {
			if side != winner {
				r.Skunks[side] = engine.SkunkLevel(s, opts.Target)
			}
		}
	}
	tb.State = &engine.State{Options: opts, HandNo: 9, Phase: engine.PhaseOver, Scores: scores, Result: r}
	return tb
}

func TestGameMilestones(t *testing.T) {
	two := engine.Options{Players: 2, Target: 121}
	short := engine.Options{Players: 2, Target: 61}
	three := engine.Options{Players: 3, Target: 121}
	four := engine.Options{Players: 4, Target: 121}
	partners := engine.Options{Players: 4, Partners: true, Target: 121}
	target, resigned := engine.ReasonTarget, engine.ReasonResigned
	deals := func(pegging ...int) *Account {
		a := &Account{Behind: []int{0, 0}, LastDealt: []int{0, 0}}
		for _, p := range pegging {
			a.Deals = append(a.Deals, Deal{Seats: []DealSeat{{Pegging: p}, {}}})
		}
		return a
	}
	matchWon := &Match{BestOf: 3, Games: []MatchGame{{Winner: 0}, {Winner: 0}}}
	for _, tc := range []struct {
		name    string
		table   *Table
		account *Account
		careers map[string]Career
		want    map[string][]Milestone
	}{
		{"a win against a person", over(two, 0, []int{121, 100}, target, "alice", "bob"), nil, nil, map[string][]Milestone{"alice": {FirstWin}}},
		{"a skunk", over(two, 1, []int{80, 121}, target, "alice", "bob"), nil, nil, map[string][]Milestone{"bob": {FirstWin, Skunk}}},
		{"a double skunk", over(two, 1, []int{60, 121}, target, "alice", "bob"), nil, nil, map[string][]Milestone{"bob": {FirstWin, DoubleSkunk}}},
		{"a skunk at 61", over(short, 0, []int{61, 30}, target, "alice", "bob"), nil, nil, map[string][]Milestone{"alice": {FirstWin, Skunk}}},
		{"a resignation is never a skunk", over(two, 0, []int{50, 10}, resigned, "alice", "bob"), nil, nil, map[string][]Milestone{"alice": {FirstWin}}},
		{"the easy computer", over(two, 0, []int{121, 100}, target, "alice", "easy"), nil, nil, map[string][]Milestone{"alice": {BeatTheComputer}}},
		{"the strong computer", over(two, 0, []int{121, 100}, target, "alice", "expert"), nil, nil, map[string][]Milestone{"alice": {BeatTheComputer, BeatStrong}}},
		{"losing to the computer", over(two, 1, []int{100, 121}, target, "alice", "expert"), nil, nil, map[string][]Milestone{}},
		{"a three-hander, each loser skunked", over(three, 2, []int{88, 55, 121}, target, "alice", "bob", "carol"), nil, nil,
			map[string][]Milestone{"carol": {FirstWin, ThreeHandedWin, Skunk, DoubleSkunk}}},
		{"four each for themselves", over(four, 3, []int{100, 95, 92, 121}, target, "a", "b", "c", "d"), nil, nil, map[string][]Milestone{"d": {FirstWin, FourHandedWin}}},
		{"partners share it", over(partners, 1, []int{110, 121}, target, "a", "b", "c", "d"), nil, nil,
			map[string][]Milestone{"b": {FirstWin, PartnershipWin}, "d": {FirstWin, PartnershipWin}}},
		{"a computer partner against people: no first win", over(partners, 0, []int{121, 110}, target, "a", "b", "easy", "d"), nil, nil, map[string][]Milestone{"a": {PartnershipWin}}},
		{"the stink hole", over(two, 0, []int{121, 120}, target, "alice", "bob"), nil, nil, map[string][]Milestone{"alice": {FirstWin, StinkHole}}},
		{"pegged out from behind", over(two, 0, []int{121, 118}, target, "alice", "bob"),
			&Account{Behind: []int{12, 3}, LastDealt: []int{109, 112}, WonInPlay: true}, nil, map[string][]Milestone{"alice": {FirstWin, PeggedOutBehind}}},
		{"pegged out from ahead is not", over(two, 0, []int{121, 118}, target, "alice", "bob"),
			&Account{Behind: []int{12, 3}, LastDealt: []int{113, 112}, WonInPlay: true}, nil, map[string][]Milestone{"alice": {FirstWin}}},
		{"counted out from behind is not", over(two, 0, []int{121, 118}, target, "alice", "bob"),
			&Account{Behind: []int{12, 3}, LastDealt: []int{100, 112}}, nil, map[string][]Milestone{"alice": {FirstWin}}},
		{"a comeback of 30", over(two, 0, []int{121, 118}, target, "alice", "bob"),
			&Account{Behind: []int{ComebackPoints, 3}, LastDealt: []int{113, 112}}, nil, map[string][]Milestone{"alice": {FirstWin, Comeback}}},
		{"29 behind is no comeback", over(two, 0, []int{121, 118}, target, "alice", "bob"),
			&Account{Behind: []int{ComebackPoints - 1, 3}, LastDealt: []int{113, 112}}, nil, map[string][]Milestone{"alice": {FirstWin}}},
		{"pegging 12 in a hand, won or lost", over(two, 1, []int{100, 121}, target, "alice", "bob"), deals(3, BigPeggingPoints, 1), nil,
			map[string][]Milestone{"alice": {BigPegging}, "bob": {FirstWin}}},
		{"11 is not", over(two, 1, []int{100, 121}, target, "alice", "bob"), deals(BigPeggingPoints - 1), nil, map[string][]Milestone{"bob": {FirstWin}}},
		{"a match won", func() *Table {
			tb := over(two, 0, []int{121, 100}, target, "alice", "bob")
			tb.Match = matchWon
			return tb
		}(), nil, nil, map[string][]Milestone{"alice": {FirstWin, MatchWon}}},
		{"careers: thresholds reached", over(two, 0, []int{121, 100}, target, "alice", "bob"), nil,
			map[string]Career{"alice": {Games: 100, Wins: 50, Streak: 5}, "bob": {Games: 9, Wins: 9, Streak: -1}},
			map[string][]Milestone{"alice": {FirstWin, Games10, Games100, Wins10, Wins50, Streak5}}},
		{"careers: past every threshold", over(two, 1, []int{100, 121}, target, "alice", "bob"), nil,
			map[string]Career{"bob": {Games: 600, Wins: 300, Streak: 12}},
			map[string][]Milestone{"bob": {FirstWin, Games10, Games100, Games500, Wins10, Wins50, Wins100, Streak5, Streak10}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := milestonesOf(GameMilestones(tc.table, tc.account, tc.careers))
			for u, ms := range tc.want {
				if len(ms) == 0 {
					delete(tc.want, u)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("earned %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAGameNobodyPlayedEarnsNothing: a resignation before any card left a
// hand earns nothing, career included; it rates nobody either.
func TestAGameNobodyPlayedEarnsNothing(t *testing.T) {
	a, log := gameA(t)
	g, _, err := engine.New(a.Options, *a.CutSeed)
	if err != nil {
		t.Fatal(err)
	}
	if g, _, err = g.Apply(engine.Action{Kind: engine.ActResign, Seat: 1}); err != nil {
		t.Fatal(err)
	}
	a.State = g
	if got := GameMilestones(a, nil, map[string]Career{"alice": {Games: 10, Wins: 10}}); len(got) != 0 {
		t.Errorf("earned %+v", got)
	}
	// The same game played to hand 3 earns the win.
	a, log = gameA(t)
	acc, err := a.Account(log)
	if err != nil {
		t.Fatal(err)
	}
	want := []Earned{{UserID: "alice", Name: "Alice", Milestone: FirstWin, TableID: 2, Hand: 3}}
	if got := GameMilestones(a, acc, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("earned %+v, want %+v", got, want)
	}
}

func TestChampionMilestone(t *testing.T) {
	last := &Table{ID: 40, State: &engine.State{HandNo: 6}}
	before := &Tournament{Entrants: []Entrant{{UserID: "alice", Name: "Alice"}, {UserID: "cpu1", Name: "Computer 1 (easy)", Computer: "easy"}}}
	crowned := before.Clone()
	crowned.Champion = "alice"
	if e, ok := ChampionMilestone(before, crowned, last); !ok || e != (Earned{UserID: "alice", Name: "Alice", Milestone: TournamentWon, TableID: 40}) {
		t.Errorf("crowning alice: %+v %v", e, ok)
	}
	if _, ok := ChampionMilestone(crowned, crowned, last); ok {
		t.Error("a change after the crowning earns it again")
	}
	computer := before.Clone()
	computer.Champion = "cpu1"
	if _, ok := ChampionMilestone(before, computer, last); ok {
		t.Error("a computer champion earns it")
	}
}

func TestDailyMilestones(t *testing.T) {
	for days, want := range map[int][]Milestone{6: nil, 7: {DailyWeek}, 29: {DailyWeek}, 30: {DailyWeek, DailyMonth}} {
		if got := DailyMilestones(days); !slices.Equal(got, want) {
			t.Errorf("%d days: %v, want %v", days, got, want)
		}
	}
}

// TestMilestoneNews: the news goes with the change's own announcements,
// waiting when they all wait, and reads back as it was earned.
func TestMilestoneNews(t *testing.T) {
	e := Earned{UserID: "alice", Name: "Alice", Milestone: TwentyNine, TableID: 7, Hand: 2}
	line, post := Outbound{Waits: true}, Outbound{}
	for _, tc := range []struct {
		out   []Outbound
		waits bool
	}{{nil, false}, {[]Outbound{line}, true}, {[]Outbound{line, post}, false}, {[]Outbound{post}, false}} {
		o := MilestoneNews(e, "c", tc.out)
		if o.Waits != tc.waits || o.Kind != OutboxMilestone || o.ChannelID != "c" {
			t.Errorf("after %v: %+v", tc.out, o)
		}
		if back, err := ReadMilestoneNews(o.Payload); err != nil || back != e {
			t.Errorf("read back %+v, %v", back, err)
		}
	}
}

// TestEveryMilestoneIsListed: each milestone is in AllMilestones once.
func TestEveryMilestoneIsListed(t *testing.T) {
	seen := map[Milestone]bool{}
	for _, m := range AllMilestones {
		if seen[m] {
			t.Errorf("%s twice", m)
		}
		seen[m] = true
	}
	if len(seen) < 24 {
		t.Errorf("only %d milestones", len(seen))
	}
}

// TestDailyEarned: a run of daily hands earns in the server its answer
// is given in, by Streak's count; a DM's answer earns in none.
func TestDailyEarned(t *testing.T) {
	run := func(n int) []Day {
		var out []Day
		for d := range n {
			out = append(out, Day(100-d))
		}
		return out
	}
	a := DailyAnswer{Day: 100, UserID: "alice", Name: "Alice", GuildID: "g"}
	if got := DailyEarned(a, run(7)); len(got) != 1 || got[0] != (Earned{UserID: "alice", Name: "Alice", Milestone: DailyWeek}) {
		t.Errorf("a week: %+v", got)
	}
	if got := DailyEarned(a, append(run(6), 92)); len(got) != 0 {
		t.Errorf("six days and a gap: %+v", got)
	}
	if got := DailyEarned(a, run(30)); len(got) != 2 {
		t.Errorf("a month: %+v", got)
	}
	a.GuildID = ""
	if got := DailyEarned(a, run(30)); len(got) != 0 {
		t.Errorf("in a DM: %+v", got)
	}
}
