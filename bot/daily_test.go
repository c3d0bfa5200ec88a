package bot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/daily"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// The daily hand through the route table, on the in-memory store: in a
// server and in a DM with the bot, once a player a day, and a server's
// post once a day.

// dmChannel is the DM channel between a player and the bot.
const dmChannel = "400000000000000099"

// dailyToday is the unit's day and its hand.
func (u *unit) dailyToday() (cribbage.Day, ai.Daily) {
	u.t.Helper()
	day := cribbage.DayOf(u.clock)
	d, err := ai.DailyHand(day.String())
	if err != nil {
		u.t.Fatal(err)
	}
	return day, d
}

// dailyClick presses a button of the daily view as who, in a server
// (guild set) or a DM.
func (u *unit) dailyClick(guildID string, who discordtest.User, customID string) *discordgo.InteractionResponse {
	u.t.Helper()
	ch := channel
	if guildID == "" {
		ch = dmChannel
	}
	ic := discordtest.Click(guildID, ch, who, "daily-view", customID)
	ic.Message.Flags = discordgo.MessageFlagsEphemeral
	return u.ok(ic)
}

// answerDaily opens today's hand as who (in a server, or a DM if guildID
// is ""), chooses throw card by card and confirms, returning the answer's
// response.
func (u *unit) answerDaily(guildID string, who discordtest.User, throw []engine.Card) *discordgo.InteractionResponse {
	u.t.Helper()
	var view *discordgo.InteractionResponse
	if guildID == "" {
		view = u.ok(discordtest.CommandOf("cribbage-daily", "", dmChannel, who, "hand"))
	} else {
		view = u.ok(discordtest.Command(guildID, channel, who, "daily"))
	}
	if view.Type != discordgo.InteractionResponseChannelMessageWithSource || view.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		u.t.Fatalf("the daily hand was not answered privately: %+v", view)
	}
	for _, c := range throw {
		b, ok := dailyButton(view.Data.Components, func(b discordgo.Button) bool { return b.Label == c.Display() })
		if !ok {
			u.t.Fatalf("no %s button in %q", c.Display(), view.Data.Content)
		}
		view = u.dailyClick(guildID, who, b.CustomID)
		if view.Type != discordgo.InteractionResponseUpdateMessage {
			u.t.Fatalf("a toggle answered %d, not an update of the view", view.Type)
		}
	}
	confirm, ok := dailyButton(view.Data.Components, func(b discordgo.Button) bool { return b.Label == "Confirm" && !b.Disabled })
	if !ok {
		u.t.Fatalf("no Confirm to press in %q", view.Data.Content)
	}
	return u.dailyClick(guildID, who, confirm.CustomID)
}

// TestDailyAnswerInAServerAndADM: a player answers today's hand in a
// server, by toggling cards and confirming; the answer replaces the view
// with what the throw gave up by the coach's numbers. Another answers in
// a DM with the bot, whose records are their own. Neither can answer
// again, anywhere.
func TestDailyAnswerInAServerAndADM(t *testing.T) {
	u := newUnit(t)
	day, d := u.dailyToday()
	worst := d.Splits[len(d.Splits)-1]
	res := u.answerDaily(guild, alice, worst.Throw)
	_, gave, _ := d.Judge(engine.SetOf(worst.Throw...))
	got, err := u.store.DailyAnswerOf(context.Background(), alice.ID, day)
	if err != nil || got.GuildID != guild || got.GaveUp != gave || got.Throw != engine.SetOf(worst.Throw...) || got.Name != alice.Name {
		t.Fatalf("alice's answer: %+v, %v (gave up %v)", got, err, gave)
	}
	if res.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(res.Data.Content, daily.Verdict(lang.English, d, got.Throw)) ||
		!strings.Contains(res.Data.Content, render.DiscardHint(lang.English, d.Options, d.Splits, 3)) {
		t.Errorf("the answer's view:\n%s", res.Data.Content)
	}
	if _, ok := dailyButton(res.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/dmonth/") }); !ok {
		t.Error("the answer in a server has no button to the month")
	}

	// Again from the DM, and a second Confirm on the old view: the first
	// answer stands.
	again := u.ok(discordtest.CommandOf("cribbage-daily", "", dmChannel, alice, "hand"))
	if !strings.Contains(again.Data.Content, "You have answered today's hand") {
		t.Errorf("a second look: %s", again.Data.Content)
	}
	best := engine.SetOf(d.Splits[0].Throw...)
	second := u.dailyClick(guild, alice, click.ID{Action: click.DailyThrow, Table: int64(day), Cards: best}.String())
	if after, _ := u.store.DailyAnswerOf(context.Background(), alice.ID, day); after != got || !strings.Contains(second.Data.Content, "You have answered") {
		t.Errorf("a second Confirm changed the answer to %+v:\n%s", after, second.Data.Content)
	}

	// Bob in a DM: his answer is in no server, and his month is his own.
	res = u.answerDaily("", bob, d.Splits[0].Throw)
	bobs, err := u.store.DailyAnswerOf(context.Background(), bob.ID, day)
	if err != nil || bobs.GuildID != "" || bobs.GaveUp != 0 {
		t.Fatalf("bob's answer: %+v, %v", bobs, err)
	}
	if !strings.Contains(res.Data.Content, "the best throw") || !strings.Contains(res.Data.Content, "This month: 1 day answered") {
		t.Errorf("bob's answer:\n%s", res.Data.Content)
	}
	if _, ok := dailyButton(res.Data.Components, func(b discordgo.Button) bool { return true }); ok {
		t.Error("an answer in a DM offers the server's month")
	}
	if answers, _ := u.store.DailyAnswers(context.Background(), guild, day); len(answers) != 1 || answers[0].UserID != alice.ID {
		t.Errorf("the server's answers: %+v", answers)
	}
}

