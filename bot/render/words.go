package render

// The words the bot uses for a table: names of seats and sides, scores,
// each event as the story and the hand views tell it, and results. They
// are rendered here; the story (bot/story) and the live surface
// (bot/live) decide where they go.

import (
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
)

// SeatName returns the display name of a seat.
func SeatName(t *cribbage.Table, seat int) string {
	if seat < 0 || seat >= len(t.Seats) {
		return "?"
	}
	return t.Seats[seat].Name
}

// sideName names a side: a player, or "Alice & Carol" for partners.
func sideName(t *cribbage.Table, side int) string {
	var names []string
	for seat := range t.Seats {
		if t.Options.SideOf(seat) == side {
			names = append(names, SeatName(t, seat))
		}
	}
	return strings.Join(names, " & ")
}

// scoreLine lists every side's score: "Alice 45 · Bob 38".
func scoreLine(t *cribbage.Table, scores []int) string {
	parts := make([]string, len(scores))
	for side, s := range scores {
		parts[side] = fmt.Sprintf("%s %d", sideName(t, side), s)
	}
	return strings.Join(parts, " · ")
}

// StoryLine renders one event in l, or "" for events the table message
// shows.
func StoryLine(l lang.Lang, t *cribbage.Table, e engine.Event) string {
	name := SeatName(t, e.Seat)
	switch e.Kind {
	case engine.EvCutForDeal:
		var rounds []string
		for _, round := range engine.CutRounds(len(t.Seats), e.Cards) {
			var cuts []string
			for _, c := range round {
				cuts = append(cuts, fmt.Sprintf("%s %s", SeatName(t, c.Seat), c.Card.Display()))
			}
			rounds = append(rounds, strings.Join(cuts, ", "))
		}
		// A tie for lowest is cut again by the tied players (RULES.md
		// "First dealer"): every round is shown.
		return l.T("story.cut", "Cuts", strings.Join(rounds, l.T("story.cut-again")), "Name", name)
	case engine.EvDeal:
		// The commitment is published before anyone sees a card, so the
		// deal cannot be changed afterwards without it showing.
		return l.T("story.deal", "N", e.N, "Name", name, "Commitment", e.Commitment)
	case engine.EvStarter:
		return l.T("story.starter", "Name", name, "Card", e.Card.Display())
	case engine.EvHeels:
		return l.T("story.heels", "Name", name)
	case engine.EvPlay:
		return playLine(l, name, e)
	case engine.EvGo:
		return l.T("story.go", "Name", name)
	case engine.EvGoPoint:
		return l.T("story.go-point", "Name", name)
	case engine.EvLastCard:
		return l.T("story.last-card", "Name", name)
	case engine.EvReset:
		return l.T("story.reset", "Name", name)
	case engine.EvShow:
		return showLine(l, t, e)
	case engine.EvClaim:
		return claimLine(l, t, e)
	case engine.EvMuggins:
		if e.Items[0].Kind == engine.KindOverClaim {
			return l.T("story.over-counted", "Other", SeatName(t, e.Other), "Name", name, "Points", NumberWord(l, e.Points))
		}
		return l.T("story.muggins", "Name", name, "Points", NumberWord(l, e.Points), "Other", SeatName(t, e.Other))
	case engine.EvHandOver:
		return l.T("story.scores", "Scores", scoreLine(t, e.Scores), "Name", name) + seedLine(l, t, e)
	case engine.EvResign:
		return l.T("story.resigns", "Name", name)
	case engine.EvGameOver:
		return ResultLine(l, t, e.Result) + seedLine(l, t, e)
	}
	return ""
}

// StoryText is an event as the thread's record reads it, in l: the play
// in short fragments ("Bob A♣ 1", "Alice 5♣ 6 fifteen for two"), a line
// for everything else, and each deal's commitment and seed on one short
// line.
func StoryText(l lang.Lang, t *cribbage.Table, e engine.Event) StoryEntry {
	name := SeatName(t, e.Seat)
	switch e.Kind {
	case engine.EvPlay:
		text := fmt.Sprintf("%s %s %d", name, e.Card.Display(), e.Count)
		if e.Points > 0 {
			// "for two" after 31; "a pair, for four" when 31 makes a
			// pair too; "fifteen for two" otherwise.
			what := spokenPlay(l, e.Items)
			points := NumberWord(l, e.Points)
			switch {
			case e.Count == 31 && what == "":
				text += " *" + l.T("record.for", "Points", points) + "*"
			case e.Count == 31:
				text += " *" + l.T("record.what-31", "What", what, "Points", points) + "*"
			default:
				text += " *" + l.T("record.what-for", "What", what, "Points", points) + "*"
			}
		}
		return StoryEntry{Text: text, Frag: true, End: e.Count == 31}
	case engine.EvGo:
		return StoryEntry{Text: l.T("record.go", "Name", name), Frag: true}
	case engine.EvGoPoint:
		return StoryEntry{Text: "*" + l.T("record.go-point", "Name", name) + "*", Frag: true, End: true}
	case engine.EvLastCard:
		return StoryEntry{Text: "*" + l.T("record.last-card", "Name", name) + "*", Frag: true, End: true}
	case engine.EvReset:
		return StoryEntry{}
	case engine.EvDeal:
		// The commitment is published before anyone sees a card, so the
		// deal cannot be changed afterwards without it showing.
		return StoryEntry{Text: l.T("record.deal", "N", e.N, "Name", name, "Commitment", e.Commitment)}
	case engine.EvHandOver:
		return StoryEntry{Text: l.T("record.scores", "Scores", scoreLine(t, e.Scores), "Name", name) + shortSeedLine(l, t, e)}
	case engine.EvGameOver:
		return StoryEntry{Text: ResultLine(l, t, e.Result) + matchStory(l, t) + shortSeedLine(l, t, e)}
	}
	return StoryEntry{Text: StoryLine(l, t, e)}
}

