package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/daily"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// The daily hand through the fake Discord: answered privately in a
// server and in a DM with the bot, once; a server's post of the day's
// hand from its hour, once a day across a restart, and the next day's
// reveal of how the server threw.

// dailyChannel is the server's channel for the daily hand, and dmChannel
// the DM between a player and the bot.
const (
	dailyChannel = "400000000000000077"
	dmChannel    = "400000000000000088"
)

// toNoon moves the fake clock to noon (UTC) of a Friday to come, 15
// March 2030, so a test's hours and hands are the same whenever it runs
// (the next day's hand is a Saturday's, at three players); after that
// date, to the coming noon.
func (h *harness) toNoon() time.Time {
	now := h.fake.Now().UTC()
	noon := time.Date(2030, 3, 15, 12, 0, 0, 0, time.UTC)
	if !noon.After(now) {
		noon = time.Date(now.Year(), now.Month(), now.Day()+1, 12, 0, 0, 0, time.UTC)
	}
	h.fake.Advance(noon.Sub(now))
	// A pass of the timers reads the clock as it begins: one begun before
	// the jump, slow on a busy machine, posts the day's hand for the
	// fake's first day (its hour the real one's) if a test sets the daily
	// hand meanwhile. The passes run one at a time, so one begun after
	// the jump has seen the earlier one end.
	h.timerPasses(1)
	return noon
}

// dailyOf is the day's hand at the fake's time.
func (h *harness) dailyOf() (cribbage.Day, ai.Daily) {
	h.t.Helper()
	day := cribbage.DayOf(h.fake.Now())
	d, err := ai.DailyHand(day.String())
	if err != nil {
		h.t.Fatal(err)
	}
	return day, d
}

// answerDaily chooses throw on the daily view a as u (toggling each card,
// each click in the view's place: a server or the DM) and confirms; it
// returns the answer.
func (h *harness) answerDaily(u discordtest.User, a discordtest.Answer, guild, channel string, throw []engine.Card) discordtest.Answer {
	h.t.Helper()
	if !a.Ephemeral() {
		h.t.Fatalf("the daily hand was shown publicly: %q", a.Content())
	}
	for _, c := range throw {
		b, ok := button(h.t, a.Response.Data.Components, func(b discordgo.Button) bool { return b.Label == c.Display() })
		if !ok {
			h.t.Fatalf("no %s to toggle in %q", c.Display(), a.Content())
		}
		a = h.send(discordtest.Click(guild, channel, u, a.MessageID, b.CustomID))
	}
	confirm, ok := button(h.t, a.Response.Data.Components, func(b discordgo.Button) bool { return b.Label == "Confirm" && !b.Disabled })
	if !ok {
		h.t.Fatalf("no Confirm in %q", a.Content())
	}
	return h.send(discordtest.Click(guild, channel, u, a.MessageID, confirm.CustomID))
}

// answerOf reads a player's answer to a day.
func (h *harness) answerOf(u discordtest.User, day cribbage.Day) (cribbage.DailyAnswer, error) {
	return h.store.DailyAnswerOf(h.t.Context(), u.ID, day)
}

// TestDailyHandInAServerAndADM: Alice answers the day's hand in the
// server, Bob in a DM with the bot (the commands registered globally, as
// a bot without DISCORD_GUILD_ID registers them: Discord offers a
// command in DMs only then). Each sees what their throw gave up by the
// coach's numbers; neither can answer again, there or elsewhere; and a
// server's records are not offered in a DM at all. Over the gateway, and
// over the interactions endpoint.
func TestDailyHandInAServerAndADM(t *testing.T) {
	t.Parallel()
	for _, overHTTP := range []bool{false, true} {
		name := map[bool]string{false: "gateway", true: "HTTP"}[overHTTP]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarnessWith(t, func(h *harness) { h.global, h.overHTTP = true, overHTTP })
			h.dailyInAServerAndADM()
		})
	}
}

