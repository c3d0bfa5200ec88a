package discordtest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// makeWebhook makes a webhook in channelID with the bot token, and
// returns its id and token.
func makeWebhook(t *testing.T, s *Server, channelID string) (string, string) {
	t.Helper()
	status, out, _ := postJSON(t, s, "/channels/"+channelID+"/webhooks", `{"name":"Cribbage"}`)
	if status != 200 {
		t.Fatalf("make a webhook in %s: %d %v", channelID, status, out)
	}
	id, _ := out["id"].(string)
	token, _ := out["token"].(string)
	if id == "" || token == "" || out["application_id"] != s.AppID || out["channel_id"] != channelID {
		t.Fatalf("the webhook made: %v", out)
	}
	return id, token
}

// threadIn opens a thread on a message posted in channelID.
func threadIn(t *testing.T, s *Server, channelID string) string {
	t.Helper()
	_, msg, _ := postJSON(t, s, "/channels/"+channelID+"/messages", `{"content":"table"}`)
	status, out, _ := postJSON(t, s, "/channels/"+channelID+"/messages/"+msg["id"].(string)+"/threads", `{"name":"story"}`)
	if status != 201 {
		t.Fatalf("open a thread: %d %v", status, out)
	}
	return out["id"].(string)
}

// TestCreateWebhookAsDiscordDoes: a webhook is made with the bot token in
// a channel the bot may manage webhooks in, under a name Discord takes,
// fifteen at most a channel; not in a thread, nor where the server took
// Manage Webhooks from the bot.
func TestCreateWebhookAsDiscordDoes(t *testing.T) {
	s := withChannel(t)
	thread := threadIn(t, s, testChannel)
	denied := "900000000000000009"
	s.AddChannel(denied)
	s.DenyBotPermission(denied, discordgo.PermissionManageWebhooks)
	for _, tc := range []struct {
		name, channel, body string
		status, code        int
		violation           bool
	}{
		{"unknown channel", "900000000000000001", `{"name":"Cribbage"}`, 404, 10003, false},
		{"in a thread", thread, `{"name":"Cribbage"}`, 400, 50024, true},
		{"without Manage Webhooks", denied, `{"name":"Cribbage"}`, 403, 50013, false},
		{"a name with discord in it", testChannel, `{"name":"My Discord hook"}`, 400, 50035, true},
		{"a name with clyde in it", testChannel, `{"name":"CLYDE"}`, 400, 50035, true},
		{"a name too long", testChannel, `{"name":"` + strings.Repeat("x", 81) + `"}`, 400, 50035, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Violations())
			status, out, _ := postJSON(t, s, "/channels/"+tc.channel+"/webhooks", tc.body)
			if status != tc.status || out["code"] != float64(tc.code) {
				t.Errorf("%d %v, want %d %d", status, out, tc.status, tc.code)
			}
			if got := len(s.Violations()) > before; got != tc.violation {
				t.Errorf("recorded as a violation: %v, want %v", got, tc.violation)
			}
		})
	}
	for range maxChannelWebhooks {
		makeWebhook(t, s, testChannel)
	}
	if status, out, _ := postJSON(t, s, "/channels/"+testChannel+"/webhooks", `{"name":"Cribbage"}`); status != 400 || out["code"] != 30007.0 {
		t.Errorf("the 16th webhook: %d %v, want 400 30007", status, out)
	}
	if n := len(s.ChannelWebhooks(testChannel)); n != maxChannelWebhooks {
		t.Errorf("%d webhooks in the channel, want %d", n, maxChannelWebhooks)
	}
}

// TestExecuteWebhookAsDiscordDoes: a channel webhook is executed with its
// own token and no authorization, into its channel or one of that
// channel's threads; wait=true answers the message, else 204; a wrong
// token, a deleted webhook, or another channel's thread is refused.
func TestExecuteWebhookAsDiscordDoes(t *testing.T) {
	s := withChannel(t)
	other := "900000000000000002"
	s.AddChannel(other)
	thread := threadIn(t, s, testChannel)
	otherThread := threadIn(t, s, other)
	id, token := makeWebhook(t, s, testChannel)
	path := "/webhooks/" + id + "/" + token
	post := func(query, auth string) (int, map[string]any) {
		t.Helper()
		status, out, _ := do(t, s, http.MethodPost, path+query, auth, "application/json", []byte(`{"content":"Hand 1"}`))
		return status, out
	}
	if status, out := post("?wait=true&thread_id="+thread, ""); status != 200 || out["webhook_id"] != id || out["channel_id"] != thread {
		t.Errorf("into the thread, waiting: %d %v", status, out)
	}
	if status, _ := post("", ""); status != 204 {
		t.Errorf("into the channel, not waiting: %d, want 204", status)
	}
	ms := s.ChannelMessages(thread)
	if len(ms) != 1 || ms[0].WebhookID != id || ms[0].Author == nil || ms[0].Author.ID != id || ms[0].Nonce != "" {
		t.Errorf("the thread shows %+v, want the webhook's message", ms)
	}
	before := len(s.Violations())
	if status, out := post("?wait=true&thread_id="+otherThread, ""); status != 404 || out["code"] != 10003.0 {
		t.Errorf("into another channel's thread: %d %v, want 404 10003", status, out)
	}
	if len(s.Violations()) == before {
		t.Error("a post into another channel's thread is not a violation")
	}
	if status, out, _ := do(t, s, http.MethodPost, "/webhooks/"+id+"/wrong", "", "application/json", []byte(`{"content":"x"}`)); status != 401 || out["code"] != 50027.0 {
		t.Errorf("a wrong token: %d %v, want 401 50027", status, out)
	}
	s.DeleteWebhook(id)
	if status, out := post("?wait=true", ""); status != 404 || out["code"] != 10015.0 {
		t.Errorf("a deleted webhook: %d %v, want 404 10015", status, out)
	}
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.Path, "/api/v9/webhooks/"+id) != r.ChannelWebhook {
			t.Errorf("%s %s recorded as a channel webhook's: %v", r.Method, r.Path, r.ChannelWebhook)
		}
	}
}

// TestRequestsWithoutAuthorizationCountByAddress: a channel webhook's
// executions without authorization count against the address's 50 a
// second, apart from the bot token's: with the address's second used, a
// bot-token request still goes, and the 51st execution is a global 429;
// executed with the bot token, a webhook counts against the bot's.
func TestRequestsWithoutAuthorizationCountByAddress(t *testing.T) {
	s := withChannel(t)
	var hooks [][2]string
	for i := range 11 { // 5 a webhook every 2 s: 55 executions in all
		ch := fmt.Sprint(910000000000000000 + i)
		s.AddChannel(ch)
		id, token := makeWebhook(t, s, ch)
		hooks = append(hooks, [2]string{id, token})
	}
	execute := func(k int, auth string) (int, map[string]any, http.Header) {
		h := hooks[k/5]
		return do(t, s, http.MethodPost, "/webhooks/"+h[0]+"/"+h[1], auth, "application/json", []byte(`{"content":"x"}`))
	}
	for k := range globalLimit {
		if status, out, _ := execute(k, ""); status != 204 {
			t.Fatalf("execution %d: %d %v", k, status, out)
		}
	}
	status, out, h := execute(globalLimit, "")
	if status != 429 || out["global"] != true || h.Get("X-RateLimit-Scope") != "global" {
		t.Errorf("execution %d: %d %v scope %q, want a global 429", globalLimit, status, out, h.Get("X-RateLimit-Scope"))
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
}
