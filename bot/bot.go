// Package bot is the Discord adapter: it turns interactions into engine
// actions and engine events into messages. It holds no game rules.
package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/answer"
	"github.com/cribbage-bot/cribbage/bot/club"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/daily"
	"github.com/cribbage-bot/cribbage/bot/gateway"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/live"
	"github.com/cribbage-bot/cribbage/bot/metrics"
	"github.com/cribbage-bot/cribbage/bot/place"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/bot/sender"
	"github.com/cribbage-bot/cribbage/bot/story"
	"github.com/cribbage-bot/cribbage/bot/timers"
	"github.com/cribbage-bot/cribbage/bot/tournament"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
	"github.com/cribbage-bot/cribbage/internal/picture"
	"github.com/prometheus/client_golang/prometheus"
)

// Options are what the bot needs from its caller; cmd builds them from the
// environment.
type Options struct {
	// Token is the bot token. It is handed to discordgo and never logged.
	Token string
	// GuildID, when set, registers the commands to this server only.
	GuildID string
	// APIURL, when set, replaces https://discord.com for REST calls; the
	// gateway is whatever that API's /gateway returns.
	APIURL *url.URL
	// Store keeps the tables.
	Store Store
	// Logger receives the bot's logs.
	Logger *slog.Logger
	// Now is the clock (time.Now if nil); tests move it.
	Now func() time.Time
	// ReminderAfter is how long a player may keep a table waiting before
	// being reminded (and again each period); 0 turns reminders off.
	ReminderAfter time.Duration
	// ForfeitAfter is how long without a move before the opponents may
	// claim the win; 0 turns forfeits off.
	ForfeitAfter time.Duration
	// NudgeAfter is how long a table waits on a person before they are
	// pinged, once for that wait; 0 turns it off.
	NudgeAfter time.Duration
	// OutboxOwner names this process in the outbox's leases. A process
	// that is the only one on its database gives a fixed name, so that
	// after a restart it takes its tables back at once; "" draws a fresh
	// name, for replicas, whose leases lapse after sender.Lease.
	OutboxOwner string
	// TimerInterval is how often the timers are checked (a minute if 0).
	TimerInterval time.Duration
	// TimersChecked, if set, is called after each check of the timers with
	// the time it checked at: tests wait on it instead of sleeping.
	TimersChecked func(at time.Time)
	// Seeds draws the seeds of cuts and deals (cribbage.RandomSeed if nil);
	// tests fix the deals with it.
	Seeds cribbage.Seeds
	// Computers decides for the computer players (engine/ai's if nil);
	// tests hold a decision back with it.
	Computers cribbage.Computers
	// HTTPOnly takes interactions from the interactions endpoint
	// (InteractionsHandler) alone: no gateway connection is opened.
	HTTPOnly bool
	// ShardID and ShardCount make this process one shard of the gateway;
	// a ShardCount of 0 runs every shard Discord recommends, here.
	ShardID, ShardCount int
	// Metrics, when set, receives the bot's Prometheus metrics.
	Metrics prometheus.Registerer
}

// restTimeout bounds one REST request: far past Discord's usual answer,
// short enough that a hung connection does not hold an announcement long.
const restTimeout = 20 * time.Second

// workersPerCPU is how many interactions do their work at once per CPU
// (see routeQueued): enough to overlap each one's waits on the disk.
const workersPerCPU = 2

// Bot is one connection to Discord serving cribbage tables.
type Bot struct {
	opts    Options
	log     *slog.Logger
	session *discordgo.Session
	store   Store
	now     func() time.Time
	seeds   cribbage.Seeds
	locks   keyLocks[int64] // a table's updates, one at a time
	// followups counts the followups sent through each interaction's
	// token, the story's and the hand views' at tables only tokens reach
	// (five an interaction, when only a user installed the app).
	followups *story.Followups
	// rest makes the sender's and the live surface's requests, within
	// the rate limits it learns; outbox delivers the announcements.
	rest   *rest.Client
	outbox *sender.Sender

	// mu guards closing; inflight counts handlers running.
	mu       sync.Mutex
	closing  bool
	inflight sync.WaitGroup

	// appID is the application's id, from READY (or asked over REST);
	// mu guards it, as interactions may arrive while Run sets it.
	appID string
	// runCtx is the running bot's context, set once Run has connected;
	// stop is the context Run was given, whose end begins the shutdown.
	runCtx  context.Context
	stop    context.Context
	metrics *metrics.Metrics
	// later counts the work inBackground runs, for a shutdown and the
	// cribbage_live_pending metric.
	later atomic.Int64
	// workers admits interactions to routeQueued.
	workers chan struct{}
	// live brings table messages and hand views up to date; tokens hands
	// it the tokens each answer can edit with.
	live   *live.Surface
	tokens answer.Tokens
	// send answers an interaction (answer.New): made once, for every
	// interaction, however it arrived.
	send answer.Send
	// gate is open while the bot serves: readiness, and interactions
	// over HTTP.
	gate intake.Gate
	// ours is what resume leaves alone.
	ours madeHere
	// gatewayCtx is the context interactions from the gateway are
	// handled in: the run's, set before the gateway connects.
	gatewayCtx context.Context
	// club answers the commands that change no table.
	club *club.Answers
	// place finds the tables an interaction may mean.
	place place.Finder
	// tournaments runs the tournaments.
	tournaments *tournament.Director
	// daily answers the daily hand's commands, and posts it.
	daily *daily.Answers
	// timers fires the timers of games played over days.
	timers *timers.Timers
	// advancing is set while a timer pass's advance of the tournaments
	// runs in the background (afterTimers), so one runs at a time.
	advancing atomic.Bool
}

