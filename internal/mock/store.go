// Package mock holds test doubles of the domain's services, so the bot's
// handlers are tested without SQL or a Discord (the benbjohnson/wtf mock
// package). Store keeps tables and the outbox in memory with the same
// guarantees the SQL store gives a single process: a change applies to
// the version it was made from, an interaction is applied once, and a
// rematch is made once. The records are whatever the test sets.
package mock

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// Store is an in-memory cribbage.TableService, TimerService,
// OutboxService and RecordService.
type Store struct {
	// Now is the clock; time.Now if nil.
	Now func() time.Time
	// LeaderboardFn, PlayerStatsFn, HeadToHeadFn, SeasonsFn and
	// StartSeasonFn answer the records; nil ones answer as a server with no
	// games would.
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
	handViews    map[int64]map[int]cribbage.HandView
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
		interactions: map[string]bool{}, delivered: map[int64]bool{}}
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// clone copies a table so callers never share one.
func clone(t *cribbage.Table) *cribbage.Table {
	c := *t
	c.Seats = slices.Clone(t.Seats)
	if t.State != nil {
		c.State = t.State.Clone()
	}
	return &c
}

// claim records an interaction, or fails with ErrDuplicate.
func (s *Store) claim(interactionID string) error {
	if interactionID == "" {
		return nil
	}
	if s.interactions[interactionID] {
		return cribbage.ErrDuplicate
	}
	s.interactions[interactionID] = true
	return nil
}

// queue appends announcements.
func (s *Store) queue(tableID int64, out []cribbage.Outbound) {
	for _, o := range out {
		s.outbox = append(s.outbox, cribbage.OutboxItem{ID: int64(len(s.outbox) + 1), TableID: tableID, ChannelID: o.ChannelID,
			Kind: o.Kind, Payload: o.Payload, Waits: o.Waits, CreatedAt: s.now()})
	}
}

// insert saves a new table under the next id.
func (s *Store) insert(ch *cribbage.Change) *cribbage.Table {
	t := clone(ch.Table)
	t.Version = 1
	if t.CreatedAt.IsZero() {
		t.CreatedAt = s.now()
	}
	t.LastActionAt = s.now()
	s.tables[t.ID] = t
	s.actions[t.ID] = append(s.actions[t.ID], ch.Actions...)
	s.queue(t.ID, ch.Outbox)
	return clone(t)
}

// CreateTable implements cribbage.TableService.
func (s *Store) CreateTable(ctx context.Context, t *cribbage.Table, interactionID string, out []cribbage.Outbound) (*cribbage.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.claim(interactionID); err != nil {
		return nil, err
	}
	t = clone(t)
	t.ID = int64(len(s.tables) + 1)
	return s.insert(&cribbage.Change{Table: t, Outbox: out}), nil
}

