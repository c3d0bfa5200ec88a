package store

import (
	"sync"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// stateCache keeps the last decoded game (and seats) of each table by
// version. Every
// change to a game bumps the table's version, so a state decoded at a
// version is that version's state for good; decoding the stored JSON (and
// validating it) was the largest cost of reading a table.
type stateCache struct {
	mu sync.Mutex
	m  map[int64]cachedState
}

type cachedState struct {
	version int64
	state   *engine.State
	// seats, when seatsOK, are the table's seats at that version: they
	// too change only with a new version.
	seats   []cribbage.Seat
	seatsOK bool
}

// maxCachedStates bounds the cache; past it the cache starts over.
const maxCachedStates = 4096

// decodeState returns the game stored for a table at a version, decoding
// it only the first time. Callers get their own copy.
func (s *Store) decodeState(id, version int64, raw string) (*engine.State, error) {
	c := &s.states
	c.mu.Lock()
	hit, ok := c.m[id]
	c.mu.Unlock()
	if ok && hit.version == version && hit.state != nil {
		return hit.state.Clone(), nil
	}
	g, err := engine.Unmarshal([]byte(raw))
	if err != nil {
		return nil, err
	}
	c.remember(id, version, g)
	return g, nil
}

// remember keeps a copy of a table's game at a version.
func (c *stateCache) remember(id, version int64, g *engine.State) {
	if g == nil {
		return
	}
	g = g.Clone()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedStates {
		c.m = map[int64]cachedState{}
	}
	prev := c.m[id]
	entry := cachedState{version: version, state: g}
	if prev.version == version {
		entry.seats, entry.seatsOK = prev.seats, prev.seatsOK
	}
	c.m[id] = entry
}

// rememberSeats keeps a copy of a table's seats at a version.
func (c *stateCache) rememberSeats(id, version int64, seats []cribbage.Seat) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedStates {
		c.m = map[int64]cachedState{}
	}
	entry := c.m[id]
	if entry.version != version {
		entry = cachedState{version: version}
	}
	entry.seats, entry.seatsOK = append([]cribbage.Seat(nil), seats...), true
	c.m[id] = entry
}

// seats returns a copy of the cached seats of a table at a version.
func (c *stateCache) seats(id, version int64) ([]cribbage.Seat, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || e.version != version || !e.seatsOK {
		return nil, false
	}
	return append([]cribbage.Seat(nil), e.seats...), true
}
