package main

import (
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestGamesListsWhatWaitsOnYou: /cribbage games lists a challenge to you
// and a rematch offer you have not accepted, each with its table and what
// to press, though neither is a table you sit at; your own challenge says
// whose answer it waits for; and once answered, none is listed.
func TestGamesListsWhatWaitsOnYou(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	challenge, challengeMsg := h.challengeOf(h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}, discordtest.Opt{Name: "match", Value: 3}))
	finished, finishedMsg := h.open(carol)
	h.click(bob, finishedMsg, "/join/"+itoa64(finished))
	h.clickNamed(bob, h.command(bob, "resign", discordtest.Opt{Name: "table", Value: finished}), "/resign/")
	h.click(carol, finishedMsg, "/rematch/"+itoa64(finished))

	tests := []struct {
		who     discordtest.User
		want    []string
		notWant []string
	}{
		{bob, []string{
			"Waiting on your answer",
			"table " + itoa64(challenge) + "](https://discord.com/channels/" + testGuild + "/" + testChannel + "/" + challengeMsg + ") — **Alice** challenges you to a best-of-3 match to 121",
			"**Accept** or **Decline**",
			"table " + itoa64(finished) + "](https://discord.com/channels/" + testGuild + "/" + testChannel + "/" + finishedMsg + ") — **Carol** offers a rematch",
			"**Accept rematch** or **Decline**",
		}, []string{"no open tables"}},
		{alice, []string{"Your tables", "your challenge to **Bob**, waiting for their answer"}, []string{"Waiting on your answer"}},
		{carol, []string{"no open tables"}, []string{"offers a rematch"}},
	}
	for _, tt := range tests {
		a := h.command(tt.who, "games")
		for _, w := range tt.want {
			if !a.Ephemeral() || !strings.Contains(a.Content(), w) {
				t.Errorf("%s's games: %q, want %q", tt.who.Name, a.Content(), w)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(a.Content(), w) {
				t.Errorf("%s's games: %q, do not want %q", tt.who.Name, a.Content(), w)
			}
		}
	}

	// Answered, neither waits on Bob.
	h.click(bob, challengeMsg, "/decline/"+itoa64(challenge))
	h.click(bob, finishedMsg, "/norematch/"+itoa64(finished))
	if a := h.command(bob, "games"); !strings.Contains(a.Content(), "no open tables") {
		t.Errorf("Bob's games once he answered: %q", a.Content())
	}
}
