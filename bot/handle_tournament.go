package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// Tournaments: an admin opens one in a channel, people sign up on its
// message, the admin starts it, and from then on the bot runs it — each
// round's tables opened as the last one's games end, the playoff seeded,
// the champion crowned — from whatever moves it on: a game's end, a
// restart, or the timers' pass on any replica (advanceTournament is
// idempotent; the store opens each table once). The tournament message
// is edited to the standings as they change (showTournaments).

// openTournamentHere returns the channel's open tournament, or
// refusal.ErrNoTournamentHere.
func (b *Bot) openTournamentHere(ctx context.Context, ic *discordgo.Interaction) (*cribbage.Tournament, error) {
	list, err := b.store.ChannelTournaments(ctx, ic.ChannelID)
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		if t.Status.Open() && t.GuildID == ic.GuildID {
			return t, nil
		}
	}
	return nil, refusal.ErrNoTournamentHere
}

// cmdTournamentOpen opens a tournament for sign-up and posts its message.
func (b *Bot) cmdTournamentOpen(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	if !command.IsAdmin(ic) {
		return reply{}, refusal.ErrNotAdmin
	}
	if _, err := b.openTournamentHere(ctx, ic); err == nil {
		return reply{}, refusal.ErrTournamentHere
	} else if !errors.Is(err, refusal.ErrNoTournamentHere) {
		return reply{}, err
	}
	opts := command.Options(ic)
	games, rounds, points := 2, 3, 121
	if o, ok := opts["games-per-round"]; ok {
		games = int(o.IntValue())
	}
	if o, ok := opts["rounds"]; ok {
		rounds = int(o.IntValue())
	}
	if o, ok := opts["points"]; ok {
		points = int(o.IntValue())
	}
	name := strings.Join(strings.Fields(opts["name"].StringValue()), " ")
	t, err := cribbage.NewTournament(name, games, rounds, points)
	if err != nil {
		return reply{}, err
	}
	uid, _ := command.User(ic)
	t.GuildID, t.ChannelID, t.HostID = ic.GuildID, ic.ChannelID, uid
	t, err = b.store.CreateTournament(ctx, t, ic.ID)
	if err != nil {
		return reply{}, err
	}
	b.logger(ic).Info("tournament opened", "tournament", t.ID, "by", uid)
	return reply{resp: render.Ephemeral(fmt.Sprintf("**%s** is open for sign-up: its message is in this channel. Start it with `/%s tournament start` when the field is in (at least %d).",
		t.Name, command.Admin, cribbage.MinEntrants)), after: b.showTournaments}, nil
}

// cmdTournamentStart starts the channel's tournament.
func (b *Bot) cmdTournamentStart(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	t, err := b.openTournamentHere(ctx, ic)
	if err != nil {
		return reply{}, err
	}
	return b.startTournament(ctx, ic, t.ID)
}

// startTournament closes sign-up and opens the first round's tables, for
// an admin or whoever opened the tournament.
func (b *Bot) startTournament(ctx context.Context, ic *discordgo.Interaction, id int64) (reply, error) {
	uid, _ := command.User(ic)
	t, err := b.changeTournament(ctx, id, ic.ID, func(t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if t.GuildID != ic.GuildID {
			return nil, refusal.ErrNoTournamentHere
		}
		if !command.IsAdmin(ic) && uid != t.HostID {
			return nil, refusal.ErrNotTournamentAdm
		}
		if err := t.Start(); err != nil {
			return nil, err
		}
		return b.tournamentStep(t, tables)
	})
	if err != nil {
		return reply{}, err
	}
	b.logger(ic).Info("tournament started", "tournament", t.ID, "entrants", len(t.Entrants))
	return reply{resp: render.Ephemeral(fmt.Sprintf("**%s** has begun: round 1 is paired and its tables are open.", t.Name)),
		after: func(context.Context) { b.tournamentMoved(t.ID) }}, nil
}

