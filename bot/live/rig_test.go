package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/mock"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// The live surface's tests run it against the fake Discord, on an
// in-memory store held to the real one (internal/mock), with the surface,
// the REST client's limits, the fake's limits and the store on one manual
// clock. The clock is also the surface's After: what the surface puts off
// (a token's spacing, a retry) waits until the test moves the clock past
// it, and nothing waits on the wall clock. A pass the surface starts runs
// in a goroutine; the tests wait for it with Wait and check with Pending
// that nothing but the clock's timers is left.

// toFake sends the requests discordgo's endpoints address to
// discord.com to the fake Discord, as the bot's transport does, each
// after the rig's beforeRequest.
type toFake struct {
	base *url.URL
	r    *rig
}

func (f toFake) RoundTrip(req *http.Request) (*http.Response, error) {
	if before := f.r.beforeRequest.Load(); before != nil {
		(*before)(req)
	}
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.Host = f.base.Scheme, f.base.Host, f.base.Host
	return http.DefaultTransport.RoundTrip(out)
}

const (
	guild   = "400000000000000001"
	channel = "500000000000000001"
)

// rig is a Surface with its store, the fake Discord, the shared clock and
// one table, started, whose message the surface posted.
type rig struct {
	t      *testing.T
	ctx    context.Context
	clock  *clock
	fake   *discordtest.Server
	store  *mock.Store
	client *rest.Client
	s      *Surface
	id     int64
	seeds  uint64
	// stopping is the bot stopping: the surface's Context says so.
	stopping atomic.Bool
	// afterRead, if set, runs in a pass once it has read the table and
	// its hand views, before it edits any: what happens meanwhile.
	afterRead atomic.Pointer[func()]
	// failReads is how many of the next reads of the table to show fail,
	// as a busy database's would.
	failReads atomic.Int32
	// afterSetMessages, if set, runs once a table message is recorded,
	// before the call that recorded it returns.
	afterSetMessages atomic.Pointer[func()]
	// reads counts the reads of the table to show: one a pass.
	reads atomic.Int32
	// beforeRequest, if set, sees each request to Discord before it
	// goes, in the goroutine that makes it.
	beforeRequest atomic.Pointer[func(*http.Request)]
	// versionPanics makes reading a table's version panic, as a broken
	// store might.
	versionPanics atomic.Bool
}

// hookedStore is the rig's store with its afterRead.
type hookedStore struct {
	*mock.Store
	r *rig
}

func (h hookedStore) TableToShow(ctx context.Context, id int64) (cribbage.ToShow, error) {
	for n := h.r.failReads.Load(); n > 0; n = h.r.failReads.Load() {
		if h.r.failReads.CompareAndSwap(n, n-1) {
			return cribbage.ToShow{}, errors.New("database is locked")
		}
	}
	h.r.reads.Add(1)
	read, err := h.Store.TableToShow(ctx, id)
	if f := h.r.afterRead.Swap(nil); f != nil {
		(*f)()
	}
	return read, err
}

func (h hookedStore) TableVersion(ctx context.Context, id int64) (int64, error) {
	if h.r.versionPanics.Load() {
		panic("injected into TableVersion")
	}
	return h.Store.TableVersion(ctx, id)
}

func (h hookedStore) SetMessages(ctx context.Context, id int64, messageID, threadID string) error {
	err := h.Store.SetMessages(ctx, id, messageID, threadID)
	if f := h.r.afterSetMessages.Swap(nil); f != nil {
		(*f)()
	}
	return err
}

// newRig starts a table of players and posts its table message.
func newRig(t *testing.T, players int) *rig {
	t.Helper()
	c := &clock{now: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)}
	fake := discordtest.New()
	t.Cleanup(func() {
		fake.Close()
		for _, v := range fake.Violations() {
			t.Errorf("Discord would refuse: %s", v)
		}
	})
	fake.SetRateClock(c.Now)
	fake.AddChannel(channel)
	base, err := url.Parse(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, ctx: t.Context(), clock: c, fake: fake, store: mock.NewStore()}
	r.store.Now = c.Now
	r.client = &rest.Client{HTTP: &http.Client{Transport: toFake{base, r}}, Token: "test-token", Limits: rest.NewLimits(c.Now)}
	r.s = New(Options{Store: hookedStore{r.store, r}, REST: r.client, AppID: func() string { return fake.AppID },
		Context: func() (context.Context, bool) { return r.ctx, r.ctx.Err() == nil && !r.stopping.Load() }, Now: c.Now, After: c.After})
	t.Cleanup(r.noIdleEdits)

	names := []string{"Ann", "Bob", "Cid", "Dee"}
	tb := &cribbage.Table{GuildID: guild, ChannelID: channel, HostID: userID(0),
		Options: engine.Options{Players: players, Target: 121}, Status: cribbage.StatusLobby}
	for i := range players {
		tb.Seats = append(tb.Seats, cribbage.Seat{UserID: userID(i), Name: names[i]})
	}
	tb, err = r.store.CreateTable(r.ctx, tb, "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	r.id = tb.ID
	r.update(func(tb *cribbage.Table) (*cribbage.Change, []engine.Event, error) { return cribbage.Start(tb, r.env()) })
	if err := r.s.PostTableMessage(r.ctx, r.table(), "", ""); err != nil {
		t.Fatal(err)
	}
	// The post touches the table (it may have moved on since it was
	// read): that pass ends before the test begins.
	r.settle()
	return r
}

