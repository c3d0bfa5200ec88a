package render

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/internal/golden"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
)

// goldenTable plays a table of people through the domain on fixed seeds,
// each seat laying its first legal card and throwing its first cards,
// until stop says the table is where the golden file looks at it. It
// returns the table and every story item queued so far, numbered as the
// outbox would number them.
func goldenTable(t *testing.T, opts engine.Options, stop func(t *cribbage.Table) bool) (*cribbage.Table, []cribbage.OutboxItem) {
	t.Helper()
	return goldenTableIn(t, lang.English, opts, stop)
}

// goldenTableIn is goldenTable with its story told in l.
func goldenTableIn(t *testing.T, l lang.Lang, opts engine.Options, stop func(t *cribbage.Table) bool) (*cribbage.Table, []cribbage.OutboxItem) {
	t.Helper()
	names := []string{"Ann", "Bob", "Cid", "Dee"}
	tb := &cribbage.Table{ID: 7, GuildID: "g", ChannelID: "c", HostID: "u0", Options: opts, Status: cribbage.StatusLobby,
		CreatedAt: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)}
	for i := range opts.Players {
		tb.Seats = append(tb.Seats, cribbage.Seat{UserID: fmt.Sprintf("u%d", i), Name: names[i]})
	}
	n := uint64(0)
	env := cribbage.Env{
		Now:   tb.CreatedAt,
		Seeds: func() engine.Seed { n++; return engine.SeedFromUint64(n) },
	}
	var items []cribbage.OutboxItem
	queue := func(ch *cribbage.Change) {
		// The story is worded as the bot words it.
		for _, o := range append(ch.Outbox, Story(l, tb, ch.Events)...) {
			items = append(items, cribbage.OutboxItem{ID: int64(len(items) + 1), TableID: tb.ID, ChannelID: o.ChannelID, Kind: o.Kind, Payload: o.Payload})
		}
		tb.Version++
		tb.LastActionAt = env.Now // as the store records it
	}
	ch, _, err := cribbage.Start(tb, env)
	if err != nil {
		t.Fatal(err)
	}
	queue(ch)
	for moves := 0; !stop(tb); moves++ {
		if tb.Status != cribbage.StatusPlaying || moves > 500 {
			t.Fatalf("the table never got where the golden file looks (status %s after %d moves)", tb.Status, moves)
		}
		seat := tb.State.Waiting()[0]
		v := tb.State.ViewFor(seat)
		var a engine.Action
		switch v.Phase {
		case engine.PhaseDiscard:
			a = engine.Action{Kind: engine.ActDiscard, Seat: seat, Cards: v.Hand.Cards()[:opts.DiscardSize()]}
		case engine.PhasePlay:
			a = engine.Action{Kind: engine.ActPlay, Seat: seat, Card: v.Legal[0]}
		default:
			t.Fatalf("seat %d waited on in phase %s", seat, v.Phase)
		}
		env.Now = env.Now.Add(time.Minute)
		ch, _, err := cribbage.Move(tb, a, env)
		if err != nil {
			t.Fatal(err)
		}
		queue(ch)
	}
	return tb, items
}

// midPlay stops at the first hand's play with cards on the count.
func midPlay(t *cribbage.Table) bool {
	return t.State.Phase == engine.PhasePlay && t.State.Count > 0 && len(t.State.Plays) >= 2
}

// firstHandDone stops once the first hand has been shown.
func firstHandDone(t *cribbage.Table) bool { return t.State.HandNo >= 2 }

