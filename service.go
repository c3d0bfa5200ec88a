package cribbage

import (
	"context"
	"time"
)

// TableService keeps tables and their games. Every change is one
// transaction: the table, its logged actions, its announcements and the
// interaction that asked for it, so a move is applied once or not at all.
type TableService interface {
	// CreateTable saves a new table with its announcements, recording the
	// interaction; it sets the id, version and times. The table is saved
	// only if hold is kept once it is (see Hold).
	CreateTable(ctx context.Context, t *Table, interactionID string, out []Outbound, hold Hold) (*Table, error)
	// Save writes ch, a change decided on from (the table as Table read
	// it, unchanged), in one transaction: the table, its actions, its
	// announcements and the interaction that asked for it, and the table
	// it opens (Next), recorded as its RematchID. It saves the game (see
	// Change), and nothing the MessageBook keeps. It fails with ErrStale
	// if the table has changed since from (decide again on the newer
	// table), ErrDuplicate for an interaction seen before, and with the
	// error of a Hold the change would break; a nil change saves nothing.
	// The caller decides outside any transaction, so a change may take its
	// time (a computer player's search) without holding up any other
	// table's, and no code of the caller's runs in the store.
	Save(ctx context.Context, from *Table, ch *Change, interactionID string) (*Table, error)
	// Seen fails with ErrDuplicate for an interaction already applied, so
	// a redelivered click is told so before anything is decided for it.
	Seen(ctx context.Context, interactionID string) error
	// Table returns a table, or ErrNotFound.
	Table(ctx context.Context, id int64) (*Table, error)
	// TableToChange reads what a change to table id that the interaction
	// asks for starts from (ToChange): ErrDuplicate for an interaction
	// already applied, as Seen, ErrNotFound for no table. A change reads
	// once.
	TableToChange(ctx context.Context, id int64, interactionID string) (ToChange, error)
	// TableVersion returns a table's version (Table.Version), or
	// ErrNotFound: a cheap look at whether it has moved on since a read.
	TableVersion(ctx context.Context, id int64) (int64, error)
	// OpenTables returns the tables in a lobby or playing.
	OpenTables(ctx context.Context) ([]*Table, error)
	// PlayerTables returns a player's open tables in a server.
	PlayerTables(ctx context.Context, guildID, userID string) ([]*Table, error)
	// ChannelTables returns a channel's open tables: those posted in it,
	// and the one whose thread it is.
	ChannelTables(ctx context.Context, channelID string) ([]*Table, error)
	// AwaitingAnswer returns the tables in a server that wait on a
	// person's answer (Table.AwaitsAnswer): challenges to them, and rematch
	// offers they have still to accept.
	AwaitingAnswer(ctx context.Context, guildID, userID string) ([]*Table, error)
	// ThreadTable returns the table whose thread the channel is, whether
	// its game is on, over or cancelled, or ErrNotFound.
	ThreadTable(ctx context.Context, channelID string) (*Table, error)
	// Actions returns a table's action log in order: with its cut seed
	// (or first dealer) it replays the game.
	Actions(ctx context.Context, id int64) ([]LoggedAction, error)
	// GamesInProgress counts the tables with a game being played.
	GamesInProgress(ctx context.Context) (int, error)
	// MarkAssisted records that a player used the coach, without changing
	// the version.
	MarkAssisted(ctx context.Context, id int64) error
}

// UpdateTries is how many times a change to a table or tournament that
// keeps changing meanwhile is decided and saved before it gives up with
// ErrStale: the bot's (bot/change.go) and the conformance suite's alike.
const UpdateTries = 5

// TimerService finds the tables whose timers may be due and fires them
// once, whatever races them.
type TimerService interface {
	// IdleTables returns the open tables with no move since idleSince and
	// the lobbies opened before openedBefore.
	IdleTables(ctx context.Context, idleSince, openedBefore time.Time) ([]*Table, error)
	// MarkReminded and MarkForfeitOffered move a timer from prev to at and
	// queue out, together, reporting whether this call did.
	MarkReminded(ctx context.Context, id int64, prev, at time.Time, out []Outbound) (bool, error)
	MarkForfeitOffered(ctx context.Context, id int64, prev, at time.Time, out []Outbound) (bool, error)
	// LapsedOffers returns the finished tables whose rematch offer, made
	// at or before offeredBefore, is still open.
	LapsedOffers(ctx context.Context, offeredBefore time.Time) ([]*Table, error)
}

