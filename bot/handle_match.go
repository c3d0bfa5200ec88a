package bot

import (
	"context"
	"errors"

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

// The handlers of rematch offers, challenges and matches. A click on a
// table message changes the table in one update (tableClick) and answers
// with the table message as it is after; the thread is told what
// happened, mentioning whoever has to answer.

// tableClick changes table id from a click on its message in one update:
// change decides on the table as loaded and queues what to announce. The
// table message is refreshed too: the click may come from a copy of it
// (/cribbage status public: True), which its answer updates instead.
func (b *Bot) tableClick(ctx context.Context, ic *discordgo.Interaction, id int64, change func(t *cribbage.Table) (*cribbage.Change, error)) (changed, error) {
	return b.change(ctx, id, changeOf{ic: ic, decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		ch, err := change(t)
		return ch, nil, err
	}})
}

// updated answers a click on a table message with the message as the
// click's change left it, showing the board the message has; the live
// surface records it as what the message shows.
func updated(done changed) reply {
	r := render.Table(done.speak, done.table, done.msg.Board)
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: r.Response(false)},
		table: &answer.TableShown{Table: done.table, Render: r, MessageID: done.msg.MessageID}}
}

// clickRematch is Rematch on a finished table's message: an offer to the
// others at the table, or a yes to the offer open. The last yes makes the
// rematch (cribbage.OfferRematch), whose table message the bot then posts.
func (b *Bot) clickRematch(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, _ := command.User(ic)
	// A rematch is a new table: whoever asks for it (or says yes) is held
	// to the server's limit, as a start is.
	settings, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	if err := b.checkOpenTables(ctx, ic.GuildID, uid, settings); err != nil {
		return reply{}, err
	}
	done, err := b.tableClick(ctx, ic, c.Table, func(t *cribbage.Table) (*cribbage.Change, error) {
		offering := t.Offer == nil
		ch, err := cribbage.OfferRematch(t, uid, b.env())
		if err != nil {
			return nil, rematchRefusal(err)
		}
		// Checked above for an offer, which makes no table; the yes that
		// makes one is held to it again in the write, where a start at the
		// same instant cannot slip in beside it.
		ch.Hold = openTablesHold(settings, uid)
		switch {
		case ch.Next != nil && len(t.Offer.Accepted) > 1:
			ch.Outbox = append(ch.Outbox, render.Post(t, b.speakOrEnglish(ctx, t).T("rematch.accepted"), nil))
		case offering && ch.Next == nil:
			var waiting []string
			for _, s := range t.Offer.Waiting(t) {
				waiting = append(waiting, s.UserID)
			}
			text := b.speakOrEnglish(ctx, t).T("rematch.offered", "By", render.NameOf(t, uid), "Waiting", render.Mentions(waiting))
			ch.Outbox = append(ch.Outbox, render.Post(t, text, waiting))
		}
		return ch, nil
	})
	if errors.Is(err, cribbage.ErrRematched) {
		return b.rematchedAlready(ctx, ic, c.Table)
	}
	if err != nil {
		return reply{}, tooMany(err, settings)
	}
	if next := done.table.RematchID; next != 0 {
		// The last yes opened the rematch: its computer players move now
		// it is saved.
		b.playLater(next)
	}
	return updated(done), nil
}

// rematchRefusal words a refused rematch click: someone not seated is told
// the rematch is the players', not to join a table that is over.
func rematchRefusal(err error) error {
	if errors.Is(err, cribbage.ErrNotSeated) {
		return refusal.ErrNotAtTable
	}
	return err
}

// rematchedAlready tells a late click where the table's rematch is.
func (b *Bot) rematchedAlready(ctx context.Context, ic *discordgo.Interaction, id int64) (reply, error) {
	prev, err := b.store.Table(ctx, id)
	if err != nil {
		return reply{}, err
	}
	next, err := b.store.Table(ctx, prev.RematchID)
	if err != nil {
		return reply{}, err
	}
	m, err := b.store.TableMessage(ctx, next.ID)
	if err != nil {
		return reply{}, err
	}
	return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.has-rematch", "ID", id, "Next", next.ID, "Link", render.MessageLink(next, m)))}, nil
}

