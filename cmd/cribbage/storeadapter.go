package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cribbage-bot/cribbage/bot"
	"github.com/cribbage-bot/cribbage/store"
)

// storeAdapter lets the bot use the SQLite store. The bot declares the
// interface it needs and its own record types, so that bot and store never
// import each other; this is the one place that knows both.
type storeAdapter struct{ s *store.Store }

var _ bot.Store = storeAdapter{}

// mapErr turns the store's sentinel errors into the bot's.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrStale):
		return fmt.Errorf("%w: %w", bot.ErrStale, err)
	case errors.Is(err, store.ErrDuplicate):
		return fmt.Errorf("%w: %w", bot.ErrDuplicate, err)
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: %w", bot.ErrNotFound, err)
	}
	return err
}

func toBot(t *store.Table) *bot.Table {
	if t == nil {
		return nil
	}
	out := &bot.Table{ID: t.ID, GuildID: t.GuildID, ChannelID: t.ChannelID, HostID: t.HostID, MessageID: t.MessageID,
		ThreadID: t.ThreadID, Options: t.Options, Computer: t.Computer, Status: bot.Status(t.Status), Version: t.Version,
		CutSeed: t.CutSeed, State: t.State, Assisted: t.Assisted, RemindedAt: t.RemindedAt, ForfeitOfferedAt: t.ForfeitOfferedAt, WaitingSince: t.WaitingSince, CreatedAt: t.CreatedAt, StartedAt: t.StartedAt, LastActionAt: t.LastActionAt, FinishedAt: t.FinishedAt}
	for _, s := range t.Seats {
		out.Seats = append(out.Seats, bot.Seat(s))
	}
	return out
}

func toStore(t *bot.Table) *store.Table {
	out := &store.Table{ID: t.ID, GuildID: t.GuildID, ChannelID: t.ChannelID, HostID: t.HostID, MessageID: t.MessageID,
		ThreadID: t.ThreadID, Options: t.Options, Computer: t.Computer, Status: store.Status(t.Status), Version: t.Version,
		CutSeed: t.CutSeed, State: t.State, Assisted: t.Assisted, RemindedAt: t.RemindedAt, ForfeitOfferedAt: t.ForfeitOfferedAt, WaitingSince: t.WaitingSince, CreatedAt: t.CreatedAt, StartedAt: t.StartedAt, LastActionAt: t.LastActionAt, FinishedAt: t.FinishedAt}
	for _, s := range t.Seats {
		out.Seats = append(out.Seats, store.Seat(s))
	}
	return out
}

func toBotTables(ts []*store.Table, err error) ([]*bot.Table, error) {
	out := make([]*bot.Table, len(ts))
	for i, t := range ts {
		out[i] = toBot(t)
	}
	return out, mapErr(err)
}

func outbound(in []bot.Outbound) []store.Outbound {
	out := make([]store.Outbound, len(in))
	for i, o := range in {
		out[i] = store.Outbound(o)
	}
	return out
}

func (a storeAdapter) CreateTable(ctx context.Context, t *bot.Table, interactionID string, out []bot.Outbound) (*bot.Table, error) {
	saved, err := a.s.CreateTable(ctx, toStore(t), interactionID, outbound(out))
	return toBot(saved), mapErr(err)
}

func (a storeAdapter) Update(ctx context.Context, id int64, interactionID string, fn func(*bot.Table) (*bot.Change, error)) (*bot.Table, error) {
	saved, err := a.s.Update(ctx, id, interactionID, func(t *store.Table) (*store.Change, error) {
		ch, err := fn(toBot(t))
		if err != nil || ch == nil {
			return nil, err
		}
		out := &store.Change{Table: toStore(ch.Table), Outbox: outbound(ch.Outbox)}
		for _, a := range ch.Actions {
			out.Actions = append(out.Actions, store.LoggedAction(a))
		}
		return out, nil
	})
	return toBot(saved), mapErr(err)
}

