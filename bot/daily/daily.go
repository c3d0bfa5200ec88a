// Package daily answers the daily hand (issue 34): one discard problem a
// day, the same for everyone (engine/ai's DailyHand), answered once by
// each player in a private view, in a server or in a DM with the bot; and
// a server's post of the day's hand, with the reveal of the day before,
// in the channel and from the hour its admins set. Like bot/club, none of
// it changes a table: each answer reads or writes the daily hand's
// records (cribbage.DailyService) and returns its response, and the bot
// routes to it (bot/routes.go), runs Post on its timers and delivers the
// posts through Deliver.
package daily

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// Store is what the daily hand reads and writes.
type Store interface {
	cribbage.DailyService
}

// Answers answers the daily hand's commands and buttons, and posts it.
type Answers struct {
	Store Store
	// REST sends the servers' posts (Deliver).
	REST *rest.Client
	// Now is the clock: the day is its UTC date.
	Now func() time.Time
	// Speak is the language of a server's channels, for the posts the
	// timers make with nobody clicking (bot's speakServer); nil speaks
	// English.
	Speak func(ctx context.Context, guildID string) lang.Lang
	Log   *slog.Logger
}

// speak is the language of a server's post.
func (a *Answers) speak(ctx context.Context, guildID string) lang.Lang {
	if a.Speak == nil {
		return lang.English
	}
	return a.Speak(ctx, guildID)
}

// hand is a day's hand. A day's hand can always be dealt (its date is a
// date); an error here is a bug, answered with the apology.
func hand(day cribbage.Day) (ai.Daily, error) {
	return ai.DailyHand(day.String())
}

// Hand answers /cribbage daily and /cribbage-daily hand: today's hand to
// answer, privately, or the answer given.
func (a *Answers) Hand(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	return a.open(ctx, ic, "")
}

// Open answers the button on a server's post: today's hand to answer, as
// Hand does (a post of an earlier day opens today's, and says so).
func (a *Answers) Open(ctx context.Context, ic *discordgo.Interaction, day cribbage.Day, _ engine.CardSet) (*discordgo.InteractionResponse, error) {
	note := ""
	if today := cribbage.DayOf(a.Now()); day != today {
		note = command.Lang(ic).T("daily.note.post-over", "Date", Date(command.Lang(ic), day))
	}
	return a.open(ctx, ic, note)
}

// open answers with today's view in a new private message, or with the
// player's answer if they gave it.
func (a *Answers) open(ctx context.Context, ic *discordgo.Interaction, note string) (*discordgo.InteractionResponse, error) {
	day := cribbage.DayOf(a.Now())
	d, err := hand(day)
	if err != nil {
		return nil, err
	}
	uid, _ := command.User(ic)
	given, err := a.Store.DailyAnswerOf(ctx, uid, day)
	switch {
	case err == nil:
		m, err := a.result(ctx, ic, d, given, command.Lang(ic).T("daily.note.answered-tomorrow"))
		if err != nil {
			return nil, err
		}
		return message(m), nil
	case !errors.Is(err, cribbage.ErrNoDailyAnswer):
		return nil, err
	}
	return message(View(command.Lang(ic), d, day, 0, note)), nil
}

// Select toggles a card of the view for the crib, in the view itself.
func (a *Answers) Select(ctx context.Context, ic *discordgo.Interaction, day cribbage.Day, selected engine.CardSet) (*discordgo.InteractionResponse, error) {
	d, ok, resp, err := a.stillOpen(ctx, ic, day)
	if !ok || err != nil {
		return resp, err
	}
	return update(View(command.Lang(ic), d, day, selected, "")), nil
}

