package render

import (
	"bytes"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// boardFile is the board picture's name on the table message.
const boardFile = "board.png"

// boardOf is the board of a table's game, labelled in l, or false
// before the game.
func boardOf(l lang.Lang, t *cribbage.Table) (picture.Board, bool) {
	if g := t.State; g != nil {
		return BoardAt(l, t, g.Scores, g.Back, g.Result), true
	}
	return picture.Board{}, false
}

// BoardAt is the table's board with the pegs at scores and back (the back
// pegs at the front ones for a game saved before they were kept), and the
// winner and skunks of result if the game is over, labelled in l.
func BoardAt(l lang.Lang, t *cribbage.Table, scores, back []int, result *engine.Result) picture.Board {
	// A partnership is two: "Bob & Dee win".
	wins, skunked := "picture.wins", "picture.skunked"
	if t.Options.Partners {
		wins, skunked = "picture.wins-partners", "picture.skunked-partners"
	}
	b := picture.Board{Target: t.Options.Target, Words: picture.BoardWords{Wins: l.T(wins), Skunked: l.T(skunked),
		DoubleSkunk: l.T("picture.double-skunk"), SkunkLine: l.T("picture.skunk-line"), DoubleSkunkLine: l.T("picture.double-skunk-line")}}
	for side := range t.Options.Sides() {
		s := picture.Side{Name: sideName(t, side), Score: scores[side], Back: scores[side]}
		if len(back) == len(scores) {
			s.Back = back[side]
		}
		if result != nil {
			s.Winner = result.Winner == side
			if side < len(result.Skunks) {
				s.Skunk = result.Skunks[side]
			}
		}
		b.Sides = append(b.Sides, s)
	}
	return b
}

// showBoard shows, in the table's container, the board picture the
// message already has (board, its key, says so): an edit that sends no
// files keeps the message's attachments.
func showBoard(r *Message, t *cribbage.Table, board string) {
	if board != "" && t.State != nil {
		r.withPicture(boardFile)
	}
}

// UploadBoard puts a freshly drawn board on r, labelled in r's language
// l, replacing any picture the message had, and returns its key; "" when
// the table has no game yet.
func UploadBoard(l lang.Lang, r *Message, t *cribbage.Table) string {
	b, ok := boardOf(l, t)
	if !ok {
		return ""
	}
	r.withPicture(boardFile)
	r.Files = []*discordgo.File{{Name: boardFile, ContentType: "image/png", Reader: bytes.NewReader(b.PNG())}}
	r.Attachments = []*discordgo.MessageAttachment{{ID: "0", Filename: boardFile}}
	return b.Key()
}

// BoardKey is the key of the board a table's message in l should show,
// or "".
func BoardKey(l lang.Lang, t *cribbage.Table) string {
	if b, ok := boardOf(l, t); ok {
		return b.Key()
	}
	return ""
}

// showPicture is the picture of the hands counted among events: each hand
// (and the crib) beside the starter, with its points or the claim.
func showPicture(l lang.Lang, t *cribbage.Table, events []engine.Event) (picture.Cards, bool) {
	p := picture.Cards{FourColour: t.FourColour}
	for _, e := range events {
		if e.Kind != engine.EvShow && e.Kind != engine.EvClaim {
			continue
		}
		label := whose(l, t, e)
		note := l.N("picture.points", e.Points)
		if e.Kind == engine.EvClaim {
			note = l.T("picture.claims", "Claimed", e.Claimed)
		}
		p.Starter = e.Card
		p.Hands = append(p.Hands, picture.Hand{Label: label, Cards: e.Cards, Note: note})
	}
	return p, len(p.Hands) > 0
}

// pictureName is the file name of a post's picture i.
func pictureName(i int) string { return fmt.Sprintf("show-%d.png", i+1) }

// PictureFiles draws a post's pictures as files to upload with it.
func PictureFiles(pictures []picture.Cards) []*discordgo.File {
	var files []*discordgo.File
	for i, p := range pictures {
		files = append(files, &discordgo.File{Name: pictureName(i), ContentType: "image/png", Reader: bytes.NewReader(p.PNG())})
	}
	return files
}
