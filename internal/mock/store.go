// Package mock holds test doubles of the domain's services, so the bot's
// handlers are tested without SQL or a Discord (the benbjohnson/wtf mock
// package). Store keeps tables and the outbox in memory and is held to
// the SQL store by one conformance suite (internal/servicetest): a change
// applies to the version it was made from, an interaction is applied
// once, a table's next table (Change.Next) is made once and with its
// change or not at all, a table's announcements go to the holder
// of its lease, and times are kept to the millisecond. The records are
// kept from the games finished, as the store keeps them (records.go).
package mock

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// Store is an in-memory cribbage.TableService, TimerService,
// OutboxService, RecordService and GuildService, and the bot's MessageBook.
type Store struct {
	// Now is the clock; time.Now if nil.
	Now func() time.Time
	// LeaderboardFn, PlayerStatsFn, HeadToHeadFn, SeasonsFn and
	// StartSeasonFn, when set, answer the records in place of the games
	// finished here: for a handler test that needs a server's long
	// history (forty games, two seasons) it would be slow to play out.
	// Left nil, the records are the games', as the store's are.
	LeaderboardFn func(guildID string, season int, since time.Time) ([]cribbage.Standing, error)
	PlayerStatsFn func(guildID, userID string) (cribbage.Stats, error)
	HeadToHeadFn  func(guildID, a, b string) (cribbage.HeadToHead, error)
	SeasonsFn     func(guildID string) ([]cribbage.Season, error)
	StartSeasonFn func(guildID, userID, name string) (cribbage.Season, error)

	mu           sync.Mutex
	tables       map[int64]*cribbage.Table
	actions      map[int64][]cribbage.LoggedAction
	interactions map[string]bool
	outbox       []cribbage.OutboxItem
	delivered    map[int64]bool
	messages     map[int64]cribbage.TableMessage
	handViews    map[int64]map[int]cribbage.HandView
	leases       map[int64]lease
	guilds       map[string]cribbage.GuildSettings
	webhooks     map[string]cribbage.ChannelWebhook
	tournaments  map[int64]*tournament
	records      records
	numbers      numbers
	daily        daily
}

// lease is who sends a table's announcements, until when.
type lease struct {
	owner string
	until time.Time
}

var (
	_ cribbage.TableService  = (*Store)(nil)
	_ cribbage.TimerService  = (*Store)(nil)
	_ cribbage.OutboxService = (*Store)(nil)
	_ cribbage.RecordService = (*Store)(nil)
)

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{tables: map[int64]*cribbage.Table{}, actions: map[int64][]cribbage.LoggedAction{},
		interactions: map[string]bool{}, delivered: map[int64]bool{}, messages: map[int64]cribbage.TableMessage{},
		handViews: map[int64]map[int]cribbage.HandView{}, leases: map[int64]lease{}}
}

// now reads the clock as the SQL store keeps it.
func (s *Store) now() time.Time {
	if s.Now != nil {
		return ms(s.Now())
	}
	return ms(time.Now())
}

// ms is a time as the SQL store keeps it: to the millisecond, in UTC.
func ms(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.Truncate(time.Millisecond).UTC()
}

// clone copies a table so callers never share one.
func clone(t *cribbage.Table) *cribbage.Table { return t.Clone() }

// saveGame copies onto dst what a change saves of src: the game, its
// version and times, who cancelled it and why, its match, challenge and
// rematch offer. The rest — the channel, the coach's use, the timers and
// the rematch — is recorded by methods of its own, and a change decided on
// an older read must not undo it, so the SQL store leaves those columns
// alone. What the MessageBook keeps is kept apart (messages).
func saveGame(dst, src *cribbage.Table) {
	dst.HostID, dst.Options, dst.Computer, dst.Status, dst.Version = src.HostID, src.Options, src.Computer, src.Status, src.Version
	dst.Seats, dst.CutSeed, dst.State = slices.Clone(src.Seats), src.CutSeed, nil
	if src.State != nil {
		dst.State = src.State.Clone()
	}
	dst.StartedAt, dst.LastActionAt, dst.FinishedAt, dst.WaitingSince = ms(src.StartedAt), ms(src.LastActionAt), ms(src.FinishedAt), ms(src.WaitingSince)
	dst.CancelledBy, dst.CancelReason = src.CancelledBy, src.CancelReason
	c := src.Clone()
	dst.Match, dst.Challenge, dst.Offer = c.Match, c.Challenge, c.Offer
	if dst.Offer != nil {
		dst.Offer.At = ms(dst.Offer.At)
	}
}

