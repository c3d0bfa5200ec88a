package render

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
)

// Leaderboard lists the top ten of a season's board, and the
// caller's line if lower; period, if not empty, names the part of the
// season it counts. Each player is one short line so it reads on a phone:
// rank, name, rating, wins–losses and games. Provisional ratings are
// marked with a ? and come after the settled ones, under a line that says
// what the mark means.
func Leaderboard(board []cribbage.Standing, se cribbage.Season, current bool, period, uid string) Message {
	title := "Cribbage leaderboard · " + SeasonTitle(se)
	if period != "" {
		title += " · " + period
	}
	e := &discordgo.MessageEmbed{Title: title, Color: 0x2e7d32}
	if len(board) == 0 {
		e.Description = fmt.Sprintf("No games between people in %s yet.", SeasonTitle(se))
		if period != "" {
			e.Description = fmt.Sprintf("No games between people in the %s.", period)
		}
		if current {
			e.Description += " Start one with `/cribbage start`!"
		}
		return Message{Embeds: []*discordgo.MessageEmbed{e}}
	}
	var lines []string
	marked := false
	add := func(s cribbage.Standing) {
		if s.Rating.Provisional && !marked {
			lines = append(lines, "*Provisional (?) — too few recent games to be sure yet:*")
			marked = true
		}
		lines = append(lines, fmt.Sprintf("**%d.** %s · **%s** · %d–%d · %s", s.Rank, s.Name, RatingNumber(s.Rating), s.Wins, s.Losses, Games(s.Games)))
	}
	for i, s := range board {
		if i < 10 {
			add(s)
		} else if s.UserID == uid {
			lines = append(lines, "…")
			add(s)
		}
	}
	e.Description = strings.Join(lines, "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: "rating · wins–losses · games between people · /cribbage-club seasons lists the seasons"}
	return Message{Embeds: []*discordgo.MessageEmbed{e}}
}

// Games is "1 game" or "n games".
func Games(n int) string { return fmt.Sprintf("%d game%s", n, Plural(n)) }

// RatingNumber is a rating as a whole number, with a ? while provisional.
func RatingNumber(r cribbage.Rating) string {
	n := strconv.Itoa(int(math.Round(r.R)))
	if r.Provisional {
		n += "?"
	}
	return n
}

// RatingLine is a rating with its uncertainty, as stats show it:
// "1610 ± 180 (provisional) · 5 games".
func RatingLine(r cribbage.Rating) string {
	line := fmt.Sprintf("**%d** ± %d", int(math.Round(r.R)), int(math.Round(r.RD)))
	if r.Provisional {
		line += " (provisional)"
	}
	return line + " · " + Games(r.Games)
}

// RecordFields renders a record.
func RecordFields(title string, r cribbage.Record) []*discordgo.MessageEmbedField {
	if r.Games == 0 {
		return []*discordgo.MessageEmbedField{{Name: title, Value: "no games yet"}}
	}
	avg := func(points, n int) string {
		if n == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f", float64(points)/float64(n))
	}
	return []*discordgo.MessageEmbedField{
		{Name: title, Value: fmt.Sprintf("%d games · %d wins · %d losses · %d games won", r.Games, r.Wins, r.Losses, r.GamesWon)},
		{Name: "Skunks", Value: fmt.Sprintf("given %d (+%d double) · taken %d (+%d double)", r.SkunksGiven, r.DoubleSkunksGiven, r.SkunksTaken, r.DoubleSkunksTaken), Inline: true},
		{Name: "Best hand", Value: fmt.Sprintf("%d · 29s: %d", r.BestHand, r.TwentyNines), Inline: true},
		{Name: "Averages", Value: fmt.Sprintf("hand %s · crib %s · pegging %s a hand", avg(r.HandPoints, r.Hands), avg(r.CribPoints, r.Cribs), avg(r.Pegging, r.Hands)), Inline: true},
	}
}

// SeasonTitle names a season: "Season 2 · Winter league".
func SeasonTitle(se cribbage.Season) string {
	if se.Name == "" {
		return fmt.Sprintf("Season %d", se.Number)
	}
	return fmt.Sprintf("Season %d · %s", se.Number, se.Name)
}

// Seasons lists seasons newest first, a line each: its name, when it
// ran and who started it, and its games. Times are Discord timestamps,
// shown in each reader's own time zone.
func Seasons(seasons []cribbage.Season) Message {
	var lines []string
	for i, se := range slices.Backward(seasons) {
		line := "**" + SeasonTitle(se) + "**"
		switch {
		case se.StartedAt.IsZero():
			lines = append(lines, line+" — begins with the first game between people")
			continue
		case i == len(seasons)-1:
			line += fmt.Sprintf(" (now) — since <t:%d:D>", se.StartedAt.Unix())
		default:
			line += fmt.Sprintf(" — <t:%d:D> to <t:%d:D>", se.StartedAt.Unix(), seasons[i+1].StartedAt.Unix())
		}
		if se.StartedBy != "" {
			line += fmt.Sprintf(", started by <@%s>", se.StartedBy)
		}
		lines = append(lines, line+" · "+Games(se.Games))
	}
	e := &discordgo.MessageEmbed{Title: "Cribbage seasons", Color: 0x2e7d32, Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: "/cribbage-club leaderboard season: N shows a season's leaderboard"}}
	return Message{Embeds: []*discordgo.MessageEmbed{e}}
}