func userID(seat int) string { return fmt.Sprint(600000000000000001 + seat) }

// env is the domain's environment on the rig's clock, with fixed seeds.
func (r *rig) env() cribbage.Env {
	return cribbage.Env{Now: r.clock.Now(), Seeds: func() engine.Seed { r.seeds++; return engine.SeedFromUint64(r.seeds) }}
}

// table is the table as stored now.
func (r *rig) table() *cribbage.Table {
	r.t.Helper()
	t, err := r.store.Table(r.ctx, r.id)
	if err != nil {
		r.t.Fatal(err)
	}
	return t
}

// update applies a change to the table, as the bot's handlers do, and
// returns the table after it and what it did in words.
func (r *rig) update(fn func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error)) (*cribbage.Table, render.Note) {
	r.t.Helper()
	var events []engine.Event
	t, err := servicetest.Update(r.ctx, r.store, r.id, "", func(t *cribbage.Table) (*cribbage.Change, error) {
		ch, ev, err := fn(t)
		if ch != nil {
			// Worded as the bot words it.
			ch.Outbox = append(ch.Outbox, render.Story(lang.English, t, ch.Events)...)
		}
		events = ev
		return ch, err
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return t, render.NoteOf(t, events)
}

// act makes seat's action (the first it may: its first cards to the crib,
// its first legal card) without showing it.
func (r *rig) act(seat int) (*cribbage.Table, render.Note) {
	r.t.Helper()
	return r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
		v := t.State.ViewFor(seat)
		a := engine.Action{Kind: engine.ActPlay, Seat: seat}
		switch v.Phase {
		case engine.PhaseDiscard:
			a = engine.Action{Kind: engine.ActDiscard, Seat: seat, Cards: v.Hand.Cards()[:t.Options.DiscardSize()]}
		case engine.PhasePlay:
			a.Card = v.Legal[0]
		default:
			r.t.Fatalf("seat %d to act in phase %s", seat, v.Phase)
		}
		return cribbage.Move(t, a, r.env())
	})
}

// move is act shown on the live surface, as the bot shows a move; it
// returns the note the hand views show.
func (r *rig) move(seat int) (*cribbage.Table, render.Note) {
	r.t.Helper()
	t, note := r.act(seat)
	r.s.Moved(t, note)
	return t, note
}

// playUntil plays the first legal moves, unshown, until stop says the
// table is where the test looks at it, and shows it.
func (r *rig) playUntil(stop func(t *cribbage.Table) bool) {
	r.t.Helper()
	for moves := 0; !stop(r.table()); moves++ {
		if moves > 100 {
			r.t.Fatal("the table never got where the test looks")
		}
		r.act(r.table().State.Waiting()[0])
	}
	r.s.Touch(r.id)
	r.settle()
}

// inPlay stops at the first hand's play before any card is laid.
func inPlay(t *cribbage.Table) bool { return t.State.Phase == engine.PhasePlay }

// settle waits for the passes under way, and the ones they start, to
// end, running what is due on the clock meanwhile (a pass put off by 0),
// and fails if any is left but the clock's timers.
func (r *rig) settle() {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.s.Wait(time.Until(deadline))
		if r.clock.Advance(0) == 0 && r.calm() {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the live surface never settled: %d pending, timers in %v", r.s.Pending(), r.clock.Waits())
		}
	}
}

// calm reports whether no pass is under way and each touch to come waits
// on a timer of the clock. A table has one touch scheduled at most, so a
// timer whose touch a sooner one replaced (or TouchDue made) is left on
// the clock with nothing to do.
func (r *rig) calm() bool {
	timers := len(r.clock.Waits())
	l := r.s.l
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active == 0 && l.later == len(l.laterAt) && l.later <= timers
}

