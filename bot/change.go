package bot

import (
	"context"
	"errors"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/place"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// Every change to a table goes one way, whatever asks for it (a click, a
// command, a timer, a tournament): change locks the table in this process,
// loads it, checks that the interaction may change it (the place, the seat,
// the view clicked on), lets the domain decide, saves the change with its
// story in one transaction, and shows the result on the live surface. A
// reader finds what a move does in the domain's function and here.

// changeOf says who asks for a change to a table, and what it is.
type changeOf struct {
	// ic is the click or command that asks for it; nil for the bot's own
	// changes (timers, tournaments), which no place or seat limits.
	ic *discordgo.Interaction
	// place checks that ic may change the table, given its thread, and
	// finds its user's seat (place.Is if nil; place.Seated, whatever
	// place is, when seated is set).
	place place.Check
	// seated asks that ic's user hold a seat at a game being played, and
	// view, when set, that the seat's view is still the one they clicked
	// on (place.Seated, which is then the place check).
	seated bool
	view   string
	// own marks a table's own moves made by a caller that carries on
	// from them itself (the tournament's pass): the change is shown, but
	// its tournament is not advanced, nor the table it opens played, here.
	own bool
	// move, when set, is a seated person's move at a game, made with
	// cribbage.Move for their seat (its Seat is set to it); decide is then
	// not needed.
	move *engine.Action
	// decide makes the change with the domain, given the user's seat (-1
	// for none): the change to save, and the events of the game it made,
	// whose lines the hand views show. A nil change saves nothing.
	decide func(t *cribbage.Table, seat int) (*cribbage.Change, []engine.Event, error)
}

// changed is a saved change: the table as saved, the seat of the person
// who made it, and what it did in the story's words; and the table's
// message as the change read it, which the answer to a click on the
// table message shows.
type changed struct {
	table *cribbage.Table
	seat  int
	note  render.Note
	msg   cribbage.TableMessage
	// speak is the language of the table's channel, which its story
	// and its table message speak; asker is the language of the person
	// who asked for the change, which its answer speaks.
	speak, asker lang.Lang
}

// change makes one change to table id; see changeOf. It returns a nil
// table (and seat -1) when decide made no change.
func (b *Bot) change(ctx context.Context, id int64, c changeOf) (changed, error) {
	defer b.locks.lock(id)()
	interactionID := ""
	if c.ic != nil {
		interactionID = c.ic.ID
	}
	for attempt := 1; ; attempt++ {
		// One read: the table, its message and its server's settings. A
		// redelivered interaction is told so, rather than whatever the
		// table would say of it now; the save checks again.
		read, err := b.store.TableToChange(ctx, id, interactionID)
		if err != nil {
			return changed{seat: -1}, err
		}
		speak, asker := command.Readers(c.ic, read.Settings.Language, read.Table.Locale)
		done, ch, err := b.decide(speak, read.Table, read.Message.ThreadID, c)
		if err != nil || ch == nil {
			return changed{seat: -1}, err
		}
		if err := b.noteTableMessage(ctx, &read.Message, c.ic); err != nil {
			return changed{seat: -1}, err
		}
		// Before the change is saved: a pass under way that reads it
		// must already leave the clicked message to the answer.
		b.answering(c.ic, id, read.Message.MessageID, done.seat)
		done.msg, done.speak, done.asker = read.Message, speak, asker
		err = b.save(ctx, read.From, ch, interactionID, c, &done)
		if errors.Is(err, cribbage.ErrStale) && attempt < cribbage.UpdateTries {
			continue // another process changed the table meanwhile: decide again
		}
		if err != nil {
			return changed{seat: -1}, err
		}
		return done, nil
	}
}

// save saves ch, made at the table as it stood (from) for interaction
// interactionID, and shows it on the live surface with done's note;
// done.table is the table as saved.
func (b *Bot) save(ctx context.Context, from *cribbage.Table, ch *cribbage.Change, interactionID string, c changeOf, done *changed) error {
	// The note reaches the live surface once the change is saved: passes
	// that read the table in between leave the hand views to the pass
	// that shows them with it.
	defer b.live.Saving(from.ID)()
	saved, err := b.store.Save(ctx, from, ch, interactionID)
	if err != nil {
		return err
	}
	done.table = saved
	b.ours.add(saved.ID)
	b.lendToken(ctx, saved, c.ic)
	if c.own {
		b.live.Moved(saved, done.note)
	} else {
		b.moved(saved, done.note)
	}
	return nil
}

// decide checks that c may change t, whose thread is threadID, lets the
// domain make the change on t, and words it (render.Tell): the story, the
// note for the hand views, and a closing table's last refresh. The story
// speaks l.
func (b *Bot) decide(l lang.Lang, t *cribbage.Table, threadID string, c changeOf) (changed, *cribbage.Change, error) {
	done := changed{seat: -1}
	if c.ic != nil {
		var seat int
		var err error
		switch {
		case c.seated:
			seat, err = place.Seated(t, threadID, c.ic, c.view)
		case c.place != nil:
			seat, err = c.place(t, threadID, c.ic)
		default:
			seat, err = place.Is(t, threadID, c.ic)
		}
		if err != nil {
			return done, nil, err
		}
		done.seat = seat
	}
	var ch *cribbage.Change
	var events []engine.Event
	var err error
	if c.move != nil {
		a := *c.move
		a.Seat = done.seat
		ch, events, err = cribbage.Move(t, a, b.env())
	} else {
		ch, events, err = c.decide(t, done.seat)
	}
	if err != nil || ch == nil {
		return done, nil, err
	}
	done.note = render.Tell(l, ch, events)
	return done, ch, nil
}

// moved shows a change at a table on the live surface, with note, what it
// did in words, for the hand views, and carries on from it: a tournament
// game's end advances its tournament, whose round or match it may finish
// (and whose tables the tournament plays on), and a table the change
// opened (a match's next game, a rematch) makes its computers' moves now
// that it is saved.
func (b *Bot) moved(t *cribbage.Table, note render.Note) {
	b.live.Moved(t, note)
	switch {
	case t.Tournament != nil && !t.Status.Open():
		b.tournaments.Moved(t.Tournament.ID)
	case t.RematchID != 0 && !t.Status.Open():
		b.playLater(t.RematchID)
	}
}

// lendToken gives the table a change opened (a rematch, a match's next
// game), where only tokens reach, the token of the interaction that made
// the change: the new table has no message and no token of its own, and
// its table message and story can go out only as followups of one. It is
// recorded for no message of the new table (the live surface never edits
// with it); the story only makes followups through it.
func (b *Bot) lendToken(ctx context.Context, t *cribbage.Table, ic *discordgo.Interaction) {
	if !t.TokenOnly || t.RematchID == 0 || ic == nil || ic.Token == "" {
		return
	}
	if err := b.store.RecordEditToken(ctx, t.RematchID, cribbage.MessageToken{Token: ic.Token, At: b.now()}); err != nil && ctx.Err() == nil {
		b.logger(ic).Warn("could not lend a token to the next table", "table", t.RematchID, "err", err)
	}
}

// answering tells the live surface, before a change a click makes is
// saved, which message the click's answer will update, so that passes
// leave that message to the answer: the clicker's hand view, clicked
// from it, or the table message. A click on any other message (a copy of
// the table message, a confirmation) updates that one, which no pass
// edits. messageID is the table message's id as the change read it ("" if
// none is recorded yet).
func (b *Bot) answering(ic *discordgo.Interaction, table int64, messageID string, seat int) {
	if ic == nil || ic.Message == nil || (ic.Type != discordgo.InteractionMessageComponent && ic.Type != discordgo.InteractionModalSubmit) {
		return
	}
	switch {
	case ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0:
		if seat >= 0 {
			b.live.Answering(ic.ID, table, seat)
		}
	case messageID != "" && ic.Message.ID == messageID:
		b.live.Answering(ic.ID, table, -1)
	}
}

// publicClick reports whether ic is a click on a public message's button.
func publicClick(ic *discordgo.Interaction) bool {
	return ic.Type == discordgo.InteractionMessageComponent && ic.Message != nil &&
		ic.Message.Flags&discordgo.MessageFlagsEphemeral == 0
}

// noteTableMessage records the table message from a click on one of its
// buttons, if msg, the table's message as the change read it, does not
// know it yet: a second player can press Join before the answer that
// posted the message has been recorded. It is recorded before the change
// is saved, so the thread the change may open finds it.
func (b *Bot) noteTableMessage(ctx context.Context, msg *cribbage.TableMessage, ic *discordgo.Interaction) error {
	if ic == nil || msg.MessageID != "" || !publicClick(ic) {
		return nil
	}
	if err := b.store.RecordTableMessage(ctx, msg.TableID, ic.Message.ID); err != nil {
		return err
	}
	// Recorded unless another was meanwhile, which it would not replace.
	// A later attempt of the change reads whichever it is, and records
	// nothing again.
	msg.MessageID = ic.Message.ID
	return nil
}

// play is a seated person's action at a game (cribbage.Move), which
// action builds from the table as loaded.
func (b *Bot) play(ctx context.Context, ic *discordgo.Interaction, id int64, view string, action func(t *cribbage.Table, seat int) (engine.Action, error)) (changed, error) {
	return b.change(ctx, id, changeOf{ic: ic, seated: true, view: view, decide: func(t *cribbage.Table, seat int) (*cribbage.Change, []engine.Event, error) {
		a, err := action(t, seat)
		if err != nil {
			return nil, nil, err
		}
		return cribbage.Move(t, a, b.env())
	}})
}

// env is what the domain's moves take from the bot: its clock and seeds,
// and the computer players.
func (b *Bot) env() cribbage.Env {
	return cribbage.Env{Now: b.now(), Seeds: b.seeds, Computers: b.opts.Computers}
}

// madeHere is the tables this run has made or changed before its resume
// is done, which the resume leaves alone. A table another process
// changed, whatever its clock says, is resumed.
type madeHere struct {
	mu   sync.Mutex
	done bool
	ids  map[int64]bool
}

// add notes that this run made or changed table id.
func (m *madeHere) add(id int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done {
		return
	}
	if m.ids == nil {
		m.ids = map[int64]bool{}
	}
	m.ids[id] = true
}

// made reports whether this run made or changed table id.
func (m *madeHere) made(id int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ids[id]
}

// forget ends the noting: the resume is done.
func (m *madeHere) forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done, m.ids = true, nil
}

