package main

import (
	"testing"

	"github.com/cribbage-bot/cribbage"
)

// TestShardsDiscordRecommends has Discord recommend two gateway shards:
// the bot runs both, each identifying as its shard, and a game is played
// through the shard Discord routes the server's interactions to.
func TestShardsDiscordRecommends(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) { h.fake.SetShards(2) })
	h.eventually("both shards connected", func() bool { return len(h.fake.Shards()) == 2 })
	id, msg := twoPlayerGame(t, h, shortGame()...)
	h.playToEnd(id, msg, usersOf(alice, bob))
	if st := h.table(id).Status; st != cribbage.StatusFinished {
		t.Fatalf("status %s", st)
	}
	shards := h.fake.Shards()
	var mine, other [2]int
	for s := range shards {
		if s[1] != 2 {
			t.Errorf("a connection identified as shard %v, want one of 2", s)
		}
		if s[0] == shardFor(testGuild, 2) {
			mine = s
		} else {
			other = s
		}
	}
	if shards[mine] == 0 || shards[other] != 0 {
		t.Errorf("interactions by shard: %v; the guild's shard is %v", shards, mine)
	}
}

// shardFor is Discord's shard of a guild: (id >> 22) % count.
func shardFor(guildID string, count int) int {
	var id uint64
	for _, c := range guildID {
		id = id*10 + uint64(c-'0')
	}
	return int((id >> 22) % uint64(count))
}
