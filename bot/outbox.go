package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
)

// The outbox sender delivers queued announcements: each table's in order
// (a table's story goes to its own thread, or its channel, so this is the
// order every reader sees), retrying server errors with backoff, and after
// a restart whatever the last run left. Posts carry a nonce Discord
// enforces, so a post sent just before a crash is not posted twice on the
// retry.
//
// It paces itself by Discord's rate-limit headers rather than discovering
// the limits: before a request it asks discordgo's limiter how long that
// request would wait, and if it would, it leaves the table for later and
// goes on with others (pace.go); a 429 all the same holds the table for its
// retry_after. A table's story lines queued meanwhile go out merged into
// one post, so a busy table falls behind by seconds, not minutes.

// outboxWorkers is how many tables are delivered for at once.
const outboxWorkers = 2

// The wait between attempts at one announcement: firstBackoff, doubling
// (at most maxDoublings times, which keeps the shift in range) up to
// maxBackoff.
const (
	firstBackoff = 500 * time.Millisecond
	maxDoublings = 12
	maxBackoff   = 5 * time.Minute
)

// threadAttempts is how many times opening a thread waits for the table
// message before the story goes to the channel instead.
const threadAttempts = 5

// threadArchiveMinutes is how long a quiet thread stays open: a week, the
// longest Discord allows, since games last days.
const threadArchiveMinutes = 7 * 24 * 60

// outboxPassGap is the least time between the starts of two passes of the
// sender: short beside a person's pace, long beside a burst of moves.
const outboxPassGap = 25 * time.Millisecond

// pacedPoll is the shortest wait before looking again at tables held back
// by a rate limit. Their windows are seconds long; looking much more often
// only spends the CPU and the database the interactions need.
const pacedPoll = 100 * time.Millisecond

// outboxBatch is how many pending announcements one pass reads.
const outboxBatch = 500

// outboxLease is how long this process holds a table's announcements once
// it has claimed them (renewed every pass, at least once a second): a
// process that dies holds them no longer than this, then another sends.
const outboxLease = 30 * time.Second

// wakeOutbox asks the sender to look at the outbox now.
func (b *Bot) wakeOutbox() {
	select {
	case b.outboxCh <- struct{}{}:
	default:
	}
}

// runOutbox delivers until ctx ends: when woken, when a paced table's turn
// comes, and once a second.
func (b *Bot) runOutbox(ctx context.Context) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for {
		start := time.Now()
		b.deliverPending(ctx)
		wait := time.Second
		if next, ok := b.pace.next(); ok {
			wait = min(wait, max(time.Until(next), pacedPoll))
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-b.outboxCh:
		case <-timer.C:
		}
		// Every move wakes the sender, and a pass reads the whole pending
		// outbox: under a burst of moves, one pass per outboxPassGap
		// serves them all.
		if gap := outboxPassGap - time.Since(start); gap > 0 {
			timer.Reset(gap)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
		}
	}
}

// deliverPending delivers every due announcement, each table's first
// pending one at a time, until a pass delivers nothing. A table refresh is
// never a table's head: it asks for the table's live surface to be brought
// up to date (live.go), which does not wait behind the story.
func (b *Bot) deliverPending(ctx context.Context) {
	for ctx.Err() == nil {
		items, err := b.store.ClaimOutbox(ctx, b.owner, outboxBatch, outboxLease)
		if err != nil {
			if ctx.Err() == nil {
				b.log.Error("outbox: cannot read", "err", err)
			}
			return
		}
		var done []int64
		touched := map[int64]bool{}
		for _, it := range items {
			if it.Kind == kindTable {
				done = append(done, it.ID)
				if !touched[it.TableID] {
					touched[it.TableID] = true
					b.touchTable(it.TableID)
				}
			}
		}
		heads := tableHeads(items, b.now(), b.pace.waiting(time.Now()))
		var wg sync.WaitGroup
		var mu sync.Mutex
		sem := make(chan struct{}, outboxWorkers)
		for _, it := range heads {
			wg.Add(1)
			sem <- struct{}{}
			go func(it cribbage.OutboxItem) {
				defer func() { <-sem; wg.Done() }()
				if ids := b.deliverOne(ctx, it); len(ids) > 0 {
					mu.Lock()
					done = append(done, ids...)
					mu.Unlock()
				}
			}(it)
		}
		wg.Wait()
		// One transaction marks the whole pass: a crash before it only
		// means a resend, which the nonce (posts) or the content (table
		// refreshes) makes harmless.
		if err := b.store.MarkDelivered(ctx, done...); err != nil {
			if ctx.Err() == nil {
				b.log.Error("outbox: cannot record deliveries", "err", err)
			}
			return
		}
		if len(done) == 0 {
			return // every head is paced or failed: wait for their time
		}
	}
}