// Update implements cribbage.TableService: fn runs on a copy, and its
// change is saved only if the table is still at the version fn saw.
func (s *Store) Update(ctx context.Context, id int64, interactionID string, fn func(t *cribbage.Table) (*cribbage.Change, error)) (*cribbage.Table, error) {
	s.mu.Lock()
	cur, ok := s.tables[id]
	if ok {
		cur = clone(cur)
	}
	seen := interactionID != "" && s.interactions[interactionID]
	s.mu.Unlock()
	switch {
	case !ok:
		return nil, cribbage.ErrNotFound
	case seen:
		return nil, cribbage.ErrDuplicate
	}
	ch, err := fn(clone(cur))
	if err != nil || ch == nil {
		return cur, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tables[id].Version != cur.Version {
		return nil, cribbage.ErrStale
	}
	if err := s.claim(interactionID); err != nil {
		return nil, err
	}
	t := clone(ch.Table)
	t.Version, t.LastActionAt = cur.Version+1, s.now()
	if cur.MessageID != "" {
		t.MessageID = cur.MessageID // recorded once, never replaced
	}
	if t.Status == cribbage.StatusPlaying && cur.Status == cribbage.StatusLobby {
		t.StartedAt = t.LastActionAt
	}
	if !t.Status.Open() && cur.Status.Open() {
		t.FinishedAt = t.LastActionAt
	}
	s.tables[id] = t
	s.actions[id] = append(s.actions[id], ch.Actions...)
	s.queue(id, ch.Outbox)
	return clone(t), nil
}

// Rematch implements cribbage.TableService.
func (s *Store) Rematch(ctx context.Context, prevID int64, interactionID string, fn func(prev, next *cribbage.Table) (*cribbage.Change, error)) (*cribbage.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, ok := s.tables[prevID]
	switch {
	case !ok:
		return nil, cribbage.ErrNotFound
	case prev.RematchID != 0:
		return clone(s.tables[prev.RematchID]), cribbage.ErrRematched
	}
	next := &cribbage.Table{ID: int64(len(s.tables) + 1), Version: 1, CreatedAt: s.now(), LastActionAt: s.now()}
	ch, err := fn(clone(prev), next)
	if err != nil {
		return nil, err
	}
	if err := s.claim(interactionID); err != nil {
		return nil, err
	}
	ch.Table.ID = next.ID
	made := s.insert(ch)
	prev.RematchID = made.ID
	return made, nil
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

// PlayerTables implements cribbage.TableService.
func (s *Store) PlayerTables(ctx context.Context, guildID, userID string) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool {
		return t.Status.Open() && t.GuildID == guildID && slices.ContainsFunc(t.Seats, func(st cribbage.Seat) bool { return st.UserID == userID })
	}), nil
}

// ChannelTables implements cribbage.TableService.
func (s *Store) ChannelTables(ctx context.Context, channelID string) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool {
		return t.Status.Open() && (t.ChannelID == channelID || (t.ThreadID != "" && t.ThreadID == channelID))
	}), nil
}

// RecordHandView implements cribbage.TableService: the newest view a seat
// opened is kept.
func (s *Store) RecordHandView(ctx context.Context, id int64, v cribbage.HandView) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handViews == nil {
		s.handViews = map[int64]map[int]cribbage.HandView{}
	}
	if s.handViews[id] == nil {
		s.handViews[id] = map[int]cribbage.HandView{}
	}
	if old, ok := s.handViews[id][v.Seat]; !ok || !v.Token.At.Before(old.Token.At) {
		s.handViews[id][v.Seat] = v
	}
	return nil
}

// HandViews implements cribbage.TableService.
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

// SetMessages implements cribbage.TableService.
func (s *Store) SetMessages(ctx context.Context, id int64, messageID, threadID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[id]; ok {
		t.MessageID, t.ThreadID = messageID, threadID
	}
	return nil
}

// ClaimOutbox implements cribbage.OutboxService: one process, every table
// is its own.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, limit int, lease time.Duration) ([]cribbage.OutboxItem, error) {
	return s.pending(ctx, limit)
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

// ReleaseOutbox implements cribbage.OutboxService.
func (s *Store) ReleaseOutbox(ctx context.Context, owner string) error { return nil }

// GamesInProgress implements cribbage.TableService.
func (s *Store) GamesInProgress(ctx context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, t := range s.tables {
		if t.Status == cribbage.StatusPlaying {
			n++
		}
	}
	return n, nil
}

// OutboxDepth implements cribbage.OutboxService.
func (s *Store) OutboxDepth(ctx context.Context) (int, time.Time, error) {
	items, err := s.pending(ctx, 1<<30)
	if err != nil || len(items) == 0 {
		return 0, time.Time{}, err
	}
	return len(items), items[0].CreatedAt, nil
}

// RecordBoard implements cribbage.TableService.
func (s *Store) RecordBoard(ctx context.Context, id int64, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[id]; ok {
		t.Board = key
	}
	return nil
}

// RecordEditToken implements cribbage.TableService.
func (s *Store) RecordEditToken(ctx context.Context, id int64, token cribbage.MessageToken) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[id]; ok && !token.At.Before(t.EditToken.At) {
		t.EditToken = token
	}
	return nil
}

// RecordTableMessage implements cribbage.TableService.
func (s *Store) RecordTableMessage(ctx context.Context, id int64, messageID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[id]; ok && t.MessageID == "" {
		t.MessageID = messageID
	}
	return nil
}

