package command

import (
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// The slash commands. /cribbage is playing; /cribbage-club is the
// server's records, which need no games channel; /cribbage-admin is for
// the server's admins. Three commands, so that a server's own permission
// settings (Server Settings → Integrations) can allow each where it wants
// it: the records everywhere, games in one channel, the admin's tools to
// whom it chooses.
const (
	Play  = "cribbage"
	Club  = "cribbage-club"
	Admin = "cribbage-admin"
	// Daily is the daily hand, in a server or a DM with the bot: Discord
	// sets where a command may be used per top-level command, so the one
	// command that works in DMs is a command of its own.
	Daily = "cribbage-daily"
)

// adminPermissions are the permissions /cribbage-admin needs by default:
// Manage Server. A server may allow others in its Integrations settings;
// the bot checks again itself (mayAdminister).
const adminPermissions int64 = discordgo.PermissionManageGuild

// ChallengeMenu is the user context-menu command (a person's profile or
// name → Apps) that challenges them.
const ChallengeMenu = "Challenge to cribbage"

// one is the least table number.
var one = 1.0

// seedDigits is a revealed seed's length in hex.
var seedDigits = 2 * len(engine.Seed{})

// ReasonLength is the longest reason a cancel may give.
const ReasonLength = 200

// maxOpenTablesLimit is the largest per-person limit a server may set.
const maxOpenTablesLimit = 25.0

// The option builders the definitions share.
func sub(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
}

// group is a subcommand group: /cribbage-admin season new is the
// subcommand new of the group season.
func group(name, desc string, subs ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: name, Description: desc, Options: subs}
}

func intChoices(values ...int) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, v := range values {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: strconv.Itoa(v), Value: v})
	}
	return out
}

func stringChoices(values ...string) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, v := range values {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: v, Value: v})
	}
	return out
}

// languageChoices are the languages the bot speaks, each named in
// itself, its value the catalogue's name.
func languageChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, code := range lang.Codes() {
		l, _ := lang.ByCode(code)
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: l.Name(), Value: code})
	}
	return out
}

// Definitions are the bot's commands with their subcommands and
// options, registered with a bulk overwrite at start (which replaces
// whatever an older version registered). /cribbage and /cribbage-daily
// are offered in DMs with the bot too (a game against the computer, a
// count, a replay, the daily hand; the bot refuses there the subcommands
// that need a server); the others are used in servers only (contexts,
// which replaces the deprecated dm_permission). Discord applies contexts
// to commands registered globally: commands registered to one server
// (DISCORD_GUILD_ID) are that server's alone.
//
// /cribbage and /cribbage-daily are also installable to a user's account
// (integration type 1: Discord's user install), and so offered in any DM
// or group DM (context 2) and in servers without the bot; there the bot
// answers what needs no table (a count, the rules, the daily hand) and
// says what works where (see bot's route table).
func Definitions() []*discordgo.ApplicationCommand {
	guildOnly := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	everywhere := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM,
		discordgo.InteractionContextPrivateChannel}
	serverInstall := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	bothInstalls := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	adminOnly := adminPermissions
	return []*discordgo.ApplicationCommand{
		{Name: Play, Description: "Play cribbage at a table in this channel", IntegrationTypes: bothInstalls, Contexts: everywhere, Options: playOptions()},
		{Name: Club, Description: "This server's cribbage records: leaderboard, stats and ratings, seasons, tournaments", IntegrationTypes: serverInstall,
			Contexts: guildOnly, Options: clubOptions()},
		{Name: Admin, Description: "Cribbage for this server's admins: cancel a table, the server's settings, a new season, tournaments", IntegrationTypes: serverInstall,
			Contexts: guildOnly, DefaultMemberPermissions: &adminOnly, Options: adminOptions()},
		// A user command has a name and no description or options.
		{Type: discordgo.UserApplicationCommand, Name: ChallengeMenu, IntegrationTypes: serverInstall, Contexts: guildOnly},
		{Name: Daily, Description: "The daily hand: one throw to the crib a day, the same for everyone", IntegrationTypes: bothInstalls,
			Contexts: everywhere, Options: dailyOptions()},
	}
}

// dailyOptions are /cribbage-daily's subcommands.
func dailyOptions() []*discordgo.ApplicationCommandOption {
	return []*discordgo.ApplicationCommandOption{
		sub("hand", "Today's hand: choose your throw to the crib, once, and see what it gives up"),
		sub("month", "This month's points given up: the server's table, or your own in a DM"),
	}
}

