package discordtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// everyRequestItsOwnWindow runs s's rate limits on a clock an hour later
// at each request, so that a test of other rules never meets them.
func everyRequestItsOwnWindow(s *Server) {
	var tick atomic.Int64
	base := time.Now()
	s.SetRateClock(func() time.Time { return base.Add(time.Duration(tick.Add(1)) * time.Hour) })
}

// TestCreateWebhookAsDiscordDoes: a webhook is made with the bot token in
// a server's channel the bot may manage webhooks in, under a name Discord
// takes, fifteen at most a channel; not in a DM or a thread, nor where the
// server took Manage Webhooks from the bot. Only the bot's own mistakes
// are violations.
func TestCreateWebhookAsDiscordDoes(t *testing.T) {
	s := withChannel(t)
	const guild, inGuild, dm, denied = "300000000000000001", "900000000000000008", "900000000000000007", "900000000000000009"
	s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, GuildID: guild, ChannelID: inGuild})
	s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, ChannelID: dm})
	thread := threadIn(t, s, testChannel)
	s.AddChannel(denied)
	s.DenyBotPermission(denied, discordgo.PermissionManageWebhooks)
	if i := s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, GuildID: guild, ChannelID: denied}); i.AppPermissions&discordgo.PermissionManageWebhooks != 0 {
		t.Errorf("app_permissions %d where Manage Webhooks was taken", i.AppPermissions)
	}
	for _, tc := range []struct {
		name, channel, body string
		status, code        int
		violation           bool
	}{
		{"in a server's channel", inGuild, `{"name":"Cribbage"}`, 200, 0, false},
		{"unknown channel", "900000000000000001", `{"name":"Cribbage"}`, 404, 10003, false},
		{"in the bot's DM", dm, `{"name":"Cribbage"}`, 403, 50003, true},
		{"in a thread", thread, `{"name":"Cribbage"}`, 400, 50024, true},
		{"without Manage Webhooks", denied, `{"name":"Cribbage"}`, 403, 50013, false},
		{"a name with discord in it", testChannel, `{"name":"My Discord hook"}`, 400, 50035, true},
		{"a name with clyde in it", testChannel, `{"name":"CLYDE"}`, 400, 50035, true},
		{"a name too long", testChannel, `{"name":"` + strings.Repeat("x", 81) + `"}`, 400, 50035, true},
		{"a name of spaces", testChannel, `{"name":"   "}`, 400, 50035, true},
		{"no name", testChannel, `{}`, 400, 50035, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Violations())
			status, out, _ := postJSON(t, s, "/channels/"+tc.channel+"/webhooks", tc.body)
			if status != tc.status || tc.code != 0 && out["code"] != float64(tc.code) {
				t.Errorf("%d %v, want %d %d", status, out, tc.status, tc.code)
			}
			if got := len(s.Violations()) > before; got != tc.violation {
				t.Errorf("recorded as a violation: %v, want %v", got, tc.violation)
			}
			if status != 200 {
				return
			}
			user, _ := out["user"].(map[string]any)
			if out["type"] != 1.0 || out["guild_id"] != guild || out["channel_id"] != tc.channel || out["name"] != "Cribbage" ||
				out["avatar"] != nil || out["token"] == "" || out["application_id"] != s.AppID || user["id"] != s.BotUserID || user["bot"] != true {
				t.Errorf("the webhook made: %v", out)
			}
		})
	}
	for range maxChannelWebhooks {
		makeWebhook(t, s, testChannel)
	}
	before := len(s.Violations())
	if status, out, _ := postJSON(t, s, "/channels/"+testChannel+"/webhooks", `{"name":"Cribbage"}`); status != 400 || out["code"] != 30007.0 {
		t.Errorf("the 16th webhook: %d %v, want 400 30007", status, out)
	}
	if len(s.Violations()) != before {
		t.Error("the 16th webhook is a violation; the bot cannot see how many the channel has")
	}
	ids := s.ChannelWebhooks(testChannel)
	if len(ids) != maxChannelWebhooks {
		t.Errorf("%d webhooks in the channel, want %d", len(ids), maxChannelWebhooks)
	}
	for i := 1; i < len(ids); i++ {
		if len(ids[i]) < len(ids[i-1]) || len(ids[i]) == len(ids[i-1]) && ids[i] < ids[i-1] {
			t.Errorf("ChannelWebhooks not in the order made: %v", ids)
			break
		}
	}
}

