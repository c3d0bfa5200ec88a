package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// cmdStatus shows a table, privately unless asked to post it.
func (b *Bot) cmdStatus(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.pickTable(ctx, ic, func(t *cribbage.Table, uid string) bool { return true }, false)
	if err != nil {
		return reply{}, err
	}
	t, err := b.store.Table(ctx, id)
	if err != nil {
		return reply{}, err
	}
	public := false
	if o, ok := command.Options(ic)["public"]; ok {
		public = o.BoolValue()
	}
	// A message of its own: it carries its own board.
	r := render.Table(t, "")
	render.UploadBoard(&r, t)
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: r.Response(!public)}}, nil
}

// cmdLeaderboard ranks the players of a season (the current one unless
// the season option names another) by rating, over their games between
// people in the season, or in its last 7 or 30 days.
func (b *Bot) cmdLeaderboard(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	opts := command.Options(ic)
	period, since := "", time.Time{}
	if o, ok := opts["period"]; ok {
		switch o.StringValue() {
		case "week":
			period, since = "last 7 days", b.now().Add(-7*24*time.Hour)
		case "month":
			period, since = "last 30 days", b.now().Add(-30*24*time.Hour)
		}
	}
	seasons, err := b.store.Seasons(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	se := seasons[len(seasons)-1]
	if o, ok := opts["season"]; ok {
		n := o.IntValue()
		if n > int64(len(seasons)) {
			return reply{}, &noSeasonError{asked: n, current: int64(se.Number)}
		}
		se = seasons[n-1]
	}
	board, err := b.store.Leaderboard(ctx, ic.GuildID, se.Number, since)
	if err != nil {
		return reply{}, err
	}
	uid, _ := user(ic)
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Leaderboard(board, se, se.Number == len(seasons), period, uid).Response(false)}}, nil
}

// cmdStats shows a player's record, and against another player if asked.
func (b *Bot) cmdStats(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	uid, name := user(ic)
	opts := command.Options(ic)
	if o, ok := opts["user"]; ok {
		u := o.UserValue(nil)
		uid, name = u.ID, u.Username
		if m, ok := ic.ApplicationCommandData().Resolved.Members[u.ID]; ok && m.Nick != "" {
			name = m.Nick
		} else if ru, ok := ic.ApplicationCommandData().Resolved.Users[u.ID]; ok {
			name = displayName(ru)
		}
	}
	st, err := b.store.PlayerStats(ctx, ic.GuildID, uid)
	if err != nil {
		return reply{}, err
	}
	if st.Name != "" {
		name = st.Name
	}
	e := &discordgo.MessageEmbed{Title: "Cribbage stats · " + name, Color: 0x2e7d32}
	rated := fmt.Sprintf("Not rated yet in season %d: a game against a person rates you.", st.Season)
	if st.Rating.Games > 0 {
		rated = render.RatingLine(st.Rating)
	}
	e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: fmt.Sprintf("Rating · season %d", st.Season), Value: rated})
	e.Fields = append(e.Fields, render.RecordFields("Against people", st.People)...)
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
		e.Fields = append(e.Fields, render.RecordFields("Against the computer", st.Computer)...)
	}
	if o, ok := opts["vs"]; ok {
		other := o.UserValue(nil)
		h, err := b.store.HeadToHead(ctx, ic.GuildID, uid, other.ID)
		if err != nil {
			return reply{}, err
		}
		otherName := other.Username
		if ru, ok := ic.ApplicationCommandData().Resolved.Users[other.ID]; ok {
			otherName = displayName(ru)
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Against " + otherName,
			Value: fmt.Sprintf("%d games: %d–%d", h.Games, h.AWins, h.BWins)})
	}
	if st.People.Games+st.Computer.Games == 0 {
		e.Description = "No finished games yet."
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Message{Embeds: []*discordgo.MessageEmbed{e}}.Response(true)}}, nil
}

// displayName is a user's global name, or username.
func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// cmdCount counts any hand with its breakdown, as players say it aloud:
// privately, or to the channel with share.
func (b *Bot) cmdCount(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	opts := command.Options(ic)
	hand, err := engine.ParseCards(opts["cards"].StringValue())
	if err != nil {
		return reply{resp: ephemeral(mustText(err))}, nil
	}
	starter, err := engine.ParseCard(opts["starter"].StringValue())
	if err != nil {
		return reply{resp: ephemeral("The starter isn't a card. Write cards like 5H, 10D, JC or Q♠.")}, nil
	}
	if len(hand) != 4 || engine.SetOf(hand...).Has(starter) {
		return reply{resp: ephemeral("Give four different cards, and a starter that isn't one of them.")}, nil
	}
	crib := false
	if o, ok := opts["crib"]; ok {
		crib = o.BoolValue()
	}
	bd := engine.ScoreShow(hand, starter, crib)
	what := "Hand"
	if crib {
		what = "Crib"
	}
	var lines []string
	lines = append(lines, fmt.Sprintf("**%s** %s + %s — **%d**", what, engine.DisplayCards(hand), starter.Display(), bd.Total), "*"+bd.Spoken()+"*")
	for _, it := range bd.Items {
		lines = append(lines, fmt.Sprintf("· %s %s — %d", it.Kind, engine.DisplayCards(it.Cards), it.Points))
	}
	// Private unless asked to share: a player checking a hand mid-game
	// shouldn't tell the table what they hold.
	share := false
	if o, ok := opts["share"]; ok {
		share = o.BoolValue()
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Message{Content: strings.Join(lines, "\n")}.Response(!share)}}, nil
}

func (b *Bot) cmdRules(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return reply{resp: ephemeral(render.RulesText)}, nil
}

func (b *Bot) cmdHelp(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return reply{resp: ephemeral(render.HelpText)}, nil
}

// autocomplete suggests the user's tables (for join: the open lobbies here).
func (b *Bot) autocomplete(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	uid, _ := user(ic)
	data := ic.ApplicationCommandData()
	var tables []*cribbage.Table
	var err error
	// Joining, and an admin's cancel, look for tables in this channel;
	// everything else for the user's own.
	if len(data.Options) > 0 && (data.Options[0].Name == "join" || data.Name == command.Admin) {
		tables, err = b.store.ChannelTables(ctx, ic.ChannelID)
	} else {
		tables, err = b.store.PlayerTables(ctx, ic.GuildID, uid)
	}
	if err == nil {
		// Only tables the command can act on here are offered.
		tables, err = b.tablesHere(ctx, ic, tables)
	}
	if err != nil {
		return reply{}, err
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, t := range tables {
		if len(choices) == 25 {
			break
		}
		var names []string
		for _, s := range t.Seats {
			names = append(names, s.Name)
		}
		label := fmt.Sprintf("Table %d · %s · %s", t.ID, strings.Join(names, ", "), t.Status)
		if r := []rune(label); len(r) > 100 {
			label = string(r[:99]) + "…"
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: label, Value: t.ID})
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}}, nil
}
