// Package click builds and parses the custom_ids of the bot's buttons and
// forms. An id is a compact path that carries everything a click needs,
// so any button keeps working after a restart with no registry in memory.
package click

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/cribbage-bot/cribbage/engine"
)

// Each action's path is its pattern (patterns below), e.g.
// /play/{table}/{view}/{card}; the bot's route table maps each action to
// its handler.
//
// {view} is the seat's view version: a short hash of what the seat can see
// and decide on (its cards, the count, whose turn). A click made on an older
// view is refused as stale; a change that does not touch the seat's choice
// (another player's discard) leaves its buttons working.
// {cards} is a card set in hex. Every id stays well under Discord's 100
// characters.

// MaxLen is Discord's limit on a custom_id.
const MaxLen = 100

// MaxIndex bounds {index}: a muggins button's place in the show's misses,
// or a hand of a replay. Every hand pegs at least the last card's point, so
// no game reaches this many hands.
const MaxIndex = 255

// ErrBad means a custom_id the bot did not make (or could not parse).
var ErrBad = errors.New("click: malformed custom id")

// ID is a parsed custom_id.
type ID struct {
	Action Action
	Table  int64
	View   string
	Cards  engine.CardSet
	Card   engine.Card
	Index  int
}

// String builds the custom_id from the action's pattern.
func (c ID) String() string {
	p, ok := patterns[c.Action]
	if !ok {
		panic(fmt.Sprintf("click: no pattern for action %q", c.Action))
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		switch seg {
		case "{table}":
			segs[i] = strconv.FormatInt(c.Table, 10)
		case "{view}":
			segs[i] = c.View
		case "{cards}":
			segs[i] = strconv.FormatUint(uint64(c.Cards), 16)
		case "{card}":
			segs[i] = c.Card.String()
		case "{index}":
			segs[i] = strconv.Itoa(c.Index)
		}
	}
	return strings.Join(segs, "/")
}

// Parse parses a custom_id by its action's pattern. Anything the bot could
// not have made, even a different spelling of the same click, is ErrBad:
// the id must be exactly what String builds.
func Parse(s string) (ID, error) {
	if len(s) > MaxLen || !strings.HasPrefix(s, "/") {
		return ID{}, ErrBad
	}
	segs := strings.Split(s, "/")
	a := Action(segs[1])
	p, ok := patterns[a]
	if !ok {
		return ID{}, ErrBad
	}
	pattern := strings.Split(p, "/")
	if len(segs) != len(pattern) {
		return ID{}, ErrBad
	}
	c := ID{Action: a}
	for i, seg := range pattern {
		if err := c.set(seg, segs[i]); err != nil {
			return ID{}, err
		}
	}
	if c.String() != s {
		return ID{}, ErrBad
	}
	return c, nil
}

// set reads one segment of a custom_id into c by its placeholder.
func (c *ID) set(placeholder, v string) error {
	var err error
	switch placeholder {
	case "{table}":
		if c.Table, err = strconv.ParseInt(v, 10, 64); err != nil || c.Table <= 0 {
			return ErrBad
		}
	case "{view}":
		if c.View = v; !ValidView(v) {
			return ErrBad
		}
	case "{cards}":
		mask, err := strconv.ParseUint(v, 16, 64)
		if err != nil || mask>>52 != 0 {
			return ErrBad
		}
		c.Cards = engine.CardSet(mask)
	case "{card}":
		if c.Card, err = engine.ParseCard(v); err != nil {
			return ErrBad
		}
	case "{index}":
		if c.Index, err = strconv.Atoi(v); err != nil || c.Index < 0 || c.Index > MaxIndex {
			return ErrBad
		}
	}
	return nil
}

// ValidView reports whether s could be a view version.
func ValidView(s string) bool {
	if len(s) == 0 || len(s) > 7 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return true
}

// SeatView is the view version of seat at game g: what a click on the
// seat's view names, and what the change it asks for checks it against.
func SeatView(g *engine.State, seat int) string { return ViewVersion(g.ViewFor(seat)) }

// ViewVersion hashes what a seat sees and decides on into a short token.
func ViewVersion(v engine.View) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%d|%s|%d|%d|%x|%x|%d|%d|%d|%d", v.HandNo, v.Phase, v.Dealer, v.Turn, uint64(v.Remaining), uint64(v.Discards),
		v.Count, len(v.Plays), len(v.Shown), len(v.Missed))
	for _, m := range v.Missed {
		fmt.Fprintf(h, "|%v", m.Taken)
	}
	if v.Result != nil {
		h.Write([]byte("|over"))
	}
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}