// TestExecuteWebhookAsDiscordDoes: a channel webhook is executed with its
// own token and no authorization, into its channel or one of that
// channel's threads, its message the webhook's; wait=true answers the
// message, else 204; its body is held to every message rule and to the
// flags a webhook may set; a nonce in it means nothing.
func TestExecuteWebhookAsDiscordDoes(t *testing.T) {
	s := withChannel(t)
	everyRequestItsOwnWindow(s)
	other := "900000000000000002"
	s.AddChannel(other)
	thread := threadIn(t, s, testChannel)
	otherThread := threadIn(t, s, other)
	id, token := makeWebhook(t, s, testChannel)
	if status, out, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", `{"content":"the bot's","nonce":"n1","enforce_nonce":true}`); status != 200 {
		t.Fatalf("the bot's message with a nonce: %d %v", status, out)
	}
	v2Buttons := `{` + v2 + `,"components":[` + texts(1, "Hand 1") + `,{"type":1,"components":[` + button("again") + `]}]}`
	for _, tc := range []struct {
		name, query, auth, body string
		status, code            int
		violation               bool
		where, author           string // the message's channel and author's name, when answered
	}{
		{"into the channel, not waiting", "", "", `{"content":"Hand 1"}`, 204, 0, false, "", ""},
		{"into the thread, waiting", "?wait=true&thread_id=" + thread, "", `{"content":"Hand 1"}`, 200, 0, false, thread, "Cribbage"},
		{"waiting, said as 1", "?wait=1", "", `{"content":"Hand 1"}`, 200, 0, false, testChannel, "Cribbage"},
		{"not waiting, said", "?wait=False&thread_id=" + thread, "", `{"content":"Hand 1"}`, 204, 0, false, "", ""},
		{"with the bot token", "?wait=true", botAuth, `{"content":"Hand 1"}`, 200, 0, false, testChannel, "Cribbage"},
		{"under another username", "?wait=true", "", `{"content":"Hand 1","username":"The dealer"}`, 200, 0, false, testChannel, "The dealer"},
		{"V2 with a button", "?wait=true&thread_id=" + thread, "", v2Buttons, 200, 0, false, thread, "Cribbage"},
		{"a nonce Discord ignores", "?wait=true", "", `{"content":"Hand 1","nonce":"n1","enforce_nonce":true}`, 200, 0, false, testChannel, "Cribbage"},
		{"another channel's thread", "?wait=true&thread_id=" + otherThread, "", `{"content":"Hand 1"}`, 404, 10003, true, "", ""},
		{"the channel as its own thread", "?thread_id=" + testChannel, "", `{"content":"Hand 1"}`, 404, 10003, true, "", ""},
		{"a thread_id that is no snowflake", "?thread_id=story", "", `{"content":"Hand 1"}`, 400, 50035, true, "", ""},
		{"wait=yes", "?wait=yes", "", `{"content":"Hand 1"}`, 400, 50035, true, "", ""},
		{"ephemeral", "?wait=true", "", `{"content":"Hand 1","flags":64}`, 400, 50035, true, "", ""},
		{"V2 with content", "?wait=true", "", `{` + v2 + `,"content":"Hand 1","components":[` + texts(1, "x") + `]}`, 400, 50035, true, "", ""},
		{"a username with discord in it", "?wait=true", "", `{"content":"Hand 1","username":"discord"}`, 400, 50035, true, "", ""},
		{"opening a thread outside a forum", "?wait=true", "", `{"content":"Hand 1","thread_name":"story"}`, 400, 220003, true, "", ""},
		{"content too long", "", "", `{"content":"` + strings.Repeat("x", 2001) + `"}`, 400, 50035, true, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Violations())
			status, out, _ := do(t, s, http.MethodPost, "/webhooks/"+id+"/"+token+tc.query, tc.auth, "application/json", []byte(tc.body))
			if status != tc.status || tc.code != 0 && out["code"] != float64(tc.code) {
				t.Fatalf("%d %v, want %d %d", status, out, tc.status, tc.code)
			}
			if got := len(s.Violations()) > before; got != tc.violation {
				t.Errorf("recorded as a violation: %v, want %v", got, tc.violation)
			}
			if status != 200 {
				return
			}
			author, _ := out["author"].(map[string]any)
			if out["webhook_id"] != id || out["channel_id"] != tc.where || author["id"] != id || author["username"] != tc.author || author["bot"] != true {
				t.Errorf("the message: %v, want the webhook's as %q in %s", out, tc.author, tc.where)
			}
			m, ok := s.Message(out["id"].(string))
			if !ok || m.WebhookID != id || m.Nonce != "" || m.Ephemeral || len(s.History(m.ID)) != 1 || s.History(m.ID)[0].WebhookID != id {
				t.Errorf("the fake holds %+v (found %v), want the webhook's public message, no nonce", m, ok)
			}
		})
	}
	// Three messages went into the thread, each the webhook's.
	ms := s.ChannelMessages(thread)
	if len(ms) != 3 {
		t.Errorf("the thread shows %d messages, want 3", len(ms))
	}
	for _, m := range ms {
		if m.WebhookID != id || m.Author == nil || m.Author.ID != id {
			t.Errorf("the thread shows %+v, want the webhook's message", m.Message)
		}
	}
	// The bot's own message keeps its nonce and its author.
	if ms := s.ChannelMessages(testChannel); len(ms) < 2 || ms[1].Nonce != "n1" || ms[1].WebhookID != "" || ms[1].Author.ID != s.BotUserID {
		t.Errorf("the bot's message with a nonce is now %+v", ms[1].Message)
	}
}