// queue appends announcements.
func (s *Store) queue(tableID int64, out []cribbage.Outbound) {
	for _, o := range out {
		s.outbox = append(s.outbox, cribbage.OutboxItem{ID: int64(len(s.outbox) + 1), TableID: tableID, ChannelID: o.ChannelID,
			Kind: o.Kind, Payload: o.Payload, Waits: o.Waits, CreatedAt: s.now()})
	}
}

// insert saves a new table (its id, version and times set) with its
// actions and announcements.
func (s *Store) insert(ch *cribbage.Change) {
	t := ch.Table
	stored := &cribbage.Table{ID: t.ID, GuildID: t.GuildID, ChannelID: t.ChannelID, FourColour: t.FourColour, TokenOnly: t.TokenOnly, Locale: t.Locale, CreatedAt: ms(t.CreatedAt)}
	saveGame(stored, t)
	stored.Tournament = t.Clone().Tournament // written once, as the store's
	s.tables[t.ID] = stored
	s.actions[t.ID] = append(s.actions[t.ID], ch.Actions...)
	s.queue(t.ID, ch.Outbox)
	if stored.Status == cribbage.StatusFinished {
		// A game that ended as it was made, between computer players.
		s.records.record(stored, stored.FinishedAt)
	}
}

// opened is the new table a change opens (ch.Table, with no id yet) as it
// is saved with id: a copy with its id, version and times, refused as the
// SQL store refuses it unless it is a game begun (or a lobby) that opens
// no other.
func (s *Store) opened(ch *cribbage.Change, id int64) (*cribbage.Change, error) {
	if ch.Table == nil || ch.Next != nil || !ch.Table.Status.Open() {
		return nil, errNotBegun
	}
	now := s.now()
	t := clone(ch.Table)
	t.AssignID(id)
	t.Version, t.CreatedAt, t.LastActionAt = 1, now, now
	if t.Status != cribbage.StatusLobby {
		t.StartedAt = now
	}
	return &cribbage.Change{Table: t, Actions: ch.Actions, Outbox: ch.Outbox}, nil
}

// errNotBegun is the store's refusal of a new table already played.
var errNotBegun = errors.New("mock: a table a change opens is a game begun, not over, and opens no other")

// CreateTable implements cribbage.TableService.
func (s *Store) CreateTable(ctx context.Context, t *cribbage.Table, interactionID string, out []cribbage.Outbound, hold cribbage.Hold) (*cribbage.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if interactionID != "" && s.interactions[interactionID] {
		return nil, cribbage.ErrDuplicate
	}
	t = clone(t)
	t.ID, t.Version, t.CreatedAt, t.LastActionAt = int64(len(s.tables)+1), 1, s.now(), s.now()
	if err := s.checkHold(t, hold, t); err != nil {
		return nil, err
	}
	s.insert(&cribbage.Change{Table: t, Outbox: out})
	s.claim(interactionID)
	return t, nil
}

// claim records an interaction as applied.
func (s *Store) claim(interactionID string) {
	if interactionID != "" {
		s.interactions[interactionID] = true
	}
}

// Save implements cribbage.TableService: the change is saved only if the
// table is still at the version it was decided on.
func (s *Store) Save(ctx context.Context, from *cribbage.Table, ch *cribbage.Change, interactionID string) (*cribbage.Table, error) {
	if ch == nil || ch.Table == nil {
		return nil, nil
	}
	if _, err := s.read(from.ID, interactionID); err != nil {
		return nil, err
	}
	return s.save(from, ch, interactionID)
}

// Seen implements cribbage.TableService.
func (s *Store) Seen(ctx context.Context, interactionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if interactionID != "" && s.interactions[interactionID] {
		return cribbage.ErrDuplicate
	}
	return nil
}