// Throw answers the day's hand with the cards chosen, once: the answer
// replaces the view. A second answer (another click, the view open
// twice, a DM and a server at once) is refused in the write, and the
// first is shown.
func (a *Answers) Throw(ctx context.Context, ic *discordgo.Interaction, day cribbage.Day, throw engine.CardSet) (*discordgo.InteractionResponse, error) {
	d, ok, resp, err := a.stillOpen(ctx, ic, day)
	if !ok || err != nil {
		return resp, err
	}
	_, gave, ok := d.Judge(throw)
	if !ok {
		l := command.Lang(ic)
		want := d.Options.DiscardSize()
		return update(View(l, d, day, throw, l.N("daily.note.choose", want, "Word", render.NumberWord(l, want)))), nil
	}
	uid, name := command.User(ic)
	ans := cribbage.DailyAnswer{Day: day, UserID: uid, Name: name, GuildID: serverOf(ic), Throw: throw, GaveUp: gave, At: a.Now()}
	note := ""
	switch err := a.Store.AnswerDaily(ctx, ans); {
	case errors.Is(err, cribbage.ErrAnsweredDaily):
		if ans, err = a.Store.DailyAnswerOf(ctx, uid, day); err != nil {
			return nil, err
		}
		note = command.Lang(ic).T("daily.note.answered-already")
	case err != nil:
		return nil, err
	default:
		a.Log.Debug("daily hand answered", "interaction", ic.ID, "day", day, "gave_up", gave)
	}
	m, err := a.result(ctx, ic, d, ans, note)
	if err != nil {
		return nil, err
	}
	return update(m), nil
}

// stillOpen reads the day's hand for a click on a view of it: while the
// day is today and the player has not answered. Otherwise resp is the
// answer to the click: today's view, or the answer given, in place of
// the view clicked.
func (a *Answers) stillOpen(ctx context.Context, ic *discordgo.Interaction, day cribbage.Day) (d ai.Daily, ok bool, resp *discordgo.InteractionResponse, err error) {
	today := cribbage.DayOf(a.Now())
	if d, err = hand(today); err != nil {
		return ai.Daily{}, false, nil, err
	}
	uid, _ := command.User(ic)
	given, err := a.Store.DailyAnswerOf(ctx, uid, today)
	switch {
	case err == nil:
		m, err := a.result(ctx, ic, d, given, command.Lang(ic).T("daily.note.answered"))
		return d, false, update(m), err
	case !errors.Is(err, cribbage.ErrNoDailyAnswer):
		return d, false, nil, err
	}
	if day != today {
		l := command.Lang(ic)
		return d, false, update(View(l, d, today, 0, l.T("daily.note.over", "Date", Date(l, day)))), nil
	}
	return d, true, nil, nil
}

// result is the answer's view: what the throw gave up, the coach's best
// throws, the streak, and the month (the server's table in a server, the
// player's own in a DM).
func (a *Answers) result(ctx context.Context, ic *discordgo.Interaction, d ai.Daily, ans cribbage.DailyAnswer, note string) (render.Message, error) {
	streak, err := a.streak(ctx, ans.UserID, ans.Day)
	if err != nil {
		return render.Message{}, err
	}
	l := command.Lang(ic)
	more := []string{StreakLine(l, streak)}
	inServer := serverOf(ic) != ""
	if inServer {
		line, err := a.placeLine(ctx, l, serverOf(ic), ans.UserID, ans.Day)
		if err != nil {
			return render.Message{}, err
		}
		more = append(more, line)
	} else {
		own, err := a.Store.DailyHistory(ctx, ans.UserID, ans.Day.MonthStart(), ans.Day+1)
		if err != nil {
			return render.Message{}, err
		}
		total := 0.0
		for _, h := range own {
			total += h.GaveUp
		}
		more = append(more, l.N("daily.this-month", len(own), "Gave", l.Float(total, 2)))
	}
	m := Result(l, d, ans, more, inServer)
	if note != "" {
		m.Content = note + "\n" + m.Content
	}
	return m, nil
}

// placeLine says where a player stands in the server's month, as far as
// the hands revealed: today's answers join the table tomorrow.
func (a *Answers) placeLine(ctx context.Context, l lang.Lang, guildID, uid string, today cribbage.Day) (string, error) {
	totals, err := a.Store.DailyTotals(ctx, guildID, today.MonthStart(), today)
	if err != nil {
		return "", err
	}
	for i, t := range totals {
		if t.UserID == uid {
			return l.N("daily.place", t.Days, "Place", i+1, "Of", len(totals), "Gave", l.Float(t.GaveUp, 2)), nil
		}
	}
	return l.T("daily.place.tomorrow"), nil
}