// TestWebhookRefusesAsDiscordDoes: a wrong token is 401, an unknown or
// deleted webhook 404 Unknown Webhook; neither is a violation (an admin
// may delete the webhook). Every request to a channel webhook's routes,
// and only those, is marked ChannelWebhook.
func TestWebhookRefusesAsDiscordDoes(t *testing.T) {
	s := withChannel(t)
	everyRequestItsOwnWindow(s)
	id, token := makeWebhook(t, s, testChannel)
	execute := func(path string) (int, map[string]any) {
		t.Helper()
		status, out, _ := do(t, s, http.MethodPost, path, "", "application/json", []byte(`{"content":"x"}`))
		return status, out
	}
	if status, out := execute("/webhooks/" + id + "/wrong"); status != 401 || out["code"] != 50027.0 {
		t.Errorf("a wrong token: %d %v, want 401 50027", status, out)
	}
	if status, out := execute("/webhooks/900000000000000005/" + token); status != 404 || out["code"] != 10015.0 {
		t.Errorf("an unknown webhook: %d %v, want 404 10015", status, out)
	}
	if status, _ := execute("/webhooks/" + id + "/" + token); status != 204 {
		t.Errorf("before it is deleted: %d, want 204", status)
	}
	s.DeleteWebhook(id)
	if status, out := execute("/webhooks/" + id + "/" + token + "?wait=true"); status != 404 || out["code"] != 10015.0 {
		t.Errorf("a deleted webhook: %d %v, want 404 10015", status, out)
	}
	if v := s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
	for _, r := range s.Requests() {
		if want := strings.HasPrefix(r.Path, "/api/v9/webhooks/"); r.ChannelWebhook != want {
			t.Errorf("%s %s marked ChannelWebhook %v, want %v", r.Method, r.Path, r.ChannelWebhook, want)
		}
	}
}

