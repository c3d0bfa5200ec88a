package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// Seasons: everyone sees the list (cmdSeasons) and any season's
// leaderboard (cmdLeaderboard's season option); an admin starts the next
// season (cmdSeasonNew), and every rating starts again.

// cmdSeasons lists the server's seasons, the current one first.
func (b *Bot) cmdSeasons(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	seasons, err := b.store.Seasons(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Seasons(seasons).Response(true)}}, nil
}

// cmdSeasonNew starts the server's next season, for a member who may
// manage the server: Discord offers /cribbage-admin to them alone by
// default, but a server may change that, so the bot checks again. The
// channel is told: every rating starts again, and the season just ended
// keeps its leaderboard. A current season without a game between people
// is not restarted.
func (b *Bot) cmdSeasonNew(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	if !command.IsAdmin(ic) {
		return reply{}, refusal.ErrNotSeasonAdmin
	}
	name := ""
	if o, ok := command.Options(ic)["name"]; ok {
		// One line: it is shown inside others.
		name = strings.Join(strings.Fields(o.StringValue()), " ")
	}
	uid, _ := command.User(ic)
	se, err := b.store.StartSeason(ctx, ic.GuildID, uid, name)
	if err != nil {
		return reply{}, err
	}
	text := fmt.Sprintf("🏁 **%s** has begun, started by <@%s>. Every rating starts again at 1500, provisional until a few games are played. "+
		"Season %d's leaderboard stays as it ended: `/%s leaderboard season: %d`.", render.SeasonTitle(se), uid, se.Number-1, command.Club, se.Number-1)
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Message{Content: text}.Response(false)}}, nil
}