// cmdTournamentCancel ends the channel's tournament and cancels its open
// tables.
func (b *Bot) cmdTournamentCancel(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	if !command.IsAdmin(ic) {
		return reply{}, refusal.ErrNotAdmin
	}
	cur, err := b.openTournamentHere(ctx, ic)
	if err != nil {
		return reply{}, err
	}
	uid, _ := command.User(ic)
	t, err := b.changeTournament(ctx, cur.ID, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if err := t.Cancel(uid); err != nil {
			return nil, err
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return reply{}, err
	}
	// Each open game is cancelled in its own update; if this process dies
	// before the last, the next timer pass (on any replica) or start
	// cancels the rest (sweepCancelledTournaments).
	tables, err := b.store.TournamentTables(ctx, t.ID)
	if err != nil {
		return reply{}, err
	}
	for _, tb := range tables {
		if tb.Status.Open() {
			b.cancelTournamentTable(ctx, tb.ID, uid, t.Name)
		}
	}
	b.logger(ic).Info("tournament cancelled", "tournament", t.ID, "by", uid)
	return reply{resp: render.Ephemeral(fmt.Sprintf("**%s** is cancelled, and its open games with it. %s", t.Name, render.CountsForNobody)),
		after: b.showTournaments}, nil
}

// cancelTournamentTable cancels one open table of a cancelled tournament.
func (b *Bot) cancelTournamentTable(ctx context.Context, id int64, by, name string) {
	_, err := b.change(ctx, id, changeOf{decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		if err := t.Cancel(by, "the tournament "+name+" was cancelled"); err != nil {
			return nil, nil, nil // over already
		}
		text := fmt.Sprintf("🚫 %s\n%s", render.CancelledLine(t), render.CountsForNobody)
		return &cribbage.Change{Table: t, Outbox: []cribbage.Outbound{render.Post(t, text, t.People())}}, nil, nil
	}})
	if err != nil {
		b.log.Warn("could not cancel a tournament table", "table", id, "err", err)
	}
}