// TestEditWebhookMessage: a channel webhook's message is edited (and
// read) through the webhook's token alone, where it is (thread_id for a
// thread's), with the flags an edit may set; not with the bot token, which
// did not write it, nor through another webhook.
func TestEditWebhookMessage(t *testing.T) {
	s := withChannel(t)
	everyRequestItsOwnWindow(s)
	thread := threadIn(t, s, testChannel)
	id, token := makeWebhook(t, s, testChannel)
	otherID, otherToken := makeWebhook(t, s, testChannel)
	_, posted, _ := do(t, s, http.MethodPost, "/webhooks/"+id+"/"+token+"?wait=true&thread_id="+thread, "", "application/json", []byte(`{"content":"Hand 1"}`))
	msg, _ := posted["id"].(string)
	for _, tc := range []struct {
		name, method, path, auth, body string
		status, code                   int
		violation                      bool
	}{
		{"in its thread", http.MethodPatch, "/webhooks/" + id + "/" + token + "/messages/" + msg + "?thread_id=" + thread, "", `{"content":"Hand 1, cut"}`, 200, 0, false},
		{"read in its thread", http.MethodGet, "/webhooks/" + id + "/" + token + "/messages/" + msg + "?thread_id=" + thread, "", ``, 200, 0, false},
		{"without thread_id", http.MethodPatch, "/webhooks/" + id + "/" + token + "/messages/" + msg, "", `{"content":"x"}`, 404, 10008, false},
		{"through another webhook", http.MethodPatch, "/webhooks/" + otherID + "/" + otherToken + "/messages/" + msg + "?thread_id=" + thread, "", `{"content":"x"}`, 404, 10008, false},
		{"@original", http.MethodPatch, "/webhooks/" + id + "/" + token + "/messages/@original", "", `{"content":"x"}`, 404, 10008, true},
		{"suppressing notifications", http.MethodPatch, "/webhooks/" + id + "/" + token + "/messages/" + msg + "?thread_id=" + thread, "", `{"flags":4096}`, 400, 50035, true},
		{"with the bot token", http.MethodPatch, "/channels/" + thread + "/messages/" + msg, botAuth, `{"content":"x"}`, 403, 50005, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Violations())
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			status, out, _ := do(t, s, tc.method, tc.path, tc.auth, "application/json", body)
			if status != tc.status || tc.code != 0 && out["code"] != float64(tc.code) {
				t.Errorf("%d %v, want %d %d", status, out, tc.status, tc.code)
			}
			if status == 200 && (out["id"] != msg || out["content"] != "Hand 1, cut") {
				t.Errorf("answered %v, want the message edited", out)
			}
			if got := len(s.Violations()) > before; got != tc.violation {
				t.Errorf("recorded as a violation: %v, want %v", got, tc.violation)
			}
		})
	}
	edits := s.Edits(msg)
	if len(edits) != 1 || edits[0].Via != ViaWebhook {
		t.Errorf("edits %v, want one through the webhook", edits)
	}
	if m, _ := s.Message(msg); m.Content != "Hand 1, cut" || m.WebhookID != id {
		t.Errorf("the message is now %+v", m.Message)
	}
}

