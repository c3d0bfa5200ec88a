package render

import (
	"fmt"
	"strings"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
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
func gamePoints(l lang.Lang, t *cribbage.Table) string {
	p := t.Match.Points()
	return l.T("match.game-points", "A", p[0], "B", p[1])
}

// MatchLine is the match as it stands, in l, for a table of a match:
// "Match: Alice 1 – Bob 0 · game 2 of best of 3 · game points 2–0", or
// who won it; "" for a game of its own.
func MatchLine(l lang.Lang, t *cribbage.Table) string {
	m := t.Match
	switch {
	case m == nil:
		return ""
	case m.Over():
		return matchWonLine(l, t)
	case len(m.Games) >= m.Game: // this table's game is over
		return l.T("match.after-game", "Score", matchScore(t), "Game", m.Game, "BestOf", m.BestOf, "Points", gamePoints(l, t))
	}
	return l.T("match.game", "Score", matchScore(t), "Game", m.Game, "BestOf", m.BestOf, "Points", gamePoints(l, t))
}

// matchStory is what the thread says of the match when a game of it
// ends: the score and what follows, or who won.
func matchStory(l lang.Lang, t *cribbage.Table) string {
	m := t.Match
	if m == nil {
		return ""
	}
	if m.Over() {
		return "\n" + matchWonLine(l, t)
	}
	return "\n" + MatchLine(l, t) + "\n" + l.T("match.follows", "Game", len(m.Games)+1)
}

// matchWonLine announces a decided match: "🏆 Alice wins the match 2–1 ·
// game points 7–2", and how it ended if a side gave it up.
func matchWonLine(l lang.Lang, t *cribbage.Table) string {
	m := t.Match
	w, p := m.Wins(), m.Points()
	winner := m.Winner()
	sides := 1
	if t.Options.Partners {
		sides = 2
	}
	line := l.N("match.won", sides, "Winner", sideName(t, winner), "Won", w[winner], "Lost", w[1-winner], "For", p[winner], "Against", p[1-winner])
	if m.Conceded {
		last := m.Games[len(m.Games)-1]
		key := "match.resigned"
		if last.Reason == engine.ReasonForfeit {
			key = "match.forfeited"
		}
		line += " — " + l.N(key, sides, "Name", sideName(t, 1-winner))
	}
	return line
}

// nextGameLine says where a match's next game is, once made.
func nextGameLine(l lang.Lang, t *cribbage.Table) string {
	if t.Match == nil || t.Match.Over() {
		if t.RematchID != 0 {
			return l.T("match.rematch-table", "ID", t.RematchID)
		}
		return ""
	}
	if t.RematchID != 0 {
		return l.T("match.next-table", "Game", len(t.Match.Games)+1, "ID", t.RematchID)
	}
	return ""
}

// offerLine describes a finished table's open rematch offer.
func offerLine(l lang.Lang, t *cribbage.Table) string {
	o := t.Offer
	if o == nil || t.RematchID != 0 {
		return ""
	}
	var waiting []string
	for _, s := range o.Waiting(t) {
		waiting = append(waiting, s.Name)
	}
	return l.T("match.offer", "By", NameOf(t, o.By), "Waiting", strings.Join(waiting, "**, **"), "Until", o.At.Add(cribbage.OfferLife).Unix())
}

// NameOf is the name of the person at t with userID.
func NameOf(t *cribbage.Table, userID string) string {
	if seat := t.SeatOf(userID); seat >= 0 {
		return t.Seats[seat].Name
	}
	return "someone"
}

// Introduce words, in l, what opens next, the table after prev: its
// table message (no interaction answers with it), its thread, and its
// first line.
func Introduce(l lang.Lang, prev, next *cribbage.Table) []cribbage.Outbound {
	dealer := SeatName(next, next.State.Dealer)
	var intro string
	switch m := next.Match; {
	case m != nil && m.Game > 1:
		intro = l.T("match.intro-game", "Game", m.Game, "BestOf", m.BestOf, "Prev", prev.ID, "Score", matchScore(next), "Points", gamePoints(l, next), "Dealer", dealer)
	case m != nil:
		intro = l.T("match.intro-rematch-match", "Prev", prev.ID, "BestOf", m.BestOf, "Dealer", dealer)
	default:
		intro = l.T("match.intro-rematch", "Prev", prev.ID, "Dealer", dealer)
	}
	return []cribbage.Outbound{{ChannelID: next.ChannelID, Kind: KindOpen}, {ChannelID: next.ChannelID, Kind: KindThread}, Post(next, intro, nil)}
}

// OpenNonce is the nonce of a table message the bot posts itself, so that
// it is posted once whoever sends it.
func OpenNonce(t *cribbage.Table) string { return fmt.Sprintf("open%d", t.ID) }

// challengeLines describe a challenge's lobby, or how it ended.
func challengeLines(l lang.Lang, t *cribbage.Table) []string {
	c := t.Challenge
	host := NameOf(t, t.HostID)
	what := l.N("table.points", t.Options.Target)
	if t.Match != nil {
		what = l.T("challenge.what-match", "Points", what, "BestOf", t.Match.BestOf)
	}
	switch c.Outcome {
	case cribbage.ChallengeDeclined:
		return []string{l.T("challenge.declined", "Name", c.Name, "Host", host)}
	case cribbage.ChallengeWithdrawn:
		return []string{l.T("challenge.withdrawn", "Name", c.Name, "Host", host)}
	case cribbage.ChallengeLapsed:
		return []string{l.T("challenge.lapsed", "Name", c.Name)}
	}
	return []string{
		l.T("challenge.open", "Host", host, "Name", c.Name, "What", what),
		l.T("challenge.answer", "Name", c.Name, "Lapses", t.LobbyLapses().Unix()),
	}
}
