package bot

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/cribbage-bot/cribbage/engine"
)

// Custom IDs are compact paths that carry everything a click needs, so any
// button keeps working after a restart with no registry in memory. Each
// action's path is its pattern in the route table (routes.go), e.g.
// /play/{table}/{view}/{card}; this file builds and parses them.
//
// {view} is the seat's view version: a short hash of what the seat can see
// and decide on (its cards, the count, whose turn). A click made on an older
// view is refused as stale; a change that does not touch the seat's choice
// (another player's discard) leaves its buttons working.
// {cards} is a card set in hex. Every id stays well under Discord's 100
// characters.

// maxCustomID is Discord's limit on a custom_id.
const maxCustomID = 100

// maxIndex bounds {index}: a muggins button's place in the show's misses,
// or a hand of a replay. Every hand pegs at least the last card's point, so
// no game reaches this many hands.
const maxIndex = 255

// errBadCustomID means a custom_id the bot did not make (or could not parse).
var errBadCustomID = errors.New("bot: malformed custom id")

// clickID is a parsed custom_id.
type clickID struct {
	Action action
	Table  int64
	View   string
	Cards  engine.CardSet
	Card   engine.Card
	Index  int
}

// String builds the custom_id from the action's pattern.
func (c clickID) String() string {
	r, ok := clickByAction[c.Action]
	if !ok {
		panic(fmt.Sprintf("bot: no route for action %q", c.Action))
	}
	segs := strings.Split(r.pattern, "/")
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

// parseClickID parses a custom_id by its action's pattern. Anything the bot
// could not have made, even a different spelling of the same click, is
// errBadCustomID: the id must be exactly what String builds.
func parseClickID(s string) (clickID, error) {
	if len(s) > maxCustomID || !strings.HasPrefix(s, "/") {
		return clickID{}, errBadCustomID
	}
	segs := strings.Split(s, "/")
	r, ok := clickByAction[action(segs[1])]
	if !ok {
		return clickID{}, errBadCustomID
	}
	pattern := strings.Split(r.pattern, "/")
	if len(segs) != len(pattern) {
		return clickID{}, errBadCustomID
	}
	c := clickID{Action: r.action}
	for i, seg := range pattern {
		if err := c.set(seg, segs[i]); err != nil {
			return clickID{}, err
		}
	}
	if c.String() != s {
		return clickID{}, errBadCustomID
	}
	return c, nil
}

// set reads one segment of a custom_id into c by its placeholder.
func (c *clickID) set(placeholder, v string) error {
	var err error
	switch placeholder {
	case "{table}":
		if c.Table, err = strconv.ParseInt(v, 10, 64); err != nil || c.Table <= 0 {
			return errBadCustomID
		}
	case "{view}":
		if c.View = v; !validView(v) {
			return errBadCustomID
		}
	case "{cards}":
		mask, err := strconv.ParseUint(v, 16, 64)
		if err != nil || mask>>52 != 0 {
			return errBadCustomID
		}
		c.Cards = engine.CardSet(mask)
	case "{card}":
		if c.Card, err = engine.ParseCard(v); err != nil {
			return errBadCustomID
		}
	case "{index}":
		if c.Index, err = strconv.Atoi(v); err != nil || c.Index < 0 || c.Index > maxIndex {
			return errBadCustomID
		}
	}
	return nil
}

// validView reports whether s could be a view version.
func validView(s string) bool {
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

// viewVersion hashes what a seat sees and decides on into a short token.
func viewVersion(v engine.View) string {
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
