package servicetest

import (
	"errors"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// testRecordingChangesNoVersion: what the MessageBook records, and the
// coach's use, is recorded without a new version or a move's time, so no
// button goes stale.
func testRecordingChangesNoVersion(t *testing.T, h *harness) {
	token := cribbage.MessageToken{MessageID: "m1", Token: "tok", At: start.Add(-time.Minute)}
	view := cribbage.HandView{Seat: 1, Token: token, Version: 3, Shown: "sum-3"}
	tests := []struct {
		name   string
		record func(id int64) error
		check  func(tb *cribbage.Table, m cribbage.TableMessage) bool
	}{
		{"SetMessages", func(id int64) error { return h.s.SetMessages(ctx, id, "m1", "th1") },
			func(_ *cribbage.Table, m cribbage.TableMessage) bool {
				return m.MessageID == "m1" && m.ThreadID == "th1"
			}},
		{"RecordTableMessage", func(id int64) error { return h.s.RecordTableMessage(ctx, id, "m1") },
			func(_ *cribbage.Table, m cribbage.TableMessage) bool { return m.MessageID == "m1" }},
		{"RecordBoard", func(id int64) error { return h.s.RecordBoard(ctx, id, "board-1") },
			func(_ *cribbage.Table, m cribbage.TableMessage) bool { return m.Board == "board-1" }},
		{"RecordEditToken", func(id int64) error { return h.s.RecordEditToken(ctx, id, token) },
			func(_ *cribbage.Table, m cribbage.TableMessage) bool { return sameToken(m.EditToken, token) }},
		{"RecordHandView", func(id int64) error { return h.s.RecordHandView(ctx, id, view) },
			func(tb *cribbage.Table, _ cribbage.TableMessage) bool {
				views, err := h.s.HandViews(ctx, tb.ID)
				return err == nil && len(views) == 1 && sameView(views[0], view)
			}},
		{"RecordHandViewShown", func(id int64) error {
			if err := h.s.RecordHandView(ctx, id, view); err != nil {
				return err
			}
			return h.s.RecordHandViewShown(ctx, id, view.Seat, token, 4, "sum-4")
		}, func(tb *cribbage.Table, _ cribbage.TableMessage) bool {
			views, err := h.s.HandViews(ctx, tb.ID)
			return err == nil && len(views) == 1 && views[0].Version == 4 && views[0].Shown == "sum-4"
		}},
		{"RecordShown", func(id int64) error { return h.s.RecordShown(ctx, id, "table-sum") },
			func(_ *cribbage.Table, m cribbage.TableMessage) bool { return m.Shown == "table-sum" }},
		{"MarkAssisted", func(id int64) error { return h.s.MarkAssisted(ctx, id) },
			func(tb *cribbage.Table, _ cribbage.TableMessage) bool { return tb.Assisted }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := h.startGame(t, lobby("g", "a", "b"))
			h.advance(time.Minute)
			if err := tt.record(tb.ID); err != nil {
				t.Fatal(err)
			}
			got, m := h.table(t, tb.ID), h.message(t, tb.ID)
			if !tt.check(got, m) {
				t.Errorf("not recorded: %+v, %+v", got, m)
			}
			if got.Version != tb.Version || !got.LastActionAt.Equal(tb.LastActionAt) {
				t.Errorf("version %d and last action %v, want %d and %v", got.Version, got.LastActionAt, tb.Version, tb.LastActionAt)
			}
		})
	}
}

