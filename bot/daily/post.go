package daily

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/bot/sender"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// Post queues, for every server whose hour has come, the day's post: the
// day's hand, and the reveal of the day before if anyone there answered
// it. The bot's timers call it on every pass. Each post is claimed in the
// transaction that queues it (ClaimDailyPost), so a server gets one a day
// however many processes pass, and across restarts.
func (a *Answers) Post(ctx context.Context, now time.Time) {
	day := cribbage.DayOf(now)
	due, err := a.Store.DailyDue(ctx, day, now.UTC().Hour())
	if err != nil {
		if ctx.Err() == nil {
			a.Log.Error("daily hand: cannot read the servers due", "err", err)
		}
		return
	}
	if len(due) == 0 {
		return
	}
	// The day's hand and the day before's, dealt once for every server.
	hands := [2]ai.Daily{}
	for i, dd := range []cribbage.Day{day, day - 1} {
		if hands[i], err = hand(dd); err != nil {
			a.Log.Error("daily hand: cannot deal", "day", dd, "err", err)
			return
		}
	}
	for _, ds := range due {
		out, err := a.post(ctx, ds, day, hands[0], hands[1])
		if err == nil {
			_, err = a.Store.ClaimDailyPost(ctx, ds.GuildID, day, out)
		}
		if err != nil && ctx.Err() == nil {
			a.Log.Error("daily hand: cannot post", "guild", ds.GuildID, "day", day, "err", err)
		}
	}
}

// post is a server's post of day, as queued: today's hand d, and the
// reveal of y, the day before's.
func (a *Answers) post(ctx context.Context, ds cribbage.DailySettings, day cribbage.Day, d, y ai.Daily) ([]cribbage.Outbound, error) {
	var reveal *Reveal
	answers, err := a.Store.DailyAnswers(ctx, ds.GuildID, day-1)
	if err != nil {
		return nil, err
	}
	if len(answers) > 0 {
		// The month as it stands with yesterday revealed: today's hand is
		// still open, so none of its answers is in it.
		month, err := a.Store.DailyTotals(ctx, ds.GuildID, (day - 1).MonthStart(), day)
		if err != nil {
			return nil, err
		}
		reveal = &Reveal{Hand: y, Day: day - 1, Answers: answers, Month: month}
	}
	body, err := json.Marshal(BodyOf(Post(a.speak(ctx, ds.GuildID), d, day, reveal)))
	if err != nil {
		return nil, err
	}
	return []cribbage.Outbound{{ChannelID: ds.ChannelID, Kind: Kind, Payload: string(body)}}, nil
}

// postBody is a queued post as sent: its parts kept as queued, and the
// nonce that makes a resend (after a lost answer, or a crash) the same
// message.
type postBody struct {
	Content         string          `json:"content"`
	Embeds          json.RawMessage `json:"embeds,omitempty"`
	Components      json.RawMessage `json:"components,omitempty"`
	AllowedMentions json.RawMessage `json:"allowed_mentions"`
	Nonce           string          `json:"nonce"`
	EnforceNonce    bool            `json:"enforce_nonce"`
}

// Deliver sends the daily posts in the outbox and hands every other
// announcement to next (the story's).
func (a *Answers) Deliver(next sender.Deliverer) sender.Deliverer {
	return func(ctx context.Context, it cribbage.OutboxItem) ([]int64, error) {
		if it.Kind != Kind {
			return next(ctx, it)
		}
		return nil, a.deliver(ctx, it)
	}
}

// deliver posts one daily post, as Discord's limits allow, under a nonce
// of its own.
func (a *Answers) deliver(ctx context.Context, it cribbage.OutboxItem) error {
	var body postBody
	if err := json.Unmarshal([]byte(it.Payload), &body); err != nil {
		return fmt.Errorf("%w: daily post %d: %v", sender.ErrGiveUp, it.ID, err)
	}
	body.Nonce, body.EnforceNonce = fmt.Sprintf("cd%d", it.ID), true
	bucket := rest.PostBucket(it.ChannelID)
	// The sender tries the post again until it goes: it keeps its place
	// among the requests the global budget holds back.
	turn := rest.OutboxTurn(it.ID)
	if until, ok := a.REST.Limits.Ready(bucket, turn, rest.BotToken); !ok {
		return &rest.Paced{Until: until}
	}
	_, err := a.REST.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(it.ChannelID),
		Bucket: bucket, Route: "POST /channels/{channel}/messages", Body: body, Turn: turn})
	return err
}
