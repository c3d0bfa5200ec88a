package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
)

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
