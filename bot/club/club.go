// Package club answers the commands about a server and its players
// rather than one table: records and ratings (leaderboard, stats,
// seasons), the server's settings, and what anyone may ask without a
// table (count a hand, the rules, help, verify a deal). None of them
// changes a table, so none takes the bot's change path: each reads or
// writes its records and returns its answer.
package club

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/place"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// Store is what the club's answers read and write.
type Store interface {
	cribbage.RecordService
	place.Store
	Actions(ctx context.Context, id int64) ([]cribbage.LoggedAction, error)
	AwaitingAnswer(ctx context.Context, guildID, userID string) ([]*cribbage.Table, error)
	GuildSettings(ctx context.Context, guildID string) (cribbage.GuildSettings, error)
	UpdateGuildSettings(ctx context.Context, guildID string, fn func(s *cribbage.GuildSettings) error) (cribbage.GuildSettings, error)
}

// Answers answers the club's commands.
type Answers struct {
	Store Store
	// Place finds the table a command means.
	Place place.Finder
	// Now is the clock: a leaderboard's last 7 or 30 days count from it.
	Now func() time.Time
	// ReminderAfter and ForfeitAfter are the bot's own timers, which a
	// server's settings replace.
	ReminderAfter, ForfeitAfter time.Duration
	Log                         *slog.Logger
}

// Leaderboard ranks the players of a season (the current one unless
// the season option names another) by rating, over their games between
// people in the season, or in its last 7 or 30 days.
func (a *Answers) Leaderboard(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	opts := command.Options(ic)
	// The channel sees it: the server's language.
	l, err := a.serverLang(ctx, ic)
	if err != nil {
		return nil, err
	}
	period, since := "", time.Time{}
	if o, ok := opts["period"]; ok {
		switch o.StringValue() {
		case "week":
			period, since = l.T("cmd.choice.period.week"), a.Now().Add(-7*24*time.Hour)
		case "month":
			period, since = l.T("cmd.choice.period.month"), a.Now().Add(-30*24*time.Hour)
		}
	}
	seasons, err := a.Store.Seasons(ctx, ic.GuildID)
	if err != nil {
		return nil, err
	}
	se := seasons[len(seasons)-1]
	if o, ok := opts["season"]; ok {
		n := o.IntValue()
		if n > int64(len(seasons)) {
			return nil, &refusal.NoSeasonError{Asked: n, Current: int64(se.Number)}
		}
		se = seasons[n-1]
	}
	board, err := a.Store.Leaderboard(ctx, ic.GuildID, se.Number, since)
	if err != nil {
		return nil, err
	}
	uid, _ := command.User(ic)
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: Leaderboard(l, board, se, se.Number == len(seasons), period, uid).Response(false)}, nil
}

// Stats shows a player's record and numbers, and against another player
// if asked.
func (a *Answers) Stats(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	uid, name := command.User(ic)
	opts := command.Options(ic)
	if o, ok := opts["user"]; ok {
		u := o.UserValue(nil)
		uid, name = u.ID, u.Username
		if m, ok := ic.ApplicationCommandData().Resolved.Members[u.ID]; ok && m.Nick != "" {
			name = m.Nick
		} else if ru, ok := ic.ApplicationCommandData().Resolved.Users[u.ID]; ok {
			name = command.DisplayName(ru)
		}
	}
	st, err := a.Store.PlayerStats(ctx, ic.GuildID, uid)
	if err != nil {
		return nil, err
	}
	n, err := a.numbers(ctx, ic.GuildID, uid)
	if err != nil {
		return nil, err
	}
	if st.Name != "" {
		name = st.Name
	}
	var vs *Versus
	if o, ok := opts["vs"]; ok {
		other := o.UserValue(nil)
		h, err := a.Store.HeadToHead(ctx, ic.GuildID, uid, other.ID)
		if err != nil {
			return nil, err
		}
		vs = &Versus{Name: other.Username, Record: h}
		if ru, ok := ic.ApplicationCommandData().Resolved.Users[other.ID]; ok {
			vs.Name = command.DisplayName(ru)
		}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: Stats(command.Lang(ic), st, &n, name, vs).Response(true)}, nil
}