// advance moves the clock on by d, runs what is due and settles.
func (r *rig) advance(d time.Duration) {
	r.t.Helper()
	r.clock.Advance(d)
	r.settle()
}

// message is what is recorded of the table's message now.
func (r *rig) message() cribbage.TableMessage {
	r.t.Helper()
	m, err := r.store.TableMessage(r.ctx, r.id)
	if err != nil {
		r.t.Fatal(err)
	}
	return m
}

// messageID is the table message's id, as recorded.
func (r *rig) messageID() string {
	r.t.Helper()
	id := r.message().MessageID
	if id == "" {
		r.t.Fatal("no table message recorded")
	}
	return id
}

// interaction is a click on the table message that Discord has sent to
// the bot (no bot is connected, so the test answers it).
func (r *rig) interaction(seat int, id click.ID) *discordgo.Interaction {
	r.t.Helper()
	i := r.fake.Prepare(discordtest.Click(guild, channel, discordtest.User{ID: userID(seat), Name: "p"}, r.messageID(), id.String()))
	if _, err := r.fake.Send(r.ctx, i); err == nil {
		r.t.Fatal("an interaction was delivered with no bot connected")
	}
	return i
}

// answer sends an interaction's response as the bot does.
func (r *rig) answer(i *discordgo.Interaction, resp *discordgo.InteractionResponse) {
	r.t.Helper()
	var files []*discordgo.File
	if resp.Data != nil {
		files = resp.Data.Files
	}
	if _, err := r.client.Do(r.ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointInteractionResponse(i.ID, i.Token),
		Bucket: "callback", Route: "POST /interactions/{id}/{token}/callback", Body: resp, Files: files,
		Interaction: true, TokenAt: r.clock.Now()}); err != nil {
		r.t.Fatal(err)
	}
}

// editToken is a click on the table message answered by updating it, its
// token recorded as the one that edits the message.
func (r *rig) editToken() string {
	r.t.Helper()
	i := r.interaction(0, click.ID{Action: click.Refresh, Table: r.id})
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	r.s.EditToken(r.ctx, r.id, cribbage.MessageToken{MessageID: i.Message.ID, Token: i.Token, At: r.clock.Now()})
	return i.Token
}

// openView is seat's click on Show my hand, answered with its hand view
// and recorded as the bot records it; it returns the view's token.
func (r *rig) openView(seat int) string {
	r.t.Helper()
	i := r.interaction(seat, handClick(r.id))
	r.answerView(i, seat)
	r.record(i, seat, r.clock.Now())
	r.settle()
	return i.Token
}

// clickView is seat's click on Refresh on its view, answered as one that
// updates the view (deferred: the view shows what it showed) and recorded
// as the bot records it; it returns the click's token.
func (r *rig) clickView(seat int, viewID string) string {
	r.t.Helper()
	i := r.fake.Prepare(discordtest.Click(guild, channel, discordtest.User{ID: userID(seat), Name: "p"}, viewID,
		click.ID{Action: click.Refresh, Table: r.id}.String()))
	if _, err := r.fake.Send(r.ctx, i); err == nil {
		r.t.Fatal("an interaction was delivered with no bot connected")
	}
	t := r.table()
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	r.s.Answered(r.ctx, Shown{Table: r.id, Seat: seat, Version: t.Version, View: click.SeatView(t.State, seat),
		Token: cribbage.MessageToken{MessageID: viewID, Token: i.Token, At: r.clock.Now()}})
	r.settle()
	return i.Token
}

// handClick is Show my hand's button on a table.
func handClick(table int64) click.ID { return click.ID{Action: click.Hand, Table: table} }

// answerView answers an interaction with seat's hand view, as a new
// private message.
func (r *rig) answerView(i *discordgo.Interaction, seat int) {
	r.t.Helper()
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Hand(lang.English, r.table(), seat, 0, "").Response(true)})
}

// record hands the live surface the view an interaction's answer showed
// seat, as the bot does once the answer is sent; at is when the
// interaction came.
func (r *rig) record(i *discordgo.Interaction, seat int, at time.Time) {
	r.t.Helper()
	t := r.table()
	r.s.Answered(r.ctx, Shown{Table: r.id, Seat: seat, Version: t.Version, View: click.SeatView(t.State, seat),
		Token: cribbage.MessageToken{Token: i.Token, At: at}})
}

// requests are the requests the fake had, from mark on.
func (r *rig) requests(mark int) []discordtest.Request { return r.fake.Requests()[mark:] }

// mark is where the requests from now on start.
func (r *rig) mark() int { return len(r.fake.Requests()) }

