package live

import (
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/cribbage-bot/cribbage/bot/render"
)

// The REST budget. Discord allows a bot 50 bot-token requests a second in
// all, and each channel about 5 messages and 5 edits per 5 seconds, while
// interaction answers, and requests made with an interaction's token, are
// free. So the live surface (the table message, the hand views) is edited
// through interaction tokens (this package), and the bot token carries the
// story: a post a hand, not a post a move (render.Story).

// shownSums remembers, per table, what this process last put on its
// message, so an edit that would change nothing is not made.
type shownSums struct {
	mu   sync.Mutex
	last map[int64][32]byte
}

// unchanged reports whether r is what the table message already shows.
func (c *shownSums) unchanged(table int64, r render.Message) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	last, ok := c.last[table]
	return ok && last == renderSum(r)
}

// sent records that the table message shows r.
func (c *shownSums) sent(table int64, r render.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = map[int64][32]byte{}
	}
	c.last[table] = renderSum(r)
}

// forget drops what is remembered of a table that is over.
func (c *shownSums) forget(table int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.last, table)
}

// renderSum is a digest of a rendered message's text, embeds and buttons.
// Its pictures are left out: a new board is sent when the key of the board
// shown differs (see showTable).
func renderSum(r render.Message) [32]byte {
	raw, _ := json.Marshal(struct {
		Content    string
		Embeds     any
		Components any
	}{r.Content, r.Embeds, r.Components})
	return sha256.Sum256(raw)
}