// OutboxService keeps the announcements queued by changes until they are
// delivered, in order.
type OutboxService interface {
	// TablePending returns one table's undelivered announcements in
	// delivery order: a post carries the lines queued behind it, however
	// many other tables' lines are queued before them.
	TablePending(ctx context.Context, tableID int64) ([]OutboxItem, error)
	// MarkDelivered records announcements as delivered, in one transaction.
	MarkDelivered(ctx context.Context, ids ...int64) error
	// MarkFailed counts a failed attempt and sets when to try again.
	MarkFailed(ctx context.Context, id int64, next time.Time) error
	// Seal records that announcement id is sent with the story lines after
	// it up to through merged in; ErrStale if it was sealed or delivered
	// already.
	Seal(ctx context.Context, id, through int64) error
	// OutboxDepth counts the undelivered announcements and says when the
	// oldest was queued.
	OutboxDepth(ctx context.Context) (n int, oldest time.Time, err error)
	// ClaimOutbox returns up to limit undelivered announcements, in
	// order, of the tables whose lease owner holds or takes now (a lease
	// another owner let lapse included), each lease running for at least
	// half of lease from now: every such announcement, or (after above 0)
	// every one of the tables with one queued after id after, so what is
	// claimed of a table always starts at its first. Only the holder of a
	// table's lease sends its announcements.
	ClaimOutbox(ctx context.Context, owner string, after int64, limit int, lease time.Duration) ([]OutboxItem, error)
	// ReleaseOutbox gives up owner's leases, so another process takes the
	// tables over at once.
	ReleaseOutbox(ctx context.Context, owner string) error
}

// RecordService answers the leaderboard and stats from finished games, and
// keeps a server's seasons. A finished game's records and ratings are
// written with the move that finished it (TableService.Save).
type RecordService interface {
	// Leaderboard ranks the players of a server's season (0: the current
	// one) by rating, settled ratings before provisional ones, over the
	// players with a game between people in it finished since since (the
	// zero time for the whole season). An unknown season is ErrNoSeason.
	Leaderboard(ctx context.Context, guildID string, season int, since time.Time) ([]Standing, error)
	// PlayerStats returns one player's records in a server, and their
	// rating in the current season.
	PlayerStats(ctx context.Context, guildID, userID string) (Stats, error)
	// HeadToHead returns a's and b's record on opposite sides.
	HeadToHead(ctx context.Context, guildID, a, b string) (HeadToHead, error)
	// PlayerNumbers returns one player's numbers in a server (Numbers):
	// over their counted games finished since since (Recent) and all
	// time, their best hands, milestones and trend.
	PlayerNumbers(ctx context.Context, guildID, userID string, since time.Time) (Numbers, error)
	// UnreviewedThrows returns up to limit throws to the crib in counted
	// games not yet reviewed against the best throw, oldest game first:
	// one player's in a server, or anyone's when userID is empty.
	UnreviewedThrows(ctx context.Context, guildID, userID string, limit int) ([]Throw, error)
	// ReviewThrows records what throws gave up and counts it into their
	// games' numbers, in one transaction. A throw reviewed already keeps
	// its first review and is counted once, whoever races to review it.
	ReviewThrows(ctx context.Context, reviews []ThrowReview) error
	// Seasons lists a server's seasons, oldest first; the last is the
	// current one. There is always at least season 1.
	Seasons(ctx context.Context, guildID string) ([]Season, error)
	// StartSeason ends the current season and starts the next, named name
	// (which may be empty), as userID asked; every rating starts again.
	// A current season without a game between people is not restarted:
	// ErrSeasonUnplayed.
	StartSeason(ctx context.Context, guildID, userID, name string) (Season, error)
}

