package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// cmdVerify deals again from a revealed seed, so anyone can check a hand
// against the commitment the story showed when it was dealt.
func (b *Bot) cmdVerify(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	opts := command.Options(ic)
	seed, err := engine.ParseSeed(opts["seed"].StringValue())
	if err != nil {
		return reply{resp: render.Ephemeral("A seed is the 64 hex digits the table's thread shows once a hand is over.")}, nil
	}
	players := 2
	if o, ok := opts["players"]; ok {
		players = int(o.IntValue())
	}
	return reply{resp: render.Ephemeral(render.VerifyText(seed, players))}, nil
}
