package club

import (
	"context"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/answer"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/replay"
)

// The commands about tables that change none: a table's status, a game's
// replay, a player's games, and the tables a command's option suggests.

// Status shows a table, privately unless asked to post it.
func (a *Answers) Status(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	id, err := a.Place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool { return true }, false)
	if err != nil {
		return nil, err
	}
	t, err := a.Store.Table(ctx, id)
	if err != nil {
		return nil, err
	}
	public := false
	if o, ok := command.Options(ic)["public"]; ok {
		public = o.BoolValue()
	}
	// A message of its own: it carries its own board. Shown to the
	// channel it speaks the server's language, to its user theirs.
	l := command.Lang(ic)
	if public {
		settings, err := a.Store.GuildSettings(ctx, ic.GuildID)
		if err != nil {
			return nil, err
		}
		l = lang.Server(settings.Language, t.Locale)
	}
	r := render.Table(l, t, "")
	render.UploadBoard(l, &r, t)
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: r.Response(!public)}, nil
}

// Autocomplete suggests the user's tables (for join: the open lobbies here).
func (a *Answers) Autocomplete(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	uid, _ := command.User(ic)
	data := ic.ApplicationCommandData()
	var tables []*cribbage.Table
	var err error
	// Joining, and an admin's cancel, look for tables in this channel;
	// everything else for the user's own.
	if len(data.Options) > 0 && (data.Options[0].Name == "join" || data.Name == command.Admin) {
		tables, err = a.Store.ChannelTables(ctx, ic.ChannelID)
	} else {
		tables, err = a.Store.PlayerTables(ctx, ic.GuildID, uid)
	}
	if err == nil {
		// Only tables the command can act on here are offered.
		tables, err = a.Place.Here(ctx, ic, tables)
	}
	if err != nil {
		return nil, err
	}
	// Suggestions are the user's alone: their language.
	l := command.Lang(ic)
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, t := range tables {
		if len(choices) == 25 {
			break
		}
		var names []string
		for _, s := range t.Seats {
			names = append(names, s.Name)
		}
		label := l.T("autocomplete.table", "ID", t.ID, "Names", strings.Join(names, ", "), "Status", l.T("status."+string(t.Status)))
		if r := []rune(label); len(r) > 100 {
			label = string(r[:99]) + "…"
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: label, Value: t.ID})
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}, nil
}

// Games lists the user's open tables in this server: a link to each
// table message, whose turn it is and for how long; and first what waits
// on the user's answer: challenges to them and rematch offers they have
// not accepted, which are no table of theirs yet.
func (a *Answers) Games(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	uid, _ := command.User(ic)
	l := command.Lang(ic)
	tables, err := a.Store.PlayerTables(ctx, ic.GuildID, uid)
	if err != nil {
		return nil, err
	}
	awaiting, err := a.Store.AwaitingAnswer(ctx, ic.GuildID, uid)
	if err != nil {
		return nil, err
	}
	if len(tables) == 0 && len(awaiting) == 0 {
		return render.Ephemeral(l.T("games.none")), nil
	}
	// Every table's link, in one read.
	msgs, err := a.Place.Messages(ctx, append(slices.Clone(awaiting), tables...))
	if err != nil {
		return nil, err
	}
	var lines []string
	if len(awaiting) > 0 {
		lines = append(lines, l.T("games.awaiting"))
		for _, t := range awaiting {
			lines = append(lines, render.AnswerLine(l, t, msgs[t.ID]))
		}
	}
	if len(tables) > 0 {
		lines = append(lines, l.T("games.yours"))
		for _, t := range tables {
			lines = append(lines, render.GameLine(l, t, msgs[t.ID], uid))
		}
	}
	return render.Ephemeral(strings.Join(lines, "\n")), nil
}

// mayReplay says whether uid may see a table's replay: anyone in its
// channel once the game is over, only its players while it is on.
func (a *Answers) mayReplay(ctx context.Context, t *cribbage.Table, ic *discordgo.Interaction, uid string) error {
	if err := a.Place.Check(ctx, ic, t); err != nil {
		return err
	}
	switch {
	case t.State == nil:
		return refusal.ErrNoReplay
	case t.Status == cribbage.StatusPlaying && t.SeatOf(uid) < 0:
		return refusal.ErrReplayPlayers
	}
	return nil
}

// Replay opens a game's replay at its first hand: the table named, or
// the caller's game in progress here.
func (a *Answers) Replay(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	id, err := a.Place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool { return t.Status == cribbage.StatusPlaying }, false)
	if err != nil {
		return nil, err
	}
	return a.replayPage(ctx, ic, id, 1, false)
}

// ReplayClick turns a replay's page, or opens it from a finished table's
// Replay button.
func (a *Answers) ReplayClick(ctx context.Context, ic *discordgo.Interaction, c click.ID) (*discordgo.InteractionResponse, error) {
	update := ic.Message != nil && ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0
	return a.replayPage(ctx, ic, c.Table, c.Index, update)
}

// replayPage answers with hand n of a table's replay, as a new private
// message or in place of the page shown.
func (a *Answers) replayPage(ctx context.Context, ic *discordgo.Interaction, id int64, n int, update bool) (*discordgo.InteractionResponse, error) {
	uid, _ := command.User(ic)
	t, err := a.Store.Table(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := a.mayReplay(ctx, t, ic, uid); err != nil {
		return nil, err
	}
	actions, err := a.Store.Actions(ctx, id)
	if err != nil {
		return nil, err
	}
	// Replaying the game and drawing its hands' cards can take seconds on
	// a busy machine: the answer is deferred first.
	answer.Defer(ctx, update)
	hands, err := replay.Hands(command.Lang(ic), t, actions)
	if err != nil {
		return nil, err
	}
	if len(hands) == 0 {
		return nil, refusal.ErrNoReplay
	}
	n = min(max(n, 1), len(hands))
	r := replay.Page(command.Lang(ic), t, hands, n)
	kind := discordgo.InteractionResponseChannelMessageWithSource
	if update {
		kind = discordgo.InteractionResponseUpdateMessage
	}
	return &discordgo.InteractionResponse{Type: kind, Data: r.Response(true)}, nil
}