// dailyInAServerAndADM is TestDailyHandInAServerAndADM on one harness.
func (h *harness) dailyInAServerAndADM() {
	t := h.t
	day, d := h.dailyOf()

	view := h.command(alice, "daily")
	if strings.Contains(view.Content(), "Coach") || strings.Contains(view.Content(), "gives up") {
		t.Errorf("the view tells the answer before it is given:\n%s", view.Content())
	}
	second := d.Splits[1]
	res := h.answerDaily(alice, view, testGuild, testChannel, second.Throw)
	got, err := h.answerOf(alice, day)
	_, gave, _ := d.Judge(engine.SetOf(second.Throw...))
	if err != nil || got.GuildID != testGuild || got.GaveUp != gave {
		t.Fatalf("alice's answer: %+v, %v; want %.4f given up in the server", got, err, gave)
	}
	if !strings.Contains(res.Content(), daily.Verdict(lang.English, d, got.Throw)) || !strings.Contains(res.Content(), render.DiscardHint(lang.English, d.Options, ai.Splits(d.Options, 0, d.Dealer, d.Dealt), 3)) {
		t.Errorf("alice's answer does not show the coach's values:\n%s", res.Content())
	}
	// The answer replaced the view: one private message.
	if res.MessageID != view.MessageID {
		t.Errorf("the answer is message %s, the view was %s", res.MessageID, view.MessageID)
	}

	// Bob, in a DM.
	dm := h.send(discordtest.CommandOf("cribbage-daily", "", dmChannel, bob, "hand"))
	res = h.answerDaily(bob, dm, "", dmChannel, d.Splits[0].Throw)
	bobs, err := h.answerOf(bob, day)
	if err != nil || bobs.GuildID != "" || bobs.GaveUp != 0 || !strings.Contains(res.Content(), "the best throw") {
		t.Fatalf("bob's answer in a DM: %+v, %v:\n%s", bobs, err, res.Content())
	}
	if month := h.send(discordtest.CommandOf("cribbage-daily", "", dmChannel, bob, "month")); !strings.Contains(month.Content(), "you answered 1 day") {
		t.Errorf("bob's month in a DM: %s", month.Content())
	}

	// Neither answers twice: Alice from the DM, Bob from the server, and
	// Alice's old view's Confirm again with other cards.
	if a := h.send(discordtest.CommandOf("cribbage-daily", "", dmChannel, alice, "hand")); !strings.Contains(a.Content(), "You have answered today's hand") {
		t.Errorf("alice in a DM after answering: %s", a.Content())
	}
	again := h.command(bob, "daily")
	if !strings.Contains(again.Content(), "You have answered today's hand") {
		t.Errorf("bob in the server after answering: %s", again.Content())
	}
	if _, ok := button(t, again.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/dthrow/") }); ok {
		t.Error("an answered hand offers Confirm")
	}
	if now, _ := h.answerOf(alice, day); now != got {
		t.Errorf("alice's answer changed to %+v", now)
	}
	if answers, _ := h.store.DailyAnswers(t.Context(), testGuild, day); len(answers) != 1 || answers[0].UserID != alice.ID {
		t.Errorf("the server's answers: %+v", answers)
	}
	// A server's records are not offered in a DM: Discord never delivers
	// the command.
	if _, err := h.interact(discordtest.CommandOf("cribbage-club", "", dmChannel, bob, "leaderboard")); !errors.Is(err, discordtest.ErrNotPermitted) {
		t.Errorf("/cribbage-club leaderboard in a DM: %v", err)
	}
}

// setDaily has Ada send the daily hand to dailyChannel from hour (UTC).
func (h *harness) setDaily(hour int) {
	h.t.Helper()
	h.fake.AddChannel(dailyChannel)
	a := h.admin(ada, "daily", discordtest.Opt{Name: "channel", Value: discordtest.Channel{ID: dailyChannel, Name: "daily"}}, discordtest.Opt{Name: "hour", Value: hour})
	if !strings.Contains(a.Content(), "Saved") {
		h.t.Fatalf("settings: %s", a.Content())
	}
}

// timerPasses waits for n passes of the bot's timers that began after now.
func (h *harness) timerPasses(n int) {
	h.t.Helper()
	for range n {
		at := h.fake.Now().UnixNano()
		h.eventually("a pass of the timers", func() bool { return h.timersAt.Load() > at })
	}
}

// dailyPosts are the messages in the daily channel.
func (h *harness) dailyPosts() []discordtest.Message { return h.fake.ChannelMessages(dailyChannel) }