// New prepares a bot; it does not connect until Run.
func New(opts Options) (*Bot, error) {
	if opts.Token == "" {
		return nil, errors.New("bot: no token")
	}
	if opts.Store == nil {
		return nil, errors.New("bot: no store")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// Errors of requests made with an interaction's token quote its URL.
	opts.Logger = slog.New(rest.RedactTokens(opts.Logger.Handler()))
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Seeds == nil {
		opts.Seeds = cribbage.RandomSeed
	}
	if opts.Computers == nil {
		opts.Computers = ai.Players{}
	}
	if opts.TimerInterval <= 0 {
		// Often enough that a ping comes soon after its pause.
		opts.TimerInterval = time.Minute
		if n := opts.NudgeAfter / 4; n > 0 && n < opts.TimerInterval {
			opts.TimerInterval = n
		}
	}
	s, err := discordgo.New("Bot " + opts.Token)
	if err != nil {
		return nil, fmt.Errorf("bot: %w", err)
	}
	// The bot needs only interactions and guild metadata: no privileged
	// intents, no message content.
	s.Identify.Intents = discordgo.IntentsGuilds
	s.Client = &http.Client{Timeout: restTimeout, Transport: rest.NewTransport()}
	if opts.APIURL != nil {
		s.Client.Transport = rest.NewRewriteTransport(opts.APIURL, s.Client.Transport)
	}
	// discordgo logs through the standard logger at its own levels; keep
	// only its errors, which never contain the token.
	s.LogLevel = discordgo.LogError
	// The bot keeps no guild cache: it needs only the application id from
	// READY, and the cache's work sits on the one goroutine that reads the
	// gateway, in front of every interaction.
	s.StateEnabled = false
	b := &Bot{
		opts:    opts,
		log:     opts.Logger,
		session: s,
		store:   opts.Store,
		now:     opts.Now,
		seeds:   opts.Seeds,
		workers: make(chan struct{}, workersPerCPU*runtime.GOMAXPROCS(0)),
	}
	b.place = place.Finder{Store: opts.Store}
	b.club = &club.Answers{Store: opts.Store, Place: b.place, Now: opts.Now, ReminderAfter: opts.ReminderAfter, ForfeitAfter: opts.ForfeitAfter, Log: opts.Logger}
	b.metrics = metrics.New(opts.Metrics, b.store, b.now, func() float64 { return float64(int64(b.live.Pending()) + b.later.Load()) })
	owner := opts.OutboxOwner
	if owner == "" {
		var id [8]byte
		rand.Read(id[:])
		owner = hex.EncodeToString(id[:])
	}
	// The rate limits run on the bot's clock, as Discord's do on real time
	// (tests run both on one fake clock).
	// It shares discordgo's transport (and connections), and bounds each
	// request as the context's deadline, not as an http.Client's Timeout
	// (see rest.Client's Timeout).
	b.rest = &rest.Client{HTTP: &http.Client{Transport: s.Client.Transport}, Timeout: restTimeout, Token: opts.Token, Limits: rest.NewLimits(opts.Now)}
	b.live = live.New(live.Options{Store: opts.Store, REST: b.rest, Now: opts.Now, Log: opts.Logger,
		AppID: b.applicationID, Context: b.liveContext, Speak: b.speakOrEnglish})
	b.tokens = answer.Tokens{Store: opts.Store, Live: b.live, Log: opts.Logger}
	b.send = answer.New(b.rest, opts.Now, opts.Logger)
	b.followups = &story.Followups{}
	delivery := story.New(story.Options{Store: opts.Store, REST: b.rest, Live: b.live, AppID: b.applicationID, Now: opts.Now, Followups: b.followups,
		Speak: b.speakOrEnglish})
	b.daily = &daily.Answers{Store: opts.Store, REST: b.rest, Now: opts.Now, Speak: b.speakServer, Log: opts.Logger}
	b.outbox = sender.New(sender.Options{Store: opts.Store, Owner: owner, Now: opts.Now, Deliver: b.daily.Deliver(delivery.Deliver), Log: opts.Logger,
		Aside: story.Aside, Handle: delivery.Handle, RateLimited: b.metrics.RateLimited})
	b.tournaments = &tournament.Director{Store: opts.Store, Tables: ownTables{b}, REST: b.rest, Log: opts.Logger,
		Wake: b.outbox.Wake, InBackground: b.inBackground, Speak: b.speakServer}
	b.timers = &timers.Timers{Store: opts.Store, Tables: ownTables{b}, Now: opts.Now, Log: opts.Logger, Interval: opts.TimerInterval,
		NudgeAfter: opts.NudgeAfter, ReminderAfter: opts.ReminderAfter, ForfeitAfter: opts.ForfeitAfter, After: b.afterTimers}
	return b, nil
}

// Run connects to Discord, registers the commands, resumes what the last
// run left pending and serves until ctx is cancelled. Then it stops taking
// interactions, lets those in flight finish, delivers what it can of the
// outbox, and disconnects.
func (b *Bot) Run(ctx context.Context) error {
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// disconnect ends the connection to Discord: the gateway's, or, with
	// interactions over HTTP, the REST session's.
	disconnect := b.session.Close
	var appID string
	if b.opts.HTTPOnly {
		// Interactions come over HTTP; the application's id, which READY
		// would bring, is asked for instead.
		app, err := b.session.Application("@me")
		if err != nil {
			return fmt.Errorf("bot: ask Discord for the application: %w", err)
		}
		appID = app.ID
	} else {
		// Handlers work within the run: a shutdown cancels what they send.
		b.mu.Lock()
		b.gatewayCtx = runCtx
		b.mu.Unlock()
		conn, id, err := gateway.Open(ctx, b.session, b.opts.ShardID, b.opts.ShardCount, b.log, b.onInteraction)
		if err != nil || conn == nil {
			return err
		}
		disconnect, appID = conn.Close, id
	}
	b.mu.Lock()
	b.runCtx, b.stop, b.appID = runCtx, ctx, appID
	b.mu.Unlock()
	b.gate.Open(runCtx, ctx)
	if err := b.registerCommands(); err != nil {
		disconnect()
		return err
	}
	b.log.Info("connected to Discord", "guild", b.opts.GuildID, "gateway", !b.opts.HTTPOnly)
	senderDone := make(chan struct{})
	go func() {
		defer close(senderDone)
		b.outbox.Run(runCtx)
	}()
	timersDone := make(chan struct{})
	go func() {
		defer close(timersDone)
		b.timers.Run(runCtx)
	}()
	reviewsDone := make(chan struct{})
	go func() {
		defer close(reviewsDone)
		b.club.Review(runCtx)
	}()
	// The first hand's record need not wait for its picture's palette.
	go picture.PrepareCards()
	b.resume(runCtx)
	<-ctx.Done()

	b.log.Info("shutting down: finishing interactions in flight")
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	b.gate.Close()
	if !b.drained(drainTimeout) {
		// What still runs waits on Discord: for a rate-limit bucket that
		// every interaction shares, say, or a hung connection. Cancelled,
		// each gives up at once, and the shutdown stays bounded.
		b.log.Warn("shutting down: interactions still running; cancelling them", "after", drainTimeout)
		cancel()
		b.drained(time.Second)
	}
	// The moves the last interactions made are shown before the end:
	// another process would not show them until the table's next click.
	b.live.Wait(flushTimeout)
	flushCtx, flushCancel := context.WithTimeout(context.Background(), flushTimeout)
	b.outbox.Drain(flushCtx)
	// Another process takes over whatever is left at once.
	if err := b.outbox.Release(flushCtx); err != nil {
		b.log.Warn("outbox: could not release the leases", "err", err)
	}
	flushCancel()
	cancel()
	<-senderDone
	<-timersDone
	<-reviewsDone
	return disconnect()
}

// The shutdown's bounds: how long interactions in flight may take to
// finish, then how long the last announcements may take to go out. With
// the HTTP server's own, they stay within the 10 s a container is given
// to stop; what is left is delivered by another replica or the next run.
const (
	drainTimeout = 3 * time.Second
	flushTimeout = 3 * time.Second
)

// drained waits up to d for the handlers in flight, and reports whether
// they all finished.
func (b *Bot) drained(d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		b.inflight.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// liveContext returns the run's context while the bot has one: the live surface
// keeps showing changes until the run ends, through a shutdown's drain.
func (b *Bot) liveContext() (context.Context, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runCtx, b.runCtx != nil && b.runCtx.Err() == nil
}

// registerCommands overwrites the application's commands in one call: to
// the configured server when set (they appear at once), else globally.
// The call replaces whatever an older version registered.
func (b *Bot) registerCommands() error {
	endpoint := discordgo.EndpointApplicationGlobalCommands(b.appID)
	if b.opts.GuildID != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(b.appID, b.opts.GuildID)
	}
	var body []commandBody
	for _, c := range command.Localized() {
		body = append(body, commandBody{ApplicationCommand: c, DefaultMemberPermissions: c.DefaultMemberPermissions})
	}
	if _, err := b.session.RequestWithBucketID(http.MethodPut, endpoint, body, endpoint); err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	return nil
}

// commandBody is a command as the bulk overwrite sends it. discordgo
// writes default_member_permissions as a string; Discord's published
// schema for the request has an integer, which this field (shallower
// than discordgo's, so it is the one encoded) writes.
type commandBody struct {
	*discordgo.ApplicationCommand
	DefaultMemberPermissions *int64 `json:"default_member_permissions,omitempty"`
}

// resume finishes what a previous run left: tables waiting for a deal the
// bot makes itself, and table messages and hand views a crash may have
// left behind the game. Undelivered announcements go out through the
// outbox.
func (b *Bot) resume(ctx context.Context) {
	tables, err := b.store.OpenTables(ctx)
	if err != nil {
		b.log.Error("could not list open tables", "err", err)
		return
	}
	for _, t := range tables {
		if b.ours.made(t.ID) {
			// Made or changed by this run, which showed it:
			// interactions are answered from the moment the gateway
			// connects, before this. Shown again, a new table's
			// message would lose what its answer said above it.
			continue
		}
		// The last run may have stopped between a move and its edits:
		// every open table's message and hand views are shown afresh.
		b.live.Touch(t.ID)
		if t.Status != cribbage.StatusPlaying || t.State == nil {
			continue
		}
		if _, err := b.advanceTable(ctx, t.ID); err != nil {
			b.log.Warn("could not resume table", "table", t.ID, "err", err)
		}
	}
	// A tournament whose last game ended just before the stop has its
	// next round paired now, and its message shown.
	b.tournaments.AdvanceAll(ctx)
	b.outbox.Wake()
	b.ours.forget()
}

// advanceTable makes whatever moves the table makes by itself now, if any
// (cribbage.Continue), and shows them.
func (b *Bot) advanceTable(ctx context.Context, id int64) (*cribbage.Table, error) {
	done, err := b.change(ctx, id, changeOf{decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		return cribbage.Continue(t, b.env())
	}})
	return done.table, err
}

