package render

// The words the bot uses for a table: names of seats and sides, scores,
// each event as the story and the hand views tell it, and results. They
// are rendered here; the story (bot/story) and the live surface
// (bot/live) decide where they go.

import (
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage"
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

// StoryLine renders one event, or "" for events the table message shows.
func StoryLine(t *cribbage.Table, e engine.Event) string {
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
		return fmt.Sprintf("Cut for deal: %s. **%s** cuts lowest and deals first.", strings.Join(rounds, "; a tie, so again: "), name)
	case engine.EvDeal:
		// The commitment is published before anyone sees a card, so the
		// deal cannot be changed afterwards without it showing.
		return fmt.Sprintf("**Hand %d** — %s deals.\n-# Deal commitment: `%s`", e.N, name, e.Commitment)
	case engine.EvStarter:
		return fmt.Sprintf("%s cuts: the starter is **%s**.", name, e.Card.Display())
	case engine.EvHeels:
		return fmt.Sprintf("His heels — two for %s.", name)
	case engine.EvPlay:
		return playLine(name, e)
	case engine.EvGo:
		return fmt.Sprintf("%s: go.", name)
	case engine.EvGoPoint:
		return fmt.Sprintf("Go, one for %s.", name)
	case engine.EvLastCard:
		return fmt.Sprintf("Last card, one for %s.", name)
	case engine.EvReset:
		return fmt.Sprintf("— the count starts again; %s leads.", name)
	case engine.EvShow:
		return showLine(t, e)
	case engine.EvClaim:
		return claimLine(t, e)
	case engine.EvMuggins:
		if e.Items[0].Kind == engine.KindOverClaim {
			return fmt.Sprintf("%s over-counted: %s takes the %s extra.", SeatName(t, e.Other), name, engine.NumberWord(e.Points))
		}
		return fmt.Sprintf("**Muggins!** %s takes the %s that %s missed.", name, engine.NumberWord(e.Points), SeatName(t, e.Other))
	case engine.EvHandOver:
		return fmt.Sprintf("Scores: %s. %s deals next.", scoreLine(t, e.Scores), name) + seedLine(t, e)
	case engine.EvResign:
		return fmt.Sprintf("%s resigns.", name)
	case engine.EvGameOver:
		return ResultLine(t, e.Result) + seedLine(t, e)
	}
	return ""
}

// StoryText is an event as the thread's record reads it: the play in
// short fragments ("Bob A♣ 1", "Alice 5♣ 6 fifteen for two"), a line for
// everything else, and each deal's commitment and seed on one short line.
func StoryText(t *cribbage.Table, e engine.Event) StoryEntry {
	name := SeatName(t, e.Seat)
	switch e.Kind {
	case engine.EvPlay:
		text := fmt.Sprintf("%s %s %d", name, e.Card.Display(), e.Count)
		if e.Points > 0 {
			// "for two" after 31; "a pair, for four" when 31 makes a
			// pair too; "fifteen for two" otherwise.
			what := engine.SpokenPlay(e.Items)
			switch {
			case e.Count == 31 && what == "":
				text += fmt.Sprintf(" *for %s*", engine.NumberWord(e.Points))
			case e.Count == 31:
				text += fmt.Sprintf(" *%s, for %s*", what, engine.NumberWord(e.Points))
			default:
				text += fmt.Sprintf(" *%s for %s*", what, engine.NumberWord(e.Points))
			}
		}
		return StoryEntry{Text: text, Frag: true, End: e.Count == 31}
	case engine.EvGo:
		return StoryEntry{Text: name + " go", Frag: true}
	case engine.EvGoPoint:
		return StoryEntry{Text: fmt.Sprintf("*go, one for %s*", name), Frag: true, End: true}
	case engine.EvLastCard:
		return StoryEntry{Text: fmt.Sprintf("*last card, one for %s*", name), Frag: true, End: true}
	case engine.EvReset:
		return StoryEntry{}
	case engine.EvDeal:
		// The commitment is published before anyone sees a card, so the
		// deal cannot be changed afterwards without it showing.
		return StoryEntry{Text: fmt.Sprintf("**Hand %d** — %s deals.\n-# 🔒 hand %d commitment `%s`", e.N, name, e.N, e.Commitment)}
	case engine.EvHandOver:
		return StoryEntry{Text: fmt.Sprintf("**%s.** %s deals next.", scoreLine(t, e.Scores), name) + shortSeedLine(t, e)}
	case engine.EvGameOver:
		return StoryEntry{Text: ResultLine(t, e.Result) + matchStory(t) + shortSeedLine(t, e)}
	}
	return StoryEntry{Text: StoryLine(t, e)}
}

