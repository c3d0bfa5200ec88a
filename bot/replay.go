package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// The replay's refusals.
var (
	errNoReplay      = errors.New("bot: no hand to replay")
	errReplayPlayers = errors.New("bot: a game in progress is replayed by its players only")
)

// replayHand is one finished hand of a game, as a replay shows it.
type replayHand struct {
	no, dealer int
	// dealt and thrown are each seat's cards as dealt and thrown to the
	// crib; starter is the cut.
	dealt, thrown []engine.CardSet
	starter       engine.Card
	// lines tell the hand as the thread told it: the deal, the play and
	// the show.
	lines []string
	// scores and back are the pegs after the hand; result ends the game.
	scores, back []int
	result       *engine.Result
}

// replayHands plays a table's log again from its start and returns every
// hand that is over: a hand still being played is never shown.
func replayHands(t *cribbage.Table, actions []cribbage.LoggedAction) ([]replayHand, error) {
	g, err := replayStart(t, actions)
	if err != nil {
		return nil, err
	}
	var hands []replayHand
	var cur *replayHand
	for _, la := range actions {
		next, events, err := g.Apply(la.Action)
		if err != nil {
			return nil, fmt.Errorf("bot: replay table %d: %w", t.ID, err)
		}
		if la.Action.Kind == engine.ActDeal {
			cur = &replayHand{no: next.HandNo, dealer: next.Dealer, dealt: slices.Clone(next.Hands)}
		}
		if cur == nil {
			g = next
			continue
		}
		if g.Phase == engine.PhaseDiscard && next.Phase != engine.PhaseDiscard {
			cur.thrown, cur.starter = slices.Clone(next.Discards), next.Starter
		}
		for _, e := range events {
			if line := render.StoryLine(t, e); line != "" {
				cur.lines = append(cur.lines, line)
			}
			if e.Kind == engine.EvHandOver || e.Kind == engine.EvGameOver {
				cur.scores, cur.back, cur.result = slices.Clone(next.Scores), slices.Clone(next.Back), next.Result
				hands = append(hands, *cur)
				cur = nil
				break
			}
		}
		g = next
	}
	return hands, nil
}

// replayStart is the game before its first logged action: cut for deal
// from the table's seed, or, for a rematch (no cut), dealt first by whoever
// made the first deal.
func replayStart(t *cribbage.Table, actions []cribbage.LoggedAction) (*engine.State, error) {
	if t.CutSeed != nil {
		g, _, err := engine.New(t.Options, *t.CutSeed)
		return g, err
	}
	for _, la := range actions {
		if la.Action.Kind == engine.ActDeal {
			return engine.NewWithDealer(t.Options, la.Action.Seat)
		}
	}
	return nil, errNoReplay
}

// mayReplay says whether uid may see a table's replay: anyone in its
// channel once the game is over, only its players while it is on.
func mayReplay(t *cribbage.Table, ic *discordgo.Interaction, uid string) error {
	switch {
	case !here(t, ic):
		return errNotHere
	case t.State == nil:
		return errNoReplay
	case t.Status == cribbage.StatusPlaying && t.SeatOf(uid) < 0:
		return errReplayPlayers
	}
	return nil
}

// cmdReplay opens a game's replay at its first hand: the table named, or
// the caller's game in progress here.
func (b *Bot) cmdReplay(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.pickTable(ctx, ic, func(t *cribbage.Table, uid string) bool { return t.Status == cribbage.StatusPlaying }, false)
	if err != nil {
		return reply{}, err
	}
	return b.replayPage(ctx, ic, id, 1, false)
}

// clickReplay turns a replay's page, or opens it from a finished table's
// Replay button.
func (b *Bot) clickReplay(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	update := ic.Message != nil && ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0
	return b.replayPage(ctx, ic, c.Table, c.Index, update)
}

