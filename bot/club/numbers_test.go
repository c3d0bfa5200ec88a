package club

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/internal/mock"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// statsCommand is alice's /cribbage-club stats in server g.
func statsCommand() *discordgo.Interaction {
	return &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, GuildID: "g",
		Member: &discordgo.Member{User: &discordgo.User{ID: "alice", Username: "alice"}},
		Data: discordgo.ApplicationCommandInteractionData{Name: "cribbage-club",
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "stats", Type: discordgo.ApplicationCommandOptionSubCommand}}}}
}

// TestStatsReviewsThePlayersThrowsFirst: stats right after a game show
// its numbers with every throw reviewed, though no background pass ran.
func TestStatsReviewsThePlayersThrowsFirst(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s := mock.NewStore()
	s.Now = func() time.Time { return now }
	servicetest.KnownA(t, s, s.Now)
	a := &Answers{Store: s, Now: s.Now, Log: slog.New(slog.DiscardHandler)}
	resp, err := a.Stats(context.Background(), statsCommand())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Data.Embeds) != 2 {
		t.Fatalf("embeds %+v, want the record and the numbers", resp.Data.Embeds)
	}
	numbers := resp.Data.Embeds[1]
	// Game A: Alice dealt once (2 pegged, 2 held, 8 from the crib) and
	// was pone once (1 pegged, 2 held).
	for _, row := range []string{" pegged        2.0   2.0   3.5", " crib          8.0   8.0   4.7", " hand          2.0   2.0   8.1"} {
		if !strings.Contains(numbers.Description, row) {
			t.Errorf("no %q in\n%s", row, numbers.Description)
		}
	}
	if strings.Contains(numbers.Footer.Text, "still being reviewed") || strings.Contains(numbers.Description, "given up        —   ") {
		t.Errorf("throws left unreviewed:\n%s\n%s", numbers.Description, numbers.Footer.Text)
	}
	if left, _ := s.UnreviewedThrows(context.Background(), "g", "alice", 10); len(left) != 0 {
		t.Errorf("%d of alice's throws unreviewed", len(left))
	}
	if left, _ := s.UnreviewedThrows(context.Background(), "g", "bob", 10); len(left) != 2 {
		t.Errorf("%d of bob's throws unreviewed, want his two left to the background", len(left))
	}
}

// TestReviewReviewsEveryoneAndStops: the background pass reviews every
// throw, and returns when its context ends.
func TestReviewReviewsEveryoneAndStops(t *testing.T) {
	s := mock.NewStore()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	servicetest.KnownA(t, s, s.Now)
	servicetest.KnownB(t, s, s.Now)
	a := &Answers{Store: s, Now: s.Now, Log: slog.New(slog.DiscardHandler)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Review(ctx)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left, err := s.UnreviewedThrows(context.Background(), "", "", 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d throws still unreviewed", len(left))
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
}
