package bot

import (
	"context"
	"crypto/ed25519"
	"net/http"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/answer"
	"github.com/cribbage-bot/cribbage/bot/intake"
)

// InteractionsHandler returns the handler for the Interactions Endpoint
// URL, verifying every request against the application's public key (the
// hex key of the Developer Portal). It answers 503 until Run has started.
func (b *Bot) InteractionsHandler(publicKey ed25519.PublicKey) http.Handler {
	return intake.New(publicKey, b.now, b.running, func(ctx context.Context, ic *discordgo.Interaction, respond func([]byte)) {
		b.handle(ctx, ic, answer.HTTP(b.session, b.log, respond))
	})
}
