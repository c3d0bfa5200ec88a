package servicetest

import (
	"errors"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// testChannelWebhooks: a channel's webhook, or Discord's refusal to make
// one, reads back as last recorded, its time to the millisecond, and
// ErrNotFound before any is or once it is forgotten. It is forgotten only
// while it is the webhook named, so a webhook or a refusal another process
// recorded meanwhile is kept; forgetting nothing is no error; and each
// channel's is its own.
func testChannelWebhooks(t *testing.T, h *harness) {
	made := cribbage.ChannelWebhook{ChannelID: "c1", ID: "w1", Token: "tok1"}
	// Refused between two milliseconds: read back cut to the millisecond.
	refused := cribbage.ChannelWebhook{ChannelID: "c1", RefusedAt: start.Add(1234567 * time.Nanosecond)}
	refusedMS := refused
	refusedMS.RefusedAt = refused.RefusedAt.Truncate(time.Millisecond)
	remade := cribbage.ChannelWebhook{ChannelID: "c1", ID: "w2", Token: "tok2"}
	elsewhere := cribbage.ChannelWebhook{ChannelID: "c2", ID: "w3", Token: "tok3"}
	// A step records w, or, with no w.ChannelID, forgets webhook in
	// channel.
	type step struct {
		w                cribbage.ChannelWebhook
		channel, webhook string
	}
	record := func(w cribbage.ChannelWebhook) step { return step{w: w} }
	forget := func(channel, webhook string) step { return step{channel: channel, webhook: webhook} }
	tests := []struct {
		name  string
		steps []step
		// want is what c1 and c2 read; a channel left out is ErrNotFound.
		want map[string]cribbage.ChannelWebhook
	}{
		{"nothing recorded", nil, nil},
		{"a webhook made", []step{record(made)}, map[string]cribbage.ChannelWebhook{"c1": made}},
		{"a refusal", []step{record(refused)}, map[string]cribbage.ChannelWebhook{"c1": refusedMS}},
		{"a webhook made after a refusal", []step{record(refused), record(made)}, map[string]cribbage.ChannelWebhook{"c1": made}},
		{"a refusal after a webhook", []step{record(made), record(refused)}, map[string]cribbage.ChannelWebhook{"c1": refusedMS}},
		{"another webhook made", []step{record(made), record(remade)}, map[string]cribbage.ChannelWebhook{"c1": remade}},
		{"forgotten", []step{record(made), forget("c1", "w1")}, nil},
		{"forgotten after another was made", []step{record(made), record(remade), forget("c1", "w1")},
			map[string]cribbage.ChannelWebhook{"c1": remade}},
		{"forgotten after a refusal", []step{record(made), record(refused), forget("c1", "w1")},
			map[string]cribbage.ChannelWebhook{"c1": refusedMS}},
		{"nothing to forget", []step{forget("c1", "w1")}, nil},
		{"channels apart", []step{record(made), record(elsewhere)},
			map[string]cribbage.ChannelWebhook{"c1": made, "c2": elsewhere}},
		{"forgotten in another channel", []step{record(made), record(elsewhere), forget("c2", "w3"), forget("c2", "w1")},
			map[string]cribbage.ChannelWebhook{"c1": made}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each case has channels of its own in the one implementation.
			in := func(channel string) string { return tt.name + "/" + channel }
			for _, s := range tt.steps {
				var err error
				if s.w.ChannelID != "" {
					w := s.w
					w.ChannelID = in(w.ChannelID)
					err = h.s.RecordChannelWebhook(ctx, w)
				} else {
					err = h.s.ForgetChannelWebhook(ctx, in(s.channel), s.webhook)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, channel := range []string{"c1", "c2"} {
				got, err := h.s.ChannelWebhook(ctx, in(channel))
				want, ok := tt.want[channel]
				if !ok {
					if !errors.Is(err, cribbage.ErrNotFound) {
						t.Errorf("%s: %+v, %v; want ErrNotFound", channel, got, err)
					}
					continue
				}
				want.ChannelID = in(channel)
				if err != nil || !sameWebhook(got, want) {
					t.Errorf("%s: %+v, %v; want %+v", channel, got, err, want)
				}
			}
		})
	}
}

// sameWebhook reports whether two channel webhooks are the same, their
// refusals' times by instant.
func sameWebhook(a, b cribbage.ChannelWebhook) bool {
	return a.ChannelID == b.ChannelID && a.ID == b.ID && a.Token == b.Token && a.RefusedAt.Equal(b.RefusedAt)
}