// MarkAssisted implements cribbage.TableService.
func (s *Store) MarkAssisted(ctx context.Context, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[id]; ok {
		t.Assisted = true
	}
	return nil
}

// Actions returns a table's logged actions.
func (s *Store) Actions(ctx context.Context, id int64) ([]cribbage.LoggedAction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.actions[id]), nil
}

// IdleTables implements cribbage.TimerService.
func (s *Store) IdleTables(ctx context.Context, idleSince, openedBefore time.Time) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool {
		return t.Status.Open() && (!t.Since().After(idleSince) || (t.Status == cribbage.StatusLobby && !t.CreatedAt.After(openedBefore)))
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

func (s *Store) markTimer(id int64, out []cribbage.Outbound, field func(t *cribbage.Table) *time.Time, prev, at time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[id]
	if !ok || !field(t).Equal(prev) {
		return false, nil
	}
	*field(t) = at
	s.queue(id, out)
	return true, nil
}

// pending returns up to limit undelivered announcements in order,
// passing over those that wait for a later one.
func (s *Store) pending(ctx context.Context, limit int) ([]cribbage.OutboxItem, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []cribbage.OutboxItem
	for _, it := range s.outbox {
		if !s.delivered[it.ID] && !it.Waits && len(out) < limit {
			out = append(out, it)
		}
	}
	return out, nil
}

// Outbox returns every announcement queued, delivered or not.
func (s *Store) Outbox() []cribbage.OutboxItem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.outbox)
}

// MarkDelivered implements cribbage.OutboxService.
func (s *Store) MarkDelivered(ctx context.Context, ids ...int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		s.delivered[id] = true
	}
	return nil
}

// MarkFailed implements cribbage.OutboxService.
func (s *Store) MarkFailed(ctx context.Context, id int64, next time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id >= 1 && int(id) <= len(s.outbox) {
		s.outbox[id-1].Attempts++
		s.outbox[id-1].NextAttemptAt = next
	}
	return nil
}

// Seal implements cribbage.OutboxService.
func (s *Store) Seal(ctx context.Context, id, through int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || int(id) > len(s.outbox) || s.outbox[id-1].SealedThrough != 0 || s.delivered[id] {
		return cribbage.ErrStale
	}
	s.outbox[id-1].SealedThrough = through
	return nil
}

// Leaderboard implements cribbage.RecordService.
func (s *Store) Leaderboard(ctx context.Context, guildID string, season int, since time.Time) ([]cribbage.Standing, error) {
	if s.LeaderboardFn == nil {
		if season > 1 {
			return nil, cribbage.ErrNoSeason
		}
		return nil, nil
	}
	return s.LeaderboardFn(guildID, season, since)
}

// PlayerStats implements cribbage.RecordService.
func (s *Store) PlayerStats(ctx context.Context, guildID, userID string) (cribbage.Stats, error) {
	if s.PlayerStatsFn == nil {
		return cribbage.Stats{}, nil
	}
	return s.PlayerStatsFn(guildID, userID)
}

// HeadToHead implements cribbage.RecordService.
func (s *Store) HeadToHead(ctx context.Context, guildID, a, b string) (cribbage.HeadToHead, error) {
	if s.HeadToHeadFn == nil {
		return cribbage.HeadToHead{}, nil
	}
	return s.HeadToHeadFn(guildID, a, b)
}

// Seasons implements cribbage.RecordService.
func (s *Store) Seasons(ctx context.Context, guildID string) ([]cribbage.Season, error) {
	if s.SeasonsFn == nil {
		return []cribbage.Season{{Number: 1}}, nil
	}
	return s.SeasonsFn(guildID)
}

// StartSeason implements cribbage.RecordService.
func (s *Store) StartSeason(ctx context.Context, guildID, userID, name string) (cribbage.Season, error) {
	if s.StartSeasonFn == nil {
		return cribbage.Season{}, cribbage.ErrSeasonUnplayed
	}
	return s.StartSeasonFn(guildID, userID, name)
}