// testTableMessage: a table's message reads back as recorded — the
// message and thread, the board, what it shows and the edit token — nothing before any
// is, and ErrNotFound for no table; many tables' read at once come back in
// the order asked for, with no entry for an id of no table.
func testTableMessage(t *testing.T, h *harness) {
	a := h.startGame(t, lobby("g", "a", "b"))
	tokens := lobby("g", "c", "d")
	tokens.TokenOnly = true
	b := h.startGame(t, tokens)
	if got, err := h.s.TableMessage(ctx, a.ID); err != nil || !sameTableMessage(got, cribbage.TableMessage{TableID: a.ID}) {
		t.Errorf("before anything is recorded: %+v, %v", got, err)
	}
	token := cribbage.MessageToken{MessageID: "m1", Token: "tok", At: start.Add(time.Minute)}
	for _, err := range []error{h.s.SetMessages(ctx, a.ID, "m1", "th1"), h.s.RecordBoard(ctx, a.ID, "board-1"),
		h.s.RecordEditToken(ctx, a.ID, token), h.s.RecordShown(ctx, a.ID, "sum-a"), h.s.RecordTableMessage(ctx, b.ID, "m2")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	wantA := cribbage.TableMessage{TableID: a.ID, MessageID: "m1", ThreadID: "th1", Board: "board-1", Shown: "sum-a", EditToken: token}
	wantB := cribbage.TableMessage{TableID: b.ID, MessageID: "m2", TokenOnly: true}
	if got, err := h.s.TableMessage(ctx, a.ID); err != nil || !sameTableMessage(got, wantA) {
		t.Errorf("recorded: %+v, %v; want %+v", got, err, wantA)
	}
	if _, err := h.s.TableMessage(ctx, 999); !errors.Is(err, cribbage.ErrNotFound) {
		t.Errorf("no table: %v, want ErrNotFound", err)
	}
	got, err := h.s.TableMessages(ctx, []int64{b.ID, 999, a.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !sameTableMessage(got[0], wantB) || !sameTableMessage(got[1], wantA) {
		t.Errorf("read at once: %+v, want %+v and %+v", got, wantB, wantA)
	}
	if got, err := h.s.TableMessages(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("none asked for: %+v, %v", got, err)
	}
}

// testTableMessageRecordedOnce: RecordTableMessage records the table
// message when none is known (the answer that posted it, or a click on it,
// whichever comes first), and never replaces one that is; SetMessages
// (a new message posted, the thread opened) does.
func testTableMessageRecordedOnce(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	for _, id := range []string{"from-a-click", "from-the-answer"} {
		if err := h.s.RecordTableMessage(ctx, tb.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.message(t, tb.ID).MessageID; got != "from-a-click" {
		t.Errorf("message %q, want the first one recorded", got)
	}
	if err := h.s.SetMessages(ctx, tb.ID, "posted-again", "th1"); err != nil {
		t.Fatal(err)
	}
	if err := h.s.RecordTableMessage(ctx, tb.ID, "late"); err != nil {
		t.Fatal(err)
	}
	if got := h.message(t, tb.ID); got.MessageID != "posted-again" || got.ThreadID != "th1" {
		t.Errorf("message %q in thread %q, want the one set", got.MessageID, got.ThreadID)
	}
	if err := h.s.RecordTableMessage(ctx, 999, "m"); err != nil {
		t.Errorf("recorded for no table: %v", err)
	}
}

// testNewerTokensWin: of two tokens that can edit the table message,
// recorded in either order (two replicas answering two clicks), the table
// keeps the newer, which lives longer; of two at one instant, the later
// recorded.
func testNewerTokensWin(t *testing.T, h *harness) {
	older := cribbage.MessageToken{MessageID: "m1", Token: "older", At: start}
	newer := cribbage.MessageToken{MessageID: "m1", Token: "newer", At: start.Add(time.Minute)}
	twin := cribbage.MessageToken{MessageID: "m1", Token: "twin", At: start.Add(time.Minute)}
	tests := []struct {
		name  string
		order []cribbage.MessageToken
		want  cribbage.MessageToken
	}{
		{"older, newer", []cribbage.MessageToken{older, newer}, newer},
		{"newer, older", []cribbage.MessageToken{newer, older}, newer},
		{"one instant", []cribbage.MessageToken{newer, twin}, twin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := h.startGame(t, lobby("g", "a", "b"))
			for _, tok := range tt.order {
				if err := h.s.RecordEditToken(ctx, tb.ID, tok); err != nil {
					t.Fatal(err)
				}
			}
			if got := h.message(t, tb.ID).EditToken; !sameToken(got, tt.want) {
				t.Errorf("token %+v, want %+v", got, tt.want)
			}
		})
	}
}

// testHandViews: each seat keeps its newest hand view, whatever order the
// views are recorded in, and they are read by seat.
func testHandViews(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	if views, err := h.s.HandViews(ctx, tb.ID); err != nil || len(views) != 0 {
		t.Fatalf("views before any: %v, %v", views, err)
	}
	view := func(seat int, token string, at time.Duration, version int64) cribbage.HandView {
		return cribbage.HandView{Seat: seat, Version: version, Lang: token[len(token)-2:], Shown: token + "-shown",
			Token: cribbage.MessageToken{MessageID: token + "-message", Token: token, At: start.Add(at)}}
	}
	seat1Newer, seat1Older := view(1, "b-newer", time.Minute, 4), view(1, "b-older", 0, 3)
	seat0Older, seat0Newer := view(0, "a-older", 0, 2), view(0, "a-newer", 2*time.Minute, 5)
	for _, v := range []cribbage.HandView{seat1Newer, seat1Older, seat0Older, seat0Newer} {
		if err := h.s.RecordHandView(ctx, tb.ID, v); err != nil {
			t.Fatal(err)
		}
	}
	views, err := h.s.HandViews(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 2 || !sameView(views[0], seat0Newer) || !sameView(views[1], seat1Newer) {
		t.Errorf("views %+v, want %+v and %+v", views, seat0Newer, seat1Newer)
	}
	other := h.startGame(t, lobby("g", "c", "d"))
	if views, err := h.s.HandViews(ctx, other.ID); err != nil || len(views) != 0 {
		t.Errorf("another table's views: %v, %v", views, err)
	}
}

// testHandViewShown: what a seat's view was made to show is recorded
// through its own token, or another token of its message (a click on the
// view, answered by updating it), and read back with the view; a token
// of another view, which the seat has moved on from, or a seat with no
// view, records nothing; a newer view recorded replaces it all.
func testHandViewShown(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	tok := func(name string, at time.Duration) cribbage.MessageToken {
		return cribbage.MessageToken{MessageID: name + "-message", Token: name, At: start.Add(at)}
	}
	view := cribbage.HandView{Seat: 0, Version: 2, Shown: "sum-2", Token: tok("view", 0)}
	if err := h.s.RecordHandView(ctx, tb.ID, view); err != nil {
		t.Fatal(err)
	}
	shows := func(want cribbage.HandView, what string) {
		t.Helper()
		views, err := h.s.HandViews(ctx, tb.ID)
		if err != nil || len(views) != 1 || !sameView(views[0], want) {
			t.Errorf("%s: views %+v, %v; want %+v", what, views, err, want)
		}
	}
	shows(view, "recorded")
	steps := []struct {
		name    string
		seat    int
		tok     cribbage.MessageToken
		version int64
		sum     string
		records bool
	}{
		{"an edit through its token", 0, view.Token, 3, "sum-3", true},
		{"a click on its message", 0, cribbage.MessageToken{MessageID: view.Token.MessageID, Token: "click", At: start.Add(time.Minute)}, 4, "sum-4", true},
		{"unknown", 0, view.Token, 5, "", true},
		{"a view moved on from", 0, tok("older", -time.Minute), 6, "sum-6", false},
		{"a token of no message", 0, cribbage.MessageToken{Token: "answer"}, 7, "sum-7", false},
		{"a seat with no view", 1, view.Token, 8, "sum-8", false},
	}
	for _, s := range steps {
		if err := h.s.RecordHandViewShown(ctx, tb.ID, s.seat, s.tok, s.version, s.sum); err != nil {
			t.Fatal(err)
		}
		if s.records {
			view.Version, view.Shown = s.version, s.sum
		}
		shows(view, s.name)
	}
	newer := cribbage.HandView{Seat: 0, Version: 9, Token: tok("newer", 2*time.Minute)}
	if err := h.s.RecordHandView(ctx, tb.ID, newer); err != nil {
		t.Fatal(err)
	}
	shows(newer, "a newer view")
}

// testTimesToTheMillisecond: times are kept to the millisecond, so a time
// read back equals the one written cut to the millisecond, and a timer
// read back is the one a compare-and-swap names.
func testTimesToTheMillisecond(t *testing.T, h *harness) {
	h.advance(1234567 * time.Nanosecond)
	now := h.now()
	ms := now.Truncate(time.Millisecond)
	tb := h.create(t, lobby("g", "a", "b"), "", cribbage.Outbound{ChannelID: "c1", Kind: "table"})
	if err := h.s.RecordEditToken(ctx, tb.ID, cribbage.MessageToken{Token: "t", At: now}); err != nil {
		t.Fatal(err)
	}
	if ok, err := h.s.MarkReminded(ctx, tb.ID, time.Time{}, now, nil); !ok || err != nil {
		t.Fatalf("reminded: %v, %v", ok, err)
	}
	got := h.table(t, tb.ID)
	for _, c := range []struct {
		name string
		at   time.Time
	}{{"created", got.CreatedAt}, {"last action", got.LastActionAt}, {"token", h.message(t, tb.ID).EditToken.At}, {"reminded", got.RemindedAt}} {
		if !c.at.Equal(ms) {
			t.Errorf("%s at %v, want %v", c.name, c.at, ms)
		}
	}
	if ok, err := h.s.MarkReminded(ctx, tb.ID, got.RemindedAt, now.Add(time.Hour), nil); !ok || err != nil {
		t.Errorf("reminded again from the time read back: %v, %v", ok, err)
	}
	items := h.pending(t, tb.ID)
	if err := h.s.MarkFailed(ctx, items[0].ID, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	it := h.pending(t, tb.ID)[0]
	if !it.CreatedAt.Equal(ms) || !it.NextAttemptAt.Equal(ms.Add(time.Second)) {
		t.Errorf("announcement created %v, next attempt %v; want %v and a second later", it.CreatedAt, it.NextAttemptAt, ms)
	}
}

// sameToken reports whether two tokens are the same, their times by
// instant.
func sameToken(a, b cribbage.MessageToken) bool {
	return a.MessageID == b.MessageID && a.Token == b.Token && a.At.Equal(b.At)
}

// sameTableMessage reports whether two table messages are the same, their
// tokens' times by instant.
func sameTableMessage(a, b cribbage.TableMessage) bool {
	return a.TableID == b.TableID && a.MessageID == b.MessageID && a.ThreadID == b.ThreadID && a.Board == b.Board &&
		a.Shown == b.Shown && sameToken(a.EditToken, b.EditToken) && a.TokenOnly == b.TokenOnly
}

// sameView reports whether two hand views are the same.
func sameView(a, b cribbage.HandView) bool {
	return a.Seat == b.Seat && a.Version == b.Version && a.Lang == b.Lang && a.Shown == b.Shown && sameToken(a.Token, b.Token)
}