// shortSeedLine reveals a hand's seed once it is over, on one line of
// small text: "" for a game that ended before a deal.
func shortSeedLine(t *cribbage.Table, e engine.Event) string {
	if e.Seed == nil {
		return ""
	}
	players := ""
	if t.Options.Players != 2 {
		players = fmt.Sprintf(" players:%d", t.Options.Players)
	}
	return fmt.Sprintf("\n-# 🔑 hand %d seed `%s` · check it with `/cribbage verify%s`", e.N, e.Seed, players)
}

// seedLine reveals a hand's seed once the hand is over, with the command
// that deals it again: "" for a game that ended before a deal.
func seedLine(t *cribbage.Table, e engine.Event) string {
	if e.Seed == nil {
		return ""
	}
	return fmt.Sprintf("\n-# Hand %d was dealt from seed `%s` — check it with `/cribbage verify seed:%s players:%d`", e.N, e.Seed, e.Seed, t.Options.Players)
}

// playLine: "Alice plays 7♣ — 22", "Bob plays 9♦ for 31, two".
func playLine(name string, e engine.Event) string {
	if e.Count == 31 {
		extra := ""
		if p := engine.SpokenPlay(e.Items); p != "" {
			extra = " and " + p
		}
		return fmt.Sprintf("%s plays %s for 31%s, %s.", name, e.Card.Display(), extra, engine.NumberWord(e.Points))
	}
	if e.Points == 0 {
		return fmt.Sprintf("%s plays %s — %d.", name, e.Card.Display(), e.Count)
	}
	return fmt.Sprintf("%s plays %s — %d, %s for %s.", name, e.Card.Display(), e.Count, engine.SpokenPlay(e.Items), engine.NumberWord(e.Points))
}

// showLine: "Bob: 5♥ 5♦ 2♣ 3♠ + Q♣ — fifteen two, … is ten".
func showLine(t *cribbage.Table, e engine.Event) string {
	who := SeatName(t, e.Seat)
	if e.Crib {
		who += "'s crib"
	}
	b := engine.Breakdown{Items: e.Items, Total: e.Points}
	return fmt.Sprintf("%s: %s + %s — %s.", who, engine.DisplayCards(e.Cards), e.Card.Display(), b.Spoken())
}

// claimLine reports a manual count and the true breakdown.
func claimLine(t *cribbage.Table, e engine.Event) string {
	who := SeatName(t, e.Seat)
	if e.Crib {
		who += "'s crib"
	}
	truth := engine.Breakdown{Items: e.Items, Total: e.Points + e.Missed}
	line := fmt.Sprintf("%s claims %d: %s + %s — %s.", who, e.Claimed, engine.DisplayCards(e.Cards), e.Card.Display(), truth.Spoken())
	if e.Missed > 0 {
		line += fmt.Sprintf(" %s missed.", strings.ToUpper(engine.NumberWord(e.Missed)[:1])+engine.NumberWord(e.Missed)[1:])
		if t.Options.Muggins {
			line += " Opponents may call muggins until the next deal."
		}
	}
	return line
}

// ResultLine announces the winner and any skunk.
func ResultLine(t *cribbage.Table, r *engine.Result) string {
	if r == nil {
		return ""
	}
	winner := sideName(t, r.Winner)
	// A partnership is two people: "Bob & Dan win".
	verb := "wins"
	if t.Options.Partners {
		verb = "win"
	}
	line := fmt.Sprintf("🏆 **%s %s** — %s.", winner, verb, scoreLine(t, r.Scores))
	switch r.Reason {
	case engine.ReasonResigned:
		line = fmt.Sprintf("🏆 **%s %s** by resignation — %s.", winner, verb, scoreLine(t, r.Scores))
	case engine.ReasonForfeit:
		line = fmt.Sprintf("🏆 **%s %s** by forfeit — %s.", winner, verb, scoreLine(t, r.Scores))
	}
	var skunked []string
	for side, level := range r.Skunks {
		switch level {
		case 1:
			skunked = append(skunked, sideName(t, side)+" skunked")
		case 2:
			skunked = append(skunked, sideName(t, side)+" double-skunked")
		}
	}
	if len(skunked) > 0 {
		line += " " + strings.Join(skunked, ", ") + "!"
	}
	if r.Games > 1 {
		line += fmt.Sprintf(" The win counts as %d games.", r.Games)
	}
	return line
}

// CountsForNobody is what a cancelled table leaves behind.
const CountsForNobody = "It counts for nobody: no winner, and nothing in the records or on the leaderboard."

// CancelledLine says who cancelled a table, and why.
func CancelledLine(t *cribbage.Table) string {
	line := fmt.Sprintf("Table %d was cancelled by <@%s>", t.ID, t.CancelledBy)
	if t.CancelReason != "" {
		return line + ": " + t.CancelReason
	}
	return line + "."
}

// The computer levels players choose from: easy, and strong, which is
// engine/ai's expert. The classic baseline is cribbage simulate's alone;
// tables stored with it still play.
const (
	LevelEasy   = "easy"
	LevelStrong = "strong"
)
