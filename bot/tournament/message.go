package tournament

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// The tournament message, in the server's language: the standings (rank, name, game points, spread,
// won–lost), the round's pairings, and the bracket once the playoff
// begins, with Sign up, Withdraw and Start while sign-up is open. It is
// one message a tournament, edited as the tournament changes; the store
// keeps which version it shows, so an edit a restart cut off is made by
// the next pass (Director.Show).

// Text is the tournament as the message words it, in l.
func Text(l lang.Lang, t *cribbage.Tournament, tables []*cribbage.Table) string {
	var b strings.Builder
	b.WriteString(l.T("tournament.head", "Name", t.Name, "Stage", tournamentStage(l, t)) + "\n")
	b.WriteString(l.T("tournament.format", "Games", l.N("tournament.games", t.GamesPerRound), "Rounds", l.N("tournament.rounds", t.Rounds),
		"Points", t.Points, "BestOf", cribbage.PlayoffBestOf) + "\n")
	if t.Status == cribbage.TournamentSignup {
		b.WriteString(l.T("tournament.signed-up", "N", len(t.Entrants), "Names", entrantList(l, t)) + "\n")
		b.WriteString(l.T("tournament.signup-how", "Min", cribbage.MinEntrants))
		return b.String()
	}
	var now strings.Builder
	if len(t.Playoff) > 0 {
		now.WriteString(l.T("tournament.playoff") + "\n")
		for r, round := range t.Playoff {
			for _, m := range round {
				now.WriteString(playoffLine(l, t, t.PlayoffRounds(), r+1, m, tables) + "\n")
			}
		}
	} else if t.Status == cribbage.TournamentQualifying {
		now.WriteString(l.T("tournament.round", "N", t.Round) + "\n")
		for i, p := range t.Pairings {
			if p.Round == t.Round {
				now.WriteString(pairingLine(l, t, i, p, tables) + "\n")
			}
		}
	}
	// Where an entrant's table is matters more than the standings, which
	// the attached picture shows too: a field too large for both in one
	// message keeps the round and leaves the standings to the picture.
	standings := standingsBlock(l, t, tables)
	if utf8.RuneCountInString(b.String()+standings+now.String()) > render.MaxContent {
		standings = l.T("tournament.standings-in-picture") + "\n"
	}
	b.WriteString(standings)
	b.WriteString(now.String())
	return strings.TrimRight(b.String(), "\n")
}

// tournamentStage says where a tournament stands.
func tournamentStage(l lang.Lang, t *cribbage.Tournament) string {
	switch t.Status {
	case cribbage.TournamentSignup:
		return l.T("tournament.stage.signup")
	case cribbage.TournamentQualifying:
		return l.T("tournament.stage.qualifying", "Round", t.Round, "Rounds", t.Rounds)
	case cribbage.TournamentPlayoff:
		return l.T("tournament.stage.playoff")
	case cribbage.TournamentFinished:
		return l.T("tournament.stage.champion", "Name", entrantName(t, t.Champion))
	}
	return l.T("tournament.stage.cancelled", "By", t.CancelledBy)
}

// entrantName is an entrant as the message names them.
func entrantName(t *cribbage.Tournament, id string) string {
	if e := t.Entrant(id); e != nil {
		return e.Name
	}
	return "?"
}

// entrantList names the entrants in sign-up order.
func entrantList(l lang.Lang, t *cribbage.Tournament) string {
	if len(t.Entrants) == 0 {
		return l.T("tournament.nobody")
	}
	names := make([]string, len(t.Entrants))
	for i, e := range t.Entrants {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}

// standingsBlock is the standings as a fixed-width table, its column
// heads in l.
func standingsBlock(l lang.Lang, t *cribbage.Tournament, tables []*cribbage.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "```\n #  %s %s  %s  %s  %s\n", padRight(l.T("tournament.col.player"), 19), padLeft(l.T("tournament.col.gp"), 3),
		padLeft(l.T("tournament.col.spread"), 6), l.T("tournament.col.won-lost"), l.T("tournament.col.bye"))
	for i, s := range t.Standings(tables) {
		fmt.Fprintf(&b, "%2d  %-19s %3d  %+6d  %d-%d  %3d\n", i+1, render.Clip(entrantName(t, s.UserID), 19), s.GamePoints, s.Spread, s.Won, s.Played-s.Won, s.Byes)
	}
	b.WriteString("```\n")
	return b.String()
}

