// Package replay plays a finished table's log again and draws it a hand a
// page (/cribbage replay): the hand as the thread told it, a picture of
// the deal with each throw, and the board after it. Like render, which it
// draws with, it is pure: a table and its log in, message data out.
package replay

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// ErrNoHand means a game has no finished hand to replay yet.
var ErrNoHand = errors.New("replay: no hand to replay")

// Hand is one finished hand of a game, as a replay shows it.
type Hand struct {
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

// Hands plays a table's log again from its start and returns every hand
// that is over, told in l: a hand still being played is never shown.
func Hands(l lang.Lang, t *cribbage.Table, actions []cribbage.LoggedAction) ([]Hand, error) {
	g, err := replayStart(t, actions)
	if err != nil {
		return nil, err
	}
	var hands []Hand
	var cur *Hand
	for _, la := range actions {
		next, events, err := g.Apply(la.Action)
		if err != nil {
			return nil, fmt.Errorf("bot: replay table %d: %w", t.ID, err)
		}
		if la.Action.Kind == engine.ActDeal {
			cur = &Hand{no: next.HandNo, dealer: next.Dealer, dealt: slices.Clone(next.Hands)}
		}
		if cur == nil {
			g = next
			continue
		}
		if g.Phase == engine.PhaseDiscard && next.Phase != engine.PhaseDiscard {
			cur.thrown, cur.starter = slices.Clone(next.Discards), next.Starter
		}
		for _, e := range events {
			if line := render.StoryLine(l, t, e); line != "" {
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

// replayStart is the game before its first logged action
// (cribbage.GameStart), or ErrNoHand for a table whose log has no deal.
func replayStart(t *cribbage.Table, actions []cribbage.LoggedAction) (*engine.State, error) {
	g, err := cribbage.GameStart(t, actions)
	if errors.Is(err, cribbage.ErrUnaccounted) {
		return nil, ErrNoHand
	}
	return g, err
}

// maxDescription is Discord's limit on an embed's description.
const maxDescription = 4096

// Page is page n of a replay, in l: the hand as told, a picture of the
// deal with each throw, and the board after the hand; buttons page on.
func Page(l lang.Lang, t *cribbage.Table, hands []Hand, n int) render.Message {
	h := hands[n-1]
	var lines []string
	for i, line := range h.lines {
		lines = append(lines, line)
		if i == 0 { // after the deal: what each was dealt and threw
			for k := range t.Seats {
				seat := (h.dealer + 1 + k) % len(t.Seats)
				if h.thrown != nil {
					lines = append(lines, l.T("replay.dealt", "Name", render.SeatName(t, seat), "Dealt", engine.DisplayCards(h.dealt[seat].Cards()), "Thrown", engine.DisplayCards(h.thrown[seat].Cards())))
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
			row.Note = l.T("replay.threw", "Cards", engine.DisplayCards(h.thrown[seat].Cards()))
		}
		deal.Hands = append(deal.Hands, row)
	}
	board := render.BoardAt(l, t, h.scores, h.back, h.result)
	board.Title = l.T("replay.after", "N", h.no)
	embeds := []*discordgo.MessageEmbed{
		{Title: l.T("replay.title", "ID", t.ID, "Hand", n, "Hands", len(hands)), Color: 0x2e7d32, Description: desc,
			Image: &discordgo.MessageEmbedImage{URL: "attachment://deal.png"}},
		{Color: 0x2e7d32, Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}},
	}
	files := []*discordgo.File{
		{Name: "deal.png", ContentType: "image/png", Reader: bytes.NewReader(deal.PNG())},
		{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(board.PNG())},
	}
	buttons := []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("replay.previous"), Style: discordgo.SecondaryButton, Disabled: n == 1,
			CustomID: click.ID{Action: click.Replay, Table: t.ID, Index: n - 1}.String()},
		discordgo.Button{Label: l.T("replay.next"), Style: discordgo.PrimaryButton, Disabled: n == len(hands),
			CustomID: click.ID{Action: click.Replay, Table: t.ID, Index: n + 1}.String()},
	}
	return render.Message{Embeds: embeds, Files: files, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}},
		Attachments: []*discordgo.MessageAttachment{{ID: "0", Filename: "deal.png"}, {ID: "1", Filename: "board.png"}}}
}