// TestAWebhooksV2MessageCannotUploadFiles: Execute Webhook refuses a
// Components V2 message that uploads files, where Create Message takes
// one; the same picture in an embed's image goes.
func TestAWebhooksV2MessageCannotUploadFiles(t *testing.T) {
	s := withChannel(t)
	id, token := makeWebhook(t, s, testChannel)
	pic := map[string][2]string{"files[0]": {"show-1.png", string(tinyPNG(t))}}
	for _, tc := range []struct {
		name, payload string
		status        int
	}{
		{"V2 with its picture", `{"flags":32768,"components":[{"type":12,"items":[{"media":{"url":"attachment://show-1.png"}}]}],"attachments":[{"id":"0"}]}`, 400},
		{"an embed with its picture", `{"embeds":[{"title":"Hand 1","image":{"url":"attachment://show-1.png"}}],"attachments":[{"id":"0"}]}`, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ct, raw := multipartBody(tc.payload, pic)
			before := len(s.Violations())
			status, out, _ := do(t, s, http.MethodPost, "/webhooks/"+id+"/"+token+"?wait=true", "", ct, raw)
			if status != tc.status {
				t.Errorf("%d %v, want %d", status, out, tc.status)
			}
			if v := s.Violations()[before:]; tc.status == 400 && (len(v) != 1 || v[0].Code != 50035 || !strings.Contains(v[0].Answer, `"files"`)) {
				t.Errorf("refused as %+v, want one violation, 50035 on files", v)
			}
		})
	}
	// The same V2 message with its picture, as a bot-token post.
	v2 := `{"flags":32768,"components":[{"type":12,"items":[{"media":{"url":"attachment://show-1.png"}}]}],"attachments":[{"id":"0"}]}`
	ct, raw := multipartBody(v2, pic)
	if status, out, _ := do(t, s, http.MethodPost, "/channels/"+testChannel+"/messages", botAuth, ct, raw); status != 200 {
		t.Errorf("the V2 message with its picture, with the bot token: %d %v", status, out)
	}
	// An interaction's followup "functions the same as Execute Webhook":
	// refused too, while an edit of the followup may upload the picture.
	i := s.Prepare(Command("", testChannel, User{ID: "600000000000000001", Name: "Ann"}, "start"))
	answer(t, s, i, `{"type":4,"data":{"content":"table"}}`)
	ct, raw = multipartBody(v2, pic)
	if status, out, _ := do(t, s, http.MethodPost, "/webhooks/"+s.AppID+"/"+i.Token, "", ct, raw); status != 400 {
		t.Errorf("a V2 followup with its picture: %d %v, want 400", status, out)
	}
	status, out, _ := do(t, s, http.MethodPost, "/webhooks/"+s.AppID+"/"+i.Token, "", "application/json",
		[]byte(`{"flags":32768,"components":[{"type":10,"content":"Hand 1"}]}`))
	if status != 200 {
		t.Fatalf("a V2 followup without files: %d %v", status, out)
	}
	ct, raw = multipartBody(v2, pic)
	if status, out, _ := do(t, s, http.MethodPatch, "/webhooks/"+s.AppID+"/"+i.Token+"/messages/"+out["id"].(string), "", ct, raw); status != 200 {
		t.Errorf("the V2 followup edited to upload its picture: %d %v", status, out)
	}
}

// TestGetChannelWebhooksAsDiscordDoes: the channel's webhooks, in the
// order they were made, each with its token and the application that
// made it (none for one a member made in the channel's settings), to a
// bot with Manage Webhooks there; refused without it.
func TestGetChannelWebhooksAsDiscordDoes(t *testing.T) {
	s := withChannel(t)
	id, token := makeWebhook(t, s, testChannel)
	members := s.AddMembersWebhook(testChannel, "Announcements")
	status, b, _ := doRaw(t, s, http.MethodGet, "/channels/"+testChannel+"/webhooks", botAuth, "", nil)
	var got []struct {
		ID            string  `json:"id"`
		Token         string  `json:"token"`
		ApplicationID *string `json:"application_id"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if status != 200 || len(got) != 2 || got[0].ID != id || got[0].Token != token || got[0].ApplicationID == nil || *got[0].ApplicationID != s.AppID ||
		got[1].ID != members || got[1].ApplicationID != nil {
		t.Errorf("%d %s, want the bot's webhook with its token, then the member's with no application", status, b)
	}
	s.DenyBotPermission(testChannel, discordgo.PermissionManageWebhooks)
	if status, out, _ := do(t, s, http.MethodGet, "/channels/"+testChannel+"/webhooks", botAuth, "", nil); status != 403 || out["code"] != 50013.0 {
		t.Errorf("without Manage Webhooks: %d %v, want 403 50013", status, out)
	}
	if v := s.Violations(); len(v) != 0 {
		t.Errorf("violations %v", v)
	}
}
