package bot

import (
	"context"

	"github.com/cribbage-bot/cribbage"
)

// Store is every service the bot uses. The domain package declares the
// game's; MessageBook, what is Discord's, is the bot's own. The SQL store
// provides them all, and tests may provide doubles held to it by one
// conformance suite. Bot and store never import each other.
type Store interface {
	cribbage.TableService
	cribbage.TimerService
	cribbage.OutboxService
	cribbage.RecordService
	cribbage.GuildService
	MessageBook
}

// MessageBook keeps what the bot knows of a table's messages on Discord:
// the table message and thread, the board picture the message shows, and
// the interaction tokens that can edit the table message and each seat's
// hand view. None of it is the game's: recording it changes no table
// version, so no button goes stale.
type MessageBook interface {
	// SetMessages records the table message and thread.
	SetMessages(ctx context.Context, id int64, messageID, threadID string) error
	// RecordTableMessage records the table message if none is recorded
	// yet.
	RecordTableMessage(ctx context.Context, id int64, messageID string) error
	// RecordBoard records the key of the board picture now on the table
	// message.
	RecordBoard(ctx context.Context, id int64, key string) error
	// RecordEditToken records an interaction token that can edit the table
	// message, unless the table already has a newer one.
	RecordEditToken(ctx context.Context, id int64, token cribbage.MessageToken) error
	// RecordHandView records a seat's open hand view, unless a newer one
	// is recorded.
	RecordHandView(ctx context.Context, id int64, view cribbage.HandView) error
	// HandViews returns the open hand views recorded at a table, by seat.
	HandViews(ctx context.Context, id int64) ([]cribbage.HandView, error)
}
