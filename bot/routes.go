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
// (disgoorg/disgo's handler.Mux, as a table), and where it is answered:
// in servers, or in a DM with the bot too (inDM).

// where is where a route is answered.
type where uint8

const (
	// servers: in a server the bot is in alone (a server's records, an
	// admin's tools, challenging a member, a tournament).
	servers where = iota
	// anywhere: wherever the app is used: a server the bot is in, a DM
	// with the bot (where a player plays the computer), and through a
	// user's install a group DM or a server without the bot, where a
	// table is one only interactions' tokens reach
	// (cribbage.Table.TokenOnly). A table outside a server has no guild,
	// and its records are its players' own.
	anywhere
)

// clickRoute is a button or form: its action and handler. A table's
// buttons are answered wherever the table is (package place checks the
// table is here: its server and channel, or the DM it was opened in), a
// tournament's in its server alone, the daily hand's anywhere.
type clickRoute struct {
	action click.Action
	handle func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error)
	where  where
}

var clickRoutes = []clickRoute{
	{click.Join, (*Bot).clickJoin, anywhere},
	{click.Leave, (*Bot).clickLeave, anywhere},
	{click.Begin, (*Bot).clickBegin, anywhere},
	{click.Hand, (*Bot).clickHand, anywhere},
	{click.Refresh, (*Bot).clickHand, anywhere},
	{click.Deal, (*Bot).clickDeal, anywhere},
	{click.Select, (*Bot).clickSelect, anywhere},
	{click.Discard, (*Bot).clickDiscard, anywhere},
	{click.Play, (*Bot).clickPlay, anywhere},
	{click.Claim, (*Bot).clickClaim, anywhere},
	{click.Claimed, (*Bot).clickClaimed, anywhere},
	{click.Muggins, (*Bot).clickMuggins, anywhere},
	{click.Resign, (*Bot).clickResign, anywhere},
	{click.Hint, (*Bot).clickHint, anywhere},
	{click.Review, (*Bot).clickReview, anywhere},
	{click.ClaimWin, (*Bot).clickClaimWin, anywhere},
	{click.Rematch, (*Bot).clickRematch, anywhere},
	{click.NoRematch, (*Bot).clickNoRematch, anywhere},
	{click.Replay, clickClub((*club.Answers).ReplayClick), anywhere},
	{click.ResignMatch, (*Bot).clickResignMatch, anywhere},
	{click.Accept, (*Bot).clickAccept, anywhere},
	{click.Decline, (*Bot).clickDecline, anywhere},
	{click.Withdraw, (*Bot).clickWithdraw, anywhere},
	// A tournament's buttons: {table} is the tournament's id.
	{click.TSignUp, clickDirector((*tournament.Director).SignUp), servers},
	{click.TWithdraw, clickDirector((*tournament.Director).Withdraw), servers},
	{click.TStart, clickDirector((*tournament.Director).StartClick), servers},
	// The daily hand's buttons: {table} is the day.
	{click.DailyOpen, fromDailyClick((*daily.Answers).Open), anywhere},
	{click.DailySelect, fromDailyClick((*daily.Answers).Select), anywhere},
	{click.DailyThrow, fromDailyClick((*daily.Answers).Throw), anywhere},
	{click.DailyMonth, fromDailyClick((*daily.Answers).Month), anywhere},
}

// commandRoute is a subcommand of one of the bot's commands (or a user
// command, which has none), its handler and where it is answered; name is
// its path within the command ("season new" for a subcommand of a group,
// see invoked). /cribbage and /cribbage-daily are registered for servers
// and DMs with the bot (command.Definitions), the others for servers
// alone; a route of /cribbage not answered in a DM is refused there.
type commandRoute struct {
	command string
	name    string
	handle  func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error)
	where   where
}

var commandRoutes = []commandRoute{
	{command.Play, "start", (*Bot).cmdStart, anywhere},
	{command.Play, "join", (*Bot).cmdJoin, servers},
	{command.Play, "leave", (*Bot).cmdLeave, anywhere},
	{command.Play, "hand", (*Bot).cmdHand, anywhere},
	{command.Play, "status", fromClub((*club.Answers).Status), anywhere},
	{command.Play, "resign", (*Bot).cmdResign, anywhere},
	{command.Play, "challenge", (*Bot).cmdChallenge, servers},
	{command.Play, "count", fromClub((*club.Answers).Count), anywhere},
	{command.Play, "games", fromClub((*club.Answers).Games), anywhere},
	{command.Play, "verify", fromClub((*club.Answers).Verify), anywhere},
	{command.Play, "replay", fromClub((*club.Answers).Replay), anywhere},
	{command.Play, "daily", fromDaily((*daily.Answers).Hand), anywhere},
	{command.Play, "rules", fromClub((*club.Answers).Rules), anywhere},
	{command.Play, "help", fromClub((*club.Answers).Help), anywhere},
	{command.Club, "leaderboard", fromClub((*club.Answers).Leaderboard), servers},
	{command.Club, "stats", fromClub((*club.Answers).Stats), servers},
	{command.Club, "seasons", fromClub((*club.Answers).Seasons), servers},
	{command.Club, "tournament", fromDirector((*tournament.Director).Standings), servers},
	{command.Admin, "cancel", (*Bot).cmdCancel, servers},
	{command.Admin, "settings", fromClub((*club.Answers).Settings), servers},
	{command.Admin, "season new", fromClub((*club.Answers).SeasonNew), servers},
	{command.Admin, "tournament open", fromDirector((*tournament.Director).Open), servers},
	{command.Admin, "tournament start", fromDirector((*tournament.Director).Start), servers},
	{command.Admin, "tournament cancel", fromDirector((*tournament.Director).Cancel), servers},
	{command.Admin, "tournament computers", fromDirector((*tournament.Director).Computers), servers},
	{command.Admin, "daily", fromDaily((*daily.Answers).Settings), servers},
	{command.Daily, "hand", fromDaily((*daily.Answers).Hand), anywhere},
	{command.Daily, "month", fromDaily((*daily.Answers).MonthTable), anywhere},
	// The user context-menu command (a person's name → Apps), which has no
	// subcommand.
	{command.ChallengeMenu, "", (*Bot).menuChallenge, servers},
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