// DailyHourMax is the last hour (UTC) a server's daily post may be set to.
const DailyHourMax = 23.0

// playOptions are /cribbage's subcommands.
func playOptions() []*discordgo.ApplicationCommandOption {
	tableOpt := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "table",
		Description: "The table number (only needed if you sit at more than one here)", Autocomplete: true, MinValue: &one}
	pointsOpt := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "points", Description: "Game length (default 121, or the server's own)", Choices: intChoices(121, 61)}
	matchOpt := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "match",
		Description: "Play a match: the first to win a majority of 3 or 5 games (two players, or two teams)",
		Choices:     []*discordgo.ApplicationCommandOptionChoice{{Name: "best of 3", Value: 3}, {Name: "best of 5", Value: 5}}}
	return []*discordgo.ApplicationCommandOption{
		sub("start", "Open a cribbage table in this channel",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "players", Description: "How many players (default 2)", Choices: intChoices(2, 3, 4)},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "teams", Description: "With 4 players: two teams of two, partners sitting opposite"},
			pointsOpt,
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "counting", Description: "Who counts the hands (default: the table)",
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "automatic", Value: "automatic"}, {Name: "manual (players claim their points)", Value: "manual"}}},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "muggins", Description: "With manual counting: opponents may take points you miss"},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "computer", Description: "Fill empty seats with computer players when you press Start",
				Choices: stringChoices(render.LevelEasy, render.LevelStrong)},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "four-colour", Description: "Draw the cards in four colours: diamonds blue, clubs green (easier for colour-blind players)"},
			matchOpt,
		),
		sub("challenge", "Challenge someone to cribbage: they accept or decline",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whom to challenge", Required: true},
			pointsOpt, matchOpt),
		sub("join", "Take a seat at a table in this channel", tableOpt),
		sub("leave", "Give up your seat before the game starts", tableOpt),
		sub("hand", "Show your hand, privately", tableOpt),
		sub("status", "Show a table", tableOpt,
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "public", Description: "Show it to the channel (default: only you)"}),
		sub("resign", "Concede your game (asks first)", tableOpt),
		sub("games", "Your open tables in this server, and whose turn it is"),
		sub("count", "Count a hand: fifteens, pairs, runs, flush and nobs",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "cards", Description: "Four cards, e.g. 5H 5D 5C JS", Required: true, MaxLength: 40},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "starter", Description: "The starter card, e.g. 5S", Required: true, MaxLength: 4},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "crib", Description: "Count it as a crib (a flush needs all five cards)"},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "share", Description: "Post the count to the channel (default: only you see it)"}),
		sub("replay", "Go through a game hand by hand: the deal, the throws, the play, the show",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "table", Description: "The table number (default: your game in progress here)", MinValue: &one}),
		sub("verify", "Deal a hand again from its seed, revealed once the hand is over",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "seed", Description: "The 64 hex digits the thread shows after the hand", Required: true, MinLength: &seedDigits, MaxLength: seedDigits},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "players", Description: "How many players the table had (default 2)", Choices: intChoices(2, 3, 4)}),
		sub("daily", "Today's daily hand: one throw to the crib, the same for everyone"),
		sub("rules", "How cribbage is played here"),
		sub("help", "How to use this bot"),
	}
}

// clubOptions are /cribbage-club's subcommands.
func clubOptions() []*discordgo.ApplicationCommandOption {
	return []*discordgo.ApplicationCommandOption{
		sub("leaderboard", "The server's leaderboard: ratings this season",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "period", Description: "Which games of the season (default: all of them)",
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "last 7 days", Value: "week"}, {Name: "last 30 days", Value: "month"}, {Name: "the whole season", Value: "all"}}},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "season", Description: "A past season's number (default: this season)", MinValue: &one}),
		sub("seasons", "The server's seasons: when each ran, and its games"),
		sub("stats", "A player's record in this server",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose stats (default: yours)"},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "vs", Description: "Also show the record against this player"}),
		sub("tournament", "This channel's tournament: the standings, the round's games and the bracket"),
	}
}

