package bot

import (
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// maxContent is the most characters Discord takes in a message's content.
const maxContent = 2000

// maxMentions is the most users a message's allowed_mentions may name.
const maxMentions = 100

// maxFiles is the most files Discord takes with a message.
const maxFiles = 10

// pacer remembers the tables whose next announcement would wait for a
// Discord rate limit, and until when, so the sender goes on with other
// tables instead of sleeping in discordgo's limiter. It keeps wall-clock
// times: rate limits run on real time, whatever the bot's clock says.
type pacer struct {
	mu    sync.Mutex
	until map[int64]time.Time
	// buckets keeps a bucket's check and its request together.
	buckets keyLocks[string]
	// sent are the times of the sender's last requests, for its own
	// global pace (globalBudget a second); guarded by mu.
	sent []time.Time
}

// globalBudget is how many bot-token requests a second the sender makes at
// most: under Discord's 50, leaving room for the few requests made outside
// the sender (commands at start, threads recovered). discordgo learns of
// the global limit only from a 429, so the sender keeps its own count.
const globalBudget = 45

// takeGlobal spends one of the second's requests at now, or says when one
// is free again.
func (p *pacer) takeGlobal(now time.Time) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cut := 0
	for cut < len(p.sent) && now.Sub(p.sent[cut]) >= time.Second {
		cut++
	}
	p.sent = p.sent[cut:]
	if len(p.sent) >= globalBudget {
		return p.sent[0].Add(time.Second), false
	}
	p.sent = append(p.sent, now)
	return time.Time{}, true
}

// pacedError says a request would have to wait for a rate limit.
type pacedError struct{ until time.Time }

func (e *pacedError) Error() string {
	return fmt.Sprintf("bot: rate limited until %s", e.until.Format(time.StampMilli))
}

// send makes a request in bucket key unless discordgo's limiter says it
// would wait now (for the route's bucket or a global limit): then it
// returns a *pacedError saying until when. While the request is made no
// other request of the sender's takes the bucket, so none can find it used
// up and sleep in discordgo's limiter, where neither a shutdown nor other
// tables could get past it. The bucket's own lock is held while reading,
// as discordgo does.
func (p *pacer) send(s *discordgo.Session, key string, request func() error) error {
	return p.sendIn(s, key, true, request)
}

// sendFree is send for a route outside the global limit, an interaction
// token's webhook: only the route's own bucket is checked.
func (p *pacer) sendFree(s *discordgo.Session, key string, request func() error) error {
	return p.sendIn(s, key, false, request)
}

func (p *pacer) sendIn(s *discordgo.Session, key string, global bool, request func() error) error {
	defer p.buckets.lock(key)()
	bkt := s.Ratelimiter.GetBucket(key)
	bkt.Lock()
	wait := s.Ratelimiter.GetWaitTime(bkt, 1)
	bkt.Unlock()
	if wait > 0 {
		return &pacedError{until: time.Now().Add(wait)}
	}
	if !global {
		return request()
	}
	if free, ok := p.takeGlobal(time.Now()); !ok {
		return &pacedError{until: free}
	}
	return request()
}

// hold keeps a table's announcements back until a time.
func (p *pacer) hold(table int64, until time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.until == nil {
		p.until = map[int64]time.Time{}
	}
	p.until[table] = until
}

// holdAtLeast holds a table back until at least until, keeping a longer
// hold it already has (a 429's).
func (p *pacer) holdAtLeast(table int64, until time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.until == nil {
		p.until = map[int64]time.Time{}
	}
	if until.After(p.until[table]) {
		p.until[table] = until
	}
}

// waiting returns the tables held back at now, forgetting those whose time
// has come.
func (p *pacer) waiting(now time.Time) map[int64]bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[int64]bool{}
	for id, t := range p.until {
		if now.Before(t) {
			out[id] = true
		} else {
			delete(p.until, id)
		}
	}
	return out
}

// next returns the earliest time a held table may go on.
func (p *pacer) next() (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var first time.Time
	for _, t := range p.until {
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first, !first.IsZero()
}
