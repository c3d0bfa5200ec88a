package live

import (
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// TestTokenEdits: a token edits its own message, and only until a minute
// before Discord lets it lapse.
func TestTokenEdits(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	tok := cribbage.MessageToken{MessageID: "m1", Token: "tok", At: at}
	for _, c := range []struct {
		name string
		tok  cribbage.MessageToken
		id   string
		now  time.Time
		want bool
	}{
		{"at once", tok, "m1", at, true},
		{"13m59s on", tok, "m1", at.Add(rest.TokenUsable - time.Second), true},
		{"14 minutes on", tok, "m1", at.Add(rest.TokenUsable), false},
		{"15 minutes on", tok, "m1", at.Add(rest.TokenLife), false},
		{"another message", tok, "m2", at, false},
		{"no message recorded", tok, "", at, false},
		{"no token", cribbage.MessageToken{MessageID: "m1", At: at}, "m1", at, false},
	} {
		if got := tokenEdits(c.tok, c.id, c.now); got != c.want {
			t.Errorf("%s: tokenEdits = %v, want %v", c.name, got, c.want)
		}
	}
}
