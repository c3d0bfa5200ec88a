// Package tournament runs a server's tournaments, as a tournament
// director would: an admin opens one in a channel, people sign up on its
// message, the admin starts it, and from then on the director runs it —
// each round's tables opened as the last one's games end, the playoff
// seeded, the champion crowned — from whatever moves it on: a game's end,
// a restart, or the timers' pass on any replica (Advance is idempotent;
// the store opens each table once). The tournament message is edited to
// the standings as they change (Show). A tournament's rules are the
// domain's (cribbage.Tournament); its games are the bot's tables, asked
// for through Tables.
package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// Store is what the director reads and writes: the tournaments, their
// tables, and their messages.
type Store interface {
	cribbage.TournamentService
	Seen(ctx context.Context, interactionID string) error
	TournamentMessage(ctx context.Context, id int64) (string, error)
	TournamentsToShow(ctx context.Context) ([]*cribbage.Tournament, error)
	MarkTournamentShown(ctx context.Context, id int64, messageID string, version int64) error
}

// Tables is what the director asks of the bot's tables, each change
// through the bot's one change path.
type Tables interface {
	// Continue makes the moves table id makes by itself now (a computer
	// player's, a deal) and shows them; it returns the table as saved, or
	// nil when there were none.
	Continue(ctx context.Context, id int64) (*cribbage.Table, error)
	// CancelGame cancels an open game of the tournament name, which by
	// cancelled.
	CancelGame(ctx context.Context, id int64, by, name string)
	// Env is what the domain's moves take: the clock, the seeds and the
	// computer players.
	Env() cribbage.Env
}

// Director runs the tournaments.
type Director struct {
	Store  Store
	Tables Tables
	REST   *rest.Client
	Log    *slog.Logger
	// Wake tells the outbox there is something to deliver.
	Wake func()
	// InBackground runs fn within the bot's run, counted so that a
	// shutdown waits for it.
	InBackground func(fn func(ctx context.Context))
	// Speak is the language of a server's channels, which the tournament
	// message and its games' opening lines speak (bot's speakServer);
	// nil speaks English.
	Speak func(ctx context.Context, guildID string) lang.Lang
	// showing lets one pass at a time bring tournament messages up to
	// date, so this process never posts one twice; shown, under it, is
	// the sum of what each open tournament's message shows (messageSum),
	// so a change that leaves it as it is edits nothing.
	showing sync.Mutex
	shown   map[int64][32]byte
	// drawn, under showing too, is each open tournament's standings
	// picture as last drawn: a pass that finds a message behind (a retry
	// after a refused edit, a change the picture does not show) draws
	// again only a picture that changed.
	drawn map[int64]drawnStandings
}

// drawnStandings is a standings picture drawn, and what it shows
// (picture.Standings in Go syntax).
type drawnStandings struct {
	of  string
	png []byte
}

// draw returns tournament id's standings picture drawer: it draws a
// picture only when it shows something the last one drawn did not.
// d.showing must be held.
func (d *Director) draw(id int64) func(p picture.Standings) []byte {
	return func(p picture.Standings) []byte {
		of := fmt.Sprintf("%#v", p)
		if last, ok := d.drawn[id]; ok && last.of == of {
			return last.png
		}
		png := drawStandings(p)
		if d.drawn == nil {
			d.drawn = map[int64]drawnStandings{}
		}
		d.drawn[id] = drawnStandings{of: of, png: png}
		return png
	}
}

// speak is the language of a server's channels.
func (d *Director) speak(ctx context.Context, guildID string) lang.Lang {
	if d.Speak == nil {
		return lang.English
	}
	return d.Speak(ctx, guildID)
}

// Answer is the director's answer to an interaction, and what to do once
// it is sent (show the tournament's message, say).
type Answer struct {
	Resp  *discordgo.InteractionResponse
	After func(ctx context.Context)
}

