package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/live"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// reply is a handler's answer: the interaction response, and optionally
// work to do once it is sent.
type reply struct {
	resp  *discordgo.InteractionResponse
	after func(ctx context.Context)
	// tableMessage, when set, is the table whose message the response
	// posts: its id is recorded from Discord's answer.
	tableMessage int64
	// hand, when set, is the seat's hand view the response shows: the
	// interaction's token is recorded as the one that edits it.
	hand *handRef
	// table, when set, is the table whose message the response updates
	// in place, and what it shows: the live surface records it as shown.
	table *tableShown
}

// tableShown is a table and its message as a response renders it, and
// the id of the table's message as the change read it ("" for a message
// the response posts).
type tableShown struct {
	table     *cribbage.Table
	render    render.Message
	messageID string
}

// handRef names the hand view a response shows: a seat's at a table, and
// the table version it shows.
type handRef struct {
	table   int64
	seat    int
	version int64
	// view is the seat's view version the response shows, and shows the
	// view itself.
	view  string
	shows render.Message
}

// answerBudget is how long a handler may take: Discord wants an answer
// within 3 seconds.
const answerBudget = 2500 * time.Millisecond

// onInteraction is the one InteractionCreate handler. discordgo runs it in
// a goroutine of its own per event and never recovers a panic, so this
// recovers, logs with the interaction id, and answers with an apology.
func (b *Bot) onInteraction(runCtx context.Context, ev *discordgo.InteractionCreate) {
	b.handle(runCtx, ev.Interaction, restAnswer{b})
}

// answerer sends an interaction's initial response: over REST when the
// interaction came through the gateway, in the HTTP response when it came
// to the interactions endpoint. tableID, when set, is the table whose
// message the response posts: its id is recorded once Discord has it.
type answerer interface {
	answer(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse, tableID int64, arrived time.Time)
}

// restAnswer answers through Discord's interaction callback route.
type restAnswer struct{ b *Bot }

func (a restAnswer) answer(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse, tableID int64, arrived time.Time) {
	if tableID != 0 {
		a.b.respondTableMessage(ctx, ic, resp, tableID, arrived)
		return
	}
	a.b.respond(ctx, ic, resp)
}

// handle answers one interaction, however it arrived.
func (b *Bot) handle(runCtx context.Context, ic *discordgo.Interaction, ans answerer) {
	// The interaction's tokens are dated from now, on the bot's clock, not
	// from when its answer is sent: see token.
	arrived := b.now()
	if !b.enter() {
		ans.answer(runCtx, ic, render.Ephemeral(refusal.Text(command.Lang(ic), refusal.ErrShuttingDown)), 0, arrived)
		return
	}
	defer b.leave()
	start := time.Now()
	responded := false
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic in interaction handler", "interaction", ic.ID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if !responded {
				ans.answer(runCtx, ic, render.Ephemeral(refusal.Apology(command.Lang(ic))), 0, arrived)
			}
			b.live.Released(ic.ID)
			b.metrics.Observe(interactionKind(ic), "panic", time.Since(start))
		}
	}()
	ctx, cancel := context.WithTimeout(runCtx, answerBudget)
	defer cancel()
	outcome := "ok"
	rep, err := b.routeQueued(ctx, ic)
	if err != nil {
		msg, known := refusal.Words(command.Lang(ic), err)
		if !known {
			outcome = "error"
			b.log.Error("interaction failed", "interaction", ic.ID, "type", ic.Type.String(), "err", err)
		} else {
			outcome = "refused"
			b.log.Debug("interaction refused", "interaction", ic.ID, "err", err)
		}
		rep = reply{resp: render.Ephemeral(msg)}
	}
	ans.answer(runCtx, ic, rep.resp, rep.tableMessage, arrived)
	responded = true
	b.noteEditToken(runCtx, ic, rep.resp, arrived)
	b.noteHandView(runCtx, ic, rep, arrived)
	b.noteTableShown(ic, rep)
	// What the answer showed is recorded: the live surface shows the
	// change on what it left to the answer, if the answer did not.
	b.live.Released(ic.ID)
	b.metrics.Observe(interactionKind(ic), outcome, time.Since(start))
	b.log.Debug("interaction answered", "interaction", ic.ID, "took", time.Since(start))
	if rep.after != nil {
		rep.after(runCtx)
	}
	b.outbox.Wake()
}

// routeQueued routes with at most a few interactions doing their work at
// once. The work is CPU and local disk; when a burst arrives, letting all of
// it run together shares the CPU out so every answer comes late, while a
// short queue answers the first arrivals at once. Sending the answer to
// Discord, which waits on the network, is outside the queue.
func (b *Bot) routeQueued(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	select {
	case b.workers <- struct{}{}:
	case <-ctx.Done():
		return reply{}, ctx.Err()
	}
	defer func() { <-b.workers }()
	return b.route(ctx, ic)
}

