package servicetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// today is the suite's day: the one its clock starts in.
var today = cribbage.DayOf(start)

// answer returns an answer to today's hand, given now.
func (h *harness) answer(user, guild string, gaveUp float64) cribbage.DailyAnswer {
	return cribbage.DailyAnswer{Day: today, UserID: user, Name: "name-" + user, GuildID: guild,
		Throw: engine.SetOf(engine.MustParseCards("5H JD")...), GaveUp: gaveUp, At: h.now()}
}

// testDailyAnswersOnce: an answer comes back as given, to the
// millisecond and the last bit of its points; a second answer to the
// day is refused wherever it comes from; of answers at the same instant
// one is written.
func testDailyAnswersOnce(t *testing.T, h *harness) {
	if _, err := h.s.DailyAnswerOf(ctx, "alice", today); !errors.Is(err, cribbage.ErrNoDailyAnswer) {
		t.Fatalf("an answer before any: %v", err)
	}
	a := h.answer("alice", "g1", 0.1+0.2)
	if err := h.s.AnswerDaily(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := h.s.DailyAnswerOf(ctx, "alice", today)
	if err != nil || !reflect.DeepEqual(got, a) {
		t.Errorf("round trip\n got %+v (%v)\nwant %+v", got, err, a)
	}
	for _, again := range []cribbage.DailyAnswer{h.answer("alice", "g1", 0), h.answer("alice", "g2", 0), h.answer("alice", "", 0)} {
		if err := h.s.AnswerDaily(ctx, again); !errors.Is(err, cribbage.ErrAnsweredDaily) {
			t.Errorf("a second answer from %q: %v", again.GuildID, err)
		}
	}
	if got, _ := h.s.DailyAnswerOf(ctx, "alice", today); got.GaveUp != a.GaveUp {
		t.Errorf("the second answer replaced the first: %+v", got)
	}
	tomorrow := h.answer("alice", "g1", 1)
	tomorrow.Day++
	if err := h.s.AnswerDaily(ctx, tomorrow); err != nil {
		t.Errorf("the next day's answer: %v", err)
	}
	const n = 12
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- h.s.AnswerDaily(ctx, h.answer("bob", []string{"g1", "g2", ""}[i%3], float64(i)))
		}()
	}
	wg.Wait()
	close(errs)
	written := 0
	for err := range errs {
		switch {
		case err == nil:
			written++
		case !errors.Is(err, cribbage.ErrAnsweredDaily):
			t.Error(err)
		}
	}
	if written != 1 {
		t.Errorf("%d answers written at once, want 1", written)
	}
}

// testDailyAnswersByPlace: a server's answers to a day are its own, in
// the order given; a player's history is theirs wherever given; a
// server's totals add up its answers over the days asked, fewest points
// first, under each player's latest name.
func testDailyAnswersByPlace(t *testing.T, h *harness) {
	answer := func(user, guild string, day cribbage.Day, gaveUp float64, name string) cribbage.DailyAnswer {
		t.Helper()
		a := h.answer(user, guild, gaveUp)
		a.Day, a.Name = day, name
		if err := h.s.AnswerDaily(ctx, a); err != nil {
			t.Fatal(err)
		}
		h.advance(time.Minute)
		return a
	}
	b0 := answer("bob", "g1", today, 0.5, "Bob")
	a0 := answer("alice", "g1", today, 1.25, "Al")
	answer("carol", "g2", today, 0, "Carol")
	answer("dan", "", today, 0, "Dan")
	a1 := answer("alice", "g1", today+1, 0, "Alice")
	answer("bob", "g1", today+1, 2, "Bob")
	a2 := answer("alice", "", today+2, 3, "Alice")
	answer("bob", "g1", today+5, 9, "Bob") // outside the days asked below

	got, err := h.s.DailyAnswers(ctx, "g1", today)
	if err != nil || !reflect.DeepEqual(got, []cribbage.DailyAnswer{b0, a0}) {
		t.Errorf("g1's answers today: %+v, %v", got, err)
	}
	if got, err := h.s.DailyAnswers(ctx, "g9", today); err != nil || len(got) != 0 {
		t.Errorf("a server nobody answered in: %+v, %v", got, err)
	}
	hist, err := h.s.DailyHistory(ctx, "alice", today, today+5)
	if err != nil || !reflect.DeepEqual(hist, []cribbage.DailyAnswer{a0, a1, a2}) {
		t.Errorf("alice's history: %+v, %v", hist, err)
	}
	if hist, _ := h.s.DailyHistory(ctx, "alice", today+1, today+2); len(hist) != 1 || hist[0].Day != today+1 {
		t.Errorf("alice's history of one day: %+v", hist)
	}
	totals, err := h.s.DailyTotals(ctx, "g1", today, today+5)
	want := []cribbage.DailyTotal{{UserID: "alice", Name: "Alice", Days: 2, GaveUp: 1.25}, {UserID: "bob", Name: "Bob", Days: 2, GaveUp: 2.5}}
	if err != nil || !reflect.DeepEqual(totals, want) {
		t.Errorf("g1's totals\n got %+v (%v)\nwant %+v", totals, err, want)
	}
}

