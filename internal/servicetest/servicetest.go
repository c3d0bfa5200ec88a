// Package servicetest is one conformance suite for the implementations of
// the domain's services: the SQL store, on SQLite and on PostgreSQL, and
// the in-memory double the bot's handler tests run on (internal/mock).
// Each runs it from a test of its own, so what a handler test learns from
// the double holds of the store. It is for tests only.
//
// The records (cribbage.RecordService) are in it too: each implementation
// keeps them from the games finished through it, by the domain's policy,
// and the suite reads them back against figures worked out by hand.
package servicetest

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// Services is what the suite holds an implementation to: every service
// the bot uses.
type Services interface {
	cribbage.TableService
	cribbage.RecordService
	cribbage.TimerService
	cribbage.OutboxService
	cribbage.GuildService
	cribbage.TournamentService
	cribbage.MessageBook
	cribbage.DailyService
}

// Open returns a new, empty implementation that reads the time from now;
// the implementation is closed when the test ends.
type Open func(t *testing.T, now func() time.Time) Services

// Run runs the suite on the implementations open makes, each test on one
// of its own.
func Run(t *testing.T, open Open) {
	tests := []struct {
		name string
		run  func(t *testing.T, h *harness)
	}{
		{"CreateTable", testCreateTable},
		{"NotFound", testNotFound},
		{"UpdateSavesAChange", testUpdateSavesAChange},
		{"SaveComparesAndSwaps", testSaveComparesAndSwaps},
		{"TableToChangeReadsWhatAChangeNeeds", testTableToChangeReadsWhatAChangeNeeds},
		{"TableToShowReadsWhatAPassShows", testTableToShowReadsWhatAPassShows},
		{"TableVersion", testTableVersion},
		{"UpdateRefusesADuplicate", testUpdateRefusesADuplicate},
		{"UpdateErrorSavesNothing", testUpdateErrorSavesNothing},
		{"UpdateNilChangeSavesNothing", testUpdateNilChangeSavesNothing},
		{"UpdateNeverSavesOverANewerVersion", testUpdateNeverSavesOverANewerVersion},
		{"UpdateConcurrentClicksApplyOnce", testUpdateConcurrentClicksApplyOnce},
		{"UpdateKeepsWhatIsRecordedMeanwhile", testUpdateKeepsWhatIsRecordedMeanwhile},
		{"NextTable", testNextTable},
		{"NextTableRacesMakeOne", testNextTableRacesMakeOne},
		{"FindTables", testFindTables},
		{"ThreadTable", testThreadTable},
		{"AwaitingAnswer", testAwaitingAnswer},
		{"HoldsUnderARace", testHoldsUnderARace},
		{"HoldsOnlyWhatTheyName", testHoldsOnlyWhatTheyName},
		{"Actions", testActions},
		{"RecordingChangesNoVersion", testRecordingChangesNoVersion},
		{"TableMessage", testTableMessage},
		{"TableMessageRecordedOnce", testTableMessageRecordedOnce},
		{"NewerTokensWin", testNewerTokensWin},
		{"HandViews", testHandViews},
		{"HandViewShown", testHandViewShown},
		{"ChannelWebhooks", testChannelWebhooks},
		{"TimesToTheMillisecond", testTimesToTheMillisecond},
		{"IdleTables", testIdleTables},
		{"TimersFireOnce", testTimersFireOnce},
		{"LapsedOffers", testLapsedOffers},
		{"OutboxOrder", testOutboxOrder},
		{"OutboxDelivery", testOutboxDelivery},
		{"Seal", testSeal},
		{"OutboxLeases", testOutboxLeases},
		{"CancelledTablesAreOver", testCancelledTablesAreOver},
		{"GuildSettings", testGuildSettings},
		{"GuildSettingsChangesAtOnceAreKept", testGuildSettingsChangesAtOnceAreKept},
		{"ServerLocale", testServerLocale},
		{"Tournaments", testTournaments},
		{"TournamentRacesOpenOnce", testTournamentRacesOpenOnce},
		{"SaveTournamentComparesAndSwaps", testSaveTournamentComparesAndSwaps},
		{"TournamentShown", testTournamentShown},
		{"CancelledTournamentTables", testCancelledTournamentTables},
		{"RecordsFromFinishedGames", testRecordsFromFinishedGames},
		{"SeasonsStartAfresh", testSeasonsStartAfresh},
		{"ResignationsAndRatings", testResignationsAndRatings},
		{"MatchesInStats", testMatchesInStats},
		{"NumbersOfKnownGames", testNumbersOfKnownGames},
		{"MilestoneAnnouncedOnce", testMilestoneAnnouncedOnce},
		{"ChampionAnnouncedOnce", testChampionAnnouncedOnce},
		{"DailyStreakMilestones", testDailyStreakMilestones},
		{"DailyAnswersOnce", testDailyAnswersOnce},
		{"DailyAnswersByPlace", testDailyAnswersByPlace},
		{"DailySettings", testDailySettings},
		{"DailyPostOnce", testDailyPostOnce},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{t: start}
			tt.run(t, &harness{s: open(t, c.now), clock: c})
		})
	}
}

// start is when every test's clock starts: a whole millisecond, as the
// store keeps times to the millisecond (see testTimesToTheMillisecond).
var start = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// clock is a test's clock, moved only by the test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// harness is one test's implementation and clock.
type harness struct {
	s Services
	*clock
}

var ctx = context.Background()

