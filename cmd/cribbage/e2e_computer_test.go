package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
	"github.com/cribbage-bot/cribbage/store"
)

// soloGame opens a table for Alice against the computer, easy or strong,
// and starts it.
func soloGame(t *testing.T, h *harness, level string, opts ...discordtest.Opt) (int64, string) {
	id, msg := h.open(alice, append([]discordtest.Opt{{Name: "computer", Value: level}}, opts...)...)
	a := h.click(alice, msg, "/begin/"+itoa64(id))
	if a.Ephemeral() {
		t.Fatalf("Start refused: %s", a.Content())
	}
	// Strong is engine/ai's expert.
	stored := map[string]string{"easy": "easy", "strong": "expert"}[level]
	tb := h.table(id)
	if tb.Status != cribbage.StatusPlaying || tb.Seats[1].Computer != stored || !strings.Contains(tb.Seats[1].Name, "("+level+")") {
		t.Fatalf("after Start: %s, seats %+v", tb.Status, tb.Seats)
	}
	return id, msg
}

func TestAPersonPlaysAWholeGameAgainstTheComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := soloGame(t, h, "strong")
	scan := h.playScanned(id, msg, usersOf(alice))
	final := h.table(id)
	if final.Status != cribbage.StatusFinished {
		t.Fatalf("status %s", final.Status)
	}
	// Games against the computer stay off the leaderboard and show apart
	// in the stats.
	board, _ := h.store.Leaderboard(context.Background(), testGuild, 0, fromZero())
	if len(board) != 0 {
		t.Errorf("leaderboard has a game against the computer: %+v", board)
	}
	st, _ := h.store.PlayerStats(context.Background(), testGuild, alice.ID)
	if st.Computer.Games != 1 || st.People.Games != 0 {
		t.Errorf("stats %+v", st)
	}
	// The computer's moves were announced like anyone's.
	h.drain()
	computerPlays := 0
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		computerPlays += strings.Count(m.Text(), "Computer 2 (strong) ")
	}
	if computerPlays < 4 || scan.payloads == 0 {
		t.Errorf("%d computer plays announced", computerPlays)
	}
	h.noIdenticalEdits()
}

func TestCoachHintsAndReview(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := soloGame(t, h, "easy")
	view := h.showHand(alice, msg, id)
	hint, ok := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/hint/") })
	if !ok {
		t.Fatalf("no Hint button: %v", view.Response.Data.Components)
	}
	a := h.click(alice, view.MessageID, hint.CustomID)
	if !a.Ephemeral() || !strings.Contains(a.Content(), "Coach") || strings.Count(a.Content(), "keep ") != 3 {
		t.Errorf("discard hint: %s", a.Content())
	}
	if !h.table(id).Assisted {
		t.Error("the table was not marked assisted")
	}
	people := usersOf(alice)
	for h.table(id).State.Phase == engine.PhaseDiscard {
		h.step(id, msg, people)
	}
	for h.table(id).State.Turn != 0 || h.table(id).State.Phase != engine.PhasePlay {
		// Each player lays a card in the first hand's play, and no game
		// ends before it, whatever the deal.
		if !h.step(id, msg, people) {
			t.Fatal("the game ended before Alice's first turn in the play")
		}
	}
	view = h.showHand(alice, msg, id)
	hint, _ = button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/hint/") })
	if a := h.click(alice, view.MessageID, hint.CustomID); !strings.Contains(a.Content(), "play ") {
		t.Errorf("play hint: %s", a.Content())
	}
	for h.table(id).State.HandNo < 2 && h.step(id, msg, people) {
	}
	a = h.click(alice, msg, "/review/"+itoa64(id))
	if !a.Ephemeral() || !strings.Contains(a.Content(), "Hand 1") || !strings.Contains(a.Content(), "threw") {
		t.Errorf("review: %s", a.Content())
	}
	h.playToEnd(id, msg, people)
	if assisted, err := h.store.Assisted(context.Background(), id); err != nil || !assisted {
		t.Errorf("result assisted %v, %v", assisted, err)
	}
}