// TestDailyPostAndTheRevealNextDay: the server's post goes out from the
// hour its admin set, not before; players answer from its button; the
// next day's post reveals how the server threw, with the best throw and
// the coach's values, and the month's table.
func TestDailyPostAndTheRevealNextDay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.toNoon()
	h.setDaily(13)
	h.timerPasses(2)
	if n := len(h.dailyPosts()); n != 0 {
		t.Fatalf("%d posts before the hour", n)
	}
	h.setDaily(12)
	h.eventually("the day's post", func() bool { return len(h.dailyPosts()) == 1 })
	post := h.dailyPosts()[0]
	day, d := h.dailyOf()
	if len(post.Embeds) != 1 || !strings.Contains(post.Embeds[0].Title, daily.Date(lang.English, day)) || !strings.Contains(post.Text(), engine.DisplayCards(d.Dealt.Cards())) {
		t.Fatalf("the day's post:\n%s", post.Text())
	}
	open, ok := button(t, post.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/dopen/") })
	if !ok {
		t.Fatal("the post has no button to answer")
	}
	// Alice and Carol throw the best, Bob the worst, from the post.
	worst := d.Splits[len(d.Splits)-1]
	for _, tc := range []struct {
		who   discordtest.User
		split ai.Split
	}{{alice, d.Splits[0]}, {bob, worst}, {carol, d.Splits[0]}} {
		view := h.send(discordtest.Click(testGuild, dailyChannel, tc.who, post.ID, open.CustomID))
		h.answerDaily(tc.who, view, testGuild, dailyChannel, tc.split.Throw)
	}
	// The month shows nothing of today's answers until the reveal.
	if month := h.send(discordtest.CommandOf("cribbage-daily", testGuild, testChannel, dan, "month")); strings.Contains(month.Content(), "Alice") {
		t.Errorf("the month shows today's answers:\n%s", month.Content())
	}

	h.fake.Advance(24 * time.Hour)
	h.eventually("the next day's post", func() bool { return len(h.dailyPosts()) == 2 })
	next := h.dailyPosts()[1]
	if len(next.Embeds) != 2 {
		t.Fatalf("the next day's post has %d embeds:\n%s", len(next.Embeds), next.Text())
	}
	reveal := next.Embeds[0].Description
	_, gaveWorst, _ := d.Judge(engine.SetOf(worst.Throw...))
	for _, want := range []string{
		render.DiscardHint(lang.English, d.Options, ai.Splits(d.Options, 0, d.Dealer, d.Dealt), 3), // the coach's own values
		"How this server threw** (3 answers)",
		engine.DisplayCards(d.Splits[0].Throw) + " — 67% (2) · the best",
		engine.DisplayCards(worst.Throw) + " — 33% (1) · gives up " + fmt.Sprintf("%.2f", gaveWorst),
		"1. Alice — 0.00 over 1 day",
	} {
		if !strings.Contains(reveal, want) {
			t.Errorf("the reveal lacks %q:\n%s", want, reveal)
		}
	}
	if !strings.Contains(next.Embeds[0].Title, daily.Date(lang.English, day)) || !strings.Contains(next.Embeds[1].Title, daily.Date(lang.English, day+1)) {
		t.Errorf("the next day's post: %q, %q", next.Embeds[0].Title, next.Embeds[1].Title)
	}
	// Yesterday's view answers nothing now: today's hand is shown.
	if a := h.send(discordtest.Click(testGuild, dailyChannel, dan, post.ID, open.CustomID)); !strings.Contains(a.Content(), "is over") || !strings.Contains(a.Content(), daily.Date(lang.English, day+1)) {
		t.Errorf("yesterday's button today: %s", a.Content())
	}
	if month := h.send(discordtest.CommandOf("cribbage-daily", testGuild, testChannel, dan, "month")); !strings.Contains(month.Content(), "1. Alice") {
		t.Errorf("the month after the reveal:\n%s", month.Content())
	}
}

// TestDailyPostOnceAcrossARestart: the day's post goes out once, however
// many timer passes, and a restart of the bot on the same database does
// not post it again: on SQLite, and on PostgreSQL when a server is at
// hand.
func TestDailyPostOnceAcrossARestart(t *testing.T) {
	t.Parallel()
	for _, db := range []string{"SQLite", "PostgreSQL"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			url := ""
			if db == "PostgreSQL" {
				url = postgresSchema(t)
			}
			newHarnessOn(t, url, 20*time.Millisecond).postOnceAcrossARestart()
		})
	}
}

// postOnceAcrossARestart is TestDailyPostOnceAcrossARestart on one
// harness.
func (h *harness) postOnceAcrossARestart() {
	t := h.t
	h.toNoon()
	h.setDaily(12)
	h.eventually("the day's post", func() bool { return len(h.dailyPosts()) == 1 })
	h.timerPasses(3)
	h.stopBot()
	h.startBot()
	h.timerPasses(3)
	h.drain()
	if n := len(h.dailyPosts()); n != 1 {
		t.Errorf("%d posts of the day after a restart, want 1", n)
	}
	h.fake.Advance(24 * time.Hour)
	h.eventually("the next day's post", func() bool { return len(h.dailyPosts()) == 2 })
}