// Settings shows a server's settings, and where each comes from, in l
// (to the admin who asked): reminderAfter and forfeitAfter are the bot's
// defaults. Each setting is named by its option as l's players see it.
func Settings(l lang.Lang, gs cribbage.GuildSettings, reminderAfter, forfeitAfter time.Duration) string {
	timer := func(set *time.Duration, def time.Duration) string {
		d, from := def, " "+l.T("settings.bots-default")
		if set != nil {
			d, from = *set, ""
		}
		if d == 0 {
			return l.T("settings.off") + from
		}
		return l.T("settings.after", "Wait", WaitWords(d)) + from
	}
	points := l.T("settings.points-default")
	if gs.DefaultPoints != 0 {
		points = fmt.Sprint(gs.DefaultPoints)
	}
	channel := l.T("settings.any-channel")
	if gs.GamesChannel != "" {
		channel = l.T("settings.channel-only", "Channel", gs.GamesChannel)
	}
	tables := l.T("settings.no-limit")
	if gs.MaxOpenTables > 0 {
		tables = l.T("settings.at-most", "Max", gs.MaxOpenTables)
	}
	cancel := l.T("settings.cancel-admins")
	if gs.CancelRole != "" {
		cancel += l.T("settings.cancel-role", "Role", gs.CancelRole)
	}
	language := l.T("settings.language-default")
	if chosen, ok := lang.ByCode(gs.Language); ok {
		language = chosen.Name()
	}
	opt := func(name string) string { return l.T("cmd.name." + name) }
	lines := []string{
		l.T("settings.title"),
		l.T("settings.reminders", "Opt", opt("reminder-after"), "Value", timer(gs.ReminderAfter, reminderAfter)),
		l.T("settings.forfeits", "Opt", opt("forfeit-after"), "Value", timer(gs.ForfeitAfter, forfeitAfter)),
		l.T("settings.points", "Opt", opt("default-points"), "Value", points),
		l.T("settings.channel", "Opt", opt("games-channel"), "Value", channel),
		l.T("settings.tables", "Opt", opt("max-open-tables"), "Value", tables),
		l.T("settings.cancel", "Opt", opt("cancel-role"), "Value", cancel),
		l.T("settings.language", "Opt", opt("language"), "Value", language),
	}
	if gs.UpdatedBy != "" {
		lines = append(lines, l.T("settings.changed-by", "By", gs.UpdatedBy, "At", gs.UpdatedAt.Unix()))
	}
	lines = append(lines, l.T("settings.footer", "Settings", opt("settings"), "Reset", opt("reset")))
	return strings.Join(lines, "\n")
}

