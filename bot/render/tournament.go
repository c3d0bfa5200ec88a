package render

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// The tournament message: the standings (rank, name, game points, spread,
// won–lost), the round's pairings, and the bracket once the playoff
// begins, with Sign up, Withdraw and Start while sign-up is open. It is
// one message a tournament, edited as the tournament changes; the store
// keeps which version it shows, so an edit a restart cut off is made by
// the next pass (showTournaments).

// TournamentText is the tournament as the message words it.
func TournamentText(t *cribbage.Tournament, tables []*cribbage.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "🏆 **%s** — %s\n", t.Name, tournamentStage(t))
	fmt.Fprintf(&b, "-# %d game%s a pairing each round · %d qualifying round%s · %d points · the top quarter plays off, best of %d\n",
		t.GamesPerRound, Plural(t.GamesPerRound), t.Rounds, Plural(t.Rounds), t.Points, cribbage.PlayoffBestOf)
	if t.Status == cribbage.TournamentSignup {
		fmt.Fprintf(&b, "Signed up (%d): %s\n", len(t.Entrants), entrantList(t))
		fmt.Fprintf(&b, "Press **Sign up** to enter. It starts when an admin presses **Start** (at least %d entrants).", cribbage.MinEntrants)
		return b.String()
	}
	var now strings.Builder
	if len(t.Playoff) > 0 {
		now.WriteString("**Playoff**\n")
		for r, round := range t.Playoff {
			for _, m := range round {
				now.WriteString(playoffLine(t, t.PlayoffRounds(), r+1, m, tables) + "\n")
			}
		}
	} else if t.Status == cribbage.TournamentQualifying {
		fmt.Fprintf(&now, "**Round %d**\n", t.Round)
		for i, p := range t.Pairings {
			if p.Round == t.Round {
				now.WriteString(pairingLine(t, i, p, tables) + "\n")
			}
		}
	}
	// Where an entrant's table is matters more than the standings, which
	// the attached picture shows too: a field too large for both in one
	// message keeps the round and leaves the standings to the picture.
	standings := standingsBlock(t, tables)
	if utf8.RuneCountInString(b.String()+standings+now.String()) > MaxContent {
		standings = "-# The standings are in the picture: the field is too large to list them here as well.\n"
	}
	b.WriteString(standings)
	b.WriteString(now.String())
	return strings.TrimRight(b.String(), "\n")
}

// tournamentStage says where a tournament stands.
func tournamentStage(t *cribbage.Tournament) string {
	switch t.Status {
	case cribbage.TournamentSignup:
		return "sign-up is open"
	case cribbage.TournamentQualifying:
		return fmt.Sprintf("qualifying round %d of %d", t.Round, t.Rounds)
	case cribbage.TournamentPlayoff:
		return "the playoff"
	case cribbage.TournamentFinished:
		return "🥇 champion: " + entrantName(t, t.Champion)
	}
	return fmt.Sprintf("cancelled by <@%s>", t.CancelledBy)
}

// entrantName is an entrant as the message names them.
func entrantName(t *cribbage.Tournament, id string) string {
	if e := t.Entrant(id); e != nil {
		return e.Name
	}
	return "?"
}

// entrantList names the entrants in sign-up order.
func entrantList(t *cribbage.Tournament) string {
	if len(t.Entrants) == 0 {
		return "nobody yet"
	}
	names := make([]string, len(t.Entrants))
	for i, e := range t.Entrants {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}

// standingsBlock is the standings as a fixed-width table.
func standingsBlock(t *cribbage.Tournament, tables []*cribbage.Table) string {
	var b strings.Builder
	b.WriteString("```\n #  Player               GP  Spread  W-L  Bye\n")
	for i, s := range t.Standings(tables) {
		fmt.Fprintf(&b, "%2d  %-19s %3d  %+6d  %d-%d  %3d\n", i+1, Clip(entrantName(t, s.UserID), 19), s.GamePoints, s.Spread, s.Won, s.Played-s.Won, s.Byes)
	}
	b.WriteString("```\n")
	return b.String()
}

// Clip shortens a name to n characters.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// pairingLine is one pairing of the current round and how its games
// stand.
func pairingLine(t *cribbage.Tournament, i int, p cribbage.Pairing, tables []*cribbage.Table) string {
	if p.B == "" {
		return fmt.Sprintf("• %s has the bye (%d game points)", entrantName(t, p.A), cribbage.ByeGamePoints)
	}
	var games []string
	for _, tb := range tables {
		if l := tb.Tournament; l != nil && !l.Playoff && l.Round == p.Round && l.Pairing == i {
			games = append(games, GameState(tb))
		}
	}
	return fmt.Sprintf("• %s v %s — %s", entrantName(t, p.A), entrantName(t, p.B), strings.Join(games, ", "))
}

// GameState is one game's table and result, or that it is on.
func GameState(tb *cribbage.Table) string {
	switch {
	case tb.Status == cribbage.StatusFinished && tb.State != nil && tb.State.Result != nil:
		r := tb.State.Result
		how := ""
		switch r.Reason {
		case engine.ReasonResigned:
			how = ", by resignation"
		case engine.ReasonForfeit:
			how = ", by forfeit"
		}
		return fmt.Sprintf("table %d: %s won %d–%d%s (%d GP)", tb.ID, tb.Seats[r.Winner].Name, r.Scores[r.Winner], r.Scores[1-r.Winner], how, cribbage.GamePoints(r))
	case tb.Status == cribbage.StatusCancelled:
		return fmt.Sprintf("table %d: cancelled", tb.ID)
	}
	return fmt.Sprintf("table %d: playing", tb.ID)
}

// playoffLine is one playoff match.
func playoffLine(t *cribbage.Tournament, rounds, r int, m cribbage.PlayoffMatch, tables []*cribbage.Table) string {
	name := PlayoffRoundName(rounds, r)
	if m.B == "" {
		return fmt.Sprintf("• %s: %s has a bye", name, entrantName(t, m.A))
	}
	score := ""
	for _, tb := range tables {
		if l := tb.Tournament; l != nil && l.Playoff && l.Round == r && tb.Match != nil && tb.Seats[0].UserID == m.A && tb.Seats[1].UserID == m.B {
			w := tb.Match.Wins()
			score = fmt.Sprintf(" (%d–%d)", w[0], w[1])
		}
	}
	line := fmt.Sprintf("• %s: %s v %s%s", name, entrantName(t, m.A), entrantName(t, m.B), score)
	switch {
	case m.Winner != "" && r == rounds:
		line += " — **" + entrantName(t, m.Winner) + "** wins the final"
	case m.Winner != "":
		line += " — **" + entrantName(t, m.Winner) + "** goes through"
	}
	return line
}

// Tournament is the tournament message.
func Tournament(t *cribbage.Tournament, tables []*cribbage.Table) Message {
	r := Message{Content: Clip(TournamentText(t, tables), MaxContent)}
	if t.Status == cribbage.TournamentSignup {
		r.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Sign up", Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.TSignUp, Table: t.ID}.String()},
			discordgo.Button{Label: "Withdraw", Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.TWithdraw, Table: t.ID}.String()},
			discordgo.Button{Label: "Start", Style: discordgo.PrimaryButton, CustomID: click.ID{Action: click.TStart, Table: t.ID}.String()},
		}}}
		return r
	}
	// The picture of the standings rides on every edit: an edit that
	// names its attachments keeps exactly those.
	png := picture.PNG(standingsPicture(t, tables).Render())
	r.Files = []*discordgo.File{{Name: standingsFile, ContentType: "image/png", Reader: bytes.NewReader(png)}}
	r.Attachments = []*discordgo.MessageAttachment{{ID: "0", Filename: standingsFile}}
	return r
}

