package bot

import (
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/engine"
)

// commandName is the one slash command; everything is a subcommand of it.
const commandName = "cribbage"

// one is the least table number.
var one = 1.0

// seedDigits is a revealed seed's length in hex.
var seedDigits = 2 * len(engine.Seed{})

// commandDefinitions is the /cribbage command with its subcommands and
// options, registered with a bulk overwrite at start.
func commandDefinitions() []*discordgo.ApplicationCommand {
	noDM := false
	tableOpt := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "table",
		Description: "The table number (only needed if you sit at more than one here)", Autocomplete: true, MinValue: &one}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	intChoices := func(values ...int) []*discordgo.ApplicationCommandOptionChoice {
		var out []*discordgo.ApplicationCommandOptionChoice
		for _, v := range values {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: strconv.Itoa(v), Value: v})
		}
		return out
	}
	return []*discordgo.ApplicationCommand{{
		Name:         commandName,
		Description:  "Play cribbage at a table in this channel",
		DMPermission: &noDM,
		Contexts:     &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		Options: []*discordgo.ApplicationCommandOption{
			sub("start", "Open a cribbage table in this channel",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "players", Description: "How many players (default 2)", Choices: intChoices(2, 3, 4)},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "teams", Description: "With 4 players: two teams of two, partners sitting opposite"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "points", Description: "Game length (default 121)", Choices: intChoices(121, 61)},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "counting", Description: "Who counts the hands (default: the table)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "automatic", Value: "automatic"}, {Name: "manual (players claim their points)", Value: "manual"}}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "muggins", Description: "With manual counting: opponents may take points you miss"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "computer", Description: "Fill empty seats with computer players when you press Start",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "easy", Value: "easy"}, {Name: "expert", Value: "expert"}, {Name: "classic", Value: "classic"}}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "four-colour", Description: "Draw the cards in four colours: diamonds blue, clubs green (easier for colour-blind players)"},
			),
			sub("join", "Take a seat at a table in this channel", tableOpt),
			sub("leave", "Give up your seat before the game starts", tableOpt),
			sub("hand", "Show your hand, privately", tableOpt),
			sub("status", "Show a table", tableOpt,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "public", Description: "Show it to the channel (default: only you)"}),
			sub("resign", "Concede your game (asks first)", tableOpt),
			sub("games", "Your open tables in this server, and whose turn it is"),
			sub("leaderboard", "The server's leaderboard: ratings this season",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "period", Description: "Which games of the season (default: all of them)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "last 7 days", Value: "week"}, {Name: "last 30 days", Value: "month"}, {Name: "the whole season", Value: "all"}}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "season", Description: "A past season's number (default: this season)", MinValue: &one}),
			sub("seasons", "The server's seasons: when each ran, and its games"),
			sub("stats", "A player's record in this server",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose stats (default: yours)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "vs", Description: "Also show the record against this player"}),
			sub("count", "Count a hand: fifteens, pairs, runs, flush and nobs",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "cards", Description: "Four cards, e.g. 5H 5D 5C JS", Required: true, MaxLength: 40},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "starter", Description: "The starter card, e.g. 5S", Required: true, MaxLength: 4},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "crib", Description: "Count it as a crib (a flush needs all five cards)"}),
			sub("replay", "Go through a game hand by hand: the deal, the throws, the play, the show",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "table", Description: "The table number (default: your game in progress here)", MinValue: &one}),
			sub("verify", "Deal a hand again from its seed, revealed once the hand is over",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "seed", Description: "The 64 hex digits the thread shows after the hand", Required: true, MinLength: &seedDigits, MaxLength: seedDigits},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "players", Description: "How many players the table had (default 2)", Choices: intChoices(2, 3, 4)}),
			sub("rules", "How cribbage is played here"),
			sub("help", "How to use this bot"),
		},
	}}
}

// options returns a subcommand's options by name.
func options(ic *discordgo.Interaction) map[string]*discordgo.ApplicationCommandInteractionDataOption {
	out := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	data := ic.ApplicationCommandData()
	if len(data.Options) == 0 {
		return out
	}
	for _, o := range data.Options[0].Options {
		out[o.Name] = o
	}
	return out
}
