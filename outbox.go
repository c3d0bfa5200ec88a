package cribbage

import "time"

// Outbound is an announcement to deliver to a channel. Kind and Payload
// are the bot's: the store keeps them opaque and in order.
type Outbound struct {
	ChannelID string
	Kind      string
	Payload   string
	// Waits marks an announcement that is never sent by itself: a later
	// one of its table carries it (the sender reads it then, with
	// TablePending). ClaimOutbox passes over it.
	Waits bool
}

// OutboxItem is a queued announcement.
type OutboxItem struct {
	ID        int64
	TableID   int64
	ChannelID string
	Kind      string
	Payload   string
	Waits     bool
	Attempts  int
	// SealedThrough, once set (see Seal), is the last announcement the
	// sender merged into this one: it is then always sent with the same
	// announcements merged in.
	SealedThrough int64
	// NextAttemptAt is when a failed delivery may be tried again.
	NextAttemptAt time.Time
	CreatedAt     time.Time
}
