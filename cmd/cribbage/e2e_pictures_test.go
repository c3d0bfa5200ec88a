package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// TestTheTableMessageShowsTheBoard plays a game and checks the table
// message as players see it: the embed shows the board picture attached
// to the message, the final board is the finished game's, and a new
// picture was uploaded only when it would look different, in the table
// edits the game made anyway.
func TestTheTableMessageShowsTheBoard(t *testing.T) {
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	h.playToEnd(id, msg, usersOf(alice, bob))
	h.drain()
	final := h.table(id)
	if final.Status != cribbage.StatusFinished {
		t.Fatalf("the game did not finish: %s", final.Status)
	}
	// The finished table's last edit may still be on its way.
	var want []byte
	b := picture.Board{Target: final.Options.Target}
	for side := range final.Options.Sides() {
		g := final.State
		b.Sides = append(b.Sides, picture.Side{Name: final.Seats[side].Name, Score: g.Scores[side], Back: g.Back[side],
			Winner: g.Result.Winner == side, Skunk: g.Result.Skunks[side]})
	}
	want = picture.PNG(b.Render())
	h.within(30*time.Second, "the final board on the table message", func() bool {
		m, _ := h.fake.Message(msg)
		got, ok := h.fake.File(m, "board.png")
		return ok && bytes.Equal(got, want)
	})
	m, _ := h.fake.Message(msg)
	if len(m.Embeds) != 1 || m.Embeds[0].Image == nil || m.Embeds[0].Image.URL != "attachment://board.png" || len(m.Attachments) != 1 {
		t.Errorf("the table message does not show its board: embeds %+v, attachments %+v", m.Embeds, m.Attachments)
	}
	if _, err := png.Decode(bytes.NewReader(want)); err != nil {
		t.Fatal(err)
	}
	// Every upload is a picture different from the one before it, and
	// every upload rode on a table edit: no request was made for a board.
	var uploads, edits int
	var last []byte
	for _, r := range h.fake.Requests() {
		if r.Route != "PATCH /channels/{channel_id}/messages/{message_id}" || r.Path != "/api/v9/channels/"+final.ChannelID+"/messages/"+msg || r.Status != 200 {
			continue
		}
		edits++
		files := r.Uploads()
		if len(files) == 0 {
			continue
		}
		uploads++
		if len(files) != 1 || bytes.Equal(files[0], last) {
			t.Errorf("upload %d repeats the board already shown", uploads)
		}
		last = files[0]
	}
	if uploads == 0 || uploads > edits {
		t.Errorf("%d boards uploaded in %d table edits", uploads, edits)
	}
	t.Logf("%d boards uploaded in %d table edits, final board %d bytes", uploads, edits, len(want))

	// The show is posted with its picture: every post counting hands
	// carries one, and each is a PNG under 100 KB.
	shows, pictures := 0, 0
	for _, m := range h.fake.ChannelMessages(final.ThreadID) {
		if strings.Contains(m.Content, " + ") && strings.Contains(m.Content, " — ") {
			shows++
			if len(m.Attachments) == 0 {
				t.Errorf("a show without its picture: %.200s", m.Content)
			}
		}
		for _, a := range m.Attachments {
			data, ok := h.fake.File(m, a.Filename)
			if !ok || len(data) >= 100<<10 {
				t.Errorf("picture %s: %d bytes", a.Filename, len(data))
			}
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("picture %s: %v", a.Filename, err)
			}
			if dir := os.Getenv("PICTURES_DIR"); dir != "" { // to look at them
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("thread-%d-%s", pictures, a.Filename)), data, 0o644)
			}
			pictures++
		}
	}
	if shows == 0 || pictures < shows {
		t.Errorf("%d posts count hands, %d pictures", shows, pictures)
	}
}
