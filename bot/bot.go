// Package bot is the Discord adapter: it turns interactions into engine
// actions and engine events into messages. It holds no game rules.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Options are what the bot needs from its caller; cmd builds them from the
// environment.
type Options struct {
	// Token is the bot token. It is handed to discordgo and never logged.
	Token string
	// GuildID, when set, registers the commands to this server only.
	GuildID string
	// APIURL, when set, replaces https://discord.com for REST calls; the
	// gateway is whatever that API's /gateway returns.
	APIURL *url.URL
	// Logger receives the bot's logs.
	Logger *slog.Logger
}

// Bot is one connection to Discord serving cribbage tables.
type Bot struct {
	opts    Options
	log     *slog.Logger
	session *discordgo.Session
}

// New prepares a bot; it does not connect until Run.
func New(opts Options) (*Bot, error) {
	if opts.Token == "" {
		return nil, errors.New("bot: no token")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := discordgo.New("Bot " + opts.Token)
	if err != nil {
		return nil, fmt.Errorf("bot: %w", err)
	}
	// The bot needs only interactions and guild metadata: no privileged
	// intents, no message content.
	s.Identify.Intents = discordgo.IntentsGuilds
	s.Client = &http.Client{Timeout: 20 * time.Second}
	if opts.APIURL != nil {
		s.Client.Transport = newRewriteTransport(opts.APIURL, nil)
	}
	// discordgo logs through the standard logger at its own levels; keep
	// only its errors, which never contain the token.
	s.LogLevel = discordgo.LogError
	return &Bot{opts: opts, log: opts.Logger, session: s}, nil
}

// Run connects to Discord and serves until ctx is cancelled, then closes
// the connection.
func (b *Bot) Run(ctx context.Context) error {
	if err := b.session.Open(); err != nil {
		return fmt.Errorf("bot: connect to Discord: %w", err)
	}
	b.log.Info("connected to Discord")
	<-ctx.Done()
	b.log.Info("shutting down")
	return b.session.Close()
}