// TableToChange implements cribbage.TableService.
func (s *Store) TableToChange(ctx context.Context, id int64, interactionID string) (cribbage.ToChange, error) {
	from, err := s.read(id, interactionID)
	if err != nil {
		return cribbage.ToChange{}, err
	}
	msg, err := s.TableMessage(ctx, id)
	if err != nil {
		return cribbage.ToChange{}, err
	}
	settings := cribbage.GuildSettings{GuildID: from.GuildID}
	if from.GuildID != "" {
		if settings, err = s.GuildSettings(ctx, from.GuildID); err != nil {
			return cribbage.ToChange{}, err
		}
	}
	return cribbage.ToChange{From: from, Table: clone(from), Message: msg, Settings: settings}, nil
}

// TableToShow implements cribbage.MessageBook.
func (s *Store) TableToShow(ctx context.Context, id int64) (cribbage.ToShow, error) {
	read, err := s.TableToChange(ctx, id, "")
	if err != nil {
		return cribbage.ToShow{}, err
	}
	// As the store: no views to read without a person or a game.
	var views []cribbage.HandView
	if t := read.From; t.HasPerson() && t.State != nil {
		if views, err = s.HandViews(ctx, id); err != nil {
			return cribbage.ToShow{}, err
		}
	}
	return cribbage.ToShow{Table: read.From, Message: read.Message, Settings: read.Settings, Views: views}, nil
}

// read returns a copy of the table a change starts from, or why there is
// none: the interaction was applied already, or the table is missing.
func (s *Store) read(id int64, interactionID string) (*cribbage.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if interactionID != "" && s.interactions[interactionID] {
		return nil, cribbage.ErrDuplicate
	}
	t, ok := s.tables[id]
	if !ok {
		return nil, cribbage.ErrNotFound
	}
	return clone(t), nil
}

// save saves a change made from cur, unless the table moved on.
func (s *Store) save(cur *cribbage.Table, ch *cribbage.Change, interactionID string) (*cribbage.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stored := s.tables[cur.ID]
	if stored.Version != cur.Version {
		return nil, cribbage.ErrStale
	}
	if interactionID != "" && s.interactions[interactionID] {
		return nil, cribbage.ErrDuplicate
	}
	t := clone(ch.Table)
	t.ID, t.Version, t.LastActionAt = cur.ID, cur.Version+1, s.now()
	if t.Status == cribbage.StatusPlaying && cur.Status == cribbage.StatusLobby {
		t.StartedAt = t.LastActionAt
	}
	if !t.Status.Open() && cur.Status.Open() {
		t.FinishedAt = t.LastActionAt
	}
	// The next table is checked before anything is saved: its refusal
	// saves nothing, as the SQL store's transaction does.
	var next *cribbage.Change
	if ch.Next != nil {
		if stored.RematchID != 0 {
			return nil, cribbage.ErrRematched
		}
		var err error
		if next, err = s.opened(ch.Next, int64(len(s.tables)+1)); err != nil {
			return nil, err
		}
	}
	written := []*cribbage.Table{t}
	if next != nil {
		written = append(written, next.Table)
	}
	if err := s.checkHold(t, ch.Hold, written...); err != nil {
		return nil, err
	}
	saveGame(stored, t)
	s.actions[t.ID] = append(s.actions[t.ID], ch.Actions...)
	s.queue(t.ID, ch.Outbox)
	s.announce(stored, cribbage.MilestonesNow(t, ch.Events), ch.Outbox, t.LastActionAt)
	if t.Status == cribbage.StatusFinished && cur.Status != cribbage.StatusFinished {
		s.records.record(stored, stored.FinishedAt)
		s.gameEnd(stored, ch.Outbox)
	}
	if next != nil {
		s.insert(next)
		stored.RematchID, t.RematchID = next.Table.ID, next.Table.ID
	}
	s.claim(interactionID)
	return t, nil
}

// Table implements cribbage.TableService.
func (s *Store) Table(ctx context.Context, id int64) (*cribbage.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[id]
	if !ok {
		return nil, cribbage.ErrNotFound
	}
	return clone(t), nil
}

// TableVersion implements cribbage.TableService.
func (s *Store) TableVersion(ctx context.Context, id int64) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[id]
	if !ok {
		return 0, cribbage.ErrNotFound
	}
	return t.Version, nil
}

// find returns copies of the tables that match, in id order.
func (s *Store) find(match func(t *cribbage.Table) bool) []*cribbage.Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*cribbage.Table
	for _, t := range s.tables {
		if match(t) {
			out = append(out, clone(t))
		}
	}
	slices.SortFunc(out, func(a, b *cribbage.Table) int { return int(a.ID - b.ID) })
	return out
}

