// Package gateway connects the bot to Discord's gateway, the websocket
// that brings interactions to a bot without an interactions endpoint: it
// opens the shards this process runs and waits for READY, which names the
// application.
package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// Conn is the open gateway: the bot's own session, and one more session
// for each other shard this process runs.
type Conn struct {
	main  *discordgo.Session
	extra []*discordgo.Session
}

// Open connects s to the gateway and returns once Discord is ready, with
// the application's id; or, if ctx ends first, with a nil Conn. Every
// interaction any shard brings is handed to handle, each in a goroutine
// of its own (discordgo's way).
//
// shardCount > 0 runs shard shardID of shardCount (other processes run
// the others); with no count, Open asks Discord how many shards it
// recommends and runs them all, s as shard 0 and one more session for
// each other. The extra sessions only carry interactions: REST goes
// through s.
func Open(ctx context.Context, s *discordgo.Session, shardID, shardCount int, log *slog.Logger, handle func(*discordgo.Session, *discordgo.InteractionCreate)) (*Conn, string, error) {
	ready := make(chan string, 1)
	var once sync.Once
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		once.Do(func() {
			id := r.User.ID
			if r.Application != nil && r.Application.ID != "" {
				id = r.Application.ID
			}
			ready <- id
		})
	})
	s.AddHandler(handle)
	c := &Conn{main: s}
	if err := c.shard(shardID, shardCount, log, handle); err != nil {
		return nil, "", err
	}
	if err := s.Open(); err != nil {
		return nil, "", fmt.Errorf("gateway: connect to Discord: %w", err)
	}
	for _, x := range c.extra {
		if err := x.Open(); err != nil {
			c.Close()
			return nil, "", fmt.Errorf("gateway: connect shard %d to Discord: %w", x.ShardID, err)
		}
	}
	select {
	case id := <-ready:
		return c, id, nil
	case <-ctx.Done():
		c.Close()
		return nil, "", nil
	}
}

// shard sets which gateway shards this process runs (see Open).
func (c *Conn) shard(shardID, shardCount int, log *slog.Logger, handle func(*discordgo.Session, *discordgo.InteractionCreate)) error {
	s := c.main
	if shardCount > 0 {
		s.ShardID, s.ShardCount = shardID, shardCount
		log.Info("running one gateway shard", "shard", shardID, "of", shardCount)
		return nil
	}
	gw, err := s.GatewayBot()
	if err != nil {
		return fmt.Errorf("gateway: ask Discord for the gateway: %w", err)
	}
	if gw.Shards <= 1 {
		return nil
	}
	s.ShardID, s.ShardCount = 0, gw.Shards
	for id := 1; id < gw.Shards; id++ {
		x, err := discordgo.New(s.Token)
		if err != nil {
			return fmt.Errorf("gateway: shard %d: %w", id, err)
		}
		x.Client, x.Identify.Intents, x.LogLevel, x.StateEnabled = s.Client, s.Identify.Intents, s.LogLevel, false
		x.ShardID, x.ShardCount = id, gw.Shards
		x.AddHandler(handle)
		c.extra = append(c.extra, x)
	}
	log.Info("running every gateway shard Discord recommends", "shards", gw.Shards)
	return nil
}

// Close disconnects every shard.
func (c *Conn) Close() error {
	for _, x := range c.extra {
		x.Close()
	}
	return c.main.Close()
}