// cmdTournamentComputers enters computer players, while sign-up is open.
func (b *Bot) cmdTournamentComputers(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	if !command.IsAdmin(ic) {
		return reply{}, refusal.ErrNotAdmin
	}
	cur, err := b.openTournamentHere(ctx, ic)
	if err != nil {
		return reply{}, err
	}
	opts := command.Options(ic)
	choice := render.LevelEasy
	if o, ok := opts["level"]; ok {
		choice = o.StringValue()
	}
	level, ok := computerLevel(choice)
	if !ok {
		return reply{}, command.ErrBadOptions
	}
	n := int(opts["count"].IntValue())
	t, err := b.changeTournament(ctx, cur.ID, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		computers := 0
		for _, e := range t.Entrants {
			if e.Computer != "" {
				computers++
			}
		}
		for i := range n {
			k := computers + i + 1
			e := cribbage.Entrant{UserID: fmt.Sprintf("computer:%d", k), Name: fmt.Sprintf("Computer %d (%s)", k, choice), Computer: string(level)}
			if err := t.SignUp(e); err != nil {
				return nil, err
			}
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return reply{}, err
	}
	return reply{resp: render.Ephemeral(fmt.Sprintf("%d computer player%s entered: the field is %d.", n, render.Plural(n), len(t.Entrants))), after: b.showTournaments}, nil
}

// clickTournamentSignUp enters the person who clicked.
func (b *Bot) clickTournamentSignUp(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, name := command.User(ic)
	t, err := b.changeTournament(ctx, c.Table, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if t.GuildID != ic.GuildID {
			return nil, refusal.ErrNoTournamentHere
		}
		if err := t.SignUp(cribbage.Entrant{UserID: uid, Name: name}); err != nil {
			return nil, err
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return reply{}, err
	}
	return reply{resp: render.Ephemeral(fmt.Sprintf("You're signed up for **%s** (%d entrant%s so far). You'll be pinged when your first game opens.",
		t.Name, len(t.Entrants), render.Plural(len(t.Entrants)))), after: b.showTournaments}, nil
}

// clickTournamentWithdraw takes the clicker's entry back.
func (b *Bot) clickTournamentWithdraw(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	uid, _ := command.User(ic)
	t, err := b.changeTournament(ctx, c.Table, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if t.GuildID != ic.GuildID {
			return nil, refusal.ErrNoTournamentHere
		}
		if err := t.Withdraw(uid); err != nil {
			return nil, err
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return reply{}, err
	}
	return reply{resp: render.Ephemeral(fmt.Sprintf("You've withdrawn from **%s**.", t.Name)), after: b.showTournaments}, nil
}

// clickTournamentStart is the Start button.
func (b *Bot) clickTournamentStart(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return b.startTournament(ctx, ic, c.Table)
}

// cmdTournamentStandings shows the channel's newest tournament, privately.
func (b *Bot) cmdTournamentStandings(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	list, err := b.store.ChannelTournaments(ctx, ic.ChannelID)
	if err != nil {
		return reply{}, err
	}
	if len(list) == 0 || list[0].GuildID != ic.GuildID {
		return reply{}, refusal.ErrNoTournamentHere
	}
	t := list[0]
	tables, err := b.store.TournamentTables(ctx, t.ID)
	if err != nil {
		return reply{}, err
	}
	return reply{resp: render.Ephemeral(render.Clip(render.TournamentText(t, tables), render.MaxContent))}, nil
}

// tournamentStep is the change that moves t on from its tables (Advance),
// or nil when nothing moves: the tables it opens start at once, their
// table messages posted and their players pinged by the outbox. A table
// of two computer players is played quietly, after the change is saved
// (advanceTournament): its result is on the standings.
func (b *Bot) tournamentStep(t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
	before := t.Clone()
	specs, err := t.Advance(tables)
	if err != nil {
		return nil, err
	}
	if len(specs) == 0 && t.Equal(before) {
		return nil, nil
	}
	ch := &cribbage.TournamentChange{Tournament: t}
	for _, s := range specs {
		open, err := t.OpenTable(s, b.env())
		if err != nil {
			return nil, err
		}
		opened(open, render.IntroduceTournamentGame(t, open.Follows, open.Table))
		ch.Open = append(ch.Open, open)
	}
	return ch, nil
}

// maxTournamentSteps bounds one advance: each step opens a round's tables
// or decides a playoff round, so a tournament has far fewer.
const maxTournamentSteps = 64

// advanceTournament moves a tournament on as far as its tables allow. Its
// step only opens tables; their computer players then move, each table in
// updates of its own (playTournament), so a game between two computer
// entrants is played without holding the database's writer, and its end
// can make the next step possible at once.
func (b *Bot) advanceTournament(ctx context.Context, id int64) error {
	for range maxTournamentSteps {
		t, err := b.changeTournament(ctx, id, "", func(t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
			return b.tournamentStep(t, tables)
		})
		if err != nil {
			return err
		}
		ended, err := b.playTournament(ctx, id)
		if err != nil || (t == nil && !ended) {
			return err
		}
	}
	return nil
}

// playTournament makes the moves the tournament's tables make by
// themselves (cribbage.Continue): a table just opened, or one a process
// that stopped left waiting on its computers. It reports whether a game
// ended, which may move the tournament on. Any replica may do this at
// once with another: each move is saved once, by the table's version.
func (b *Bot) playTournament(ctx context.Context, id int64) (bool, error) {
	tables, err := b.store.TournamentTables(ctx, id)
	if err != nil {
		return false, err
	}
	ended := false
	for _, tb := range tables {
		if !tb.OwnMove() {
			continue
		}
		// A playoff match's game that ends opens the next (RematchID),
		// played on here too.
		for id := tb.ID; id != 0; {
			if err := ctx.Err(); err != nil {
				return ended, err
			}
			t, note, err := b.continueTable(ctx, id)
			if err != nil {
				return ended, err
			}
			id = 0
			if t == nil {
				continue // nothing to do there after all
			}
			// Not moved: this pass advances the tournament itself.
			b.live.Moved(t, note)
			if !t.Status.Open() {
				ended, id = true, t.RematchID
			}
		}
	}
	return ended, nil
}

// tournamentMoved advances a tournament after one of its games changed,
// and shows it, in the background: the answer to the move does not wait.
func (b *Bot) tournamentMoved(id int64) {
	b.inBackground(func(ctx context.Context) {
		if err := safely(func() error { return b.advanceTournament(ctx, id) }); err != nil && ctx.Err() == nil {
			b.log.Warn("could not advance a tournament", "tournament", id, "err", err)
		}
		b.outbox.Wake()
		b.showTournaments(ctx)
	})
}

// advanceTournaments advances every open tournament: after a restart, and
// on the timers' pass, so a game's end that no process saw through is
// acted on.
func (b *Bot) advanceTournaments(ctx context.Context) {
	b.sweepCancelledTournaments(ctx)
	list, err := b.store.OpenTournaments(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("cannot list open tournaments", "err", err)
		}
		return
	}
	for _, t := range list {
		if t.Status == cribbage.TournamentSignup {
			continue
		}
		if err := safely(func() error { return b.advanceTournament(ctx, t.ID) }); err != nil && ctx.Err() == nil {
			b.log.Warn("could not advance a tournament", "tournament", t.ID, "err", err)
		}
	}
	b.showTournaments(ctx)
}

// sweepCancelledTournaments cancels the open games of tournaments already
// cancelled: a cancel cancels its tournament first and its games after,
// each in an update of its own, and a process can die in between.
func (b *Bot) sweepCancelledTournaments(ctx context.Context) {
	tables, err := b.store.CancelledTournamentTables(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("cannot list the games of cancelled tournaments", "err", err)
		}
		return
	}
	for _, tb := range tables {
		tour, err := b.store.Tournament(ctx, tb.Tournament.ID)
		if err != nil {
			b.log.Warn("cannot read a table's tournament", "table", tb.ID, "err", err)
			continue
		}
		b.cancelTournamentTable(ctx, tb.ID, tour.CancelledBy, tour.Name)
	}
}