// standingsFile is the standings picture's file name on the message.
const standingsFile = "standings.png"

// standingsPicture is the tournament's standings and playoff as the
// picture draws them, the same figures as the message's table.
func standingsPicture(t *cribbage.Tournament, tables []*cribbage.Table) picture.Standings {
	p := picture.Standings{Title: t.Name, Subtitle: fmt.Sprintf("%s · %d game%s a pairing · %d points",
		stripMarkdown(tournamentStage(t)), t.GamesPerRound, Plural(t.GamesPerRound), t.Points)}
	qualified := map[string]bool{}
	for _, round := range t.Playoff {
		for _, m := range round {
			qualified[m.A], qualified[m.B] = true, m.B != ""
		}
	}
	for _, s := range t.Standings(tables) {
		p.Rows = append(p.Rows, picture.StandingRow{Name: entrantName(t, s.UserID), GamePoints: s.GamePoints, Spread: s.Spread,
			Won: s.Won, Lost: s.Played - s.Won, Byes: s.Byes, Qualified: qualified[s.UserID]})
	}
	for r, round := range t.Playoff {
		for _, m := range round {
			p.Playoff = append(p.Playoff, stripMarkdown(strings.TrimPrefix(playoffLine(t, t.PlayoffRounds(), r+1, m, tables), "• ")))
		}
	}
	if t.Status == cribbage.TournamentFinished {
		p.Champion = entrantName(t, t.Champion)
	}
	return p
}

// stripMarkdown drops the bold marks a message line carries and the
// emoji a picture's font lacks.
func stripMarkdown(s string) string {
	return strings.TrimSpace(strings.NewReplacer("**", "", "🥇 ", "", "<@", "", ">", "").Replace(s))
}

// PlayoffRoundName names playoff round r of rounds: the final, the
// semi-finals, or round r.
func PlayoffRoundName(rounds, r int) string {
	switch rounds - r {
	case 0:
		return "the final"
	case 1:
		return "a semi-final"
	}
	return fmt.Sprintf("playoff round %d", r)
}

// IntroduceTournamentGame words what opens a tournament's table: its
// message, its thread, and a line that pings its players.
func IntroduceTournamentGame(t *cribbage.Tournament, prev, next *cribbage.Table) []cribbage.Outbound {
	if prev != nil && prev.Tournament != nil && prev.Match != nil && next.Match != nil && next.Match.Game > 1 {
		return Introduce(lang.English, prev, next) // a playoff match's next game
	}
	l := next.Tournament
	where := fmt.Sprintf("round %d, game %d of %d", l.Round, l.Game, t.GamesPerRound)
	if l.Playoff {
		where = fmt.Sprintf("%s, best of %d", PlayoffRoundName(t.PlayoffRounds(), l.Round), cribbage.PlayoffBestOf)
	}
	line := fmt.Sprintf("🏆 **%s** — %s: %s v %s. %s deals first.", t.Name, where, seatLabel(next, 0), seatLabel(next, 1), SeatName(next, next.State.Dealer))
	return []cribbage.Outbound{{ChannelID: next.ChannelID, Kind: KindOpen}, {ChannelID: next.ChannelID, Kind: KindThread}, Post(next, line, next.People())}
}

// seatLabel is a seat as a line names it: a person's mention, a
// computer's name.
func seatLabel(t *cribbage.Table, seat int) string {
	if s := t.Seats[seat]; s.Computer == "" {
		return "<@" + s.UserID + ">"
	}
	return t.Seats[seat].Name
}
