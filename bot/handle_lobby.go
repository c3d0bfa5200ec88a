package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/answer"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// cmdStart opens a table with the host in the first seat and answers with
// the public table message.
func (b *Bot) cmdStart(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	settings, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	if settings.GamesChannel != "" && ic.ChannelID != settings.GamesChannel {
		return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.games-channel", "Channel", settings.GamesChannel))}, nil
	}
	uid, name := command.User(ic)
	opts := command.Options(ic)
	o := engine.Options{Players: 2, Target: 121}
	if settings.DefaultPoints != 0 {
		o.Target = settings.DefaultPoints
	}
	if v, ok := opts["players"]; ok {
		o.Players = int(v.IntValue())
	}
	if v, ok := opts["teams"]; ok && v.BoolValue() {
		if o.Players != 4 {
			return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.teams-four"))}, nil
		}
		o.Partners = true
	}
	if v, ok := opts["points"]; ok {
		o.Target = int(v.IntValue())
	}
	if v, ok := opts["counting"]; ok && v.StringValue() == "manual" {
		o.ManualCounting = true
	}
	if v, ok := opts["muggins"]; ok && v.BoolValue() {
		if !o.ManualCounting {
			return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.muggins-manual"))}, nil
		}
		o.Muggins = true
	}
	if err := o.Validate(); err != nil {
		b.logger(ic).Info("table options refused", "err", err)
		return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.bad-table"))}, nil
	}
	computer := ""
	if v, ok := opts["computer"]; ok {
		level, ok := command.ComputerLevel(v.StringValue())
		if !ok {
			return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.computer-levels"))}, nil
		}
		computer = string(level)
	}
	tokenOnly := command.TokenOnly(ic)
	if ic.GuildID == "" && !tokenOnly && computer == "" {
		// Nobody else can come into a DM with the bot to take a seat.
		return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.dm-computer-only"))}, nil
	}
	if tokenOnly && ic.Member != nil && ic.Member.Permissions&discordgo.PermissionUseExternalApps == 0 && computer == "" {
		// Discord makes every answer of a user's install private in a
		// server that turned off Use External Apps: the table message
		// too, which nobody else could see to join.
		return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.external-apps-off"))}, nil
	}
	var match *cribbage.Match
	if v, ok := opts["match"]; ok {
		m, err := cribbage.NewMatch(int(v.IntValue()), o)
		if err != nil {
			return reply{resp: render.Ephemeral(refusal.Text(command.Lang(ic), err))}, nil
		}
		match = m
	}
	fourColour := false
	if v, ok := opts["four-colour"]; ok {
		fourColour = v.BoolValue()
	}
	// The table speaks the place it was opened in: the server's
	// language, or outside a server (a DM, a group DM) its host's.
	t, err := b.store.CreateTable(ctx, &cribbage.Table{GuildID: ic.GuildID, ChannelID: ic.ChannelID, Locale: command.PlaceLocale(ic), HostID: uid, Options: o,
		Computer: computer, FourColour: fourColour, TokenOnly: tokenOnly, Status: cribbage.StatusLobby, Seats: []cribbage.Seat{{UserID: uid, Name: name}}, Match: match}, ic.ID, nil,
		openTablesHold(settings, uid))
	if err != nil {
		return reply{}, tooMany(err, settings)
	}
	b.ours.add(t.ID)
	// A new message: it has no board yet.
	l := lang.Server(settings.Language, t.Locale)
	r := render.Table(l, t, "")
	opened := l.T("table.opened", "Name", name)
	if tokenOnly {
		// Where only clicks reach the bot, say how a table left for a
		// while is picked up again.
		opened = l.T("table.opened-token-only", "Name", name)
	}
	r.Above(opened)
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: r.Response(false)}
	return reply{resp: resp, tableMessage: t.ID, table: &answer.TableShown{Table: t, Render: r}}, nil
}

