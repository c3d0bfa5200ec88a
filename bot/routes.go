package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/club"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/daily"
	"github.com/cribbage-bot/cribbage/bot/tournament"
	"github.com/cribbage-bot/cribbage/engine"
)

// The route table: every interaction the bot answers, once each — a slash
// command by name, or a button or form by its action (package click
// builds and parses their custom_ids) — with its handler
// (disgoorg/disgo's handler.Mux, as a table). Every one is answered in
// servers only, but the daily hand's (anywhere), which are answered in a
// DM with the bot too.

// clickRoute is a button or form: its action and handler. Clicks are
// answered in servers only, but the daily hand's (click.Daily).
type clickRoute struct {
	action click.Action
	handle func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error)
}

var clickRoutes = []clickRoute{
	{click.Join, (*Bot).clickJoin},
	{click.Leave, (*Bot).clickLeave},
	{click.Begin, (*Bot).clickBegin},
	{click.Hand, (*Bot).clickHand},
	{click.Refresh, (*Bot).clickHand},
	{click.Deal, (*Bot).clickDeal},
	{click.Select, (*Bot).clickSelect},
	{click.Discard, (*Bot).clickDiscard},
	{click.Play, (*Bot).clickPlay},
	{click.Claim, (*Bot).clickClaim},
	{click.Claimed, (*Bot).clickClaimed},
	{click.Muggins, (*Bot).clickMuggins},
	{click.Resign, (*Bot).clickResign},
	{click.Hint, (*Bot).clickHint},
	{click.Review, (*Bot).clickReview},
	{click.ClaimWin, (*Bot).clickClaimWin},
	{click.Rematch, (*Bot).clickRematch},
	{click.NoRematch, (*Bot).clickNoRematch},
	{click.Replay, clickClub((*club.Answers).ReplayClick)},
	{click.ResignMatch, (*Bot).clickResignMatch},
	{click.Accept, (*Bot).clickAccept},
	{click.Decline, (*Bot).clickDecline},
	{click.Withdraw, (*Bot).clickWithdraw},
	// A tournament's buttons: {table} is the tournament's id.
	{click.TSignUp, clickDirector((*tournament.Director).SignUp)},
	{click.TWithdraw, clickDirector((*tournament.Director).Withdraw)},
	{click.TStart, clickDirector((*tournament.Director).StartClick)},
	// The daily hand's buttons: {table} is the day.
	{click.DailyOpen, fromDailyClick((*daily.Answers).Open)},
	{click.DailySelect, fromDailyClick((*daily.Answers).Select)},
	{click.DailyThrow, fromDailyClick((*daily.Answers).Throw)},
	{click.DailyMonth, fromDailyClick((*daily.Answers).Month)},
}

// commandRoute is a subcommand of one of the bot's commands (or a user
// command, which has none) and its handler; name is its path within the
// command ("season new" for a subcommand of a group, see invoked). Every
// command but /cribbage-daily is registered for servers only
// (command.Definitions), and its routes are answered in servers only;
// /cribbage-daily's in DMs with the bot too (anywhere).
type commandRoute struct {
	command string
	name    string
	handle  func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error)
}

