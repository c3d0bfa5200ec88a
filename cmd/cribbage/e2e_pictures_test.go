package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// TestTheTableMessageShowsTheBoard plays a game and checks the table
// message as players see it: the embed shows the board picture attached
// to the message, the final board is the finished game's, and a new
// picture was uploaded only when it would look different, in the table
// edits the game made anyway.
func TestTheTableMessageShowsTheBoard(t *testing.T) {
	t.Parallel()
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
	want = b.PNG()
	h.within(30*time.Second, "the final board on the table message", func() bool {
		m, _ := h.fake.Message(msg)
		got, ok := h.fake.File(m, "board.png")
		return ok && bytes.Equal(got, want)
	})
	m, _ := h.fake.Message(msg)
	if shows := galleryURLs(m.Components); len(shows) != 1 || shows[0] != "attachment://board.png" || len(m.Attachments) != 1 {
		t.Errorf("the table message does not show its board: gallery %v, attachments %+v", shows, m.Attachments)
	}
	if _, err := png.Decode(bytes.NewReader(want)); err != nil {
		t.Fatal(err)
	}
	// Every upload is a picture different from the one before it, and
	// every upload rode on a table edit: no request was made for a board.
	var uploads, edits int
	var last []byte
	for _, r := range h.fake.Requests() {
		// The table message is edited with the bot token, or through a
		// live interaction token (the only original responses the bot
		// edits in gateway mode).
		withBot := r.Route == "PATCH /channels/{channel_id}/messages/{message_id}" && r.Path == "/api/v9/channels/"+final.ChannelID+"/messages/"+msg
		withToken := r.Route == "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
		if !withBot && !withToken || r.Status != 200 {
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
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		if strings.Contains(m.Text(), " + ") && strings.Contains(m.Text(), " — ") {
			shows++
			if len(m.Attachments) == 0 {
				t.Errorf("a show without its picture: %.200s", m.Text())
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

// TestReplay pages through a game's replay: while the game is on only its
// players see it, and only the hands that are over, each with the cards
// its revealed seed deals; once it is over anyone may, from the table's
// Replay button.
func TestReplay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	people := usersOf(alice, bob)
	for h.table(id).State.HandNo < 3 {
		h.step(id, msg, people)
	}
	h.drain()

	if a := h.command(carol, "replay", discordtest.Opt{Name: "table", Value: id}); !a.Ephemeral() || !strings.Contains(a.Content(), "only its players") {
		t.Errorf("someone not playing replayed a game in progress: %+v", a.Response.Data)
	}
	tb := h.table(id)
	over := tb.State.HandNo - 1
	seeds := regexp.MustCompile("hand (\\d+) seed `([0-9a-f]{64})`").FindAllStringSubmatch(threadText(h, id), -1)
	if len(seeds) != over {
		t.Fatalf("%d hands over, %d seeds revealed", over, len(seeds))
	}
	page := h.command(alice, "replay")
	for n := 1; ; n++ {
		data := page.Response.Data
		if !page.Ephemeral() || len(data.Embeds) != 2 {
			t.Fatalf("page %d: %+v", n, data)
		}
		if want := fmt.Sprintf("hand %d of %d", n, over); !strings.Contains(data.Embeds[0].Title, want) {
			t.Fatalf("page %d is %q, want %q: a hand still on must not be shown", n, data.Embeds[0].Title, want)
		}
		seed, _ := engine.ParseSeed(seeds[n-1][2])
		for _, hand := range engine.Deal(seed, 2).Hands {
			if !strings.Contains(data.Embeds[0].Description, "was dealt "+engine.DisplayCards(hand.Cards())) {
				t.Errorf("page %d does not show %s dealt from hand %d's seed:\n%s", n, engine.DisplayCards(hand.Cards()), n, data.Embeds[0].Description)
			}
		}
		m, _ := h.fake.Message(page.MessageID)
		for _, name := range []string{"deal.png", "board.png"} {
			if _, ok := h.fake.File(m, name); !ok {
				t.Errorf("page %d has no %s: %+v", n, name, m.Attachments)
			}
		}
		if len(m.Attachments) != 2 {
			t.Errorf("page %d keeps %d attachments, want its 2", n, len(m.Attachments))
		}
		next, ok := button(t, data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.Label, "Next") })
		if !ok || next.Disabled {
			if n != over {
				t.Fatalf("no Next on page %d of %d", n, over)
			}
			break
		}
		page = h.click(alice, page.MessageID, next.CustomID)
		if page.Response.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("Next answered %d, want an update of the page", page.Response.Type)
		}
		page.MessageID = m.ID
	}

	// Over: anyone may replay it, from the table message.
	h.playToEnd(id, msg, people)
	h.drain()
	final := h.table(id)
	a := h.click(carol, msg, "/replay/"+itoa64(id)+"/1")
	hands := regexp.MustCompile(`hand 1 of (\d+)`).FindStringSubmatch(a.Response.Data.Embeds[0].Title)
	if !a.Ephemeral() || hands == nil || hands[1] != fmt.Sprint(final.State.HandNo) {
		t.Errorf("Replay of the finished game by a spectator: %+v", a.Response.Data.Embeds[0])
	}
}

// threadText is a table's thread as one text.
func threadText(h *harness, id int64) string {
	var b strings.Builder
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		b.WriteString(m.Text() + "\n")
	}
	return b.String()
}

// galleryURLs are the media a message's galleries show, wherever they
// sit (Components V2).
func galleryURLs(comps []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range comps {
		switch c := c.(type) {
		case *discordgo.MediaGallery:
			for _, it := range c.Items {
				out = append(out, it.Media.URL)
			}
		case *discordgo.Container:
			out = append(out, galleryURLs(c.Components)...)
		}
	}
	return out
}