// shortSeedLine reveals a hand's seed once it is over, on one line of
// small text: "" for a game that ended before a deal.
func shortSeedLine(l lang.Lang, t *cribbage.Table, e engine.Event) string {
	if e.Seed == nil {
		return ""
	}
	players := ""
	if t.Options.Players != 2 {
		players = fmt.Sprintf(" %s:%d", l.T("cmd.name.players"), t.Options.Players)
	}
	return "\n" + l.T("record.seed", "N", e.N, "Seed", e.Seed.String(), "Verify", l.T("cmd.name.verify"), "Players", players)
}

// seedLine reveals a hand's seed once the hand is over, with the command
// that deals it again: "" for a game that ended before a deal.
func seedLine(l lang.Lang, t *cribbage.Table, e engine.Event) string {
	if e.Seed == nil {
		return ""
	}
	return "\n" + l.T("story.seed", "N", e.N, "Seed", e.Seed.String(), "Verify", l.T("cmd.name.verify"),
		"SeedOpt", l.T("cmd.name.seed"), "PlayersOpt", l.T("cmd.name.players"), "Players", t.Options.Players)
}

// playLine: "Alice plays 7♣ — 22", "Bob plays 9♦ for 31, two".
func playLine(l lang.Lang, name string, e engine.Event) string {
	card := e.Card.Display()
	if e.Count == 31 {
		if p := spokenPlay(l, e.Items); p != "" {
			return l.T("story.play-31-and", "Name", name, "Card", card, "What", p, "Points", NumberWord(l, e.Points))
		}
		return l.T("story.play-31", "Name", name, "Card", card, "Points", NumberWord(l, e.Points))
	}
	if e.Points == 0 {
		return l.T("story.play", "Name", name, "Card", card, "Count", e.Count)
	}
	return l.T("story.play-scores", "Name", name, "Card", card, "Count", e.Count, "What", spokenPlay(l, e.Items), "Points", NumberWord(l, e.Points))
}

// whose names a show's owner: "Bob", or "Bob's crib".
func whose(l lang.Lang, t *cribbage.Table, e engine.Event) string {
	if e.Crib {
		return l.T("story.crib-of", "Name", SeatName(t, e.Seat))
	}
	return SeatName(t, e.Seat)
}

// showLine: "Bob: 5♥ 5♦ 2♣ 3♠ + Q♣ — fifteen two, … is ten".
func showLine(l lang.Lang, t *cribbage.Table, e engine.Event) string {
	b := engine.Breakdown{Items: e.Items, Total: e.Points}
	return fmt.Sprintf("%s: %s + %s — %s.", whose(l, t, e), engine.DisplayCards(e.Cards), e.Card.Display(), spoken(l, b))
}

// claimLine reports a manual count and the true breakdown.
func claimLine(l lang.Lang, t *cribbage.Table, e engine.Event) string {
	truth := engine.Breakdown{Items: e.Items, Total: e.Points + e.Missed}
	line := l.T("story.claims", "Who", whose(l, t, e), "Claimed", e.Claimed, "Cards", engine.DisplayCards(e.Cards), "Starter", e.Card.Display(), "Count", spoken(l, truth))
	if e.Missed > 0 {
		line += " " + l.T("story.missed", "Points", capitalized(NumberWord(l, e.Missed)))
		if t.Options.Muggins {
			line += " " + l.T("story.muggins-open")
		}
	}
	return line
}

// ResultLine announces the winner and any skunk, in l.
func ResultLine(l lang.Lang, t *cribbage.Table, r *engine.Result) string {
	if r == nil {
		return ""
	}
	winner := sideName(t, r.Winner)
	scores := scoreLine(t, r.Scores)
	// A partnership is two people: "Bob & Dan win".
	key := "result.wins"
	switch r.Reason {
	case engine.ReasonResigned:
		key = "result.wins-resigned"
	case engine.ReasonForfeit:
		key = "result.wins-forfeit"
	}
	sides := 1
	if t.Options.Partners {
		sides = 2
	}
	line := l.N(key, sides, "Winner", winner, "Scores", scores)
	var skunked []string
	for side, level := range r.Skunks {
		switch level {
		case 1:
			skunked = append(skunked, l.N("result.skunked", sides, "Name", sideName(t, side)))
		case 2:
			skunked = append(skunked, l.N("result.double-skunked", sides, "Name", sideName(t, side)))
		}
	}
	if len(skunked) > 0 {
		line += " " + strings.Join(skunked, ", ") + "!"
	}
	if r.Games > 1 {
		line += " " + l.T("result.games", "Games", r.Games)
	}
	return line
}

// CountsForNobody is what a cancelled table leaves behind.
func CountsForNobody(l lang.Lang) string { return l.T("table.counts-for-nobody") }

// CancelledLine says who cancelled a table, and why.
func CancelledLine(l lang.Lang, t *cribbage.Table) string {
	if t.CancelReason != "" {
		return l.T("table.cancelled-why", "ID", t.ID, "By", t.CancelledBy, "Reason", t.CancelReason)
	}
	return l.T("table.cancelled", "ID", t.ID, "By", t.CancelledBy)
}

// The computer levels players choose from: easy, and strong, which is
// engine/ai's expert. The classic baseline is cribbage simulate's alone;
// tables stored with it still play.
const (
	LevelEasy   = "easy"
	LevelStrong = "strong"
)

// Clip shortens a name to n characters.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