// openHere returns the channel's open tournament, or
// refusal.ErrNoTournamentHere.
func (d *Director) openHere(ctx context.Context, ic *discordgo.Interaction) (*cribbage.Tournament, error) {
	list, err := d.Store.ChannelTournaments(ctx, ic.ChannelID)
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

// Open opens a tournament for sign-up and posts its message.
func (d *Director) Open(ctx context.Context, ic *discordgo.Interaction) (Answer, error) {
	if !command.IsAdmin(ic) {
		return Answer{}, refusal.ErrNotAdmin
	}
	if _, err := d.openHere(ctx, ic); err == nil {
		return Answer{}, refusal.ErrTournamentHere
	} else if !errors.Is(err, refusal.ErrNoTournamentHere) {
		return Answer{}, err
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
		return Answer{}, err
	}
	uid, _ := command.User(ic)
	t.GuildID, t.ChannelID, t.HostID = ic.GuildID, ic.ChannelID, uid
	t, err = d.Store.CreateTournament(ctx, t, ic.ID)
	if err != nil {
		return Answer{}, err
	}
	d.Log.Info("tournament opened", "interaction", ic.ID, "tournament", t.ID, "by", uid)
	l := command.Lang(ic)
	start := "/" + command.Admin + " " + l.T("cmd.name.tournament") + " " + l.T("cmd.name.start")
	return Answer{Resp: render.Ephemeral(l.T("tournament.opened", "Name", t.Name, "Command", start, "Min", cribbage.MinEntrants)), After: d.Show}, nil
}

// Start starts the channel's tournament.
func (d *Director) Start(ctx context.Context, ic *discordgo.Interaction) (Answer, error) {
	t, err := d.openHere(ctx, ic)
	if err != nil {
		return Answer{}, err
	}
	return d.start(ctx, ic, t.ID)
}

// start closes sign-up and opens the first round's tables, for
// an admin or whoever opened the tournament.
func (d *Director) start(ctx context.Context, ic *discordgo.Interaction, id int64) (Answer, error) {
	uid, _ := command.User(ic)
	t, err := d.change(ctx, id, ic.ID, func(t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if t.GuildID != ic.GuildID {
			return nil, refusal.ErrNoTournamentHere
		}
		if !command.IsAdmin(ic) && uid != t.HostID {
			return nil, refusal.ErrNotTournamentAdm
		}
		if err := t.Start(); err != nil {
			return nil, err
		}
		return d.step(ctx, t, tables)
	})
	if err != nil {
		return Answer{}, err
	}
	d.Log.Info("tournament started", "interaction", ic.ID, "tournament", t.ID, "entrants", len(t.Entrants))
	return Answer{Resp: render.Ephemeral(command.Lang(ic).T("tournament.started", "Name", t.Name)),
		After: func(context.Context) { d.Moved(t.ID) }}, nil
}

// Cancel ends the channel's tournament and cancels its open
// tables.
func (d *Director) Cancel(ctx context.Context, ic *discordgo.Interaction) (Answer, error) {
	if !command.IsAdmin(ic) {
		return Answer{}, refusal.ErrNotAdmin
	}
	cur, err := d.openHere(ctx, ic)
	if err != nil {
		return Answer{}, err
	}
	uid, _ := command.User(ic)
	t, err := d.change(ctx, cur.ID, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if err := t.Cancel(uid); err != nil {
			return nil, err
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return Answer{}, err
	}
	// Each open game is cancelled in its own update; if this process dies
	// before the last, the next timer pass (on any replica) or start
	// cancels the rest (sweepCancelledTournaments).
	tables, err := d.Store.TournamentTables(ctx, t.ID)
	if err != nil {
		return Answer{}, err
	}
	for _, tb := range tables {
		if tb.Status.Open() {
			d.Tables.CancelGame(ctx, tb.ID, uid, t.Name)
		}
	}
	d.Log.Info("tournament cancelled", "interaction", ic.ID, "tournament", t.ID, "by", uid)
	l := command.Lang(ic)
	return Answer{Resp: render.Ephemeral(l.T("tournament.cancelled", "Name", t.Name, "Counts", render.CountsForNobody(l))),
		After: d.Show}, nil
}

// Computers enters computer players, while sign-up is open.
func (d *Director) Computers(ctx context.Context, ic *discordgo.Interaction) (Answer, error) {
	if !command.IsAdmin(ic) {
		return Answer{}, refusal.ErrNotAdmin
	}
	cur, err := d.openHere(ctx, ic)
	if err != nil {
		return Answer{}, err
	}
	opts := command.Options(ic)
	choice := render.LevelEasy
	if o, ok := opts["level"]; ok {
		choice = o.StringValue()
	}
	level, ok := command.ComputerLevel(choice)
	if !ok {
		return Answer{}, command.ErrBadOptions
	}
	n := int(opts["count"].IntValue())
	l := d.speak(ctx, ic.GuildID)
	t, err := d.change(ctx, cur.ID, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		computers := 0
		for _, e := range t.Entrants {
			if e.Computer != "" {
				computers++
			}
		}
		for i := range n {
			k := computers + i + 1
			// The name is kept as entered, and shown in the channel: in
			// the server's language.
			name := l.T("tournament.computer-name", "N", k, "Level", render.LevelName(l, string(level)))
			e := cribbage.Entrant{UserID: fmt.Sprintf("computer:%d", k), Name: name, Computer: string(level)}
			if err := t.SignUp(e); err != nil {
				return nil, err
			}
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return Answer{}, err
	}
	return Answer{Resp: render.Ephemeral(command.Lang(ic).N("tournament.computers", n, "Field", len(t.Entrants))), After: d.Show}, nil
}

// SignUp enters the person who clicked.
func (d *Director) SignUp(ctx context.Context, ic *discordgo.Interaction, c click.ID) (Answer, error) {
	uid, name := command.User(ic)
	t, err := d.change(ctx, c.Table, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if t.GuildID != ic.GuildID {
			return nil, refusal.ErrNoTournamentHere
		}
		if err := t.SignUp(cribbage.Entrant{UserID: uid, Name: name}); err != nil {
			return nil, err
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return Answer{}, err
	}
	return Answer{Resp: render.Ephemeral(command.Lang(ic).N("tournament.signed-up-you", len(t.Entrants), "Name", t.Name)), After: d.Show}, nil
}

// Withdraw takes the clicker's entry back.
func (d *Director) Withdraw(ctx context.Context, ic *discordgo.Interaction, c click.ID) (Answer, error) {
	uid, _ := command.User(ic)
	t, err := d.change(ctx, c.Table, ic.ID, func(t *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if t.GuildID != ic.GuildID {
			return nil, refusal.ErrNoTournamentHere
		}
		if err := t.Withdraw(uid); err != nil {
			return nil, err
		}
		return &cribbage.TournamentChange{Tournament: t}, nil
	})
	if err != nil {
		return Answer{}, err
	}
	return Answer{Resp: render.Ephemeral(command.Lang(ic).T("tournament.withdrawn", "Name", t.Name)), After: d.Show}, nil
}

// StartClick is the Start button.
func (d *Director) StartClick(ctx context.Context, ic *discordgo.Interaction, c click.ID) (Answer, error) {
	return d.start(ctx, ic, c.Table)
}

// Standings shows the channel's newest tournament, privately.
func (d *Director) Standings(ctx context.Context, ic *discordgo.Interaction) (Answer, error) {
	list, err := d.Store.ChannelTournaments(ctx, ic.ChannelID)
	if err != nil {
		return Answer{}, err
	}
	if len(list) == 0 || list[0].GuildID != ic.GuildID {
		return Answer{}, refusal.ErrNoTournamentHere
	}
	t := list[0]
	tables, err := d.Store.TournamentTables(ctx, t.ID)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Resp: render.Ephemeral(render.Clip(Text(command.Lang(ic), t, tables), render.MaxContent))}, nil
}

// step is the change that moves t on from its tables (Advance),
// or nil when nothing moves: the tables it opens start at once, their
// table messages posted and their players pinged by the outbox. A table
// of two computer players is played quietly, after the change is saved
// (advanceTournament): its result is on the standings.
func (d *Director) step(ctx context.Context, t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
	before := t.Clone()
	specs, err := t.Advance(tables)
	if err != nil {
		return nil, err
	}
	if len(specs) == 0 && t.Equal(before) {
		return nil, nil
	}
	ch := &cribbage.TournamentChange{Tournament: t}
	l := d.speak(ctx, t.GuildID)
	for _, s := range specs {
		open, err := t.OpenTable(s, d.Tables.Env())
		if err != nil {
			return nil, err
		}
		// Its games are the channel's: the server's language.
		render.Opened(l, open, IntroduceGame(l, t, open.Follows, open.Table))
		ch.Open = append(ch.Open, open)
	}
	return ch, nil
}

// maxSteps bounds one advance: each step opens a round's tables
// or decides a playoff round, so a tournament has far fewer.
const maxSteps = 64

// Advance moves a tournament on as far as its tables allow. Its
// step only opens tables; their computer players then move, each table in
// updates of its own (play), so a game between two computer
// entrants is played without holding the database's writer, and its end
// can make the next step possible at once.
func (d *Director) Advance(ctx context.Context, id int64) (err error) {
	// A panic is one tournament's trouble: it is logged by the caller, and
	// the other tournaments, and the process, carry on.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	for range maxSteps {
		t, err := d.change(ctx, id, "", func(t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
			return d.step(ctx, t, tables)
		})
		if err != nil {
			return err
		}
		ended, err := d.play(ctx, id)
		if err != nil || (t == nil && !ended) {
			return err
		}
	}
	return nil
}

// play makes the moves the tournament's tables make by
// themselves (cribbage.Continue): a table just opened, or one a process
// that stopped left waiting on its computers. It reports whether a game
// ended, which may move the tournament on. Any replica may do this at
// once with another: each move is saved once, by the table's version.
func (d *Director) play(ctx context.Context, id int64) (bool, error) {
	tables, err := d.Store.TournamentTables(ctx, id)
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
			t, err := d.Tables.Continue(ctx, id)
			if err != nil {
				return ended, err
			}
			id = 0
			if t == nil {
				continue // nothing to do there after all
			}
			if !t.Status.Open() {
				ended, id = true, t.RematchID
			}
		}
	}
	return ended, nil
}