// keyLocks is a lock per key that lives only while someone holds or waits
// for it, so the map stays as small as what is in use. The bot keeps one
// per table, so clicks on a table queue instead of racing (the store's
// version check guards against other processes).
type keyLocks[K comparable] struct {
	mu    sync.Mutex
	locks map[K]*keyLock
}

// keyLock is one key's lock and how many hold or wait for it.
type keyLock struct {
	sync.Mutex
	users int
}

// lock locks a key and returns its unlock.
func (l *keyLocks[K]) lock(key K) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[K]*keyLock{}
	}
	kl, ok := l.locks[key]
	if !ok {
		kl = &keyLock{}
		l.locks[key] = kl
	}
	kl.users++
	l.mu.Unlock()
	kl.Lock()
	return func() {
		kl.Unlock()
		l.mu.Lock()
		if kl.users--; kl.users == 0 {
			delete(l.locks, key)
		}
		l.mu.Unlock()
	}
}

// speakOrEnglish is speak, or English when the settings cannot be read:
// for words inside a change, which must not fail for want of a language.
func (b *Bot) speakOrEnglish(ctx context.Context, t *cribbage.Table) lang.Lang {
	l, err := b.speak(ctx, t)
	if err != nil {
		return lang.English
	}
	return l
}

// speak is the language of what t's channel sees: the server's setting,
// else the locale of the place the table was opened (lang.Server). It
// reads the server's settings, for words outside a change (a change reads
// them with its table, TableToChange).
func (b *Bot) speak(ctx context.Context, t *cribbage.Table) (lang.Lang, error) {
	if t.GuildID == "" {
		return lang.Server("", t.Locale), nil
	}
	settings, err := b.store.GuildSettings(ctx, t.GuildID)
	if err != nil {
		return lang.English, err
	}
	return lang.Server(settings.Language, t.Locale), nil
}

// speakServer is the language of a server's channels for a post nobody
// clicked for (a daily hand, a tournament's message): its admins'
// setting, else the server's own locale as Discord sent it with the
// tables opened there (Discord sends it only with an interaction), else
// English. A server whose settings cannot be read is spoken to in
// English rather than not at all.
func (b *Bot) speakServer(ctx context.Context, guildID string) lang.Lang {
	if guildID == "" {
		return lang.English
	}
	settings, err := b.store.GuildSettings(ctx, guildID)
	if err != nil {
		return lang.English
	}
	if l, ok := lang.ByCode(settings.Language); ok {
		return l
	}
	// No admin chose one: the server's own, as its tables were opened in.
	locale, err := b.store.ServerLocale(ctx, guildID)
	if err != nil {
		return lang.English
	}
	return lang.Server("", locale)
}