// tableHeads returns each table's first pending announcement, table
// refreshes aside, if it is due and the table is not waiting for a rate
// limit: a later announcement never overtakes an earlier one of the same
// table, while tables sharing a channel do not wait for each other.
func tableHeads(items []cribbage.OutboxItem, now time.Time, paced map[int64]bool) []cribbage.OutboxItem {
	seen := map[int64]bool{}
	var heads []cribbage.OutboxItem
	for _, it := range items {
		if seen[it.TableID] || it.Kind == kindTable {
			continue
		}
		seen[it.TableID] = true
		if !it.NextAttemptAt.After(now) && !paced[it.TableID] {
			heads = append(heads, it)
		}
	}
	return heads
}

// deliverOne sends one announcement and returns the announcements it is
// done with (delivered, carried with it, or given up), none if it is to be
// retried; a failure to retry is recorded here. A panic is recovered and
// the item retried later, so one bad item cannot stop the sender.
func (b *Bot) deliverOne(ctx context.Context, it cribbage.OutboxItem) (done []int64) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("outbox: panic delivering an announcement", "id", it.ID, "table", it.TableID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if err := b.store.MarkFailed(ctx, it.ID, b.now().Add(maxBackoff)); err != nil && ctx.Err() == nil {
				b.log.Error("outbox: cannot record a failed delivery", "id", it.ID, "err", err)
			}
			done = nil
		}
	}()
	carried, err := b.deliver(ctx, it)
	var paced *pacedError
	var limited *discordgo.RateLimitError
	switch {
	case err == nil:
		return append(carried, it.ID)
	case errors.As(err, &paced):
		b.pace.hold(it.TableID, paced.until)
		return nil
	case errors.As(err, &limited) && limited.TooManyRequests != nil:
		b.metrics.rateLimited.Inc()
		// Not a failed attempt: Discord said when to come back (discordgo
		// reads retry_after to the millisecond, so one more is added).
		b.pace.hold(it.TableID, time.Now().Add(limited.RetryAfter+time.Millisecond))
		return nil
	case permanent(err):
		b.log.Warn("outbox: giving up on an announcement", "id", it.ID, "table", it.TableID, "kind", it.Kind, "err", err)
		return append(carried, it.ID)
	}
	wait := backoff(it.Attempts)
	b.log.Info("outbox: will retry", "id", it.ID, "table", it.TableID, "in", wait, "err", err)
	if err := b.store.MarkFailed(ctx, it.ID, b.now().Add(wait)); err != nil && ctx.Err() == nil {
		b.log.Error("outbox: cannot record a failed delivery", "id", it.ID, "err", err)
	}
	return nil
}

// backoff doubles from half a second up to maxBackoff.
func backoff(attempts int) time.Duration {
	d := firstBackoff << min(attempts, maxDoublings)
	return min(d, maxBackoff)
}

// permanent reports whether retrying cannot help: Discord refused the
// request itself (4xx other than 429), e.g. the channel is gone.
func permanent(err error) bool {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		code := rest.Response.StatusCode
		return code >= 400 && code < 500 && code != http.StatusTooManyRequests
	}
	return errors.Is(err, errGiveUp)
}

// errTableMessageUnknown defers a table refresh until the table message is
// recorded.
var errTableMessageUnknown = errors.New("bot: the table message is not known yet")

// interactionTokenLife is how long Discord keeps an interaction's token.
const interactionTokenLife = 15 * time.Minute

// errGiveUp marks an announcement that can never be delivered.
var errGiveUp = errors.New("bot: announcement cannot be delivered")

// deliver sends one announcement, and returns the others it carried: the
// story items that went out in the same message.
func (b *Bot) deliver(ctx context.Context, it cribbage.OutboxItem) ([]int64, error) {
	t, err := b.store.Table(ctx, it.TableID)
	if errors.Is(err, cribbage.ErrNotFound) {
		return nil, errGiveUp
	}
	if err != nil {
		return nil, err
	}
	switch it.Kind {
	case kindPost:
		dest := t.ChannelID
		if t.ThreadID != "" {
			dest = t.ThreadID
		}
		endpoint := discordgo.EndpointChannelMessages(dest)
		// The post carries the lines its hand queued before it, and the
		// posts (with their lines) queued after it that fit: read afresh,
		// since the sender's pass reads only what is ready to send.
		pending, err := b.store.TablePending(ctx, it.TableID)
		if err != nil {
			return nil, err
		}
		var carried []int64
		err = b.pace.send(b.session, endpoint, func() error {
			items, err := b.seal(ctx, it, pending)
			if err != nil {
				return err
			}
			m, _ := compose(items)
			for _, c := range items {
				if c.ID != it.ID {
					carried = append(carried, c.ID)
				}
			}
			return b.post(ctx, endpoint, fitMessage(m), fmt.Sprintf("cb%d", items[0].ID))
		})
		return carried, err
	case kindThread:
		return nil, b.openThread(ctx, t, it.Attempts)
	}
	return nil, errGiveUp
}