// OpenTables implements cribbage.TableService.
func (s *Store) OpenTables(ctx context.Context) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool { return t.Status.Open() }), nil
}

// PlayerTables implements cribbage.TableService: a computer's seat is
// nobody's.
func (s *Store) PlayerTables(ctx context.Context, guildID, userID string) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool {
		return t.Status.Open() && t.GuildID == guildID && t.SeatOf(userID) >= 0
	}), nil
}

// ChannelTables implements cribbage.TableService.
func (s *Store) ChannelTables(ctx context.Context, channelID string) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool {
		return t.Status.Open() && (t.ChannelID == channelID || s.inThread(t.ID, channelID))
	}), nil
}

// AwaitingAnswer implements cribbage.TableService.
func (s *Store) AwaitingAnswer(ctx context.Context, guildID, userID string) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool { return t.GuildID == guildID && t.AwaitsAnswer(userID) }), nil
}

// ThreadTable implements cribbage.TableService.
func (s *Store) ThreadTable(ctx context.Context, channelID string) (*cribbage.Table, error) {
	found := s.find(func(t *cribbage.Table) bool { return s.inThread(t.ID, channelID) })
	if len(found) == 0 {
		return nil, cribbage.ErrNotFound
	}
	return found[0], nil
}

// GamesInProgress implements cribbage.TableService.
func (s *Store) GamesInProgress(ctx context.Context) (int, error) {
	return len(s.find(func(t *cribbage.Table) bool { return t.Status == cribbage.StatusPlaying })), nil
}

// Actions implements cribbage.TableService.
func (s *Store) Actions(ctx context.Context, id int64) ([]cribbage.LoggedAction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.actions[id]), nil
}

// inThread reports whether channelID is table id's thread; s.mu is held.
func (s *Store) inThread(id int64, channelID string) bool {
	return channelID != "" && s.messages[id].ThreadID == channelID
}

// record changes a stored table without a new version, as MarkAssisted
// does; a missing table is left alone.
func (s *Store) record(id int64, change func(t *cribbage.Table)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[id]; ok {
		change(t)
	}
	return nil
}

// MarkAssisted implements cribbage.TableService.
func (s *Store) MarkAssisted(ctx context.Context, id int64) error {
	return s.record(id, func(t *cribbage.Table) { t.Assisted = true })
}

// recordMessage changes what is recorded of a table's message, as the
// MessageBook's methods do; a missing table's is left alone, as the SQL
// store's update of no row.
func (s *Store) recordMessage(id int64, change func(m *cribbage.TableMessage)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tables[id]; ok {
		m := s.messages[id]
		change(&m)
		s.messages[id] = m
	}
	return nil
}

// TableMessage implements cribbage.MessageBook.
func (s *Store) TableMessage(ctx context.Context, id int64) (cribbage.TableMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[id]
	if !ok {
		return cribbage.TableMessage{}, cribbage.ErrNotFound
	}
	m := s.messages[id]
	m.TableID, m.TokenOnly = id, t.TokenOnly
	return m, nil
}

// TableMessages implements cribbage.MessageBook.
func (s *Store) TableMessages(ctx context.Context, ids []int64) ([]cribbage.TableMessage, error) {
	var out []cribbage.TableMessage
	for _, id := range ids {
		if m, err := s.TableMessage(ctx, id); err == nil {
			out = append(out, m)
		}
	}
	return out, nil
}

// SetMessages implements cribbage.MessageBook.
func (s *Store) SetMessages(ctx context.Context, id int64, messageID, threadID string) error {
	return s.recordMessage(id, func(m *cribbage.TableMessage) { m.MessageID, m.ThreadID = messageID, threadID })
}

// RecordTableMessage implements cribbage.MessageBook.
func (s *Store) RecordTableMessage(ctx context.Context, id int64, messageID string) error {
	return s.recordMessage(id, func(m *cribbage.TableMessage) {
		if m.MessageID == "" {
			m.MessageID = messageID
		}
	})
}

// RecordBoard implements cribbage.MessageBook.
func (s *Store) RecordBoard(ctx context.Context, id int64, key string) error {
	return s.recordMessage(id, func(m *cribbage.TableMessage) { m.Board = key })
}