// playLater lets table id, just opened by another table's change (a
// rematch, a match's next game), make its own moves in the background:
// its computer players' first decisions, made after the change that
// opened it was saved. If this process stops first, nothing waits on
// them alone: the game opens waiting on a person too (every seat throws
// to the crib, or a person deals), whose move lets the computers move
// after it (cribbage.Move); the next start's resume makes them as well.
func (b *Bot) playLater(id int64) {
	b.inBackground(func(ctx context.Context) {
		if _, err := b.advanceTable(ctx, id); err != nil && ctx.Err() == nil {
			b.log.Warn("could not play a table opened", "table", id, "err", err)
		}
	})
}

// inBackground runs fn on its own goroutine within the run, counted with
// the live surface's work to come (cribbage_live_pending), so that a
// shutdown and the tests see it; it does nothing once the run is over
// (the next start's resume picks up what it would have done).
func (b *Bot) inBackground(fn func(ctx context.Context)) {
	ctx, ok := b.liveContext()
	if !ok {
		return
	}
	b.later.Add(1)
	go func() {
		defer b.later.Add(-1)
		fn(ctx)
	}()
}

// applicationID is the application's id, once Run has it.
func (b *Bot) applicationID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.appID
}

// afterTimers is the rest of a pass of the timers at now: the daily post,
// the live surface's due work, the outbox, and the tournaments, advanced
// (a game's end no process saw through) in the background unless the
// last pass's advance still runs. Advancing may play games between
// computer entrants: seconds of work on a busy machine, which held up the
// next passes' reminders and forfeits when the pass did it itself.
func (b *Bot) afterTimers(ctx context.Context, now time.Time) {
	b.daily.Post(ctx, now)
	b.live.TouchDue()
	b.outbox.Wake()
	if _, ok := b.liveContext(); ok && b.advancing.CompareAndSwap(false, true) {
		b.inBackground(func(ctx context.Context) {
			defer b.advancing.Store(false)
			b.tournaments.AdvanceAll(ctx)
			b.outbox.Wake()
		})
	}
	if b.opts.TimersChecked != nil {
		b.opts.TimersChecked(now)
	}
}
