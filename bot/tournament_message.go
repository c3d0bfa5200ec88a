package bot

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// showTournaments brings every tournament message that is behind up to
// date, posting it the first time (under a nonce, so a retry after a lost
// answer does not post it twice).
func (b *Bot) showTournaments(ctx context.Context) {
	b.tourMu.Lock()
	defer b.tourMu.Unlock()
	list, err := b.store.TournamentsToShow(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Warn("cannot list tournaments to show", "err", err)
		}
		return
	}
	for _, t := range list {
		if err := b.showTournament(ctx, t); err != nil && ctx.Err() == nil {
			b.log.Info("tournament message not updated; the next pass retries", "tournament", t.ID, "err", err)
		}
	}
}

// showTournament posts or edits one tournament's message.
func (b *Bot) showTournament(ctx context.Context, t *cribbage.Tournament) error {
	tables, err := b.store.TournamentTables(ctx, t.ID)
	if err != nil {
		return err
	}
	r := render.Tournament(t, tables)
	sum, err := messageSum(r)
	if err != nil {
		return err
	}
	id := t.MessageID
	switch {
	case id != "" && b.tourShown[t.ID] == sum:
		// A change that leaves the message as it is: it is shown.
	case id == "":
		send := r.Send()
		body := rest.MessageCreate{MessageSend: send, Nonce: fmt.Sprintf("tour%d", t.ID), EnforceNonce: true}
		raw, err := b.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(t.ChannelID),
			Bucket: rest.PostBucket(t.ChannelID), Route: "POST /channels/{channel}/messages", Body: body, Files: send.Files})
		if err != nil {
			return err
		}
		var m discordgo.Message
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		id = m.ID
		if m.Content != r.Content {
			// The nonce answered with the message an earlier pass
			// posted, which may show less: it is not known to show r.
			sum = [32]byte{}
		}
	default:
		e := r.Edit(t.ChannelID, id)
		if _, err := b.rest.Do(ctx, rest.Request{Method: http.MethodPatch, URL: discordgo.EndpointChannelMessage(t.ChannelID, id),
			Bucket: rest.EditBucket(t.ChannelID), Route: "PATCH /channels/{channel}/messages/{message}", Body: e, Files: e.Files}); err != nil {
			return err
		}
	}
	if b.tourShown == nil {
		b.tourShown = map[int64][32]byte{}
	}
	b.tourShown[t.ID] = sum
	if !t.Status.Open() {
		defer delete(b.tourShown, t.ID) // nothing changes it any more
	}
	return b.store.MarkTournamentShown(ctx, t.ID, id, t.Version)
}

// messageSum is a digest of what a rendered message shows: its text,
// embeds and buttons, and its files' bytes (read, then rewound for the
// request that sends them).
func messageSum(r render.Message) ([32]byte, error) {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode([]any{r.Content, r.Embeds, r.Components}); err != nil {
		return [32]byte{}, err
	}
	for _, f := range r.Files {
		fmt.Fprintf(h, "%s\n", f.Name)
		if _, err := io.Copy(h, f.Reader); err != nil {
			return [32]byte{}, err
		}
		if s, ok := f.Reader.(io.Seeker); ok {
			if _, err := s.Seek(0, io.SeekStart); err != nil {
				return [32]byte{}, err
			}
		}
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out, nil
}
