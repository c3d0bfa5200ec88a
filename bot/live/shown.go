package live

import (
	"encoding/hex"
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
	// writing counts each table's edits of its message under way;
	// clobbered marks a table whose message an answer updated meanwhile,
	// when what the message shows depends on which landed last.
	writing   map[int64]int
	clobbered map[int64]bool
	// unknown marks a table whose message an answer and an edit raced to
	// update here: what it shows is unknown, whatever was recorded.
	unknown map[int64]bool
	// landed has a channel for each table with edits under way, closed
	// when the last of them has had its reply (see SettleTable).
	landed map[int64]chan struct{}
}

// unchanged reports whether r is what the table message already shows:
// by what this process last put on it, or, when it put nothing on it yet
// (it has just started), by recorded, the digest the store keeps of what
// the message was last made to show (cribbage.TableMessage.Shown).
func (c *shownSums) unchanged(table int64, r render.Message, recorded string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	sum := renderSum(r)
	if last, ok := c.last[table]; ok {
		return last == sum
	}
	return !c.unknown[table] && recorded != "" && recorded == SumString(sum)
}

// SumString is how a digest of a table message, or of a hand view, is
// recorded.
func SumString(sum [32]byte) string { return hex.EncodeToString(sum[:]) }

// sent records that the table message shows r.
func (c *shownSums) sent(table int64, r render.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	c.last[table] = renderSum(r)
	delete(c.unknown, table)
}

func (c *shownSums) init() {
	if c.last == nil {
		c.last, c.writing, c.clobbered, c.unknown = map[int64][32]byte{}, map[int64]int{}, map[int64]bool{}, map[int64]bool{}
		c.landed = map[int64]chan struct{}{}
	}
}

// editing marks an edit of the table message under way.
func (c *shownSums) editing(table int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	if c.writing[table] == 0 {
		c.landed[table] = make(chan struct{})
	}
	c.writing[table]++
}

// edited ends an edit of the table message that sent r, and records that
// the message shows r if it went through (ok) and no answer updated the
// message meanwhile; it reports whether it did.
func (c *shownSums) edited(table int64, r render.Message, ok bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writing[table]--
	recorded := ok && !c.clobbered[table]
	if recorded {
		c.last[table] = renderSum(r)
		delete(c.unknown, table)
	}
	if c.writing[table] <= 0 {
		delete(c.writing, table)
		delete(c.clobbered, table)
		if ch := c.landed[table]; ch != nil {
			close(ch)
			delete(c.landed, table)
		}
	}
	return recorded
}

// answered records that an answer updated the table message to r, and
// reports whether the message shows r now: not when an edit of it was
// under way, which may land after the answer. Then what it shows is
// unknown, and the next pass shows the table again.
func (c *shownSums) answered(table int64, r render.Message) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	if c.writing[table] > 0 {
		c.clobbered[table] = true
		c.unknown[table] = true
		delete(c.last, table)
		return false
	}
	c.last[table] = renderSum(r)
	delete(c.unknown, table)
	return true
}

// forget drops what is remembered of a table that is over.
func (c *shownSums) forget(table int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.last, table)
	delete(c.unknown, table)
}

// underWay returns a channel closed once the table message's edits under
// way have had their replies, or nil if none is.
func (c *shownSums) underWay(table int64) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.landed[table]; ok {
		return ch
	}
	return nil
}