// RecordShown implements cribbage.MessageBook.
func (s *Store) RecordShown(ctx context.Context, id int64, sum string) error {
	return s.recordMessage(id, func(m *cribbage.TableMessage) { m.Shown = sum })
}

// RecordEditToken implements cribbage.MessageBook: the newest token is
// kept, of two at one instant the later recorded.
func (s *Store) RecordEditToken(ctx context.Context, id int64, token cribbage.MessageToken) error {
	token.At = ms(token.At)
	return s.recordMessage(id, func(m *cribbage.TableMessage) {
		if !token.At.Before(m.EditToken.At) {
			m.EditToken = token
		}
	})
}

// RecordHandView implements cribbage.MessageBook: the newest view a
// seat opened is kept.
func (s *Store) RecordHandView(ctx context.Context, id int64, v cribbage.HandView) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v.Token.At = ms(v.Token.At)
	if s.handViews[id] == nil {
		s.handViews[id] = map[int]cribbage.HandView{}
	}
	if old, ok := s.handViews[id][v.Seat]; !ok || !v.Token.At.Before(old.Token.At) {
		s.handViews[id][v.Seat] = v
	}
	return nil
}

// RecordHandViewShown implements cribbage.MessageBook.
func (s *Store) RecordHandViewShown(ctx context.Context, id int64, seat int, tok cribbage.MessageToken, version int64, sum string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.handViews[id][seat]
	if ok && (v.Token.Token == tok.Token || (v.Token.MessageID != "" && v.Token.MessageID == tok.MessageID)) {
		v.Version, v.Shown = version, sum
		s.handViews[id][seat] = v
	}
	return nil
}

// HandViews implements cribbage.MessageBook.
func (s *Store) HandViews(ctx context.Context, id int64) ([]cribbage.HandView, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []cribbage.HandView
	for _, v := range s.handViews[id] {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b cribbage.HandView) int { return a.Seat - b.Seat })
	return out, nil
}

// IdleTables implements cribbage.TimerService.
func (s *Store) IdleTables(ctx context.Context, idleSince, openedBefore time.Time) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool {
		return t.Status.Open() && (!t.Since().After(idleSince) || (t.Status == cribbage.StatusLobby && !t.CreatedAt.After(openedBefore)))
	}), nil
}

// LapsedOffers implements cribbage.TimerService.
func (s *Store) LapsedOffers(ctx context.Context, offeredBefore time.Time) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool {
		return t.Status == cribbage.StatusFinished && t.RematchID == 0 && t.Offer != nil && !t.Offer.At.After(offeredBefore)
	}), nil
}

// MarkReminded implements cribbage.TimerService.
func (s *Store) MarkReminded(ctx context.Context, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error) {
	return s.markTimer(id, out, func(t *cribbage.Table) *time.Time { return &t.RemindedAt }, prev, at)
}

// MarkForfeitOffered implements cribbage.TimerService.
func (s *Store) MarkForfeitOffered(ctx context.Context, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error) {
	return s.markTimer(id, out, func(t *cribbage.Table) *time.Time { return &t.ForfeitOfferedAt }, prev, at)
}

// markTimer moves a timer from prev to at and queues out, if the timer is
// at prev (to the millisecond, as stored).
func (s *Store) markTimer(id int64, out []cribbage.Outbound, field func(t *cribbage.Table) *time.Time, prev, at time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[id]
	if !ok || !field(t).Equal(ms(prev)) {
		return false, nil
	}
	*field(t) = ms(at)
	s.queue(id, out)
	return true, nil
}

// pending returns up to limit undelivered announcements in order,
// passing over those that wait for a later one: all of them, or (after
// above 0) those of the tables with one after id after. The caller holds
// s.mu.
func (s *Store) pending(after int64, limit int) []cribbage.OutboxItem {
	touched := map[int64]bool{}
	for _, it := range s.outbox {
		if it.ID > after && !s.delivered[it.ID] && !it.Waits {
			touched[it.TableID] = true
		}
	}
	var out []cribbage.OutboxItem
	for _, it := range s.outbox {
		if (after == 0 || touched[it.TableID]) && !s.delivered[it.ID] && !it.Waits && len(out) < limit {
			out = append(out, it)
		}
	}
	return out
}