// pairingLine is one pairing of the current round and how its games
// stand.
func pairingLine(l lang.Lang, t *cribbage.Tournament, i int, p cribbage.Pairing, tables []*cribbage.Table) string {
	if p.B == "" {
		return l.T("tournament.pairing.bye", "Name", entrantName(t, p.A), "GP", cribbage.ByeGamePoints)
	}
	var games []string
	for _, tb := range tables {
		if at := tb.Tournament; at != nil && !at.Playoff && at.Round == p.Round && at.Pairing == i {
			games = append(games, GameState(l, tb))
		}
	}
	return l.T("tournament.pairing", "A", entrantName(t, p.A), "B", entrantName(t, p.B), "Games", strings.Join(games, ", "))
}

// GameState is one game's table and result, or that it is on, in l.
func GameState(l lang.Lang, tb *cribbage.Table) string {
	switch {
	case tb.Status == cribbage.StatusFinished && tb.State != nil && tb.State.Result != nil:
		r := tb.State.Result
		how := ""
		switch r.Reason {
		case engine.ReasonResigned:
			how = l.T("tournament.game.by-resignation")
		case engine.ReasonForfeit:
			how = l.T("tournament.game.by-forfeit")
		}
		return l.T("tournament.game.won", "ID", tb.ID, "Name", tb.Seats[r.Winner].Name, "For", r.Scores[r.Winner], "Against", r.Scores[1-r.Winner],
			"How", how, "GP", cribbage.GamePoints(r))
	case tb.Status == cribbage.StatusCancelled:
		return l.T("tournament.game.cancelled", "ID", tb.ID)
	}
	return l.T("tournament.game.playing", "ID", tb.ID)
}

// playoffLine is one playoff match.
func playoffLine(l lang.Lang, t *cribbage.Tournament, rounds, r int, m cribbage.PlayoffMatch, tables []*cribbage.Table) string {
	name := PlayoffRoundName(l, rounds, r)
	if m.B == "" {
		return l.T("tournament.playoff.bye", "Round", name, "Name", entrantName(t, m.A))
	}
	score := ""
	for _, tb := range tables {
		if at := tb.Tournament; at != nil && at.Playoff && at.Round == r && tb.Match != nil && tb.Seats[0].UserID == m.A && tb.Seats[1].UserID == m.B {
			w := tb.Match.Wins()
			score = fmt.Sprintf(" (%d–%d)", w[0], w[1])
		}
	}
	line := l.T("tournament.playoff.match", "Round", name, "A", entrantName(t, m.A), "B", entrantName(t, m.B), "Score", score)
	switch {
	case m.Winner != "" && r == rounds:
		line += l.T("tournament.playoff.wins-final", "Name", entrantName(t, m.Winner))
	case m.Winner != "":
		line += l.T("tournament.playoff.through", "Name", entrantName(t, m.Winner))
	}
	return line
}

// Message is the tournament message, in the server's language l: one
// Container (Components V2) with the words, the picture of the standings
// once play has begun, and the sign-up buttons while sign-up is open.
func Message(l lang.Lang, t *cribbage.Tournament, tables []*cribbage.Table) render.Message {
	return message(l, t, tables, drawStandings)
}

// message is Message with its standings picture drawn by draw: the
// director keeps the last one it drew (Director.draw).
func message(l lang.Lang, t *cribbage.Tournament, tables []*cribbage.Table, draw func(p picture.Standings) []byte) render.Message {
	box := render.Container(tournamentAccent, render.TextDisplay(render.Clip(Text(l, t, tables), render.MaxContent)))
	if t.Status == cribbage.TournamentSignup {
		box.Components = append(box.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("tournament.button.sign-up"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.TSignUp, Table: t.ID}.String()},
			discordgo.Button{Label: l.T("tournament.button.withdraw"), Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.TWithdraw, Table: t.ID}.String()},
			discordgo.Button{Label: l.T("button.start"), Style: discordgo.PrimaryButton, CustomID: click.ID{Action: click.TStart, Table: t.ID}.String()},
		}})
		return render.V2(box)
	}
	// The picture of the standings rides on every edit: an edit that
	// names its attachments keeps exactly those.
	box.Components = append(box.Components, render.Gallery(standingsFile))
	r := render.V2(box)
	png := draw(standingsPicture(l, t, tables))
	r.Files = []*discordgo.File{{Name: standingsFile, ContentType: "image/png", Reader: bytes.NewReader(png)}}
	r.Attachments = []*discordgo.MessageAttachment{{ID: "0", Filename: standingsFile}}
	return r
}