// through are the edits of a token's @original among reqs.
func through(reqs []discordtest.Request, token string) []discordtest.Request {
	var out []discordtest.Request
	for _, q := range reqs {
		if q.Method == http.MethodPatch && strings.Contains(q.Path, "/webhooks/") && strings.Contains(q.Path, "/"+token+"/") {
			out = append(out, q)
		}
	}
	return out
}

// surfaceOnly are reqs but the answers to interactions, which the tests
// send as the bot would.
func surfaceOnly(reqs []discordtest.Request) []discordtest.Request {
	var out []discordtest.Request
	for _, q := range reqs {
		if !strings.HasPrefix(q.Route, "POST /interactions/") {
			out = append(out, q)
		}
	}
	return out
}

// botEdits are the bot token's message edits among reqs.
func botEdits(reqs []discordtest.Request) []discordtest.Request {
	var out []discordtest.Request
	for _, q := range reqs {
		if q.Method == http.MethodPatch && strings.Contains(q.Path, "/channels/") {
			out = append(out, q)
		}
	}
	return out
}

// shown is what a message shows a reader: its text, embeds and buttons.
type shown struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
}

// shownBy is what an edit's body puts on the message.
func shownBy(t *testing.T, doc []byte) shown {
	t.Helper()
	var m discordgo.Message // it alone knows how to read components
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	return shown{m.Content, m.Embeds, m.Components}
}

// checkShows fails unless the edit q puts want on its message. A board
// uploaded with it is drawn for the table t.
func checkShows(t *testing.T, q discordtest.Request, tb *cribbage.Table, want render.Message) {
	t.Helper()
	if len(q.Uploads()) > 0 {
		render.UploadBoard(lang.English, &want, tb)
	}
	doc, err := json.Marshal(want.Edit("", ""))
	if err != nil {
		t.Fatal(err)
	}
	got, exp := shownBy(t, q.JSON()), shownBy(t, doc)
	switch {
	case got.Content != exp.Content:
		t.Errorf("the edit's text is\n%s\nwant\n%s", got.Content, exp.Content)
	case !reflect.DeepEqual(got.Embeds, exp.Embeds):
		t.Errorf("the edit's embeds differ from the render's")
	case !reflect.DeepEqual(got.Components, exp.Components):
		a, _ := json.Marshal(got.Components)
		b, _ := json.Marshal(exp.Components)
		t.Errorf("the edit's buttons differ from the render's:\n%s\nwant\n%s", a, b)
	}
}

// noIdleEdits fails if any message was edited to what it showed already:
// a request spent on nothing.
func (r *rig) noIdleEdits() {
	for _, m := range append(r.fake.ChannelMessages(channel), r.ephemeral()...) {
		h := r.fake.History(m.ID)
		for i := 1; i < len(h); i++ {
			a, b := h[i-1], h[i]
			if a.Content == b.Content && reflect.DeepEqual(a.Embeds, b.Embeds) && reflect.DeepEqual(a.Components, b.Components) &&
				reflect.DeepEqual(attachmentIDs(a), attachmentIDs(b)) {
				r.t.Errorf("message %s edited to what it showed already (version %d of %d):\n%s", m.ID, i, len(h)-1, b.Content)
			}
		}
	}
}

// ephemeral are the hand views the fake holds: each interaction's
// @original that is private.
func (r *rig) ephemeral() []discordtest.Message {
	var out []discordtest.Message
	for _, i := range r.fake.Interactions() {
		if m, _, ok := r.fake.Original(i.Token); ok && m.Ephemeral {
			out = append(out, m)
		}
	}
	return out
}

func attachmentIDs(m discordtest.Message) []string {
	var ids []string
	for _, a := range m.Attachments {
		ids = append(ids, a.ID)
	}
	return ids
}

// checkRetryShowed fails unless the requests since mark hold one edit
// through tok, showing the table as it stands (what a retry after a pass
// that showed nothing must do), and on any 429 (checkCalm). when says
// what came before the edit.
func (r *rig) checkRetryShowed(mark int, tok, when string) {
	r.t.Helper()
	edits := through(r.requests(mark), tok)
	if len(edits) != 1 {
		r.t.Fatalf("%d edits %s, want 1", len(edits), when)
	}
	tb := r.table()
	checkShows(r.t, edits[0], tb, render.Table(lang.English, tb, r.message().Board))
	r.checkCalm()
}

// checkCalm fails on any 429 the fake answered.
func (r *rig) checkCalm() {
	r.t.Helper()
	for scope, n := range r.fake.RateLimited() {
		if n > 0 {
			r.t.Errorf("Discord answered %d requests 429 (%s)", n, scope)
		}
	}
}