// TournamentService keeps tournaments. Their games are tables, linked to
// them (Table.Tournament) and kept by the TableService like any other.
type TournamentService interface {
	// CreateTournament saves a new tournament, recording the interaction;
	// it sets the id, version and time.
	CreateTournament(ctx context.Context, t *Tournament, interactionID string) (*Tournament, error)
	// Tournament returns a tournament, or ErrTournamentNotFound.
	Tournament(ctx context.Context, id int64) (*Tournament, error)
	// TournamentTables returns a tournament's tables, in the order they
	// were made.
	TournamentTables(ctx context.Context, id int64) ([]*Table, error)
	// CancelledTournamentTables returns the open tables of cancelled
	// tournaments: a cancel ends its tournament first and its games one
	// by one after, and a process can die in between.
	CancelledTournamentTables(ctx context.Context) ([]*Table, error)
	// SaveTournament writes ch, a change decided on from (the tournament
	// as Tournament read it, unchanged), with the tables it opens, in one
	// transaction. As Save does for a table, it fails with ErrStale if the
	// tournament has changed since from (decide again on the newer one)
	// and with ErrDuplicate for an interaction seen before; a nil change
	// saves nothing.
	SaveTournament(ctx context.Context, from *Tournament, ch *TournamentChange, interactionID string) (*Tournament, error)
	// ChannelTournaments returns a channel's tournaments, newest first.
	ChannelTournaments(ctx context.Context, channelID string) ([]*Tournament, error)
	// OpenTournaments returns the tournaments still going on.
	OpenTournaments(ctx context.Context) ([]*Tournament, error)
}

// TournamentChange is what UpdateTournament writes, in one transaction.
type TournamentChange struct {
	// Tournament is the tournament as it should be saved; its Version is
	// set by the store.
	Tournament *Tournament
	// Open are the changes that make the tables the change opens, new
	// tables as Change.Next makes one: the store gives each its id,
	// version and times. Their games are begun, not played: a game
	// between two computer entrants is played after the commit, through
	// Continue, never while this transaction holds the database's writer.
	Open []*Change
}

// MessageBook keeps, for the bot, what it knows of its messages on
// Discord: each table's TableMessage (the table message, its thread, the
// board picture it shows and the interaction token that can edit it), each
// seat's hand view, each tournament's standings message and the version
// it shows, and each channel's webhook (ChannelWebhook). None of it is
// the game's, and no rule reads it: recording it changes no table's or
// tournament's version, so no button goes stale, and no change to either
// writes it. It is declared here, once, so that the store, its double and
// the conformance suite implement the one interface without importing the
// bot.
type MessageBook interface {
	// TableToShow reads what the live surface shows of table id (ToShow),
	// at once: ErrNotFound for no table. A pass over it reads once.
	TableToShow(ctx context.Context, id int64) (ToShow, error)
	// TableMessage returns what is recorded of a table's messages (the
	// zero TableMessage but for its TableID, before any is), or
	// ErrNotFound for no such table.
	TableMessage(ctx context.Context, id int64) (TableMessage, error)
	// TableMessages returns what is recorded of the messages of the tables
	// ids, in one read, in the order of ids; an id of no table is left
	// out.
	TableMessages(ctx context.Context, ids []int64) ([]TableMessage, error)
	// SetMessages records the table message and thread.
	SetMessages(ctx context.Context, id int64, messageID, threadID string) error
	// RecordTableMessage records the table message if none is recorded
	// yet.
	RecordTableMessage(ctx context.Context, id int64, messageID string) error
	// RecordBoard records the key of the board picture now on the table
	// message.
	RecordBoard(ctx context.Context, id int64, key string) error
	// RecordShown records a digest of what the table message was last
	// made to show.
	RecordShown(ctx context.Context, id int64, sum string) error
	// RecordEditToken records an interaction token that can edit the table
	// message, unless the table already has a newer one.
	RecordEditToken(ctx context.Context, id int64, token MessageToken) error
	// RecordHandView records a seat's open hand view, unless a newer one
	// is recorded.
	RecordHandView(ctx context.Context, id int64, view HandView) error
	// HandViews returns the open hand views recorded at a table, by seat.
	HandViews(ctx context.Context, id int64) ([]HandView, error)
	// RecordHandViewShown records that a seat's hand view, the one tok
	// edits (the recorded view's token, or another token of the same
	// message), was made to show version, whose digest is sum (empty when
	// unknown). A seat whose recorded view is another is left as it is.
	RecordHandViewShown(ctx context.Context, id int64, seat int, tok MessageToken, version int64, sum string) error
	// TournamentMessage returns a tournament's standings message, or ""
	// before it is posted; ErrTournamentNotFound for no such tournament.
	TournamentMessage(ctx context.Context, id int64) (string, error)
	// TournamentsToShow returns the tournaments whose standings message
	// does not show their newest version: open ones changed since, and
	// any whose last change was not shown.
	TournamentsToShow(ctx context.Context) ([]*Tournament, error)
	// MarkTournamentShown records the standings message, if none is
	// recorded yet, and that it shows version (or newer).
	MarkTournamentShown(ctx context.Context, id int64, messageID string, version int64) error
	// ChannelWebhook returns what is recorded of a channel's webhook, a
	// made one or Discord's refusal, or ErrNotFound when nothing is.
	ChannelWebhook(ctx context.Context, channelID string) (ChannelWebhook, error)
	// RecordChannelWebhook records what is known of w.ChannelID's
	// webhook, a made one or a refusal, in place of whatever was.
	RecordChannelWebhook(ctx context.Context, w ChannelWebhook) error
	// ForgetChannelWebhook forgets a channel's webhook if it is still
	// webhookID (Discord said that one is gone: an admin deleted it), so
	// one another process made and recorded meanwhile is kept. Forgetting
	// what is not recorded is not an error.
	ForgetChannelWebhook(ctx context.Context, channelID, webhookID string) error
}

