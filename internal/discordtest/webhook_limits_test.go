package discordtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestRequestsWithoutAuthorizationCountByAddress: a channel webhook's
// executions without authorization count against the address's 50 a
// second, apart from the bot token's: with the address's second used, a
// bot-token request still goes, and the 51st execution is a global 429;
// executed with the bot token, a webhook counts against the bot's; an
// interaction's followups count against neither. The windows stand still
// (withChannel).
func TestRequestsWithoutAuthorizationCountByAddress(t *testing.T) {
	s := withChannel(t)
	i := s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, ChannelID: testChannel})
	var hooks [][2]string
	for i := range 11 { // 5 a webhook every 2 s: 55 executions in all
		ch := fmt.Sprint(910000000000000000 + i)
		s.AddChannel(ch)
		id, token := makeWebhook(t, s, ch)
		hooks = append(hooks, [2]string{id, token})
	}
	execute := func(k int, auth string) (int, map[string]any, http.Header) {
		t.Helper()
		h := hooks[k/5]
		return do(t, s, http.MethodPost, "/webhooks/"+h[0]+"/"+h[1], auth, "application/json", []byte(`{"content":"x"}`))
	}
	for k := range globalLimit {
		if status, out, _ := execute(k, ""); status != 204 {
			t.Fatalf("execution %d: %d %v", k, status, out)
		}
	}
	status, out, h := execute(globalLimit, "")
	if status != 429 || out["global"] != true || h.Get("X-RateLimit-Scope") != "global" || h.Get("X-RateLimit-Global") != "true" {
		t.Errorf("execution %d: %d %v %v, want a global 429", globalLimit, status, out, h)
	}
	if ra, _ := out["retry_after"].(float64); ra <= 0 || ra > 1 {
		t.Errorf("retry_after %v, want within the second", out["retry_after"])
	}
	if got := s.RateLimited(); got["address"] != 1 || got["global"] != 0 {
		t.Errorf("429s by scope %v, want one of the address's", got)
	}
	// The bot token's second is its own: 11 webhooks made, 39 left.
	for k := range globalLimit - len(hooks) - 1 {
		if status, out, _ := postJSON(t, s, "/channels/"+fmt.Sprint(910000000000000000+k%len(hooks))+"/webhooks", `{"name":"x"}`); status != 200 && status != 400 {
			t.Fatalf("bot-token request %d beside the address's: %d %v", k, status, out)
		}
	}
	// With the bot token, the next execution is the bot's 50th, then a
	// 429 of the bot's.
	if status, out, _ := execute(globalLimit+1, botAuth); status != 204 {
		t.Errorf("an execution with the bot token, the bot's 50th request: %d %v", status, out)
	}
	if status, _, _ := execute(globalLimit+2, botAuth); status != 429 || s.RateLimited()["global"] != 1 {
		t.Errorf("an execution with the bot token past the bot's 50: %d, 429s %v", status, s.RateLimited())
	}
	// Both windows full, an interaction's followups still go, with the
	// bot token or without.
	for _, auth := range []string{botAuth, ""} {
		if status, out, _ := do(t, s, http.MethodPost, "/webhooks/"+s.AppID+"/"+i.Token, auth, "application/json", []byte(`{"content":"followup"}`)); status != 200 {
			t.Errorf("a followup (auth %q) with both windows full: %d %v", auth, status, out)
		}
	}
	if got := s.RateLimited(); got["address"] != 1 || got["global"] != 1 {
		t.Errorf("429s by scope %v, want one each", got)
	}
	// A channel webhook's posts are no interaction's followups.
	if f := s.Followups(i.Token); len(f) != 2 {
		t.Errorf("%d followups of the interaction, want its 2", len(f))
	}
	for _, r := range s.Requests() {
		if r.ChannelWebhook && r.Route != "POST /webhooks/{webhook_id}/{webhook_token}" || !r.ChannelWebhook && r.Path == "/api/v9/webhooks/"+hooks[0][0]+"/"+hooks[0][1] {
			t.Errorf("%s %s marked ChannelWebhook %v", r.Method, r.Path, r.ChannelWebhook)
		}
	}
}

// TestGlobalWindows: which global window each request counts against,
// and that two addresses' windows are apart.
func TestGlobalWindows(t *testing.T) {
	s := withChannel(t)
	const hook = "900000000000000004"
	for _, tc := range []struct {
		name, template string
		params         map[string]string
		bot            bool
		want           string
	}{
		{"an interaction callback", "/interactions/{interaction_id}/{interaction_token}/callback", map[string]string{"interaction_id": "1"}, false, ""},
		{"a followup with the bot token", "/webhooks/{webhook_id}/{webhook_token}", map[string]string{"webhook_id": s.AppID}, true, ""},
		{"an @original edit without", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", map[string]string{"webhook_id": s.AppID}, false, ""},
		{"a channel message", "/channels/{channel_id}/messages", map[string]string{"channel_id": testChannel}, true, "bot"},
		{"a channel webhook with the bot token", "/webhooks/{webhook_id}/{webhook_token}", map[string]string{"webhook_id": hook}, true, "bot"},
		{"a channel webhook without", "/webhooks/{webhook_id}/{webhook_token}", map[string]string{"webhook_id": hook}, false, "address 10.1.2.3"},
		{"a channel webhook's message edit without", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", map[string]string{"webhook_id": hook}, false, "address 10.1.2.3"},
	} {
		r := httptest.NewRequest(http.MethodPost, "/api/v9/x", nil)
		r.RemoteAddr = "10.1.2.3:4567"
		if got := s.globalCount(r, tc.template, tc.params, tc.bot); got != tc.want {
			t.Errorf("%s: counted against %q, want %q", tc.name, got, tc.want)
		}
	}
	l := newLimiter()
	now := time.Now()
	take := func(k int, window string) rateDecision {
		// A webhook of its own each time: only the global window binds.
		return l.take(now, http.MethodPost, "/webhooks/{webhook_id}/{webhook_token}", map[string]string{"webhook_id": fmt.Sprint(k), "webhook_token": "t"}, window)
	}
	for k := range globalLimit {
		if d := take(k, "address 10.0.0.1"); d.refused {
			t.Fatalf("request %d from 10.0.0.1 refused", k)
		}
	}
	if d := take(globalLimit, "address 10.0.0.1"); !d.refused || d.scope != "global" {
		t.Errorf("the 51st from 10.0.0.1: %+v, want a global refusal", d)
	}
	if d := take(globalLimit+1, "address 10.0.0.2"); d.refused {
		t.Errorf("the first from 10.0.0.2 refused: %+v", d)
	}
	if got := l.limited; got["address"] != 1 || got["global"] != 0 {
		t.Errorf("429s by scope %v, want one of an address's", got)
	}
}
