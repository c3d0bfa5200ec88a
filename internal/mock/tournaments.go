package mock

import (
	"context"
	"slices"

	"github.com/cribbage-bot/cribbage"
)

var _ cribbage.TournamentService = (*Store)(nil)

// tournament is a stored tournament, and its message and the version
// that shows (the MessageBook's).
type tournament struct {
	t       *cribbage.Tournament
	message string
	shown   int64
}

// CreateTournament implements cribbage.TournamentService.
func (s *Store) CreateTournament(ctx context.Context, t *cribbage.Tournament, interactionID string) (*cribbage.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if interactionID != "" && s.interactions[interactionID] {
		return nil, cribbage.ErrDuplicate
	}
	if s.tournaments == nil {
		s.tournaments = map[int64]*tournament{}
	}
	t = t.Clone()
	t.ID, t.Version, t.CreatedAt = int64(len(s.tournaments)+1), 1, s.now()
	s.tournaments[t.ID] = &tournament{t: t.Clone()}
	s.claim(interactionID)
	return t, nil
}

// Tournament implements cribbage.TournamentService.
func (s *Store) Tournament(ctx context.Context, id int64) (*cribbage.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.tournaments[id]
	if !ok {
		return nil, cribbage.ErrTournamentNotFound
	}
	return st.t.Clone(), nil
}

// TournamentTables implements cribbage.TournamentService.
func (s *Store) TournamentTables(ctx context.Context, id int64) ([]*cribbage.Table, error) {
	return s.find(func(t *cribbage.Table) bool { return t.Tournament != nil && t.Tournament.ID == id }), nil
}

// CancelledTournamentTables implements cribbage.TournamentService.
func (s *Store) CancelledTournamentTables(ctx context.Context) ([]*cribbage.Table, error) {
	s.mu.Lock()
	cancelled := map[int64]bool{}
	for id, st := range s.tournaments {
		cancelled[id] = st.t.Status == cribbage.TournamentCancelled
	}
	s.mu.Unlock()
	return s.find(func(t *cribbage.Table) bool {
		return t.Tournament != nil && cancelled[t.Tournament.ID] && t.Status.Open()
	}), nil
}

// findTournaments returns copies of the tournaments that match, in id
// order (newest first if newest).
func (s *Store) findTournaments(match func(st *tournament) bool, newest bool) []*cribbage.Tournament {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*cribbage.Tournament
	for _, st := range s.tournaments {
		if match(st) {
			out = append(out, st.t.Clone())
		}
	}
	slices.SortFunc(out, func(a, b *cribbage.Tournament) int {
		if newest {
			return int(b.ID - a.ID)
		}
		return int(a.ID - b.ID)
	})
	return out
}

// ChannelTournaments implements cribbage.TournamentService.
func (s *Store) ChannelTournaments(ctx context.Context, channelID string) ([]*cribbage.Tournament, error) {
	return s.findTournaments(func(st *tournament) bool { return st.t.ChannelID == channelID }, true), nil
}

// OpenTournaments implements cribbage.TournamentService.
func (s *Store) OpenTournaments(ctx context.Context) ([]*cribbage.Tournament, error) {
	return s.findTournaments(func(st *tournament) bool { return st.t.Status.Open() }, false), nil
}

// TournamentMessage implements cribbage.MessageBook.
func (s *Store) TournamentMessage(ctx context.Context, id int64) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.tournaments[id]
	if !ok {
		return "", cribbage.ErrTournamentNotFound
	}
	return st.message, nil
}

// TournamentsToShow implements cribbage.MessageBook.
func (s *Store) TournamentsToShow(ctx context.Context) ([]*cribbage.Tournament, error) {
	return s.findTournaments(func(st *tournament) bool { return st.shown < st.t.Version }, false), nil
}

// MarkTournamentShown implements cribbage.MessageBook.
func (s *Store) MarkTournamentShown(ctx context.Context, id int64, messageID string, version int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.tournaments[id]; ok {
		if st.message == "" {
			st.message = messageID
		}
		st.shown = max(st.shown, version)
	}
	return nil
}

// SaveTournament implements cribbage.TournamentService.
func (s *Store) SaveTournament(ctx context.Context, from *cribbage.Tournament, ch *cribbage.TournamentChange, interactionID string) (*cribbage.Tournament, error) {
	if ch == nil || ch.Tournament == nil {
		return nil, nil
	}
	if interactionID != "" && s.seen(interactionID) {
		return nil, cribbage.ErrDuplicate
	}
	return s.saveTournament(from, ch, interactionID)
}

// seen reports whether an interaction was applied.
func (s *Store) seen(interactionID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.interactions[interactionID]
}

// saveTournament saves a change made from cur and opens its tables, all
// or nothing, as the SQL store's transaction does.
func (s *Store) saveTournament(cur *cribbage.Tournament, ch *cribbage.TournamentChange, interactionID string) (*cribbage.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.tournaments[cur.ID]
	if st.t.Version != cur.Version {
		return nil, cribbage.ErrStale
	}
	if interactionID != "" && s.interactions[interactionID] {
		return nil, cribbage.ErrDuplicate
	}
	var made []*cribbage.Change
	for _, open := range ch.Open {
		c, err := s.opened(open, int64(len(s.tables)+len(made)+1))
		if err != nil {
			return nil, err
		}
		made = append(made, c)
	}
	t := ch.Tournament.Clone()
	t.ID, t.GuildID, t.ChannelID, t.CreatedAt, t.Version = cur.ID, cur.GuildID, cur.ChannelID, cur.CreatedAt, cur.Version+1
	if !t.Status.Open() && cur.Status.Open() {
		t.FinishedAt = s.now()
	}
	st.t = t.Clone()
	for _, c := range made {
		s.insert(c)
	}
	s.champion(cur, t)
	s.claim(interactionID)
	return t, nil
}