// ClaimOutbox implements cribbage.OutboxService: of the first limit
// announcements, those of the tables owner holds a lease on or takes one
// on now (a table nobody holds, or whose holder let the lease lapse).
// Announcements not yet due are claimed too: the sender holds a table's
// later ones back behind them.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, after int64, limit int, d time.Duration) ([]cribbage.OutboxItem, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	held := map[int64]bool{}
	var out []cribbage.OutboxItem
	for _, it := range s.pending(after, limit) {
		mine, seen := held[it.TableID]
		if !seen {
			l, leased := s.leases[it.TableID]
			mine = !leased || l.owner == owner || l.until.Before(now)
			if mine {
				s.leases[it.TableID] = lease{owner: owner, until: ms(now.Add(d))}
			}
			held[it.TableID] = mine
		}
		if mine {
			out = append(out, it)
		}
	}
	return out, nil
}

// ReleaseOutbox implements cribbage.OutboxService.
func (s *Store) ReleaseOutbox(ctx context.Context, owner string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, l := range s.leases {
		if l.owner == owner {
			delete(s.leases, id)
		}
	}
	return nil
}

// TablePending implements cribbage.OutboxService: waiting announcements
// included, as a post carries them.
func (s *Store) TablePending(ctx context.Context, tableID int64) ([]cribbage.OutboxItem, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []cribbage.OutboxItem
	for _, it := range s.outbox {
		if it.TableID == tableID && !s.delivered[it.ID] {
			out = append(out, it)
		}
	}
	return out, nil
}

// OutboxDepth implements cribbage.OutboxService.
func (s *Store) OutboxDepth(ctx context.Context) (int, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := s.pending(0, len(s.outbox))
	if len(items) == 0 {
		return 0, time.Time{}, nil
	}
	return len(items), items[0].CreatedAt, nil
}

// Outbox returns every announcement queued, delivered or not.
func (s *Store) Outbox() []cribbage.OutboxItem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.outbox)
}

// item returns the announcement with an id, or nil.
func (s *Store) item(id int64) *cribbage.OutboxItem {
	if id < 1 || int(id) > len(s.outbox) {
		return nil
	}
	return &s.outbox[id-1]
}

// MarkDelivered implements cribbage.OutboxService; like a failure, a
// delivery counts as an attempt.
func (s *Store) MarkDelivered(ctx context.Context, ids ...int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if it := s.item(id); it != nil {
			it.Attempts++
			s.delivered[id] = true
		}
	}
	return nil
}

// MarkFailed implements cribbage.OutboxService.
func (s *Store) MarkFailed(ctx context.Context, id int64, next time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if it := s.item(id); it != nil {
		it.Attempts++
		it.NextAttemptAt = ms(next)
	}
	return nil
}

// Seal implements cribbage.OutboxService.
func (s *Store) Seal(ctx context.Context, id, through int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.item(id)
	if it == nil || it.SealedThrough != 0 || s.delivered[id] {
		return cribbage.ErrStale
	}
	it.SealedThrough = through
	return nil
}

// checkHold reports whether writing the tables written (t among them, as
// they would be saved) breaks h, as the SQL store checks it inside the
// write: the mutex held by its callers makes the check and the write one
// step here.
func (s *Store) checkHold(t *cribbage.Table, h cribbage.Hold, written ...*cribbage.Table) error {
	// after is every table of the server as it would be once written.
	var after []*cribbage.Table
	for id, st := range s.tables {
		if !slices.ContainsFunc(written, func(w *cribbage.Table) bool { return w.ID == id }) {
			after = append(after, st)
		}
	}
	after = append(after, written...)
	// A second challenge to the same person is refused for that, even
	// when the server's limit would refuse it too: it says what to do.
	if h.OneChallenge && t.Challenge != nil {
		n := 0
		for _, a := range after {
			if a.GuildID == t.GuildID && a.OpenChallenge(t.HostID, t.Challenge.UserID) {
				n++
			}
		}
		if n > 1 {
			return cribbage.ErrChallengedAgain
		}
	}
	if h.MaxOpenTables > 0 {
		for _, p := range h.People {
			n := 0
			for _, a := range after {
				if a.GuildID == t.GuildID && a.Status.Open() && a.SeatOf(p) >= 0 {
					n++
				}
			}
			if n > h.MaxOpenTables {
				return cribbage.ErrTooManyTables
			}
		}
	}
	return nil
}
