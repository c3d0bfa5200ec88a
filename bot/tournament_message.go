package bot

import (
	"context"
	"encoding/json"
	"fmt"
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
	id, err := b.store.TournamentMessage(ctx, t.ID)
	if err != nil {
		return err
	}
	r := render.Tournament(t, tables)
	if id == "" {
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
	} else {
		e := r.Edit(t.ChannelID, id)
		if _, err := b.rest.Do(ctx, rest.Request{Method: http.MethodPatch, URL: discordgo.EndpointChannelMessage(t.ChannelID, id),
			Bucket: rest.EditBucket(t.ChannelID), Route: "PATCH /channels/{channel}/messages/{message}", Body: e, Files: e.Files}); err != nil {
			return err
		}
	}
	return b.store.MarkTournamentShown(ctx, t.ID, id, t.Version)
}