// drawStandings draws a standings picture as the message uploads it.
func drawStandings(p picture.Standings) []byte { return picture.PNG(p.Render()) }

// tournamentAccent is the tournament message's accent: a trophy's gold.
const tournamentAccent = 0xf2b705

// standingsFile is the standings picture's file name on the message.
const standingsFile = "standings.png"

// standingsPicture is the tournament's standings and playoff as the
// picture draws them, the same figures as the message's table.
func standingsPicture(l lang.Lang, t *cribbage.Tournament, tables []*cribbage.Table) picture.Standings {
	p := picture.Standings{Title: t.Name, Subtitle: l.T("tournament.picture.subtitle", "Stage", stripMarkdown(tournamentStage(l, t)),
		"Games", l.N("tournament.games", t.GamesPerRound), "Points", t.Points), Words: standingsWords(l)}
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
			p.Playoff = append(p.Playoff, stripMarkdown(strings.TrimPrefix(playoffLine(l, t, t.PlayoffRounds(), r+1, m, tables), "• ")))
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

// PlayoffRoundName names playoff round r of rounds in l: the final, the
// semi-finals, or round r.
func PlayoffRoundName(l lang.Lang, rounds, r int) string {
	switch rounds - r {
	case 0:
		return l.T("tournament.final")
	case 1:
		return l.T("tournament.semi-final")
	}
	return l.T("tournament.playoff-round", "N", r)
}

// standingsWords are the standings picture's labels in l.
func standingsWords(l lang.Lang) picture.StandingsWords {
	return picture.StandingsWords{Player: l.T("tournament.col.player"), GamePoints: l.T("tournament.col.gp"), Spread: l.T("tournament.col.spread"),
		WonLost: l.T("tournament.col.won-lost"), Bye: l.T("tournament.col.bye"),
		Playoff: l.T("tournament.picture.playoff", "BestOf", cribbage.PlayoffBestOf), Champion: l.T("tournament.picture.champion")}
}

// padRight and padLeft fill s with spaces to n characters, on the right
// and on the left.
func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

func padLeft(s string, n int) string {
	return strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s))) + s
}

// IntroduceGame words, in the server's language l, what opens
// a tournament's table: its message, its thread, and a line that pings
// its players.
func IntroduceGame(l lang.Lang, t *cribbage.Tournament, prev, next *cribbage.Table) []cribbage.Outbound {
	if prev != nil && prev.Tournament != nil && prev.Match != nil && next.Match != nil && next.Match.Game > 1 {
		return render.Introduce(l, prev, next) // a playoff match's next game
	}
	at := next.Tournament
	where := l.T("tournament.intro.round", "Round", at.Round, "Game", at.Game, "Of", t.GamesPerRound)
	if at.Playoff {
		where = l.T("tournament.intro.playoff", "Round", PlayoffRoundName(l, t.PlayoffRounds(), at.Round), "BestOf", cribbage.PlayoffBestOf)
	}
	line := l.T("tournament.intro", "Name", t.Name, "Where", where, "A", seatLabel(next, 0), "B", seatLabel(next, 1), "Dealer", render.SeatName(next, next.State.Dealer))
	return []cribbage.Outbound{{ChannelID: next.ChannelID, Kind: render.KindOpen}, {ChannelID: next.ChannelID, Kind: render.KindThread}, render.Post(next, line, next.People())}
}

// seatLabel is a seat as a line names it: a person's mention, a
// computer's name.
func seatLabel(t *cribbage.Table, seat int) string {
	if s := t.Seats[seat]; s.Computer == "" {
		return "<@" + s.UserID + ">"
	}
	return t.Seats[seat].Name
}