// TestComputerMovesAfterARestart leaves the game waiting on the computer
// (as if the bot stopped between the person's move and the computer's) and
// checks that the next bot makes the computer's move.
func TestComputerMovesAfterARestart(t *testing.T) {
	t.Parallel()
	// The move before the restart is saved by another process: one whose
	// clock agrees with the bot's, and one whose clock runs ahead (a
	// replica on another machine), so the move is dated after the
	// restarted bot's start.
	for _, ahead := range []time.Duration{0, 3 * time.Second} {
		t.Run(fmt.Sprint("clock ahead ", ahead), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			id, msg := soloGame(t, h, "strong")
			people := usersOf(alice)
			for h.table(id).State.Phase != engine.PhasePlay || h.table(id).State.Turn != 0 {
				h.step(id, msg, people)
			}
			h.stopBot()
			st, err := store.Open(context.Background(), h.path, store.WithClock(func() time.Time { return h.fake.Now().Add(ahead) }))
			if err != nil {
				t.Fatal(err)
			}
			saved, err := servicetest.Update(context.Background(), st, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
				g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActPlay, Seat: 0, Card: cur.State.LegalPlays(0)[0]})
				cur.State = g
				return &cribbage.Change{Table: cur}, err
			})
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			before := saved.Version
			h.startBot()
			h.eventually("the computer's move after the restart", func() bool { return h.table(id).Version > before })
			if got := h.table(id).State; got.Phase == engine.PhasePlay && got.Turn == 1 {
				t.Error("still waiting on the computer")
			}
		})
	}
}

// TestTeamGameWithAComputerPartner: Alice and a computer partner against two
// computers, to the end.
func TestTeamGameWithAComputerPartner(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.open(alice, discordtest.Opt{Name: "players", Value: 4}, discordtest.Opt{Name: "teams", Value: true},
		discordtest.Opt{Name: "points", Value: 61}, discordtest.Opt{Name: "computer", Value: "strong"})
	h.click(alice, msg, "/begin/"+itoa64(id))
	h.playScanned(id, msg, usersOf(alice))
	final := h.table(id)
	if final.Status != cribbage.StatusFinished || len(final.Seats) != 4 || final.Seats[2].Computer == "" {
		t.Fatalf("status %s, seats %+v", final.Status, final.Seats)
	}
	st, _ := h.store.PlayerStats(context.Background(), testGuild, alice.ID)
	if st.Computer.Games != 1 {
		t.Errorf("Alice's games against the computer: %+v", st.Computer)
	}
}

// TestTheCoachCountsAndTheComputerCallsMuggins: at a table counted by
// hand, with muggins, against the computer, the coach counts Alice's hand
// when she asks; when she claims less than it holds, the computer takes
// the rest at once, as an attentive opponent would.
func TestTheCoachCountsAndTheComputerCallsMuggins(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	people := usersOf(alice)
	var id int64
	var msg string
	var points int
	for tries := 0; points == 0; tries++ {
		if tries == 10 {
			t.Fatal("Alice never had points to count")
		}
		id, msg = soloGame(t, h, "strong", discordtest.Opt{Name: "counting", Value: "manual"}, discordtest.Opt{Name: "muggins", Value: true})
		for h.table(id).Status == cribbage.StatusPlaying {
			g := h.table(id).State
			if seat, crib := g.ShowOrder(g.Shown); g.Phase == engine.PhaseShow && seat == 0 && truth(g, 0, crib) > 0 {
				points = truth(g, 0, crib)
				break
			}
			h.step(id, msg, people)
		}
	}
	view := h.showHand(alice, msg, id)
	hint, ok := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/hint/") })
	if !ok {
		t.Fatalf("no Hint button while Alice counts: %s", view.Content())
	}
	if a := h.click(alice, view.MessageID, hint.CustomID); !strings.Contains(a.Content(), fmt.Sprintf("you have **%d**", points)) {
		t.Errorf("the coach's count: %s, want %d", a.Content(), points)
	}
	// The table is assisted now: the count is in her view unasked.
	if v := h.showHand(alice, msg, id); !strings.Contains(v.Content(), fmt.Sprintf("you have **%d**", points)) {
		t.Errorf("assisted hand view without the coach's count: %s", v.Content())
	}
	before := h.table(id).State.Scores[1]
	h.claim(alice, msg, id, 0)
	if tb := h.table(id); tb.Status == cribbage.StatusPlaying && tb.State.Scores[1] < before+points {
		t.Errorf("the computer's score %d → %d after Alice missed %d", before, tb.State.Scores[1], points)
	}
	if !h.threadSays(id, "Muggins!") {
		t.Error("the computer's muggins was not announced")
	}
}