// clickNoRematch declines the rematch offer (or, from whoever made it,
// takes it back).
func (b *Bot) clickNoRematch(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, _ := command.User(ic)
	done, err := b.tableClick(ctx, ic, c.Table, func(t *cribbage.Table) (*cribbage.Change, error) {
		var by string
		if t.Offer != nil {
			by = t.Offer.By
		}
		ch, err := cribbage.DeclineRematch(t, uid)
		if err != nil {
			return nil, rematchRefusal(err)
		}
		// The table's story: the channel's language.
		l := b.speakOrEnglish(ctx, t)
		if by == uid {
			ch.Outbox = append(ch.Outbox, render.Post(t, l.T("rematch.taken-back", "Name", render.NameOf(t, uid)), nil))
		} else {
			ch.Outbox = append(ch.Outbox, render.Post(t, l.T("rematch.declined", "By", by, "Name", render.NameOf(t, uid)), []string{by}))
		}
		return ch, nil
	})
	if err != nil {
		return reply{}, err
	}
	return updated(done), nil
}

// clickResignMatch resigns the match with its game, after the
// confirmation.
func (b *Bot) clickResignMatch(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	done, err := b.change(ctx, c.Table, changeOf{ic: ic, seated: true, decide: func(t *cribbage.Table, seat int) (*cribbage.Change, []engine.Event, error) {
		return cribbage.ResignMatch(t, seat, b.env())
	}})
	if err != nil {
		return reply{}, err
	}
	t := done.table
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: render.Notice(command.Lang(ic).T("answer.resigned-match", "ID", t.ID)).Response(true)}}, nil
}

// The bot's refusals of challenges.

// cmdChallenge is /cribbage challenge user [points] [match].
func (b *Bot) cmdChallenge(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	opts := command.Options(ic)
	points, bestOf := 0, 0
	if v, ok := opts["points"]; ok {
		points = int(v.IntValue())
	}
	if v, ok := opts["match"]; ok {
		bestOf = int(v.IntValue())
	}
	return b.challenge(ctx, ic, opts["user"].UserValue(nil).ID, points, bestOf)
}

// menuChallenge is the user context menu's "Challenge to cribbage": a
// challenge to the person clicked, to the server's points, one game.
func (b *Bot) menuChallenge(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return b.challenge(ctx, ic, ic.ApplicationCommandData().TargetID, 0, 0)
}

// challenge opens the user's challenge to the person with id opponent, in
// this channel, to points (0: the server's default), a best-of-bestOf
// match unless bestOf is 0; it answers with the challenge's message: a new
// public message that mentions them, so they are notified (and nobody else
// is). A challenge opens a table, so the server's games channel and limit
// of open tables hold for it as for a start.
func (b *Bot) challenge(ctx context.Context, ic *discordgo.Interaction, opponent string, points, bestOf int) (reply, error) {
	uid, name := command.User(ic)
	settings, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	if settings.GamesChannel != "" && ic.ChannelID != settings.GamesChannel {
		return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.challenge-channel", "Channel", settings.GamesChannel))}, nil
	}
	o := engine.Options{Players: 2, Target: 121}
	if settings.DefaultPoints != 0 {
		o.Target = settings.DefaultPoints
	}
	if points != 0 {
		o.Target = points
	}
	target, targetName, err := resolvedUser(ic, opponent)
	if err != nil {
		return reply{}, err
	}
	if target.Bot {
		return reply{}, refusal.ErrChallengeBot
	}
	t, err := cribbage.NewChallenge(ic.GuildID, ic.ChannelID, cribbage.Seat{UserID: uid, Name: name}, cribbage.Seat{UserID: target.ID, Name: targetName}, o, bestOf)
	if err != nil {
		return reply{}, err
	}
	t.Locale = command.GuildLocale(ic)
	// The server's limit and the one open challenge to a person are held
	// in the write, last: a challenge to oneself or to a bot is refused
	// for that, whatever the tables open.
	hold := openTablesHold(settings, uid)
	hold.OneChallenge = true
	t, err = b.store.CreateTable(ctx, t, ic.ID, nil, hold)
	if err != nil {
		return reply{}, tooMany(err, settings)
	}
	b.ours.add(t.ID)
	r := render.Table(lang.Server(settings.Language, t.Locale), t, "")
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: r.Response(false)}
	return reply{resp: resp, tableMessage: t.ID, table: &answer.TableShown{Table: t, Render: r}}, nil
}