// seatChange changes a lobby's seats in one update (cribbage.Join or
// Leave); a lobby that fills up starts its game in the same transaction.
func (b *Bot) seatChange(ctx context.Context, ic *discordgo.Interaction, id int64, join bool) (changed, error) {
	uid, name := command.User(ic)
	var settings cribbage.GuildSettings
	if join {
		var err error
		if settings, err = b.store.GuildSettings(ctx, ic.GuildID); err != nil {
			return changed{seat: -1}, err
		}
	}
	done, err := b.change(ctx, id, changeOf{ic: ic, decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		if err := checkOpen(t); err != nil {
			return nil, nil, err
		}
		if join {
			ch, err := cribbage.Join(t, cribbage.Seat{UserID: uid, Name: name}, b.env())
			if ch != nil {
				ch.Hold = openTablesHold(settings, uid)
			}
			return started(ch, err)
		}
		ch, err := cribbage.Leave(t, uid)
		return ch, nil, err
	}})
	return done, tooMany(err, settings)
}

// started adds to a lobby's change the thread of a game that it started,
// opened before the game's story is posted. A table outside a server (a
// DM with the bot) has no thread: a DM cannot have one, and its story is
// posts in the DM itself, where the bot may post with its own token.
func started(ch *cribbage.Change, err error) (*cribbage.Change, []engine.Event, error) {
	if err != nil {
		return nil, nil, err
	}
	if t := ch.Table; t.Status == cribbage.StatusPlaying && t.GuildID != "" && !t.TokenOnly {
		ch.Outbox = append([]cribbage.Outbound{{ChannelID: t.ChannelID, Kind: render.KindThread}}, ch.Outbox...)
	}
	return ch, nil, nil
}

// clickJoin and clickLeave answer the lobby buttons by updating the table
// message in place.
func (b *Bot) clickJoin(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return b.lobbyClick(ctx, ic, c.Table, true)
}

func (b *Bot) clickLeave(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return b.lobbyClick(ctx, ic, c.Table, false)
}

func (b *Bot) lobbyClick(ctx context.Context, ic *discordgo.Interaction, id int64, join bool) (reply, error) {
	done, err := b.seatChange(ctx, ic, id, join)
	if err != nil {
		return reply{}, err
	}
	return updated(done), nil
}

// clickBegin is the host's Start button: the game starts when every seat
// is taken (it also starts by itself when the last player joins), or at
// once with computer players in the empty seats if the table has them.
func (b *Bot) clickBegin(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, _ := command.User(ic)
	done, err := b.change(ctx, c.Table, changeOf{ic: ic, decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		return started(cribbage.Begin(t, uid, b.env()))
	}})
	if err != nil {
		return reply{}, err
	}
	return updated(done), nil
}

// cmdJoin seats the user at the open lobby in this channel (or the one named).
func (b *Bot) cmdJoin(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool {
		// A challenge's held seat is its challenged person's alone.
		return t.Status == cribbage.StatusLobby && t.SeatOf(uid) < 0 && (t.Challenge == nil || t.Challenge.UserID == uid)
	}, true)
	if err != nil {
		return reply{}, err
	}
	done, err := b.seatChange(ctx, ic, id, true)
	if err != nil {
		return reply{}, err
	}
	t := done.table
	l := command.Lang(ic)
	msg := l.T("answer.joined", "ID", t.ID)
	if t.Status == cribbage.StatusPlaying {
		msg += " " + l.T("answer.joined-game-on")
	}
	return reply{resp: render.Ephemeral(msg)}, nil
}

// cmdLeave gives up the user's seat in a lobby.
func (b *Bot) cmdLeave(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool {
		return t.Status == cribbage.StatusLobby && t.SeatOf(uid) >= 0
	}, false)
	if err != nil {
		return reply{}, err
	}
	done, err := b.seatChange(ctx, ic, id, false)
	if err != nil {
		return reply{}, err
	}
	t := done.table
	return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.left", "ID", t.ID))}, nil
}