// respond sends the interaction response, logging a failure.
func (b *Bot) respond(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse) {
	if resp == nil {
		return
	}
	if err := b.session.InteractionRespond(ic, resp, discordgo.WithContext(ctx)); err != nil {
		b.log.Warn("could not answer interaction", "interaction", ic.ID, "err", err)
	}
}

// respondTableMessage sends a response that posts a table message and
// records the message from Discord's answer (with_response), before any
// announcement of the table can need it.
func (b *Bot) respondTableMessage(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse, tableID int64, arrived time.Time) {
	endpoint := discordgo.EndpointInteractionResponse(ic.ID, ic.Token)
	body, err := b.session.RequestWithBucketID(http.MethodPost, endpoint+"?with_response=true", *resp, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("could not answer interaction", "interaction", ic.ID, "err", err)
		return
	}
	var answer struct {
		Resource struct {
			Message struct {
				ID string `json:"id"`
			} `json:"message"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || answer.Resource.Message.ID == "" {
		b.log.Warn("Discord's answer names no table message", "interaction", ic.ID, "table", tableID, "err", err)
		return
	}
	b.recordTableMessage(ctx, ic, tableID, answer.Resource.Message.ID, arrived)
}

// recordTableMessage records the message an interaction's response posted
// as the table's message, unless the table has one already, and the
// interaction's token as one that can edit it.
func (b *Bot) recordTableMessage(ctx context.Context, ic *discordgo.Interaction, tableID int64, id string, arrived time.Time) {
	if err := b.store.RecordTableMessage(ctx, tableID, id); err != nil {
		b.log.Error("could not record the table message", "interaction", ic.ID, "table", tableID, "err", err)
		return
	}
	b.live.EditToken(ctx, tableID, b.token(ic, id, arrived))
}

// route finds the handler for an interaction. An interaction that names
// no user is refused before any handler sees it.
func (b *Bot) route(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	if uid, _ := command.User(ic); uid == "" && ic.Type != discordgo.InteractionApplicationCommandAutocomplete {
		return reply{}, refusal.ErrNoUser
	}
	switch ic.Type {
	case discordgo.InteractionApplicationCommand:
		data := ic.ApplicationCommandData()
		if data.CommandType == discordgo.UserApplicationCommand {
			return b.menu(ctx, ic)
		}
		if len(data.Options) == 0 {
			return reply{}, refusal.ErrUnknownCommand
		}
		path, _ := command.Invoked(data)
		key := command.Key{Command: data.Name, Sub: path}
		r, ok := commandsByName[key]
		if to, moved := movedRoutes[key]; !ok && moved {
			return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.moved", "To", to))}, nil
		}
		if !ok {
			return reply{}, refusal.ErrUnknownCommand
		}
		if err := r.where.answeredIn(ic); err != nil {
			return reply{}, err
		}
		if err := command.Check(data); err != nil {
			return reply{}, err
		}
		rep, err := r.handle(b, ctx, ic)
		if err != nil && r.command == command.Play {
			err = b.explainCancelled(ctx, ic, b.namedTable(ctx, ic), err)
		}
		return rep, err
	case discordgo.InteractionApplicationCommandAutocomplete:
		resp, err := b.club.Autocomplete(ctx, ic)
		return reply{resp: resp}, err
	case discordgo.InteractionMessageComponent:
		return b.click(ctx, ic, ic.MessageComponentData().CustomID)
	case discordgo.InteractionModalSubmit:
		return b.click(ctx, ic, ic.ModalSubmitData().CustomID)
	}
	return reply{}, errors.New("bot: unknown interaction type")
}

// namedTable is the table a command is about, for explaining its refusal:
// the one its table option names, else the one whose thread it was used
// in, else 0.
func (b *Bot) namedTable(ctx context.Context, ic *discordgo.Interaction) int64 {
	if o, ok := command.Options(ic)["table"]; ok {
		return o.IntValue()
	}
	id, _ := b.place.Thread(ctx, ic)
	return id
}

// menu routes a user context-menu command by its name. Discord sends no
// options with one: the person is data.target_id, resolved.
func (b *Bot) menu(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	data := ic.ApplicationCommandData()
	r, ok := commandsByName[command.Key{Command: data.Name, Sub: ""}]
	switch {
	case !ok || len(data.Options) != 0:
		return reply{}, refusal.ErrUnknownCommand
	case ic.GuildID == "":
		return reply{}, refusal.ErrNotInGuild
	case data.TargetID == "":
		return reply{}, refusal.ErrNoTarget
	}
	return r.handle(b, ctx, ic)
}

// click routes a button or form by its custom_id.
func (b *Bot) click(ctx context.Context, ic *discordgo.Interaction, customID string) (reply, error) {
	c, err := click.Parse(customID)
	if err != nil {
		return reply{}, err
	}
	r := clickByAction[c.Action]
	if err := r.where.answeredIn(ic); err != nil {
		return reply{}, err
	}
	if click.Daily(c.Action) {
		// The daily hand's buttons name a day, not a table.
		return r.handle(b, ctx, ic, c)
	}
	// A table's button is answered wherever the table is: the handler's
	// place check (package place) refuses it anywhere else.
	rep, err := r.handle(b, ctx, ic, c)
	return rep, b.explainCancelled(ctx, ic, c.Table, err)
}

// logger returns the bot's logger with the interaction id.
func (b *Bot) logger(ic *discordgo.Interaction) *slog.Logger { return b.log.With("interaction", ic.ID) }

// After an interaction is answered, the tokens that can edit what the
// answer showed are handed to the live surface. Discord lets the bot edit
// an interaction's original response through its token for 15 minutes,
// outside the 50 requests a second the bot token is allowed in all. The
// original response of /cribbage start is the table message, as is the
// message whose button a response updates (Join, Start, Claim the win);
// a hand view is the original response of the click that showed it. So
// the table message and every open view cost the bot token nothing while
// their tokens live, and the story has its budget.

// noteEditToken records, after a click on a public message has been
// answered by updating that message, the click's token as one that can
// edit the message.
func (b *Bot) noteEditToken(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse, arrived time.Time) {
	if ic.Type != discordgo.InteractionMessageComponent || ic.Message == nil || ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0 ||
		resp == nil || (resp.Type != discordgo.InteractionResponseUpdateMessage && resp.Type != discordgo.InteractionResponseDeferredMessageUpdate) {
		return
	}
	c, err := click.Parse(ic.MessageComponentData().CustomID)
	if err != nil || c.Table == 0 {
		return
	}
	b.live.EditToken(ctx, c.Table, b.token(ic, ic.Message.ID, arrived))
}

// noteHandView hands the live surface, after a response that showed a
// player their hand view, the interaction's token as the one that edits
// that view: a new private message (the token's original response) or the
// view the click was on (which an update makes the original response).
func (b *Bot) noteHandView(ctx context.Context, ic *discordgo.Interaction, rep reply, arrived time.Time) {
	if rep.hand == nil || rep.resp == nil || rep.resp.Data == nil || rep.resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		return
	}
	id, clicked := "", ""
	switch rep.resp.Type {
	case discordgo.InteractionResponseUpdateMessage:
		if ic.Message == nil {
			return
		}
		id, clicked = ic.Message.ID, ic.Message.Content
	case discordgo.InteractionResponseChannelMessageWithSource:
	default:
		return
	}
	h := rep.hand
	b.live.Answered(ctx, live.Shown{Table: h.table, Seat: h.seat, Version: h.version, View: h.view, Token: b.token(ic, id, arrived),
		Clicked: clicked, Shows: &h.shows, Lang: command.Lang(ic)})
}

// noteTableShown records, after an answer that posted a table's message
// or updated it in place (a click on it), what the answer showed as what
// the message shows, so that no pass edits it to that again.
func (b *Bot) noteTableShown(ic *discordgo.Interaction, rep reply) {
	s := rep.table
	if s == nil || rep.resp == nil {
		return
	}
	posted := rep.resp.Type == discordgo.InteractionResponseChannelMessageWithSource && rep.tableMessage == s.table.ID
	updated := rep.resp.Type == discordgo.InteractionResponseUpdateMessage && ic.Message != nil && s.messageID != "" && ic.Message.ID == s.messageID
	if posted || updated {
		b.live.TableAnswered(s.table, s.render)
	}
}

// token is ic's token as one that edits message id, dated when ic
// arrived: its life counts from then (Discord made it moments before), and
// of a seat's views, or a table message's tokens, the store keeps the
// newest by that date. Dated when the answer had been sent, a click
// answered slowly outdated a later one answered quickly: a player who
// played a card from one view and at once opened another had the older
// view recorded, and kept current, while the one they looked at stood
// still.
func (b *Bot) token(ic *discordgo.Interaction, id string, arrived time.Time) cribbage.MessageToken {
	return cribbage.MessageToken{MessageID: id, Token: ic.Token, At: arrived}
}

// interactionKind names an interaction for the metrics: the subcommand or
// the button's action, never anything a user typed.
func interactionKind(ic *discordgo.Interaction) string {
	switch ic.Type {
	case discordgo.InteractionApplicationCommand:
		data := ic.ApplicationCommandData()
		if data.CommandType == discordgo.UserApplicationCommand {
			if _, ok := commandsByName[command.Key{Command: data.Name, Sub: ""}]; ok {
				return "menu:challenge"
			}
			return "menu:unknown"
		}
		if len(data.Options) > 0 {
			if r, ok := commandsByName[command.Key{Command: data.Name, Sub: data.Options[0].Name}]; ok {
				// /cribbage's subcommands by name alone, as before the
				// other commands came; theirs with the command.
				if r.command == command.Play {
					return "command:" + r.name
				}
				return "command:" + r.command + " " + r.name
			}
		}
		return "command:unknown"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		var id string
		if ic.Type == discordgo.InteractionModalSubmit {
			id = ic.ModalSubmitData().CustomID
		} else {
			id = ic.MessageComponentData().CustomID
		}
		if c, err := click.Parse(id); err == nil {
			return "click:" + string(c.Action)
		}
		return "click:unknown"
	}
	return "other"
}