// TestGoldenRenders holds the table message, a hand view and a hand's
// record at two, three and four players (and partners) to files under
// testdata/render: a change to what players see shows in review as a
// change to these files (go test ./bot/render -update rewrites them).
func TestGoldenRenders(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts engine.Options
	}{
		{"two", engine.Options{Players: 2, Target: 121}},
		{"three", engine.Options{Players: 3, Target: 121}},
		{"four", engine.Options{Players: 4, Target: 121}},
		{"partners", engine.Options{Players: 4, Partners: true, Target: 121}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, _ := goldenTable(t, tc.opts, midPlay)
			goldenTableMessage(t, lang.English, tc.name, Table(lang.English, tb, ""), tb)
			seat := tb.State.Turn
			golden.JSON(t, tc.name+"-hand.json", Hand(lang.English, tb, seat, 0, ""))

			tb, items := goldenTable(t, tc.opts, firstHandDone)
			record, ok := Compose(lang.English, Gather(lang.English, items, tb.ID, 0))
			if !ok {
				t.Fatal("the first hand's record does not fit a message")
			}
			golden.JSON(t, tc.name+"-record.json", record.layout())
		})
	}
}

// TestGoldenRendersInFrench holds the table message, a hand view and a
// hand's record in French to files of their own, at two players and at
// four in partners (the plural forms: "Ann & Cid gagnent"), and a hand
// view at the show with the coach counting aloud.
func TestGoldenRendersInFrench(t *testing.T) {
	fr, _ := lang.ByCode("fr")
	for _, tc := range []struct {
		name string
		opts engine.Options
	}{
		{"two", engine.Options{Players: 2, Target: 121}},
		{"partners", engine.Options{Players: 4, Partners: true, Target: 121}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, _ := goldenTableIn(t, fr, tc.opts, midPlay)
			goldenTableMessage(t, fr, "fr-"+tc.name, Table(fr, tb, ""), tb)
			golden.JSON(t, "fr-"+tc.name+"-hand.json", Hand(fr, tb, tb.State.Turn, 0, ""))

			tb, items := goldenTableIn(t, fr, tc.opts, firstHandDone)
			record, ok := Compose(fr, Gather(fr, items, tb.ID, 0))
			if !ok {
				t.Fatal("the first hand's record does not fit a message")
			}
			golden.JSON(t, "fr-"+tc.name+"-record.json", record.layout())
		})
	}
	// The show, counted by hand with the coach's help: the count aloud.
	opts := engine.Options{Players: 2, Target: 121, ManualCounting: true}
	tb, _ := goldenTableIn(t, fr, opts, func(t *cribbage.Table) bool { return t.State.Phase == engine.PhaseShow })
	tb.Assisted = true
	seat, _ := tb.State.ShowOrder(tb.State.Shown)
	golden.JSON(t, "fr-two-show-hand.json", Hand(fr, tb, seat, 0, ""))
}

// goldenTableMessage holds a new table message, r, as sent with its
// board: the message to name-table.json, the board it uploads to
// name-board.png (open it to see what a phone shows under the text).
func goldenTableMessage(t *testing.T, l lang.Lang, name string, r Message, tb *cribbage.Table) {
	t.Helper()
	UploadBoard(l, &r, tb)
	var png []byte
	for _, f := range r.Files {
		png, _ = io.ReadAll(f.Reader)
	}
	r.Files = nil // pixels go to the picture's own golden file
	golden.JSON(t, name+"-table.json", r)
	golden.Bytes(t, name+"-board.png", png)
}

// TestGoldenLobbyAndFinished holds the table message before its game (a
// lobby of three with a seat open) and after it (partners, the winners
// named, the accent neutral) to files of their own.
func TestGoldenLobbyAndFinished(t *testing.T) {
	lobby := &cribbage.Table{ID: 7, GuildID: "g", ChannelID: "c", HostID: "u0", Status: cribbage.StatusLobby,
		Options: engine.Options{Players: 3, Target: 121}, Computer: "easy",
		Seats: []cribbage.Seat{{UserID: "u0", Name: "Ann"}, {UserID: "u1", Name: "Bob"}}}
	golden.JSON(t, "three-lobby-table.json", Table(lang.English, lobby, ""))

	tb, _ := goldenTable(t, engine.Options{Players: 4, Partners: true, Target: 121}, func(t *cribbage.Table) bool { return t.Status == cribbage.StatusFinished })
	goldenTableMessage(t, lang.English, "partners-finished", Table(lang.English, tb, ""), tb)
}