// WaitWords writes a duration as the settings take it: 90m, 12h, 3d.
func WaitWords(d time.Duration) string {
	day := 24 * time.Hour
	switch {
	case d%day == 0:
		return fmt.Sprintf("%dd", d/day)
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// Rules summarises RULES.md for players, in l.
func Rules(l lang.Lang) string { return l.T("rules.text") }

// Help explains the bot in l: every command, each in a few words, by
// the names l's players see.
func Help(l lang.Lang) string { return l.T("help.text") }

// cmdRules and cmdHelp answer privately with fixed text.

// Versus is the record against one other player that stats show when
// asked: the other's name, and their games together.
type Versus struct {
	Name   string
	Record cribbage.HeadToHead
}

// Stats is a player's record, as /cribbage-club stats shows it privately:
// their rating this season, their games against people and against the
// computer, against one other player when vs is set, and their numbers
// (n, if not nil) with their trend as a picture.
func Stats(st cribbage.Stats, n *cribbage.Numbers, name string, vs *Versus) Message {
	e := &discordgo.MessageEmbed{Title: "Cribbage stats · " + name, Color: 0x2e7d32}
	rated := fmt.Sprintf("Not rated yet in season %d: a game against a person rates you.", st.Season)
	if st.Rating.Games > 0 {
		rated = RatingLine(st.Rating)
	}
	e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: fmt.Sprintf("Rating · season %d", st.Season), Value: rated})
	e.Fields = append(e.Fields, RecordFields("Against people", st.People)...)
	if st.People.Games > 0 {
		streak := "—"
		switch {
		case st.Streak > 0:
			streak = fmt.Sprintf("won %d in a row", st.Streak)
		case st.Streak < 0:
			streak = fmt.Sprintf("lost %d in a row", -st.Streak)
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Streak", Value: streak, Inline: true})
	}
	if m := st.Matches; m.Matches > 0 {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Matches", Value: fmt.Sprintf("%d won · %d lost", m.Won, m.Lost), Inline: true})
	}
	if st.Computer.Games > 0 {
		e.Fields = append(e.Fields, RecordFields("Against the computer", st.Computer)...)
	}
	if vs != nil {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Against " + vs.Name,
			Value: fmt.Sprintf("%d games: %d–%d", vs.Record.Games, vs.Record.AWins, vs.Record.BWins)})
	}
	if st.People.Games+st.Computer.Games == 0 {
		e.Description = "No finished games yet."
	}
	return withNumbers(Message{Embeds: []*discordgo.MessageEmbed{e}}, n, name)
}

// TableLink is a table's name, linked to its table message, m, if it has
// one.
func TableLink(l lang.Lang, t *cribbage.Table, m cribbage.TableMessage) string {
	name := l.T("games.table", "ID", t.ID)
	if m.MessageID == "" {
		return name
	}
	return fmt.Sprintf("[%s](https://discord.com/channels/%s/%s/%s)", name, t.GuildID, t.ChannelID, m.MessageID)
}

// AnswerLine describes, in l, a table waiting on the user's answer,
// whose message is m: a challenge to them, or a rematch offer.
func AnswerLine(l lang.Lang, t *cribbage.Table, m cribbage.TableMessage) string {
	if t.Status == cribbage.StatusLobby {
		what := l.T("games.what-game", "Points", t.Options.Target)
		if t.Match != nil {
			what = l.T("games.what-match", "BestOf", t.Match.BestOf, "Points", t.Options.Target)
		}
		return l.T("games.challenged", "Table", TableLink(l, t, m), "Host", NameOf(t, t.HostID), "What", what, "Since", t.CreatedAt.Unix())
	}
	return l.T("games.offered", "Table", TableLink(l, t, m), "By", NameOf(t, t.Offer.By), "Until", t.Offer.At.Add(cribbage.OfferLife).Unix())
}

// GameLine describes, in l, one of a player's tables, whose message is m.
func GameLine(l lang.Lang, t *cribbage.Table, m cribbage.TableMessage, uid string) string {
	var others []string
	for _, s := range t.Seats {
		if s.UserID != uid || s.Computer != "" {
			others = append(others, s.Name)
		}
	}
	if c := t.Challenge; c != nil && t.Status == cribbage.StatusLobby {
		// Nobody else is seated yet: the one it waits on is the person
		// challenged.
		return l.T("games.your-challenge", "Table", TableLink(l, t, m), "Name", c.Name, "Since", t.CreatedAt.Unix())
	}
	line := l.T("games.with", "Table", TableLink(l, t, m), "Others", strings.Join(others, ", "))
	if t.Status == cribbage.StatusLobby {
		return line + l.T("games.waiting-players", "Since", t.CreatedAt.Unix())
	}
	seats, verb := WaitingFor(l, t)
	var names []string
	mine := false
	for _, s := range seats {
		names = append(names, SeatName(t, s))
		mine = mine || t.Seats[s].UserID == uid
	}
	if mine {
		return line + l.T("games.your-turn", "Verb", verb, "Since", t.Since().Unix())
	}
	return line + l.T("games.waiting-for", "Names", strings.Join(names, ", "), "Verb", verb, "Since", t.Since().Unix())
}

// MessageLink is " (its message link)" for a table whose message, m, is
// known, or "".
func MessageLink(t *cribbage.Table, m cribbage.TableMessage) string {
	if m.MessageID == "" {
		return ""
	}
	return fmt.Sprintf(" (https://discord.com/channels/%s/%s/%s)", t.GuildID, t.ChannelID, m.MessageID)
}
