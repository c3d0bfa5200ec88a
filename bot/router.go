package bot

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/answer"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/intake"
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
	hand *live.Shown
	// table, when set, is the table message as the response renders it:
	// the live surface records it as shown when the response posts or
	// updates that message.
	table *answer.TableShown
}

// answerBudget is how long a handler may take: Discord wants an answer
// within 3 seconds.
const answerBudget = 2500 * time.Millisecond

// onInteraction is the gateway's InteractionCreate handler, which
// discordgo calls itself (gateway.Open). discordgo runs it in a goroutine
// of its own per event and never recovers a panic: handle recovers, logs
// with the interaction id, and answers with an apology.
func (b *Bot) onInteraction(_ *discordgo.Session, ev *discordgo.InteractionCreate) {
	b.mu.Lock()
	runCtx := b.gatewayCtx
	b.mu.Unlock()
	b.handle(runCtx, ev.Interaction, intake.Out{}, b.send)
}

// InteractionsHandler returns the handler for the Interactions Endpoint
// URL, verifying every request against the application's public key (the
// hex key of the Developer Portal). It answers 503 until Run has started.
// An interaction that arrives there is answered as one from the gateway
// (onInteraction), with its answer in the HTTP response.
func (b *Bot) InteractionsHandler(publicKey ed25519.PublicKey) http.Handler {
	return intake.New(publicKey, b.now, &b.gate, func(ctx context.Context, ic *discordgo.Interaction, out intake.Out) {
		b.handle(ctx, ic, out, b.send)
	})
}

// handle answers one interaction, however it arrived (out is where an
// answer over HTTP goes), with send (b.send, but for tests).
func (b *Bot) handle(runCtx context.Context, ic *discordgo.Interaction, out intake.Out, send answer.Send) {
	// The interaction's tokens are dated from now, on the bot's clock, not
	// from when its answer is sent: see token.
	arrived := b.now()
	// A handler about to draw may defer its answer ahead of it: over
	// HTTP in the HTTP response, else through the callback route.
	var callback func(context.Context, *discordgo.InteractionResponse) bool
	if out.Body == nil {
		callback = answer.Callback(b.rest, b.now, arrived, b.log, ic)
	}
	runCtx = answer.Awaiting(runCtx, out, callback)
	if !b.enter() {
		send(runCtx, ic, out, render.Ephemeral(refusal.Text(command.Lang(ic), refusal.ErrShuttingDown)), false)
		return
	}
	defer b.leave()
	start := time.Now()
	responded := false
	// took is the answer's time, as Discord waits for it, which the
	// metric records: not the bookkeeping that follows the answer.
	var took time.Duration
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic in interaction handler", "interaction", ic.ID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if !responded {
				send(runCtx, ic, out, render.Ephemeral(refusal.Apology(command.Lang(ic))), false)
			}
			b.live.Released(ic.ID)
			if !responded {
				took = time.Since(start)
			}
			b.metrics.Observe(interactionKind(ic), "panic", took)
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
	sent := answer.Reply{Resp: rep.resp, TableMessage: rep.tableMessage, Hand: rep.hand, Table: rep.table}
	b.tokens.Settle(ctx, ic, sent)
	posted := send(runCtx, ic, out, rep.resp, rep.tableMessage != 0)
	responded, took = true, time.Since(start)
	b.tokens.Sent(runCtx, ic, sent, posted, arrived)
	// What the answer showed is recorded: the live surface shows the
	// change on what it left to the answer, if the answer did not.
	b.live.Released(ic.ID)
	b.metrics.Observe(interactionKind(ic), outcome, took)
	b.log.Debug("interaction answered", "interaction", ic.ID, "took", took)
	if rep.after != nil {
		rep.after(runCtx)
	}
	b.outbox.Wake()
}

// Admission: whether the bot takes interactions, here and at readiness.

// enter admits a handler unless the bot is shutting down.
func (b *Bot) enter() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopping() {
		return false
	}
	b.inflight.Add(1)
	return true
}

// leave marks a handler done.
func (b *Bot) leave() { b.inflight.Done() }

// Serving reports whether the bot takes interactions: it has connected,
// and is not shutting down. Readiness follows it, and so does the
// Interactions Endpoint (both look at the gate), so a load balancer sends
// nothing the bot would refuse.
func (b *Bot) Serving() bool {
	_, ok := b.gate.Taking()
	return ok
}

// stopping reports whether the shutdown has begun: Run's context has
// ended, even if Run has not yet woken to set closing. An interaction
// from the gateway is refused from that moment, as the gate refuses one
// over HTTP, not from whenever the scheduler runs Run again. b.mu must be
// held.
func (b *Bot) stopping() bool {
	return b.closing || (b.stop != nil && b.stop.Err() != nil)
}

// routeQueued routes with at most a few interactions doing their work at
// once. The work is CPU and local disk; when a burst arrives, letting all of
// it run together shares the CPU out so every answer comes late, while a
// short queue answers the first arrivals at once. Sending the answer to
// Discord, which waits on the network, is outside the queue.
//
// How long each waited is a metric (cribbage_interaction_queued_seconds):
// under load, most of a slow answer's time is spent here waiting for the
// CPU, not in its handler.
func (b *Bot) routeQueued(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	waiting := time.Now()
	select {
	case b.workers <- struct{}{}:
	case <-ctx.Done():
		return reply{}, ctx.Err()
	}
	defer func() { <-b.workers }()
	b.metrics.Queued(time.Since(waiting))
	return b.route(ctx, ic)
}

// route finds the handler for an interaction. An interaction that names
// no user is refused before any handler sees it.
func (b *Bot) route(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	if !namesUser(ic) && ic.Type != discordgo.InteractionApplicationCommandAutocomplete {
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

// namesUser reports whether ic names the user who made it, where
// command.User reads it: the member's user in a server, the user
// elsewhere. Every handler may take it that its interaction does.
func namesUser(ic *discordgo.Interaction) bool {
	u := ic.User
	if ic.Member != nil && ic.Member.User != nil {
		u = ic.Member.User
	}
	return u != nil && u.ID != ""
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
	// A table's button is answered wherever the table is: the handler's
	// place check (package place) refuses it anywhere else. A refusal at a
	// cancelled table says it was cancelled; the daily hand's buttons name
	// a day, not a table.
	rep, err := r.handle(b, ctx, ic, c)
	if err != nil && !click.Daily(c.Action) {
		err = b.explainCancelled(ctx, ic, c.Table, err)
	}
	return rep, err
}

// answeredIn reports whether a route is answered where ic was made, or
// the refusal that says what works there: a route for servers alone is
// answered in a server the bot is in, and refused in a DM and where only
// a user's install reaches.
func (w where) answeredIn(ic *discordgo.Interaction) error {
	switch {
	case w == anywhere:
		return nil
	case ic.GuildID == "":
		return refusal.ErrNotInGuild
	case command.TokenOnly(ic):
		return refusal.ErrOnlyInstalled
	}
	return nil
}

// logger returns the bot's logger with the interaction id.
func (b *Bot) logger(ic *discordgo.Interaction) *slog.Logger { return b.log.With("interaction", ic.ID) }

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