// Count counts any hand with its breakdown, as players say it aloud:
// privately, or to the channel with share.
func (a *Answers) Count(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	opts := command.Options(ic)
	hand, err := engine.ParseCards(opts["cards"].StringValue())
	if err != nil {
		return render.Ephemeral(refusal.Text(command.Lang(ic), err)), nil
	}
	starter, err := engine.ParseCard(opts["starter"].StringValue())
	if err != nil {
		return render.Ephemeral(command.Lang(ic).T("count.bad-starter")), nil
	}
	if len(hand) != 4 || engine.SetOf(hand...).Has(starter) {
		return render.Ephemeral(command.Lang(ic).T("count.bad-hand")), nil
	}
	crib := false
	if o, ok := opts["crib"]; ok {
		crib = o.BoolValue()
	}
	// Private unless asked to share: a player checking a hand mid-game
	// shouldn't tell the table what they hold. Shared, it is the
	// channel's, in the server's language.
	share := false
	if o, ok := opts["share"]; ok {
		share = o.BoolValue()
	}
	l := command.Lang(ic)
	if share {
		settings, err := a.Store.GuildSettings(ctx, ic.GuildID)
		if err != nil {
			return nil, err
		}
		l = lang.Server(settings.Language, command.GuildLocale(ic))
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Message{Content: render.CountText(l, hand, starter, crib)}.Response(!share)}, nil
}

// serverLang is the language of what the channel sees of a command's
// answer: the server's setting, else its own locale (lang.Server).
func (a *Answers) serverLang(ctx context.Context, ic *discordgo.Interaction) (lang.Lang, error) {
	if ic.GuildID == "" {
		return command.Lang(ic), nil
	}
	settings, err := a.Store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return lang.English, err
	}
	return lang.Server(settings.Language, command.GuildLocale(ic)), nil
}

func (a *Answers) Rules(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	return render.Ephemeral(render.Rules(command.Lang(ic))), nil
}

func (a *Answers) Help(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	return render.Ephemeral(render.Help(command.Lang(ic))), nil
}

// Seasons lists the server's seasons, the current one first.
func (a *Answers) Seasons(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	seasons, err := a.Store.Seasons(ctx, ic.GuildID)
	if err != nil {
		return nil, err
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: Seasons(command.Lang(ic), seasons).Response(true)}, nil
}

// SeasonNew starts the server's next season, for a member who may
// manage the server: Discord offers /cribbage-admin to them alone by
// default, but a server may change that, so the bot checks again. The
// channel is told: every rating starts again, and the season just ended
// keeps its leaderboard. A current season without a game between people
// is not restarted.
func (a *Answers) SeasonNew(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	if !command.IsAdmin(ic) {
		return nil, refusal.ErrNotSeasonAdmin
	}
	name := ""
	if o, ok := command.Options(ic)["name"]; ok {
		// One line: it is shown inside others.
		name = strings.Join(strings.Fields(o.StringValue()), " ")
	}
	uid, _ := command.User(ic)
	se, err := a.Store.StartSeason(ctx, ic.GuildID, uid, name)
	if err != nil {
		return nil, err
	}
	// The channel is told, in the server's language.
	l, err := a.serverLang(ctx, ic)
	if err != nil {
		return nil, err
	}
	text := SeasonBegun(l, se, uid)
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Message{Content: text}.Response(false)}, nil
}

// Verify deals again from a revealed seed, so anyone can check a hand
// against the commitment the story showed when it was dealt.
func (a *Answers) Verify(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	opts := command.Options(ic)
	seed, err := engine.ParseSeed(opts["seed"].StringValue())
	if err != nil {
		return render.Ephemeral(command.Lang(ic).T("verify.bad-seed")), nil
	}
	players := 2
	if o, ok := opts["players"]; ok {
		players = int(o.IntValue())
	}
	return render.Ephemeral(render.VerifyText(command.Lang(ic), seed, players)), nil
}

// Settings shows the server's settings, or changes them. Seeing them
// takes what cancelling does; changing them takes Manage Server.
func (a *Answers) Settings(ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error) {
	cur, err := a.Store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return nil, err
	}
	opts := command.Options(ic)
	if len(opts) == 0 {
		if !command.IsAdmin(ic) && !command.HasRole(ic, cur.CancelRole) {
			return nil, refusal.ErrNotAdmin
		}
		return render.Ephemeral(render.Settings(command.Lang(ic), cur, a.ReminderAfter, a.ForfeitAfter)), nil
	}
	if !command.IsAdmin(ic) {
		return nil, refusal.ErrNotAdmin
	}
	l := command.Lang(ic)
	change, err := command.ParseSettings(l, ic.GuildID, opts)
	if err != nil {
		return render.Ephemeral(l.T("settings.nothing-changed", "Why", err.Error())), nil
	}
	uid, _ := command.User(ic)
	saved, err := a.Store.UpdateGuildSettings(ctx, ic.GuildID, func(gs *cribbage.GuildSettings) error {
		change.Apply(gs)
		gs.UpdatedBy = uid
		return nil
	})
	if err != nil {
		return nil, err
	}
	said := strings.Join(change.Said, "; ")
	a.Log.Info("server settings changed", "interaction", ic.ID, "guild", ic.GuildID, "by", uid, "changes", said)
	return render.Ephemeral(l.T("settings.saved", "Said", said) + "\n\n" + render.Settings(l, saved, a.ReminderAfter, a.ForfeitAfter)), nil
}