// TestDailyThrowsAtOnce: two Confirms at the same instant (two views, or
// a server and a DM) write one answer.
func TestDailyThrowsAtOnce(t *testing.T) {
	u := newUnit(t)
	day, d := u.dailyToday()
	var wg sync.WaitGroup
	for i, g := range []string{guild, ""} {
		wg.Add(1)
		ic := discordtest.Click(g, channel, alice, "daily-view", click.ID{Action: click.DailyThrow, Table: int64(day), Cards: engine.SetOf(d.Splits[i].Throw...)}.String())
		ic.ID, ic.Token = "97"+string(rune('0'+i)), "token"
		go func() {
			defer wg.Done()
			if _, err := u.b.route(context.Background(), ic); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := u.store.DailyAnswerOf(context.Background(), alice.ID, day)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(u.dailyAnswersOf(day, guild)) + len(u.dailyAnswersOf(day, "")); n != 1 {
		t.Errorf("%d answers written, want 1 (kept %+v)", n, got)
	}
}

// dailyButton finds the first button that matches.
func dailyButton(comps []discordgo.MessageComponent, match func(b discordgo.Button) bool) (discordgo.Button, bool) {
	for _, b := range discordtest.Buttons(comps) {
		if match(b) {
			return b, true
		}
	}
	return discordgo.Button{}, false
}

// dailyAnswersOf lists a place's answers to a day.
func (u *unit) dailyAnswersOf(day cribbage.Day, guildID string) []cribbage.DailyAnswer {
	a, err := u.store.DailyAnswers(context.Background(), guildID, day)
	if err != nil {
		u.t.Fatal(err)
	}
	return a
}

// TestDailyNothingOfOthersBeforeAnswering: before answering, nothing a
// player can open shows how others threw today: the view is the hand
// alone, and the month's table counts the days revealed, not today.
func TestDailyNothingOfOthersBeforeAnswering(t *testing.T) {
	u := newUnit(t)
	_, d := u.dailyToday()
	u.answerDaily(guild, bob, d.Splits[1].Throw)
	view := u.ok(discordtest.Command(guild, channel, alice, "daily"))
	month := u.ok(discordtest.CommandOf("cribbage-daily", guild, channel, alice, "month"))
	for what, text := range map[string]string{"the view": view.Data.Content, "the month": month.Data.Content} {
		if strings.Contains(text, bob.Name) || strings.Contains(text, "gives up") || strings.Contains(text, "Coach") {
			t.Errorf("%s shows others' answers before alice answered:\n%s", what, text)
		}
	}
	// The next day the month counts bob's answer.
	u.clock = u.clock.Add(24 * time.Hour)
	month = u.ok(discordtest.CommandOf("cribbage-daily", guild, channel, alice, "month"))
	if !strings.Contains(month.Data.Content, bob.Name) {
		t.Errorf("the month after the reveal:\n%s", month.Data.Content)
	}
}

// TestDailyViewOfYesterday: a click on yesterday's view, after midnight,
// answers nothing and shows today's hand instead.
func TestDailyViewOfYesterday(t *testing.T) {
	u := newUnit(t)
	yesterday, d := u.dailyToday()
	u.clock = u.clock.Add(24 * time.Hour)
	today, _ := u.dailyToday()
	res := u.dailyClick(guild, alice, click.ID{Action: click.DailyThrow, Table: int64(yesterday), Cards: engine.SetOf(d.Splits[0].Throw...)}.String())
	if !strings.Contains(res.Data.Content, "hand is over") || !strings.Contains(res.Data.Content, daily.Date(lang.English, today)) {
		t.Errorf("a click on yesterday's view:\n%s", res.Data.Content)
	}
	for _, day := range []cribbage.Day{yesterday, today} {
		if _, err := u.store.DailyAnswerOf(context.Background(), alice.ID, day); !errors.Is(err, cribbage.ErrNoDailyAnswer) {
			t.Errorf("day %s was answered: %v", day, err)
		}
	}
}

// TestDailyPostOnceADay: the server's post goes out from its hour, once
// however often the timers pass; the next day's carries the reveal of the
// day before. Setting it takes Manage Server, in a server.
func TestDailyPostOnceADay(t *testing.T) {
	u := newUnit(t)
	admin := discordtest.User{ID: "300000000000000008", Name: "Ada", Permissions: discordgo.PermissionManageGuild}
	set := discordtest.CommandOf("cribbage-admin", guild, channel, alice, "daily", discordtest.Opt{Name: "channel", Value: discordtest.Channel{ID: "500", Name: "daily"}}, discordtest.Opt{Name: "hour", Value: 13})
	if _, err := u.route(set); !errors.Is(err, refusal.ErrNotAdmin) {
		t.Errorf("a member set the daily hand: %v", err)
	}
	withAdmin := discordtest.CommandOf("cribbage-admin", guild, channel, admin, "daily", discordtest.Opt{Name: "channel", Value: discordtest.Channel{ID: "500", Name: "daily"}}, discordtest.Opt{Name: "hour", Value: 13})
	if r := u.ok(withAdmin); !strings.Contains(r.Data.Content, "<#500>") || !strings.Contains(r.Data.Content, "13:00 UTC") {
		t.Errorf("settings: %s", r.Data.Content)
	}
	if _, err := u.route(discordtest.CommandOf("cribbage-admin", "", dmChannel, admin, "daily")); !errors.Is(err, refusal.ErrNotInGuild) {
		t.Errorf("the admin's command in a DM: %v", err)
	}
	posts := func() []cribbage.OutboxItem {
		var out []cribbage.OutboxItem
		for _, it := range u.store.Outbox() {
			if it.Kind == daily.Kind {
				out = append(out, it)
			}
		}
		return out
	}
	ctx := context.Background()
	u.b.timers.Check(ctx) // 12:00: before the hour
	if n := len(posts()); n != 0 {
		t.Fatalf("%d posts before the hour", n)
	}
	_, d := u.dailyToday()
	u.answerDaily(guild, bob, d.Splits[0].Throw)
	u.clock = u.clock.Add(time.Hour)
	for range 3 {
		u.b.timers.Check(ctx)
	}
	if p := posts(); len(p) != 1 || p[0].ChannelID != "500" || p[0].TableID >= 0 || strings.Contains(p[0].Payload, "Yesterday") {
		t.Fatalf("posts at the hour: %+v", p)
	}
	u.clock = u.clock.Add(24 * time.Hour)
	u.b.timers.Check(ctx)
	u.b.timers.Check(ctx)
	p := posts()
	if len(p) != 2 || p[1].TableID == p[0].TableID {
		t.Fatalf("posts the next day: %+v", p)
	}
	var body daily.Body
	if err := json.Unmarshal([]byte(p[1].Payload), &struct {
		Embeds *[]*discordgo.MessageEmbed `json:"embeds"`
	}{&body.Embeds}); err != nil {
		t.Fatal(err)
	}
	if len(body.Embeds) != 2 || !strings.Contains(body.Embeds[0].Description, "How this server threw** (1 answer)") ||
		!strings.Contains(body.Embeds[0].Description, "100% (1) · the best") || !strings.Contains(body.Embeds[0].Description, "1. Bob") {
		t.Errorf("the reveal:\n%+v", body.Embeds)
	}
}

// TestDailySpeaksTheClientsLanguage: the daily hand a French client opens
// is in French, with its Confirm button and today's date in French words.
func TestDailySpeaksTheClientsLanguage(t *testing.T) {
	u := newUnit(t)
	day, _ := u.dailyToday()
	fr, _ := lang.ByCode("fr")
	ic := discordtest.Command(guild, channel, alice, "daily")
	ic.Locale = discordgo.French
	view := u.ok(ic)
	if !strings.Contains(view.Data.Content, "**Main du jour** · "+daily.Date(fr, day)) {
		t.Errorf("a French client's daily hand:\n%s", view.Data.Content)
	}
	if _, ok := dailyButton(view.Data.Components, func(b discordgo.Button) bool { return b.Label == "Confirmer" }); !ok {
		t.Error("no Confirmer button")
	}
}

// TestAPostNobodyClickedForSpeaksTheServersLanguage: the daily post and a
// tournament's message, made by the timers, speak the server's own
// language as its tables were opened in when the admins chose none, and
// the admins' choice when they did.
func TestAPostNobodyClickedForSpeaksTheServersLanguage(t *testing.T) {
	u := newUnit(t)
	ctx := context.Background()
	if l := u.b.speakServer(ctx, guild); l != lang.English {
		t.Errorf("a server with no table yet: %s", l.Code())
	}
	start := discordtest.Command(guild, channel, alice, "start")
	french := discordgo.Locale("fr")
	start.GuildLocale = &french
	u.ok(start)
	if l := u.b.speakServer(ctx, guild); l.Code() != "fr" {
		t.Errorf("after a table opened in a French server: %s, want fr", l.Code())
	}
	if _, err := u.store.UpdateGuildSettings(ctx, guild, func(gs *cribbage.GuildSettings) error { gs.Language = "es"; return nil }); err != nil {
		t.Fatal(err)
	}
	if l := u.b.speakServer(ctx, guild); l.Code() != "es" {
		t.Errorf("after the admins chose Spanish: %s, want es", l.Code())
	}
}
