package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// Outbox kinds, delivered by the sender in outbox.go.
const (
	kindPost   = "post"   // a story message for the table's thread (or channel)
	kindTable  = "table"  // bring the table message up to date (rendered when sent)
	kindThread = "thread" // open the table's thread on its message
)

// postPayload is a story message as queued. Pictures are drawn when it is
// sent, so the queue holds their few cards, not their pixels.
type postPayload struct {
	Content  string          `json:"content"`
	Mentions []string        `json:"mentions,omitempty"`
	Pictures []picture.Cards `json:"pictures,omitempty"`
}

// encode is the payload as queued. A post is strings only, which JSON
// always encodes; a failure would be a bug, and must not queue an empty
// announcement.
func (p postPayload) encode() string {
	raw, err := json.Marshal(p)
	if err != nil {
		panic(fmt.Sprintf("bot: encode a post: %v", err))
	}
	return string(raw)
}

// applyAction is one seat's move in one store update: check the table is
// where the interaction was made, the seat and its view version, apply the
// engine action, let the table advance, and queue the story and a table
// refresh. build chooses the action from the current table; view is ""
// where no view version applies.
func (b *Bot) applyAction(ctx context.Context, ic *discordgo.Interaction, tableID int64, view string, build func(t *cribbage.Table, seat int) (engine.Action, error)) (*cribbage.Table, int, error) {
	userID, _ := user(ic)
	defer b.locks.lock(tableID)()
	seat := -1
	t, err := b.store.Update(ctx, tableID, ic.ID, func(t *cribbage.Table) (*cribbage.Change, error) {
		if err := checkHere(t, ic); err != nil {
			return nil, err
		}
		if t.Status != cribbage.StatusPlaying {
			return nil, errNotPlaying
		}
		if seat = t.SeatOf(userID); seat < 0 {
			return nil, errNotSeated
		}
		if view != "" && viewVersion(t.State.ViewFor(seat)) != view {
			return nil, errStaleView
		}
		a, err := build(t, seat)
		if err != nil {
			return nil, err
		}
		g, events, err := t.State.Apply(a)
		if err != nil {
			return nil, err
		}
		g, actions, events, err := cribbage.Advance(t, g, b.seeds, []cribbage.LoggedAction{{UserID: userID, Action: a}}, events)
		if err != nil {
			return nil, err
		}
		return b.changeFor(t, g, actions, events), nil
	})
	return t, seat, err
}

// changeFor saves g as the table's game and queues what players read.
func (b *Bot) changeFor(t *cribbage.Table, g *engine.State, actions []cribbage.LoggedAction, events []engine.Event) *cribbage.Change {
	before := t.Waiting()
	t.Play(g, b.now())
	return &cribbage.Change{Table: t, Actions: actions, Outbox: append(storyPosts(t, before, events), cribbage.Outbound{ChannelID: t.ChannelID, Kind: kindTable})}
}

// storyChunk is how many bytes of story lines one queued post holds: under
// Discord's 2000 characters, with room for the turn line's mentions.
const storyChunk = 1900

// storyPosts renders events as posts of at most a Discord message each,
// the last mentioning whoever now has to act and was not waiting before
// (so a player is notified once per turn, not on every card).
func storyPosts(t *cribbage.Table, before []int, events []engine.Event) []cribbage.Outbound {
	lines := story(t, events)
	var mentions []string
	seats, verb := waitingFor(t)
	var who []string
	for _, s := range seats {
		if seat := t.Seats[s]; seat.Computer == "" && (!slices.Contains(before, s) || len(lines) > 0) {
			who = append(who, "<@"+seat.UserID+">")
			mentions = append(mentions, seat.UserID)
		}
	}
	if len(who) > 0 {
		lines = append(lines, fmt.Sprintf("%s, your turn to %s.", strings.Join(who, " "), verb))
	}
	var out []cribbage.Outbound
	var chunk []string
	size := 0
	flush := func(last bool) {
		if len(chunk) == 0 {
			return
		}
		p := postPayload{Content: strings.Join(chunk, "\n")}
		if last {
			p.Mentions = mentions
			// The show's picture goes with the change's last post, which
			// holds its breakdown unless the change is very long.
			if show, ok := showPicture(t, events); ok {
				p.Pictures = []picture.Cards{show}
			}
		}
		out = append(out, cribbage.Outbound{ChannelID: t.ChannelID, Kind: kindPost, Payload: p.encode()})
		chunk, size = nil, 0
	}
	for _, l := range lines {
		if size+len(l)+1 > storyChunk {
			flush(false)
		}
		chunk, size = append(chunk, l), size+len(l)+1
	}
	flush(true)
	return out
}

// startGame turns a full lobby into a game: the cut for deal from a fresh
// seed, then the first deal.
func (b *Bot) startGame(t *cribbage.Table) (*cribbage.Change, error) {
	seed := b.seeds()
	g, events, err := engine.New(t.Options, seed)
	if err != nil {
		return nil, err
	}
	g, actions, events, err := cribbage.Advance(t, g, b.seeds, nil, events)
	if err != nil {
		return nil, err
	}
	t.Status, t.CutSeed = cribbage.StatusPlaying, &seed
	ch := b.changeFor(t, g, actions, events)
	ch.Outbox = append([]cribbage.Outbound{{ChannelID: t.ChannelID, Kind: kindThread}}, ch.Outbox...)
	return ch, nil
}
