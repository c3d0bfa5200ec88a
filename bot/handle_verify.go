package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/engine"
)

// cmdVerify deals again from a revealed seed, so anyone can check a hand
// against the commitment the story showed when it was dealt.
func (b *Bot) cmdVerify(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	opts := options(ic)
	seed, err := engine.ParseSeed(opts["seed"].StringValue())
	if err != nil {
		return reply{resp: ephemeral("A seed is the 64 hex digits the table's thread shows once a hand is over.")}, nil
	}
	players := 2
	if o, ok := opts["players"]; ok {
		players = int(o.IntValue())
	}
	return reply{resp: ephemeral(verifyText(seed, players))}, nil
}

// verifyText is a deal from seed as players read it: the commitment to
// compare, then every hand as dealt.
func verifyText(seed engine.Seed, players int) string {
	d := engine.Deal(seed, players)
	lines := []string{
		fmt.Sprintf("**Seed** `%s`", seed),
		fmt.Sprintf("**Commitment** (SHA-256 of the seed) `%s` — the same as the thread showed at the deal, or the deal was changed.", seed.Commitment()),
		fmt.Sprintf("Dealt at %d players, one card at a time from the dealer's left:", players),
	}
	for i, name := range d.Seats() {
		lines = append(lines, fmt.Sprintf("· %s: %s", name, engine.DisplayCards(d.Hands[i].Cards())))
	}
	if d.Crib != 0 {
		lines = append(lines, "· To the crib, from the deck: "+engine.DisplayCards(d.Crib.Cards()))
	}
	lines = append(lines, "· Starter: "+d.Starter.Display())
	return strings.Join(lines, "\n")
}