// resolvedUser finds the user an interaction names by id in its resolved
// data, with the name to show for them: their nickname here, else their
// display name.
func resolvedUser(ic *discordgo.Interaction, id string) (*discordgo.User, string, error) {
	data := ic.ApplicationCommandData()
	if data.Resolved == nil || data.Resolved.Users[id] == nil {
		return nil, "", refusal.ErrNoTarget
	}
	u := data.Resolved.Users[id]
	if m := data.Resolved.Members[id]; m != nil && m.Nick != "" {
		return u, m.Nick, nil
	}
	return u, command.DisplayName(u), nil
}

// clickAccept is the person challenged taking the held seat: the game
// starts.
func (b *Bot) clickAccept(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, name := command.User(ic)
	// Why the click cannot be answered at all comes before the server's
	// limit: a challenge withdrawn is not "too many tables".
	cur, err := b.store.Table(ctx, c.Table)
	if err != nil {
		return reply{}, err
	}
	if err := cribbage.Answerable(cur, uid); err != nil {
		return reply{}, err
	}
	settings, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	done, err := b.tableClick(ctx, ic, c.Table, func(t *cribbage.Table) (*cribbage.Change, error) {
		ch, err := cribbage.AcceptChallenge(t, cribbage.Seat{UserID: uid, Name: name}, b.env())
		if err != nil {
			return nil, err
		}
		ch.Hold = openTablesHold(settings, uid)
		// The game started: its thread opens before its story.
		ch.Outbox = append([]cribbage.Outbound{{ChannelID: t.ChannelID, Kind: render.KindThread}}, ch.Outbox...)
		return ch, nil
	})
	if err != nil {
		return reply{}, tooMany(err, settings)
	}
	return updated(done), nil
}

// clickDecline is the person challenged saying no: the table closes, and
// the challenger is told.
func (b *Bot) clickDecline(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, _ := command.User(ic)
	done, err := b.tableClick(ctx, ic, c.Table, func(t *cribbage.Table) (*cribbage.Change, error) {
		ch, err := cribbage.DeclineChallenge(t, uid)
		if err != nil {
			return nil, err
		}
		text := b.speakOrEnglish(ctx, t).T("challenge.declined-post", "Host", t.HostID, "Name", t.Challenge.Name)
		ch.Outbox = append(ch.Outbox, render.Post(t, text, []string{t.HostID}))
		return ch, nil
	})
	if err != nil {
		return reply{}, err
	}
	return updated(done), nil
}

// clickWithdraw is the challenger taking the challenge back.
func (b *Bot) clickWithdraw(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, _ := command.User(ic)
	done, err := b.tableClick(ctx, ic, c.Table, func(t *cribbage.Table) (*cribbage.Change, error) {
		ch, err := cribbage.WithdrawChallenge(t, uid)
		if errors.Is(err, cribbage.ErrNotHost) {
			return nil, refusal.ErrNotChallenger
		}
		return ch, err
	})
	if err != nil {
		return reply{}, err
	}
	return updated(done), nil
}