// ToChange is what a change to a table starts from, read at once: the
// table as read, which Save compares against; a copy of it that the change
// makes its own; the table's message as the MessageBook keeps it (its
// thread, where the change may be asked for too); and the settings of its
// server (all unset outside one), whose language its story speaks.
type ToChange struct {
	From     *Table
	Table    *Table
	Message  TableMessage
	Settings GuildSettings
}

// ToShow is what the live surface shows of a table, read at once: the
// table; its message as the MessageBook keeps it; the settings of its
// server (all unset outside one), whose language the message speaks; and
// the open hand views recorded at it, by seat.
type ToShow struct {
	Table    *Table
	Message  TableMessage
	Settings GuildSettings
	Views    []HandView
}

// TableMessage is what the bot knows of a table's public message on
// Discord: the message, the thread opened on it for the table's story,
// the board picture it shows and the newest interaction token that can
// edit it. Each is empty until known.
type TableMessage struct {
	TableID   int64
	MessageID string
	ThreadID  string
	// Board is the key of the board picture on the message, or empty
	// before one is there.
	Board string
	// Shown is a digest of what the message was last edited or posted to
	// show (bot/live), or empty when unknown.
	Shown string
	// EditToken is the newest interaction token whose original response
	// is the message, if any.
	EditToken MessageToken
	// TokenOnly is the table's Table.TokenOnly, read with its message:
	// where only interactions' tokens reach, nothing is posted with the
	// bot token, so its rate limits do not hold the table's story.
	TokenOnly bool
}

// ChannelWebhook is the webhook the bot made in a channel to post its
// story through. A webhook's own token is outside the bot token's global
// rate limit, so a busy server's story does not queue behind every other
// server's. There is one per channel, shared by all its tables: Discord
// caps a channel's webhooks, and one is enough. When Discord refuses to
// make one (the bot lacks Manage Webhooks there), the refusal is recorded
// too, so that every process does not ask again at each post, but only
// after a while, when an admin may have granted the permission.
type ChannelWebhook struct {
	ChannelID string
	// ID and Token are the webhook's; both empty when Discord refused to
	// make one.
	ID    string
	Token string
	// RefusedAt is when Discord last refused to make one; zero when there
	// is one.
	RefusedAt time.Time
}

// MessageToken is an interaction token whose original response is a
// message: the message the response posted, or the one whose button the
// response updated. The bot decides how long one is used (Discord lets it
// edit that message for a while after the interaction, outside the bot
// token's rate limit); the store only keeps it.
type MessageToken struct {
	MessageID string
	Token     string
	// At is when the interaction arrived; the token's life counts from it.
	At time.Time
}

// HandView is a seat's open hand view: the private message that shows a
// player their cards, through the newest interaction token that can edit
// it. Token.MessageID is the message, or empty for the interaction's own
// response (a view opened by a new private message, whose id the bot is
// not told).
type HandView struct {
	Seat  int
	Token MessageToken
	// Version is the table version the view was last made to show: by
	// the answer whose token was recorded, or since by an edit or answer
	// recorded with RecordHandViewShown.
	Version int64
	// Shown is a digest of what the view was last made to show, with
	// Version (bot/live), or empty when unknown.
	Shown string
	// Lang is the language the view speaks, its player's (a catalogue
	// name of bot/lang; "" for English), so the edits that keep it
	// current speak it too.
	Lang string
}