// testDailySettings: a server's settings come back as saved, unset
// before; the servers due are those with a channel whose hour has come
// and whose post of the day is not claimed.
func testDailySettings(t *testing.T, h *harness) {
	ds, err := h.s.DailySettings(ctx, "g1")
	if err != nil || !reflect.DeepEqual(ds, cribbage.DailySettings{GuildID: "g1"}) {
		t.Fatalf("unset: %+v, %v", ds, err)
	}
	for _, s := range []cribbage.DailySettings{
		{GuildID: "g1", ChannelID: "c1", Hour: 9, UpdatedBy: "admin"},
		{GuildID: "g2", ChannelID: "c2", Hour: 14},
		{GuildID: "g3", ChannelID: "", Hour: 0},
		{GuildID: "g4", ChannelID: "c4", Hour: 0},
	} {
		saved, err := h.s.SetDailySettings(ctx, s)
		s.UpdatedAt = h.now()
		if err != nil || !reflect.DeepEqual(saved, s) {
			t.Errorf("saved %+v (%v), want %+v", saved, err, s)
		}
		if got, _ := h.s.DailySettings(ctx, s.GuildID); !reflect.DeepEqual(got, s) {
			t.Errorf("read back %+v, want %+v", got, s)
		}
	}
	h.advance(time.Hour)
	changed, _ := h.s.SetDailySettings(ctx, cribbage.DailySettings{GuildID: "g1", ChannelID: "c9", Hour: 8, UpdatedBy: "other"})
	if got, _ := h.s.DailySettings(ctx, "g1"); !reflect.DeepEqual(got, changed) || got.ChannelID != "c9" || !got.UpdatedAt.Equal(h.now()) {
		t.Errorf("changed: %+v", got)
	}
	due := func(hour int) []string {
		t.Helper()
		got, err := h.s.DailyDue(ctx, today, hour)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, ds := range got {
			out = append(out, ds.GuildID+":"+ds.ChannelID)
		}
		return out
	}
	for _, tt := range []struct {
		hour int
		want []string
	}{{0, []string{"g4:c4"}}, {8, []string{"g1:c9", "g4:c4"}}, {23, []string{"g1:c9", "g2:c2", "g4:c4"}}} {
		if got := due(tt.hour); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("due at %d: %v, want %v", tt.hour, got, tt.want)
		}
	}
	if ok, err := h.s.ClaimDailyPost(ctx, "g4", today, nil); !ok || err != nil {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	if got := due(23); !reflect.DeepEqual(got, []string{"g1:c9", "g2:c2"}) {
		t.Errorf("due once g4 posted: %v", got)
	}
	if got, _ := h.s.DailyDue(ctx, today+1, 23); len(got) != 3 {
		t.Errorf("due the next day: %+v", got)
	}
}

// testDailyPostOnce: of claims of a server's post of a day at the same
// moment one wins, and its announcement is queued with it, under a
// number below every table's, for the holder of its lease to deliver;
// another server's post, or the next day's, is a post of its own.
func testDailyPostOnce(t *testing.T, h *harness) {
	tb := h.create(t, lobby("g", "alice"), "", cribbage.Outbound{ChannelID: "c1", Kind: "post", Payload: "lobby"})
	const n = 8
	var wg sync.WaitGroup
	wins := make(chan bool, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := h.s.ClaimDailyPost(ctx, "g1", today, []cribbage.Outbound{{ChannelID: "c9", Kind: "daily", Payload: "post " + string(rune('a'+i))}})
			if err != nil {
				t.Error(err)
			}
			wins <- ok
		}()
	}
	wg.Wait()
	close(wins)
	won := 0
	for ok := range wins {
		if ok {
			won++
		}
	}
	if won != 1 {
		t.Fatalf("%d claims won, want 1", won)
	}
	if ok, _ := h.s.ClaimDailyPost(ctx, "g1", today, []cribbage.Outbound{{ChannelID: "c9", Kind: "daily", Payload: "again"}}); ok {
		t.Error("claimed again later")
	}
	for _, c := range []struct {
		guild string
		day   cribbage.Day
	}{{"g2", today}, {"g1", today + 1}} {
		if ok, err := h.s.ClaimDailyPost(ctx, c.guild, c.day, []cribbage.Outbound{{ChannelID: "c9", Kind: "daily", Payload: c.guild}}); !ok || err != nil {
			t.Errorf("%s's post of day %d: %v, %v", c.guild, c.day, ok, err)
		}
	}
	items := h.claim(t, "owner")
	posts, numbers := 0, map[int64]bool{}
	for _, it := range items {
		switch {
		case it.TableID == tb.ID:
		case it.TableID < 0 && it.Kind == "daily" && it.ChannelID == "c9":
			posts++
			numbers[it.TableID] = true
		default:
			t.Errorf("an announcement of table %d: %+v", it.TableID, it)
		}
	}
	if posts != 3 || len(numbers) != 3 {
		t.Errorf("%d posts queued under %d numbers, want 3 under 3: %+v", posts, len(numbers), items)
	}
	if other := h.claim(t, "other"); len(other) != 0 {
		t.Errorf("another process took leased posts: %+v", other)
	}
	var ids []int64
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	if err := h.s.MarkDelivered(ctx, ids...); err != nil {
		t.Fatal(err)
	}
	if left := h.claim(t, "owner"); len(left) != 0 {
		t.Errorf("delivered posts still pending: %+v", left)
	}
}