// adminOptions are /cribbage-admin's subcommands.
func adminOptions() []*discordgo.ApplicationCommandOption {
	zero := 0.0
	return []*discordgo.ApplicationCommandOption{
		sub("cancel", "End a stuck or abusive table: no result, no winner, nothing in the records",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "table", Description: "The table number (on its message: Cribbage · table N)",
				Required: true, Autocomplete: true, MinValue: &one},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reason", Description: "Why, for the players (shown on the table and in its thread)", MaxLength: ReasonLength}),
		sub("settings", "Show this server's cribbage settings; with options, change them",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reminder-after", Description: "Remind a player keeping a table waiting this long: 90m, 12h, 2d, or off", MaxLength: 12},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "forfeit-after", Description: "Opponents may claim the win after this long without a move: 3d, 7d, or off", MaxLength: 12},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "default-points", Description: "Game length when /cribbage start doesn't say", Choices: intChoices(121, 61)},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionChannel, Name: "games-channel", Description: "The one channel where /cribbage start opens tables",
				ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "max-open-tables", Description: "The most open tables one person may sit at here (0: no limit)",
				MinValue: &zero, MaxValue: maxOpenTablesLimit},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionRole, Name: "cancel-role", Description: "A role whose members may also cancel tables"},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: SetLanguage, Description: "The language of the table messages, stories and tournaments here",
				Choices: languageChoices()},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reset", Description: "Put one setting (or all) back to the default",
				Choices: stringChoices(SettingNames...)}),
		group("season", "The server's rating seasons",
			sub("new", "End this season and start the next: every rating starts again, past seasons stay viewable",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "What to call the new season (e.g. Winter league)", MaxLength: SeasonNameLength})),
		tournamentGroup(),
		sub("daily", "Where and when this server gets the daily hand; with no option, show it",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Description: "The channel that gets the day's hand and the reveal of yesterday's",
				ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "hour", Description: "The hour (UTC, 0 to 23) from which the day's post goes out",
				MinValue: &zero, MaxValue: DailyHourMax},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "off", Description: "Stop posting the daily hand here"}),
	}
}

// Options returns a subcommand's options by name.
func Options(ic *discordgo.Interaction) map[string]*discordgo.ApplicationCommandInteractionDataOption {
	out := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	_, sub := Invoked(ic.ApplicationCommandData())
	if sub == nil {
		return out
	}
	for _, o := range sub.Options {
		out[o.Name] = o
	}
	return out
}

// Invoked returns the subcommand an interaction runs, and its path within
// its command: "leaderboard", or "season new" for the subcommand new of
// the group season. sub is nil when the interaction names none.
func Invoked(data discordgo.ApplicationCommandInteractionData) (path string, sub *discordgo.ApplicationCommandInteractionDataOption) {
	if len(data.Options) == 0 {
		return "", nil
	}
	o := data.Options[0]
	if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup && len(o.Options) > 0 {
		return o.Name + " " + o.Options[0].Name, o.Options[0]
	}
	return o.Name, o
}

// MaxComputerEntrants bounds how many computer players one command adds.
const MaxComputerEntrants = 16.0

// tournamentGroup is /cribbage-admin tournament and its subcommands.
func tournamentGroup() *discordgo.ApplicationCommandOption {
	one, maxRounds, maxName := 1.0, float64(cribbage.MaxRounds), 60
	return group("tournament", "Run a tournament in this channel",
		sub("open", "Open a tournament in this channel: Swiss rounds, then a best-of-3 playoff for the top quarter",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "The tournament's name", Required: true, MaxLength: maxName},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "games-per-round", Description: "Games each pairing plays a round (default 2, the deal alternating)", Choices: intChoices(1, 2)},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "rounds", Description: "Qualifying rounds (default 3)", MinValue: &one, MaxValue: maxRounds},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "points", Description: "Game length (default 121)", Choices: intChoices(121, 61)}),
		sub("start", "Close sign-up for this channel's tournament and pair the first round"),
		sub("cancel", "End this channel's tournament: its open games are cancelled"),
		sub("computers", "Enter computer players in this channel's tournament, to fill a small field",
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "count", Description: "How many", Required: true, MinValue: &one, MaxValue: MaxComputerEntrants},
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "level", Description: "How well they play (default easy)", Choices: stringChoices(render.LevelEasy, render.LevelStrong)}))
}

// SeasonNameLength is the longest name a season may be given.
const SeasonNameLength = 40

// The settings by name, as the command's options name them; reset takes
// one of them, or everything.
const (
	SetReminder   = "reminder-after"
	SetForfeit    = "forfeit-after"
	SetPoints     = "default-points"
	SetChannel    = "games-channel"
	SetMaxTables  = "max-open-tables"
	SetCancelRole = "cancel-role"
	SetLanguage   = "language"
	SetEverything = "everything"
)

// SettingNames are the settings reset may name.
var SettingNames = []string{SetReminder, SetForfeit, SetPoints, SetChannel, SetMaxTables, SetCancelRole, SetLanguage, SetEverything}