// streakWindow is how far back one read for a streak looks; a longer
// streak reads again, further.
const streakWindow = 120

// streak is how many days in a row, to today, a player answered.
func (a *Answers) streak(ctx context.Context, uid string, today cribbage.Day) (int, error) {
	var days []cribbage.Day
	for from := today + 1 - streakWindow; ; from -= streakWindow {
		h, err := a.Store.DailyHistory(ctx, uid, from, from+streakWindow)
		if err != nil {
			return 0, err
		}
		for _, x := range h {
			days = append(days, x.Day)
		}
		if n := cribbage.Streak(days, today); n == 0 || today-cribbage.Day(n) > from {
			return n, nil
		}
	}
}

// MonthTable answers /cribbage-daily month: the server's month so far
// (the month just over, on its first day), or in a DM the player's own.
func (a *Answers) MonthTable(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	return a.month(ctx, ic)
}

// Month answers the answer's This month button, as MonthTable does.
func (a *Answers) Month(ctx context.Context, ic *discordgo.Interaction, _ cribbage.Day, _ engine.CardSet) (*discordgo.InteractionResponse, error) {
	return a.month(ctx, ic)
}

func (a *Answers) month(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	today := cribbage.DayOf(a.Now())
	uid, _ := command.User(ic)
	if serverOf(ic) == "" {
		own, err := a.Store.DailyHistory(ctx, uid, today.MonthStart(), today+1)
		if err != nil {
			return nil, err
		}
		streak, err := a.streak(ctx, uid, today)
		if err != nil {
			return nil, err
		}
		return render.Ephemeral(OwnMonth(command.Lang(ic), own, today.MonthStart(), streak)), nil
	}
	from, over := today.MonthStart(), false
	if from == today {
		from, over = (today - 1).MonthStart(), true
	}
	totals, err := a.Store.DailyTotals(ctx, serverOf(ic), from, today)
	if err != nil {
		return nil, err
	}
	return message(Month(command.Lang(ic), totals, from, uid, over)), nil
}

// Settings answers /cribbage-admin daily: shows where and when the
// server gets the daily hand, or changes it. Both take Manage Server.
func (a *Answers) Settings(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	if !command.IsAdmin(ic) {
		return nil, refusal.ErrNotAdmin
	}
	cur, err := a.Store.DailySettings(ctx, ic.GuildID)
	if err != nil {
		return nil, err
	}
	opts := command.Options(ic)
	if len(opts) == 0 {
		return render.Ephemeral(SettingsText(command.Lang(ic), cur)), nil
	}
	if o, ok := opts["channel"]; ok {
		cur.ChannelID = o.Value.(string)
	}
	if o, ok := opts["hour"]; ok {
		cur.Hour = int(o.IntValue())
	}
	if o, ok := opts["off"]; ok && o.BoolValue() {
		cur.ChannelID = ""
	}
	if _, ok := opts["channel"]; !ok && cur.ChannelID == "" && opts["off"] == nil {
		l := command.Lang(ic)
		return render.Ephemeral(l.T("daily.settings.need-channel", "Example", settingsExample(l))), nil
	}
	cur.UpdatedBy, _ = command.User(ic)
	saved, err := a.Store.SetDailySettings(ctx, cur)
	if err != nil {
		return nil, err
	}
	a.Log.Info("daily hand settings changed", "interaction", ic.ID, "guild", ic.GuildID, "by", saved.UpdatedBy, "channel", saved.ChannelID, "hour", saved.Hour)
	l := command.Lang(ic)
	return render.Ephemeral(l.T("daily.settings.saved", "Settings", SettingsText(l, saved))), nil
}

// message is a new private message.
func message(m render.Message) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: m.Response(true)}
}

// update replaces the message clicked.
func update(m render.Message) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: m.Response(true)}
}

// serverOf is the server whose daily hand an answer counts in: the one it
// was given in, or none in a DM, a group DM, or a server that did not
// install the bot (only a user's install reached it: it has no daily
// post nor month's table), where the answer is the player's own.
func serverOf(ic *discordgo.Interaction) string {
	if command.TokenOnly(ic) {
		return ""
	}
	return ic.GuildID
}