// seal returns the items one story message carries, from the table's
// first pending one (see gather). The first time, it records the last of
// them on the first before anything is sent; every later attempt carries
// exactly those again, so a resend after a crash sends the same message
// under the same nonce.
func (b *Bot) seal(ctx context.Context, it cribbage.OutboxItem, pending []cribbage.OutboxItem) ([]cribbage.OutboxItem, error) {
	var first cribbage.OutboxItem
	for _, p := range pending {
		if p.TableID == it.TableID && p.Kind != kindTable {
			first = p
			break
		}
	}
	items := gather(pending, it.TableID, first.SealedThrough)
	if len(items) == 0 || !slices.ContainsFunc(items, func(c cribbage.OutboxItem) bool { return c.ID == it.ID }) {
		// The pending read missed it (a race with another sender that
		// has since lost the lease): the post alone.
		items = []cribbage.OutboxItem{it}
	}
	if items[0].SealedThrough != 0 {
		return items, nil
	}
	if err := b.store.Seal(ctx, items[0].ID, items[len(items)-1].ID); err != nil {
		return nil, err
	}
	return items, nil
}

// messageCreate is a channel message with Discord's enforced nonce, which
// discordgo's MessageSend lacks.
type messageCreate struct {
	Content         string                            `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Nonce           string                            `json:"nonce"`
	EnforceNonce    bool                              `json:"enforce_nonce"`
}

// post sends a story message to a channel's messages endpoint, notifying
// only the users it mentions.
func (b *Bot) post(ctx context.Context, endpoint string, m storyMessage, nonce string) error {
	body := messageCreate{Content: m.Content, Embeds: m.Embeds, Nonce: nonce, EnforceNonce: true,
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: m.Mentions}}
	if len(m.Pictures) == 0 {
		_, err := b.session.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint, outboxRequest(ctx)...)
		return err
	}
	// The pictures are drawn now, from the cards queued: the same post
	// resent after a failure carries the same pictures.
	contentType, raw, err := discordgo.MultipartBodyWithJSON(body, pictureFiles(m.Pictures))
	if err != nil {
		return err
	}
	_, err = b.session.RequestRaw(http.MethodPost, endpoint, contentType, raw, endpoint, 0, outboxRequest(ctx)...)
	return err
}

// openThread starts the table's thread on its message, where the story of
// the game goes so a busy channel stays readable. Without permission to
// open threads the story goes to the channel instead.
func (b *Bot) openThread(ctx context.Context, t *cribbage.Table, attempts int) error {
	if t.ThreadID != "" {
		return nil
	}
	if t.MessageID == "" {
		if attempts >= threadAttempts {
			return errGiveUp
		}
		return errTableMessageUnknown
	}
	names := ""
	for i, s := range t.Seats {
		if i > 0 {
			names += " vs "
		}
		names += s.Name
	}
	name := fmt.Sprintf("Cribbage %d · %s", t.ID, names)
	if r := []rune(name); len(r) > 100 {
		name = string(r[:100])
	}
	var ch *discordgo.Channel
	err := b.pace.send(b.session, discordgo.EndpointChannelMessageThread(t.ChannelID, t.MessageID), func() error {
		var err error
		ch, err = b.session.MessageThreadStartComplex(t.ChannelID, t.MessageID, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: threadArchiveMinutes}, outboxRequest(ctx)...)
		return err
	})
	if discordCode(err) == codeThreadExists {
		// An earlier attempt opened it but its answer was lost (a timeout,
		// or a crash before it was recorded): the message names it.
		m, gerr := b.session.ChannelMessage(t.ChannelID, t.MessageID, outboxRequest(ctx)...)
		if gerr != nil {
			return gerr
		}
		if m.Thread == nil {
			return err
		}
		ch, err = m.Thread, nil
	}
	if err != nil {
		return err
	}
	return b.store.SetMessages(ctx, t.ID, t.MessageID, ch.ID)
}

// codeThreadExists is Discord's error code for a second thread on one
// message.
const codeThreadExists = 160004

// discordCode returns the JSON error code of a Discord REST error, or 0.
func discordCode(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return rest.Message.Code
	}
	return 0
}

// outboxRequest are the options of the sender's requests: they end with
// ctx, and a 429 comes back as an error (the sender holds that table for
// its retry_after) instead of sleeping inside discordgo, where neither
// other tables nor a shutdown could get past it.
func outboxRequest(ctx context.Context) []discordgo.RequestOption {
	return []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)}
}
