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
// button keeps working after a restart with no registry in memory:
//
//	/join/{table}  /leave/{table}  /begin/{table}  /hand/{table}  /deal/{table}
//	/sel/{table}/{view}/{cards}      toggle a card for the crib (cards: the new selection)
//	/discard/{table}/{view}/{cards}  confirm the throw
//	/play/{table}/{view}/{card}      lay a card
//	/refresh/{table}                 show the hand again
//	/claim/{table}/{view}            open the claim form; its submit is /claimed/{table}/{view}
//	/muggins/{table}/{view}/{index}  take points an opponent missed
//	/hint/{table}/{view}             ask the coach; /review/{table} compares the last discard with the best
//	/claimwin/{table}                claim the win from a player who has not moved in time
//	/rematch/{table}                 a new game with the same seats
//
// {view} is the seat's view version: a short hash of what the seat can see
// and decide on (its cards, the count, whose turn). A click made on an older
// view is refused as stale; a change that does not touch the seat's choice
// (another player's discard) leaves its buttons working.
// {cards} is a card set in hex. Every id stays well under Discord's 100
// characters.

// maxCustomID is Discord's limit on a custom_id.
const maxCustomID = 100

// errBadCustomID means a custom_id the bot did not make (or could not parse).
var errBadCustomID = errors.New("bot: malformed custom id")

// clickID is a parsed custom_id.
type clickID struct {
	Action string
	Table  int64
	View   string
	Cards  engine.CardSet
	Card   engine.Card
	Index  int
}

// String builds the custom_id.
func (c clickID) String() string {
	parts := []string{"", c.Action, strconv.FormatInt(c.Table, 10)}
	switch c.Action {
	case "sel", "discard":
		parts = append(parts, c.View, strconv.FormatUint(uint64(c.Cards), 16))
	case "play":
		parts = append(parts, c.View, c.Card.String())
	case "claim", "claimed", "hint":
		parts = append(parts, c.View)
	case "muggins":
		parts = append(parts, c.View, strconv.Itoa(c.Index))
	}
	return strings.Join(parts, "/")
}

// argCount says how many parts after the table id each action takes.
var argCount = map[string]int{
	"join": 0, "leave": 0, "begin": 0, "hand": 0, "deal": 0, "refresh": 0, "resign": 0, "review": 0, "claimwin": 0, "rematch": 0,
	"sel": 2, "discard": 2, "play": 2, "claim": 1, "claimed": 1, "hint": 1, "muggins": 2,
}

// parseClickID parses and checks a custom_id; anything the bot could not
// have made is errBadCustomID.
func parseClickID(s string) (clickID, error) {
	if len(s) > maxCustomID || !strings.HasPrefix(s, "/") {
		return clickID{}, errBadCustomID
	}
	p := strings.Split(s[1:], "/")
	n, ok := argCount[p[0]]
	if !ok || len(p) != n+2 {
		return clickID{}, errBadCustomID
	}
	c := clickID{Action: p[0]}
	id, err := strconv.ParseInt(p[1], 10, 64)
	if err != nil || id <= 0 {
		return clickID{}, errBadCustomID
	}
	c.Table = id
	if n == 0 {
		return c, nil
	}
	c.View = p[2]
	if !validView(c.View) {
		return clickID{}, errBadCustomID
	}
	switch c.Action {
	case "sel", "discard":
		mask, err := strconv.ParseUint(p[3], 16, 64)
		if err != nil || mask>>52 != 0 {
			return clickID{}, errBadCustomID
		}
		c.Cards = engine.CardSet(mask)
	case "play":
		if c.Card, err = engine.ParseCard(p[3]); err != nil || c.Card.String() != p[3] {
			return clickID{}, errBadCustomID
		}
	case "muggins":
		if c.Index, err = strconv.Atoi(p[3]); err != nil || c.Index < 0 || c.Index > 64 {
			return clickID{}, errBadCustomID
		}
	}
	return c, nil
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