// Moved advances a tournament after one of its games changed,
// and shows it, in the background: the answer to the move does not wait.
func (d *Director) Moved(id int64) {
	d.InBackground(func(ctx context.Context) {
		if err := d.Advance(ctx, id); err != nil && ctx.Err() == nil {
			d.Log.Warn("could not advance a tournament", "tournament", id, "err", err)
		}
		d.Wake()
		d.Show(ctx)
	})
}

// AdvanceAll advances every open tournament: after a restart, and
// on the timers' pass, so a game's end that no process saw through is
// acted on.
func (d *Director) AdvanceAll(ctx context.Context) {
	d.sweepCancelled(ctx)
	list, err := d.Store.OpenTournaments(ctx)
	if err != nil {
		if ctx.Err() == nil {
			d.Log.Error("cannot list open tournaments", "err", err)
		}
		return
	}
	for _, t := range list {
		if t.Status == cribbage.TournamentSignup {
			continue
		}
		if err := d.Advance(ctx, t.ID); err != nil && ctx.Err() == nil {
			d.Log.Warn("could not advance a tournament", "tournament", t.ID, "err", err)
		}
	}
	d.Show(ctx)
}

// sweepCancelled cancels the open games of tournaments already
// cancelled: a cancel cancels its tournament first and its games after,
// each in an update of its own, and a process can die in between.
func (d *Director) sweepCancelled(ctx context.Context) {
	tables, err := d.Store.CancelledTournamentTables(ctx)
	if err != nil {
		if ctx.Err() == nil {
			d.Log.Error("cannot list the games of cancelled tournaments", "err", err)
		}
		return
	}
	for _, tb := range tables {
		tour, err := d.Store.Tournament(ctx, tb.Tournament.ID)
		if err != nil {
			d.Log.Warn("cannot read a table's tournament", "table", tb.ID, "err", err)
			continue
		}
		d.Tables.CancelGame(ctx, tb.ID, tour.CancelledBy, tour.Name)
	}
}

