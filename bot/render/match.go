package render

import (
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// The words of matches, challenges and rematch offers, for the table
// message, the thread and the hand views.

// matchScore is "Alice 1 – Bob 0": each side's games won.
func matchScore(t *cribbage.Table) string {
	w := t.Match.Wins()
	return fmt.Sprintf("%s %d – %s %d", sideName(t, 0), w[0], sideName(t, 1), w[1])
}

// gamePoints is "game points 2–0".
func gamePoints(t *cribbage.Table) string {
	p := t.Match.Points()
	return fmt.Sprintf("game points %d–%d", p[0], p[1])
}

// MatchLine is the match as it stands, for a table of a match: "Match:
// Alice 1 – Bob 0 · game 2 of best of 3 · game points 2–0", or who won
// it; "" for a game of its own.
func MatchLine(t *cribbage.Table) string {
	m := t.Match
	switch {
	case m == nil:
		return ""
	case m.Over():
		return matchWonLine(t)
	case len(m.Games) >= m.Game: // this table's game is over
		return fmt.Sprintf("**Match:** %s after game %d of best of %d · %s", matchScore(t), m.Game, m.BestOf, gamePoints(t))
	}
	return fmt.Sprintf("**Match:** %s · game %d of best of %d · %s", matchScore(t), m.Game, m.BestOf, gamePoints(t))
}

// matchStory is what the thread says of the match when a game of it
// ends: the score and what follows, or who won.
func matchStory(t *cribbage.Table) string {
	m := t.Match
	if m == nil {
		return ""
	}
	if m.Over() {
		return "\n" + matchWonLine(t)
	}
	return fmt.Sprintf("\n%s\nGame %d follows: a new table message in the channel.", MatchLine(t), len(m.Games)+1)
}

// matchWonLine announces a decided match: "🏆 Alice wins the match 2–1 ·
// game points 7–2", and how it ended if a side gave it up.
func matchWonLine(t *cribbage.Table) string {
	m := t.Match
	w, p := m.Wins(), m.Points()
	winner := m.Winner()
	verb := "wins"
	if t.Options.Partners {
		verb = "win"
	}
	line := fmt.Sprintf("🏆 **%s %s the match** %d–%d · game points %d–%d", sideName(t, winner), verb, w[winner], w[1-winner], p[winner], p[1-winner])
	if m.Conceded {
		last := m.Games[len(m.Games)-1]
		how := "resigned the match"
		if last.Reason == engine.ReasonForfeit {
			how = "forfeited"
		}
		line += fmt.Sprintf(" — %s %s.", sideName(t, 1-winner), how)
	}
	return line
}

// nextGameLine says where a match's next game is, once made.
func nextGameLine(t *cribbage.Table) string {
	if t.Match == nil || t.Match.Over() {
		if t.RematchID != 0 {
			return fmt.Sprintf("🔁 Rematch: table %d.", t.RematchID)
		}
		return ""
	}
	if t.RematchID != 0 {
		return fmt.Sprintf("Game %d of the match is table %d, posted below.", len(t.Match.Games)+1, t.RematchID)
	}
	return ""
}

// offerLine describes a finished table's open rematch offer.
func offerLine(t *cribbage.Table) string {
	o := t.Offer
	if o == nil || t.RematchID != 0 {
		return ""
	}
	var waiting []string
	for _, s := range o.Waiting(t) {
		waiting = append(waiting, s.Name)
	}
	return fmt.Sprintf("🔁 **%s** offers a rematch — waiting for **%s** to accept (until <t:%d:R>).",
		NameOf(t, o.By), strings.Join(waiting, "**, **"), o.At.Add(cribbage.OfferLife).Unix())
}

// NameOf is the name of the person at t with userID.
func NameOf(t *cribbage.Table, userID string) string {
	if seat := t.SeatOf(userID); seat >= 0 {
		return t.Seats[seat].Name
	}
	return "someone"
}

// Introduce words what opens next, the table after prev: its table
// message (no interaction answers with it), its thread, and its first
// line.
func Introduce(prev, next *cribbage.Table) []cribbage.Outbound {
	dealer := SeatName(next, next.State.Dealer)
	var intro string
	switch m := next.Match; {
	case m != nil && m.Game > 1:
		intro = fmt.Sprintf("**Game %d** of the match (best of %d) after table %d — %s; %s. %s deals first.",
			m.Game, m.BestOf, prev.ID, matchScore(next), gamePoints(next), dealer)
	case m != nil:
		intro = fmt.Sprintf("**Rematch** of table %d: a new best-of-%d match. %s deals first.", prev.ID, m.BestOf, dealer)
	default:
		intro = fmt.Sprintf("**Rematch** of table %d — %s deals first.", prev.ID, dealer)
	}
	return []cribbage.Outbound{{ChannelID: next.ChannelID, Kind: KindOpen}, {ChannelID: next.ChannelID, Kind: KindThread}, Post(next, intro, nil)}
}

// OpenNonce is the nonce of a table message the bot posts itself, so that
// it is posted once whoever sends it.
func OpenNonce(t *cribbage.Table) string { return fmt.Sprintf("open%d", t.ID) }

// challengeLines describe a challenge's lobby, or how it ended.
func challengeLines(t *cribbage.Table) []string {
	c := t.Challenge
	host := NameOf(t, t.HostID)
	what := fmt.Sprintf("%d points", t.Options.Target)
	if t.Match != nil {
		what += fmt.Sprintf(", a best-of-%d match", t.Match.BestOf)
	}
	switch c.Outcome {
	case cribbage.ChallengeDeclined:
		return []string{fmt.Sprintf("%s declined %s's challenge.", c.Name, host)}
	case cribbage.ChallengeWithdrawn:
		return []string{fmt.Sprintf("%s withdrew the challenge to %s.", host, c.Name)}
	case cribbage.ChallengeLapsed:
		return []string{fmt.Sprintf("The challenge lapsed: %s didn't answer within a day.", c.Name)}
	}
	return []string{
		fmt.Sprintf("⚔️ **%s** challenges **%s** to cribbage — %s.", host, c.Name, what),
		fmt.Sprintf("%s: **Accept** or **Decline**. The challenge lapses <t:%d:R>.", c.Name, t.LobbyLapses().Unix()),
	}
}