var commandRoutes = []commandRoute{
	{command.Play, "start", (*Bot).cmdStart},
	{command.Play, "join", (*Bot).cmdJoin},
	{command.Play, "leave", (*Bot).cmdLeave},
	{command.Play, "hand", (*Bot).cmdHand},
	{command.Play, "status", fromClub((*club.Answers).Status)},
	{command.Play, "resign", (*Bot).cmdResign},
	{command.Play, "challenge", (*Bot).cmdChallenge},
	{command.Play, "count", fromClub((*club.Answers).Count)},
	{command.Play, "games", fromClub((*club.Answers).Games)},
	{command.Play, "verify", fromClub((*club.Answers).Verify)},
	{command.Play, "replay", fromClub((*club.Answers).Replay)},
	{command.Play, "daily", fromDaily((*daily.Answers).Hand)},
	{command.Play, "rules", fromClub((*club.Answers).Rules)},
	{command.Play, "help", fromClub((*club.Answers).Help)},
	{command.Club, "leaderboard", fromClub((*club.Answers).Leaderboard)},
	{command.Club, "stats", fromClub((*club.Answers).Stats)},
	{command.Club, "seasons", fromClub((*club.Answers).Seasons)},
	{command.Club, "tournament", fromDirector((*tournament.Director).Standings)},
	{command.Admin, "cancel", (*Bot).cmdCancel},
	{command.Admin, "settings", fromClub((*club.Answers).Settings)},
	{command.Admin, "season new", fromClub((*club.Answers).SeasonNew)},
	{command.Admin, "tournament open", fromDirector((*tournament.Director).Open)},
	{command.Admin, "tournament start", fromDirector((*tournament.Director).Start)},
	{command.Admin, "tournament cancel", fromDirector((*tournament.Director).Cancel)},
	{command.Admin, "tournament computers", fromDirector((*tournament.Director).Computers)},
	{command.Admin, "daily", fromDaily((*daily.Answers).Settings)},
	{command.Daily, "hand", fromDaily((*daily.Answers).Hand)},
	{command.Daily, "month", fromDaily((*daily.Answers).MonthTable)},
	// The user context-menu command (a person's name → Apps), which has no
	// subcommand.
	{command.ChallengeMenu, "", (*Bot).menuChallenge},
}

// movedRoutes are subcommands an older version had, and where they went:
// a client that has not yet seen the commands replaced is told.
var movedRoutes = map[command.Key]string{
	{Command: command.Play, Sub: "leaderboard"}: "/" + command.Club + " leaderboard",
	{Command: command.Play, Sub: "stats"}:       "/" + command.Club + " stats",
}

// fromClub routes a command to one of the club's answers, which change
// no table.
func fromClub(answer func(a *club.Answers, ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error)) func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error) {
		resp, err := answer(b.club, ctx, ic)
		return reply{resp: resp}, err
	}
}

// clickClub routes a button to one of the club's answers.
func clickClub(answer func(a *club.Answers, ctx context.Context, ic *discordgo.Interaction, c click.ID) (*discordgo.InteractionResponse, error)) func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
		resp, err := answer(b.club, ctx, ic, c)
		return reply{resp: resp}, err
	}
}

// fromDaily routes a command to one of the daily hand's answers.
func fromDaily(answer func(a *daily.Answers, ctx context.Context, ic *discordgo.Interaction) (*discordgo.InteractionResponse, error)) func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error) {
		resp, err := answer(b.daily, ctx, ic)
		return reply{resp: resp}, err
	}
}

// fromDailyClick routes a button to one of the daily hand's answers: the
// day is the custom_id's {table}, the cards its {cards}.
func fromDailyClick(answer func(a *daily.Answers, ctx context.Context, ic *discordgo.Interaction, day cribbage.Day, cards engine.CardSet) (*discordgo.InteractionResponse, error)) func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
		resp, err := answer(b.daily, ctx, ic, cribbage.Day(c.Table), c.Cards)
		return reply{resp: resp}, err
	}
}

// anywhere reports whether a command route is answered outside servers
// too: /cribbage-daily's, registered for DMs with the bot as well.
func (r *commandRoute) anywhere() bool { return r.command == command.Daily }

// The route table indexed, for lookups.
var (
	clickByAction  = map[click.Action]*clickRoute{}
	commandsByName = map[command.Key]*commandRoute{}
)

func init() {
	for i := range clickRoutes {
		clickByAction[clickRoutes[i].action] = &clickRoutes[i]
	}
	for i := range commandRoutes {
		r := &commandRoutes[i]
		commandsByName[command.Key{Command: r.command, Sub: r.name}] = r
	}
}