func (a storeAdapter) Table(ctx context.Context, id int64) (*bot.Table, error) {
	t, err := a.s.Table(ctx, id)
	return toBot(t), mapErr(err)
}

func (a storeAdapter) OpenTables(ctx context.Context) ([]*bot.Table, error) {
	return toBotTables(a.s.OpenTables(ctx))
}

func (a storeAdapter) PlayerTables(ctx context.Context, guildID, userID string) ([]*bot.Table, error) {
	return toBotTables(a.s.PlayerTables(ctx, guildID, userID))
}

func (a storeAdapter) ChannelTables(ctx context.Context, channelID string) ([]*bot.Table, error) {
	return toBotTables(a.s.ChannelTables(ctx, channelID))
}

func (a storeAdapter) SetMessages(ctx context.Context, id int64, messageID, threadID string) error {
	return mapErr(a.s.SetMessages(ctx, id, messageID, threadID))
}

func (a storeAdapter) MarkAssisted(ctx context.Context, id int64) error {
	return mapErr(a.s.MarkAssisted(ctx, id))
}

func (a storeAdapter) IdleTables(ctx context.Context, idleSince, openedBefore time.Time) ([]*bot.Table, error) {
	return toBotTables(a.s.IdleTables(ctx, idleSince, openedBefore))
}

func (a storeAdapter) MarkReminded(ctx context.Context, id int64, prev, at time.Time, out []bot.Outbound) (bool, error) {
	ok, err := a.s.MarkReminded(ctx, id, prev, at, outbound(out))
	return ok, mapErr(err)
}

func (a storeAdapter) MarkForfeitOffered(ctx context.Context, id int64, prev, at time.Time, out []bot.Outbound) (bool, error) {
	ok, err := a.s.MarkForfeitOffered(ctx, id, prev, at, outbound(out))
	return ok, mapErr(err)
}

func (a storeAdapter) PendingOutbox(ctx context.Context, limit int) ([]bot.OutboxItem, error) {
	items, err := a.s.PendingOutbox(ctx, limit)
	out := make([]bot.OutboxItem, len(items))
	for i, it := range items {
		out[i] = bot.OutboxItem(it)
	}
	return out, mapErr(err)
}

func (a storeAdapter) MarkDelivered(ctx context.Context, ids ...int64) error {
	return mapErr(a.s.MarkDelivered(ctx, ids...))
}

func (a storeAdapter) RecordTableMessage(ctx context.Context, id int64, messageID string) error {
	return mapErr(a.s.RecordTableMessage(ctx, id, messageID))
}

func (a storeAdapter) Seal(ctx context.Context, id, through int64) error {
	return mapErr(a.s.Seal(ctx, id, through))
}

func (a storeAdapter) MarkFailed(ctx context.Context, id int64, next time.Time) error {
	return mapErr(a.s.MarkFailed(ctx, id, next))
}

func (a storeAdapter) Leaderboard(ctx context.Context, guildID string, since time.Time) ([]bot.Standing, error) {
	board, err := a.s.Leaderboard(ctx, guildID, since)
	out := make([]bot.Standing, len(board))
	for i, s := range board {
		out[i] = bot.Standing(s)
	}
	return out, mapErr(err)
}

func (a storeAdapter) PlayerStats(ctx context.Context, guildID, userID string) (bot.Stats, error) {
	st, err := a.s.PlayerStats(ctx, guildID, userID)
	return bot.Stats{Name: st.Name, People: bot.Record(st.People), Computer: bot.Record(st.Computer), Streak: st.Streak, LastPlayed: st.LastPlayed}, mapErr(err)
}

func (a storeAdapter) HeadToHead(ctx context.Context, guildID, x, y string) (bot.HeadToHead, error) {
	h, err := a.s.HeadToHead(ctx, guildID, x, y)
	return bot.HeadToHead(h), mapErr(err)
}