// Show brings every tournament message that is behind up to
// date, posting it the first time (under a nonce, so a retry after a lost
// answer does not post it twice).
func (d *Director) Show(ctx context.Context) {
	d.showing.Lock()
	defer d.showing.Unlock()
	list, err := d.Store.TournamentsToShow(ctx)
	if err != nil {
		if ctx.Err() == nil {
			d.Log.Warn("cannot list tournaments to show", "err", err)
		}
		return
	}
	for _, t := range list {
		if err := d.show(ctx, t); err != nil && ctx.Err() == nil {
			d.Log.Info("tournament message not updated; the next pass retries", "tournament", t.ID, "err", err)
		}
	}
}

// show posts or edits one tournament's message.
func (d *Director) show(ctx context.Context, t *cribbage.Tournament) error {
	tables, err := d.Store.TournamentTables(ctx, t.ID)
	if err != nil {
		return err
	}
	id, err := d.Store.TournamentMessage(ctx, t.ID)
	if err != nil {
		return err
	}
	r := message(d.speak(ctx, t.GuildID), t, tables, d.draw(t.ID))
	sum, err := messageSum(r)
	if err != nil {
		return err
	}
	switch {
	case id != "" && d.shown[t.ID] == sum:
		// A change that leaves the message as it is: it is shown.
	case id == "":
		send := r.Send()
		body := rest.MessageCreate{MessageSend: send, Nonce: fmt.Sprintf("tour%d", t.ID), EnforceNonce: true}
		raw, err := d.REST.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(t.ChannelID),
			Bucket: rest.PostBucket(t.ChannelID), Route: "POST /channels/{channel}/messages", Body: body, Files: send.Files})
		if err != nil {
			return err
		}
		var m discordgo.Message
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		id = m.ID
		if render.TextOf(&m) != r.Text() {
			// The nonce answered with the message an earlier pass
			// posted, which may show less: it is not known to show r.
			sum = [32]byte{}
		}
	default:
		e := r.Edit(t.ChannelID, id)
		if _, err := d.REST.Do(ctx, rest.Request{Method: http.MethodPatch, URL: discordgo.EndpointChannelMessage(t.ChannelID, id),
			Bucket: rest.EditBucket(t.ChannelID), Route: "PATCH /channels/{channel}/messages/{message}", Body: e, Files: e.Files}); err != nil {
			return err
		}
	}
	if d.shown == nil {
		d.shown = map[int64][32]byte{}
	}
	d.shown[t.ID] = sum
	if !t.Status.Open() {
		// Nothing changes it any more.
		defer delete(d.shown, t.ID)
		defer delete(d.drawn, t.ID)
	}
	return d.Store.MarkTournamentShown(ctx, t.ID, id, t.Version)
}