// replayPage answers with hand n of a table's replay, as a new private
// message or in place of the page shown.
func (b *Bot) replayPage(ctx context.Context, ic *discordgo.Interaction, id int64, n int, update bool) (reply, error) {
	uid, _ := user(ic)
	t, err := b.store.Table(ctx, id)
	if err != nil {
		return reply{}, err
	}
	if err := mayReplay(t, ic, uid); err != nil {
		return reply{}, err
	}
	actions, err := b.store.Actions(ctx, id)
	if err != nil {
		return reply{}, err
	}
	hands, err := replayHands(t, actions)
	if err != nil {
		return reply{}, err
	}
	if len(hands) == 0 {
		return reply{}, errNoReplay
	}
	n = min(max(n, 1), len(hands))
	r := renderReplay(t, hands, n)
	kind := discordgo.InteractionResponseChannelMessageWithSource
	if update {
		kind = discordgo.InteractionResponseUpdateMessage
	}
	return reply{resp: &discordgo.InteractionResponse{Type: kind, Data: r.Response(true)}}, nil
}

// maxDescription is Discord's limit on an embed's description.
const maxDescription = 4096

// renderReplay is page n of a replay: the hand as told, a picture of the
// deal with each throw, and the board after the hand; buttons page on.
func renderReplay(t *cribbage.Table, hands []replayHand, n int) render.Message {
	h := hands[n-1]
	var lines []string
	for i, line := range h.lines {
		lines = append(lines, line)
		if i == 0 { // after the deal: what each was dealt and threw
			for k := range t.Seats {
				seat := (h.dealer + 1 + k) % len(t.Seats)
				if h.thrown != nil {
					lines = append(lines, fmt.Sprintf("%s was dealt %s and threw %s.", render.SeatName(t, seat), engine.DisplayCards(h.dealt[seat].Cards()), engine.DisplayCards(h.thrown[seat].Cards())))
				}
			}
		}
	}
	desc := strings.Join(lines, "\n")
	if len([]rune(desc)) > maxDescription {
		desc = string([]rune(desc)[:maxDescription-1]) + "…"
	}
	deal := picture.Cards{FourColour: t.FourColour}
	for k := range t.Seats {
		seat := (h.dealer + 1 + k) % len(t.Seats)
		row := picture.Hand{Label: render.SeatName(t, seat), Cards: h.dealt[seat].Cards()}
		if h.thrown != nil {
			row.Note = "threw " + engine.DisplayCards(h.thrown[seat].Cards())
		}
		deal.Hands = append(deal.Hands, row)
	}
	board := render.BoardAt(t, h.scores, h.back, h.result)
	board.Title = fmt.Sprintf("After hand %d", h.no)
	embeds := []*discordgo.MessageEmbed{
		{Title: fmt.Sprintf("Replay · table %d · hand %d of %d", t.ID, n, len(hands)), Color: 0x2e7d32, Description: desc,
			Image: &discordgo.MessageEmbedImage{URL: "attachment://deal.png"}},
		{Color: 0x2e7d32, Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}},
	}
	files := []*discordgo.File{
		{Name: "deal.png", ContentType: "image/png", Reader: bytes.NewReader(picture.PNG(deal.Render()))},
		{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(picture.PNG(board.Render()))},
	}
	buttons := []discordgo.MessageComponent{
		discordgo.Button{Label: "◀ Previous hand", Style: discordgo.SecondaryButton, Disabled: n == 1,
			CustomID: click.ID{Action: click.Replay, Table: t.ID, Index: n - 1}.String()},
		discordgo.Button{Label: "Next hand ▶", Style: discordgo.PrimaryButton, Disabled: n == len(hands),
			CustomID: click.ID{Action: click.Replay, Table: t.ID, Index: n + 1}.String()},
	}
	return render.Message{Embeds: embeds, Files: files, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}},
		Attachments: []*discordgo.MessageAttachment{{ID: "0", Filename: "deal.png"}, {ID: "1", Filename: "board.png"}}}
}