// lobby returns an unsaved table in guild g, channel c1, with the users
// seated and the first of them hosting.
func lobby(guild string, users ...string) *cribbage.Table {
	t := &cribbage.Table{GuildID: guild, ChannelID: "c1", HostID: users[0], Options: engine.Options{Players: len(users), Target: 121}, Status: cribbage.StatusLobby}
	for _, u := range users {
		t.Seats = append(t.Seats, cribbage.Seat{UserID: u, Name: "name-" + u})
	}
	return t
}

// create saves a table.
func (h *harness) create(t *testing.T, tb *cribbage.Table, interactionID string, out ...cribbage.Outbound) *cribbage.Table {
	t.Helper()
	made, err := h.s.CreateTable(ctx, tb, interactionID, out, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	return made
}

// startGame saves a lobby and starts its game.
func (h *harness) startGame(t *testing.T, tb *cribbage.Table) *cribbage.Table {
	t.Helper()
	tb = h.create(t, tb, "")
	seed := engine.SeedFromUint64(uint64(tb.ID))
	tb, err := Update(ctx, h.s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := engine.New(cur.Options, seed)
		if err != nil {
			return nil, err
		}
		cur.State, cur.CutSeed, cur.Status = g, &seed, cribbage.StatusPlaying
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// nextAction is a scripted player: the first legal move for whoever the
// game waits on.
func nextAction(g *engine.State) engine.Action {
	switch g.Phase {
	case engine.PhaseDeal:
		seed := engine.SeedFromUint64(uint64(len(g.Plays) + 1))
		return engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}
	case engine.PhaseDiscard:
		seat := g.Waiting()[0]
		return engine.Action{Kind: engine.ActDiscard, Seat: seat, Cards: g.Hands[seat].Cards()[:g.Options.DiscardSize()]}
	case engine.PhasePlay:
		return engine.Action{Kind: engine.ActPlay, Seat: g.Turn, Card: g.LegalPlays(g.Turn)[0]}
	}
	return engine.Action{Kind: engine.ActResign, Seat: g.Turn}
}

// move makes the scripted next move on cur, logged with one announcement
// of it.
func move(cur *cribbage.Table) (*cribbage.Change, error) {
	a := nextAction(cur.State)
	g, _, err := cur.State.Apply(a)
	if err != nil {
		return nil, err
	}
	cur.State = g
	if g.Phase == engine.PhaseOver {
		cur.Status = cribbage.StatusFinished
	}
	return &cribbage.Change{Table: cur, Actions: []cribbage.LoggedAction{{UserID: "u", Action: a}},
		Outbox: []cribbage.Outbound{{ChannelID: cur.ChannelID, Kind: "post", Payload: a.Kind.String()}}}, nil
}

// step makes the scripted next move in one Update.
func (h *harness) step(id int64, interactionID string) (*cribbage.Table, error) {
	return Update(ctx, h.s, id, interactionID, move)
}

// finish ends a table's game with seat 0 resigning.
func (h *harness) finish(t *testing.T, id int64) *cribbage.Table {
	t.Helper()
	tb, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 0})
		cur.State, cur.Status = g, cribbage.StatusFinished
		return &cribbage.Change{Table: cur}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// table reads a table.
func (h *harness) table(t *testing.T, id int64) *cribbage.Table {
	t.Helper()
	tb, err := h.s.Table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// message reads what is recorded of a table's message.
func (h *harness) message(t *testing.T, id int64) cribbage.TableMessage {
	t.Helper()
	m, err := h.s.TableMessage(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// pending reads a table's undelivered announcements.
func (h *harness) pending(t *testing.T, id int64) []cribbage.OutboxItem {
	t.Helper()
	items, err := h.s.TablePending(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// claim claims the outbox for owner with a 30-second lease.
func (h *harness) claim(t *testing.T, owner string) []cribbage.OutboxItem {
	t.Helper()
	items, err := h.s.ClaimOutbox(ctx, owner, 0, 100, lease)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// lease is the suite's outbox lease.
const lease = 30 * time.Second

// sameTable reports the fields in which two tables differ, compared as
// data: times by instant, the game by its JSON.
func sameTable(t *testing.T, what string, got, want *cribbage.Table) {
	t.Helper()
	g, w := tableFields(got), tableFields(want)
	for _, k := range slices.Sorted(maps.Keys(w)) {
		if g[k] != w[k] {
			t.Errorf("%s: %s is %s, want %s", what, k, g[k], w[k])
		}
	}
}

// tableFields writes each field of a table as JSON, its times in UTC.
func tableFields(tb *cribbage.Table) map[string]string {
	c := *tb
	for _, at := range []*time.Time{&c.RemindedAt, &c.ForfeitOfferedAt, &c.WaitingSince, &c.CreatedAt, &c.StartedAt, &c.LastActionAt, &c.FinishedAt} {
		*at = at.UTC()
	}
	b, err := json.Marshal(c)
	if err != nil {
		return map[string]string{"the table": err.Error()}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return map[string]string{"the table": err.Error()}
	}
	out := map[string]string{}
	for k, v := range fields {
		out[k] = string(v)
	}
	return out
}

// ids lists the tables' ids.
func ids(tables []*cribbage.Table) []int64 {
	out := []int64{}
	for _, tb := range tables {
		out = append(out, tb.ID)
	}
	return out
}

// itemIDs lists the announcements' ids.
func itemIDs(items []cribbage.OutboxItem) []int64 {
	out := []int64{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

// payloads lists the announcements' payloads.
func payloads(items []cribbage.OutboxItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Payload)
	}
	return out
}

// sameIDs reports a difference between two lists of ids.
func sameIDs(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}