// messageSum is a digest of what a rendered message shows: its text,
// embeds and buttons, and its files' bytes (read, then rewound for the
// request that sends them).
func messageSum(r render.Message) ([32]byte, error) {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode([]any{r.Content, r.Embeds, r.Components}); err != nil {
		return [32]byte{}, err
	}
	for _, f := range r.Files {
		fmt.Fprintf(h, "%s\n", f.Name)
		if _, err := io.Copy(h, f.Reader); err != nil {
			return [32]byte{}, err
		}
		if s, ok := f.Reader.(io.Seeker); ok {
			if _, err := s.Seek(0, io.SeekStart); err != nil {
				return [32]byte{}, err
			}
		}
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out, nil
}

// change makes one change to tournament id, as change does to a
// table: it reads the tournament and its tables, lets decide make the
// change (which opens its tables as data), and saves it over the version
// it was decided on, deciding again on a newer one while it loses a race.
// A nil change saves nothing, and returns a nil tournament.
func (d *Director) change(ctx context.Context, id int64, interactionID string, decide func(t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error)) (*cribbage.Tournament, error) {
	for attempt := 1; ; attempt++ {
		if err := d.Store.Seen(ctx, interactionID); err != nil {
			return nil, err
		}
		from, err := d.Store.Tournament(ctx, id)
		if err != nil {
			return nil, err
		}
		tables, err := d.Store.TournamentTables(ctx, id)
		if err != nil {
			return nil, err
		}
		ch, err := decide(from.Clone(), tables)
		if err != nil || ch == nil {
			return nil, err
		}
		saved, err := d.Store.SaveTournament(ctx, from, ch, interactionID)
		if errors.Is(err, cribbage.ErrStale) && attempt < cribbage.UpdateTries {
			continue
		}
		return saved, err
	}
}
