package club

import (
	"context"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// A player's throws to the crib are reviewed against the best throw
// after their game, not in it: the review is the coach's reckoning of
// every way to throw (ai.GivenUp, about 0.2 ms a throw), which a click
// should not wait for. A background pass reviews everyone's throws,
// oldest games first (after the migration that brings numbers in, that
// is the whole history, a batch at a time); a player asking for their
// stats has their own reviewed first, up to statsReviews of them, so the
// numbers right after a game include it.

// The reviewer's pace: a batch of throws, then a rest, so that a long
// history is reviewed without taking a core from the games; and how long
// it waits when there is nothing left to review.
const (
	reviewBatch = 100
	reviewRest  = 100 * time.Millisecond
	reviewIdle  = 10 * time.Second
	// statsReviews is how many of a player's throws stats reviews before
	// answering: more than a few games' worth, within a few milliseconds.
	statsReviews = 60
)

// Review reviews everyone's throws in the background until ctx ends.
// Several processes may run it at once: a throw reviewed twice is
// counted once (ReviewThrows).
func (a *Answers) Review(ctx context.Context) {
	for {
		n, err := a.reviewThrows(ctx, "", "", reviewBatch)
		if err != nil && ctx.Err() == nil {
			a.Log.Warn("could not review throws", "err", err)
		}
		wait := reviewRest
		if n < reviewBatch || err != nil {
			wait = reviewIdle
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// reviewThrows reviews up to limit throws not yet reviewed, one player's
// in a server or anyone's (userID empty), and returns how many it found.
func (a *Answers) reviewThrows(ctx context.Context, guildID, userID string, limit int) (int, error) {
	throws, err := a.Store.UnreviewedThrows(ctx, guildID, userID, limit)
	if err != nil || len(throws) == 0 {
		return 0, err
	}
	reviews := make([]cribbage.ThrowReview, 0, len(throws))
	for _, th := range throws {
		given, ok := ai.GivenUp(th.Options, th.Seat, th.Dealer, th.Dealt, th.Thrown)
		if !ok {
			// Not a throw of the cards dealt: a damaged row. It is marked
			// reviewed, as giving nothing up, rather than tried forever.
			a.Log.Warn("a throw is not of the cards dealt", "table", th.TableID, "hand", th.Hand, "seat", th.Seat)
		}
		reviews = append(reviews, cribbage.ThrowReview{TableID: th.TableID, Hand: th.Hand, Seat: th.Seat, GivenUp: given})
	}
	return len(throws), a.Store.ReviewThrows(ctx, reviews)
}

// numbers returns a player's numbers for their stats, their own throws
// reviewed first.
func (a *Answers) numbers(ctx context.Context, guildID, userID string) (cribbage.Numbers, error) {
	if _, err := a.reviewThrows(ctx, guildID, userID, statsReviews); err != nil {
		return cribbage.Numbers{}, err
	}
	return a.Store.PlayerNumbers(ctx, guildID, userID, a.Now().Add(-cribbage.RecentDays*24*time.Hour))
}
