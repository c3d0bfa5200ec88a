package bot

import (
	"context"
	"errors"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// Store is what the bot needs from persistence. The SQLite store satisfies
// it through a small adapter in cmd, so bot and store never import each
// other.
type Store interface {
	// CreateTable saves a new table with its announcements, recording the
	// interaction; it sets the id, version and times.
	CreateTable(ctx context.Context, t *Table, interactionID string, out []Outbound) (*Table, error)
	// Update loads a table, lets fn decide the change and saves it, its
	// actions, announcements and the interaction in one transaction. It
	// fails with ErrStale if the table changed meanwhile and ErrDuplicate
	// for an interaction seen before; fn's error aborts everything.
	Update(ctx context.Context, id int64, interactionID string, fn func(t *Table) (*Change, error)) (*Table, error)
	Table(ctx context.Context, id int64) (*Table, error)
	OpenTables(ctx context.Context) ([]*Table, error)
	PlayerTables(ctx context.Context, guildID, userID string) ([]*Table, error)
	ChannelTables(ctx context.Context, channelID string) ([]*Table, error)
	// SetMessages records the table message and thread without changing
	// the version.
	SetMessages(ctx context.Context, id int64, messageID, threadID string) error
	// RecordTableMessage records the table message if none is recorded yet,
	// without changing the version. (An Update also records a MessageID
	// its fn sets on a table that has none.)
	RecordTableMessage(ctx context.Context, id int64, messageID string) error
	// MarkAssisted records that a player used the coach, without changing
	// the version.
	MarkAssisted(ctx context.Context, id int64) error
	// IdleTables returns the open tables with no move since idleSince and
	// the lobbies opened before openedBefore.
	IdleTables(ctx context.Context, idleSince, openedBefore time.Time) ([]*Table, error)
	// MarkReminded and MarkForfeitOffered move a timer from prev to at and
	// queue out, together, reporting whether this call did (so a timer
	// fires once whatever races it).
	MarkReminded(ctx context.Context, id int64, prev, at time.Time, out []Outbound) (bool, error)
	MarkForfeitOffered(ctx context.Context, id int64, prev, at time.Time, out []Outbound) (bool, error)
	PendingOutbox(ctx context.Context, limit int) ([]OutboxItem, error)
	// MarkDelivered records announcements as delivered, in one transaction.
	MarkDelivered(ctx context.Context, ids ...int64) error
	MarkFailed(ctx context.Context, id int64, next time.Time) error
	// Seal records that announcement id is sent with the story lines after
	// it up to through merged in; ErrStale if it was sealed or delivered
	// already.
	Seal(ctx context.Context, id, through int64) error
	Leaderboard(ctx context.Context, guildID string, since time.Time) ([]Standing, error)
	PlayerStats(ctx context.Context, guildID, userID string) (Stats, error)
	HeadToHead(ctx context.Context, guildID, a, b string) (HeadToHead, error)
}

// The store errors the bot explains to users; a Store returns them
// (wrapped or not) for errors.Is.
var (
	ErrStale     = errors.New("bot: the table changed")
	ErrDuplicate = errors.New("bot: interaction already processed")
	ErrNotFound  = errors.New("bot: no such table")
)

// Status is where a table stands.
type Status string

// The statuses of a table.
const (
	StatusLobby    Status = "lobby"
	StatusPlaying  Status = "playing"
	StatusFinished Status = "finished"
	StatusClosed   Status = "closed"
)

// Seat is a place at a table: a person, or a computer player (Computer
// names its level).
type Seat struct {
	UserID   string
	Name     string
	Computer string
}

// Table is a cribbage table in a channel and its game.
type Table struct {
	ID        int64
	GuildID   string
	ChannelID string
	HostID    string
	MessageID string
	ThreadID  string
	Options   engine.Options
	Computer  string
	Status    Status
	Version   int64
	Seats     []Seat
	CutSeed   *engine.Seed
	State     *engine.State
	Assisted  bool
	// RemindedAt is when a waiting player was last reminded,
	// ForfeitOfferedAt when the opponents were offered a forfeit.
	RemindedAt       time.Time
	ForfeitOfferedAt time.Time
	// WaitingSince is when the players the game waits on began waiting.
	WaitingSince time.Time
	CreatedAt    time.Time
	StartedAt    time.Time
	LastActionAt time.Time
	FinishedAt   time.Time
}

// Since is when the players the game waits on began waiting (the last
// move, for tables saved before this was kept).
func (t *Table) Since() time.Time {
	if t.WaitingSince.IsZero() {
		return t.LastActionAt
	}
	return t.WaitingSince
}

// SeatOf returns the seat a person sits in, or -1.
func (t *Table) SeatOf(userID string) int {
	for i, s := range t.Seats {
		if s.UserID == userID && s.Computer == "" {
			return i
		}
	}
	return -1
}

// LoggedAction is an engine action with who asked for it ("" for the bot).
type LoggedAction struct {
	UserID string
	Action engine.Action
}

// Outbound is an announcement to queue.
type Outbound struct {
	ChannelID string
	Kind      string
	Payload   string
}

// OutboxItem is a queued announcement.
type OutboxItem struct {
	ID            int64
	TableID       int64
	ChannelID     string
	Kind          string
	Payload       string
	Attempts      int
	SealedThrough int64
	NextAttemptAt time.Time
	CreatedAt     time.Time
}

// Change is what an Update saves.
type Change struct {
	Table   *Table
	Actions []LoggedAction
	Outbox  []Outbound
}

// Standing is a line of the leaderboard.
type Standing struct {
	Rank        int
	UserID      string
	Name        string
	Games       int
	Wins        int
	Losses      int
	GamesWon    int
	SkunksGiven int
	SkunksTaken int
}

// Record is a player's totals over a set of games.
type Record struct {
	Games             int
	Wins              int
	Losses            int
	GamesWon          int
	SkunksGiven       int
	DoubleSkunksGiven int
	SkunksTaken       int
	DoubleSkunksTaken int
	Pegging           int
	HandPoints        int
	Hands             int
	CribPoints        int
	Cribs             int
	BestHand          int
	TwentyNines       int
}

// Stats are a player's records in a server.
type Stats struct {
	Name       string
	People     Record
	Computer   Record
	Streak     int
	LastPlayed time.Time
}

// HeadToHead is the record between two players.
type HeadToHead struct {
	Games int
	AWins int
	BWins int
}
