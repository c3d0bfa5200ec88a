package servicetest

import (
	"context"
	"errors"

	"github.com/cribbage-bot/cribbage"
)

// Update changes table id as the bot does (bot/change.go): it reads the
// table, lets fn decide the change on a copy, and saves it (Save), deciding
// again on the newer table while the save loses a race, and failing with
// ErrStale if that keeps happening. A nil change saves nothing. It is how
// the suite, and the tests that set tables up through a store, make their
// changes.
func Update(ctx context.Context, s cribbage.TableService, id int64, interactionID string, fn func(t *cribbage.Table) (*cribbage.Change, error)) (*cribbage.Table, error) {
	for attempt := 1; ; attempt++ {
		read, err := s.TableToChange(ctx, id, interactionID)
		if err != nil {
			return nil, err
		}
		ch, err := fn(read.Table)
		if err != nil || ch == nil {
			return nil, err
		}
		saved, err := s.Save(ctx, read.From, ch, interactionID)
		if errors.Is(err, cribbage.ErrStale) && attempt < cribbage.UpdateTries {
			continue
		}
		return saved, err
	}
}

// UpdateTournament changes tournament id as the bot does: it reads the
// tournament and its tables, lets fn decide on a copy, and saves the
// change (SaveTournament), deciding again while the save loses a race.
func UpdateTournament(ctx context.Context, s cribbage.TournamentService, id int64, interactionID string, fn func(t *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error)) (*cribbage.Tournament, error) {
	for attempt := 1; ; attempt++ {
		from, err := s.Tournament(ctx, id)
		if err != nil {
			return nil, err
		}
		tables, err := s.TournamentTables(ctx, id)
		if err != nil {
			return nil, err
		}
		ch, err := fn(from.Clone(), tables)
		if err != nil || ch == nil {
			return nil, err
		}
		saved, err := s.SaveTournament(ctx, from, ch, interactionID)
		if errors.Is(err, cribbage.ErrStale) && attempt < cribbage.UpdateTries {
			continue
		}
		return saved, err
	}
}
