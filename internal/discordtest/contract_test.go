package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

const (
	testChannel = "400000000000000002"
	botAuth     = "Bot test-token"
)

// do sends a raw request to the fake and returns the status, the decoded
// error body and the headers.
func do(t *testing.T, s *Server, method, path, auth, contentType string, body []byte) (int, map[string]any, http.Header) {
	t.Helper()
	status, raw, header := doRaw(t, s, method, path, auth, contentType, body)
	var out map[string]any
	json.Unmarshal(raw, &out)
	return status, out, header
}

// doRaw is do with the answer's body as it came (an array, say).
func doRaw(t *testing.T, s *Server, method, path, auth, contentType string, body []byte) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+"/api/v9"+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, resp.Header
}

// postJSON posts a JSON body with the bot token.
func postJSON(t *testing.T, s *Server, path, body string) (int, map[string]any, http.Header) {
	t.Helper()
	return do(t, s, http.MethodPost, path, botAuth, "application/json", []byte(body))
}

// field follows an error body's errors object down a dotted path and
// returns the first error code there.
func field(body map[string]any, dotted string) string {
	node, _ := body["errors"].(map[string]any)
	if dotted != "" {
		for _, k := range strings.Split(dotted, ".") {
			node, _ = node[k].(map[string]any)
		}
	}
	errs, _ := node["_errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	e, _ := errs[0].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// withChannel starts a fake that knows testChannel, as it would once an
// interaction came from it.
func withChannel(t *testing.T) *Server {
	s := New()
	t.Cleanup(s.Close)
	// The rate-limit windows stand still, however slowly the test runs.
	frozen := time.Now()
	s.limits.clock = func() time.Time { return frozen }
	s.mu.Lock()
	s.channels[testChannel] = true
	s.mu.Unlock()
	return s
}

// buttons renders rows of buttons as a components array.
func buttons(rows ...[]string) string {
	var out []string
	for _, row := range rows {
		out = append(out, `{"type":1,"components":[`+strings.Join(row, ",")+`]}`)
	}
	return "[" + strings.Join(out, ",") + "]"
}

func button(id string) string {
	return fmt.Sprintf(`{"type":2,"style":1,"label":"ok","custom_id":%q}`, id)
}

// TestPlantedBadPayloadsAreRefusedAsDiscordWould plants each kind of body
// Discord refuses and checks the fake answers 400 50035 naming the field,
// and records a violation.
func TestPlantedBadPayloadsAreRefusedAsDiscordWould(t *testing.T) {
	six := make([][]string, 6)
	for i := range six {
		six[i] = []string{button(fmt.Sprint("b", i))}
	}
	sixInRow := []string{}
	for i := range 6 {
		sixInRow = append(sixInRow, button(fmt.Sprint("r", i)))
	}
	options := []string{}
	for i := range 26 {
		options = append(options, fmt.Sprintf(`{"label":"o%d","value":"v%d"}`, i, i))
	}
	tests := []struct {
		name  string
		body  string
		field string // dotted path below errors
		code  string
	}{
		{"a playing card back is not an emoji",
			`{"content":"x","components":` + buttons([]string{`{"type":2,"style":1,"label":"Show","custom_id":"a","emoji":{"name":"🂠"}}`}) + `}`,
			"components.0.components.0.emoji.name", "BUTTON_COMPONENT_INVALID_EMOJI"},
		{"two emoji are not one",
			`{"content":"x","components":` + buttons([]string{`{"type":2,"style":1,"custom_id":"a","emoji":{"name":"🃏🃏"}}`}) + `}`,
			"components.0.components.0.emoji.name", "BUTTON_COMPONENT_INVALID_EMOJI"},
		{"six rows", `{"content":"x","components":` + buttons(six...) + `}`, "components", "BASE_TYPE_BAD_LENGTH"},
		{"six buttons in a row", `{"content":"x","components":` + buttons(sixInRow) + `}`, "components.0.components", "BASE_TYPE_BAD_LENGTH"},
		{"a 101-character custom_id", `{"content":"x","components":` + buttons([]string{button(strings.Repeat("x", 101))}) + `}`,
			"components.0.components.0.custom_id", "BASE_TYPE_BAD_LENGTH"},
		{"a duplicate custom_id", `{"content":"x","components":` + buttons([]string{button("same")}, []string{button("same")}) + `}`,
			"components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"},
		{"a select beside a button", `{"content":"x","components":` + buttons([]string{button("a"), `{"type":3,"custom_id":"s","options":[{"label":"a","value":"a"}]}`}) + `}`,
			"components.0.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"},
		{"26 select options", `{"content":"x","components":` + buttons([]string{`{"type":3,"custom_id":"s","options":[` + strings.Join(options, ",") + `]}`}) + `}`,
			"components.0.components.0.options", "BASE_TYPE_BAD_LENGTH"},
		{"a button with neither label nor emoji", `{"content":"x","components":` + buttons([]string{`{"type":2,"style":1,"custom_id":"a"}`}) + `}`,
			"components.0.components.0.label", "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED"},
		{"an 81-character label", `{"content":"x","components":` + buttons([]string{fmt.Sprintf(`{"type":2,"style":1,"custom_id":"a","label":%q}`, strings.Repeat("l", 81))}) + `}`,
			"components.0.components.0.label", "BASE_TYPE_BAD_LENGTH"},
		{"2001 characters of content", fmt.Sprintf(`{"content":%q}`, strings.Repeat("♥", 2001)), "content", "BASE_TYPE_MAX_LENGTH"},
		{"embeds over 6000 characters in all", fmt.Sprintf(`{"embeds":[{"description":%q},{"description":%q}]}`, strings.Repeat("d", 3500), strings.Repeat("d", 3500)),
			"embeds", "MAX_EMBED_SIZE_EXCEEDED"},
		{"the schema: content is not a number", `{"content":5}`, "content", "BASE_TYPE_BAD_TYPE"},
		{"the schema: a colour out of range", `{"embeds":[{"color":16777216}]}`, "embeds.0.color", "NUMBER_TYPE_MAX"},
		{"the schema: a row without components", `{"components":[{"type":1}]}`, "components.0.components", "BASE_TYPE_REQUIRED"},
	}
	s := withChannel(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(s.Violations())
			status, body, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", tt.body)
			if status != 400 || body["code"] != float64(50035) {
				t.Fatalf("answered %d %v, want 400 50035", status, body)
			}
			if got := field(body, tt.field); got != tt.code {
				t.Errorf("errors.%s = %q, want %q; body %v", tt.field, got, tt.code, body)
			}
			if len(s.Violations()) != before+1 {
				t.Error("the refusal was not recorded as a violation")
			}
		})
	}
}

// TestGoodPayloadsPass checks the rules are not stricter than Discord where
// it matters: real emoji, a link button, a full message.
func TestGoodPayloadsPass(t *testing.T) {
	s := withChannel(t)
	five := make([][]string, 5)
	for i := range five {
		for j := range 5 {
			five[i] = append(five[i], button(fmt.Sprint("b", i, j)))
		}
	}
	for _, body := range []string{
		`{"content":"x","components":` + buttons([]string{`{"type":2,"style":1,"label":"Show my hand","custom_id":"/hand/1","emoji":{"name":"🃏"}}`}) + `}`,
		`{"content":"x","components":` + buttons([]string{`{"type":2,"style":5,"label":"Rules","url":"https://example.com/rules"}`}) + `}`,
		`{"content":"x","components":` + buttons([]string{`{"type":2,"style":2,"custom_id":"c","emoji":{"id":"123","name":"custom"}}`}) + `}`,
		`{"content":"` + strings.Repeat("x", 2000) + `","components":` + buttons(five...) + `}`,
		`{"content":"x","nonce":"cb1","enforce_nonce":true,"allowed_mentions":{"parse":[],"users":["1"]}}`,
	} {
		if status, out, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", body); status != 200 {
			t.Errorf("refused %.80s…: %d %v", body, status, out)
		}
	}
	if v := s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}

// TestMultipartPayloadJSONIsValidated checks an upload's payload_json is held
// to the same schema and rules as a JSON body.
func TestMultipartPayloadJSONIsValidated(t *testing.T) {
	s := withChannel(t)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("payload_json", `{"content":"board","components":`+buttons([]string{`{"type":2,"style":1,"label":"x","custom_id":"a","emoji":{"name":"🂠"}}`})+`}`)
	fw, _ := mw.CreateFormFile("files[0]", "board.png")
	fw.Write([]byte("\x89PNG"))
	mw.Close()
	status, body, _ := do(t, s, http.MethodPost, "/channels/"+testChannel+"/messages", botAuth, mw.FormDataContentType(), buf.Bytes())
	if status != 400 || field(body, "components.0.components.0.emoji.name") != "BUTTON_COMPONENT_INVALID_EMOJI" {
		t.Errorf("answered %d %v", status, body)
	}
}

func TestUnknownRoutesAndMissingTokens(t *testing.T) {
	s := withChannel(t)
	if status, _, _ := do(t, s, http.MethodPost, "/channels/"+testChannel+"/mesages", botAuth, "application/json", []byte(`{}`)); status != 404 {
		t.Errorf("a misspelt route: %d, want 404", status)
	}
	if status, _, _ := do(t, s, http.MethodPut, "/channels/"+testChannel+"/messages", botAuth, "application/json", []byte(`{}`)); status != 404 {
		t.Errorf("a route with the wrong method: %d, want 404", status)
	}
	if status, _, _ := do(t, s, http.MethodPost, "/channels/"+testChannel+"/messages", "", "application/json", []byte(`{"content":"x"}`)); status != 401 {
		t.Errorf("no token: %d, want 401", status)
	}
	if n := len(s.Violations()); n != 3 {
		t.Errorf("%d violations recorded, want 3", n)
	}
}

// TestSixthMessageInFiveSecondsIsRateLimited checks the channel's message
// bucket: five go through with the headers counting down, the sixth is a 429
// naming the wait, and another channel is not affected.
func TestSixthMessageInFiveSecondsIsRateLimited(t *testing.T) {
	s := withChannel(t)
	for i := 1; i <= 5; i++ {
		status, _, h := postJSON(t, s, "/channels/"+testChannel+"/messages", `{"content":"x"}`)
		if status != 200 {
			t.Fatalf("message %d: %d", i, status)
		}
		if h.Get("X-RateLimit-Limit") != "5" || h.Get("X-RateLimit-Remaining") != fmt.Sprint(5-i) || h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Reset-After") == "" {
			t.Errorf("message %d headers: %v", i, h)
		}
	}
	status, body, h := postJSON(t, s, "/channels/"+testChannel+"/messages", `{"content":"x"}`)
	if status != 429 || h.Get("X-RateLimit-Scope") != "user" || body["global"] != false {
		t.Fatalf("sixth message: %d %v %v", status, body, h)
	}
	if ra, _ := body["retry_after"].(float64); ra <= 0 || ra > 5 {
		t.Errorf("retry_after %v, want within the 5 s window", body["retry_after"])
	}
	s.mu.Lock()
	s.channels["400000000000000003"] = true
	s.mu.Unlock()
	if status, _, _ := postJSON(t, s, "/channels/400000000000000003/messages", `{"content":"x"}`); status != 200 {
		t.Errorf("another channel: %d", status)
	}
	if got := s.RateLimited()["user"]; got != 1 {
		t.Errorf("RateLimited()[user] = %d, want 1", got)
	}
}

// TestGlobalLimitCountsBotRequestsOnly sends 50 bot-token requests to 50
// channels (each within its own bucket), then a 51st: a global 429. An
// interaction callback still goes through.
func TestGlobalLimitCountsBotRequestsOnly(t *testing.T) {
	s := withChannel(t)
	i := s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, ChannelID: testChannel})
	for n := range globalLimit {
		status, _, _ := do(t, s, http.MethodPatch, fmt.Sprintf("/channels/%d/messages/1", 500+n), botAuth, "application/json", []byte(`{"content":"x"}`))
		if status != 404 {
			t.Fatalf("request %d: %d, want 404 Unknown Message", n, status)
		}
	}
	status, body, h := do(t, s, http.MethodPatch, "/channels/999/messages/1", botAuth, "application/json", []byte(`{"content":"x"}`))
	if status != 429 || body["global"] != true || h.Get("X-RateLimit-Scope") != "global" || h.Get("X-RateLimit-Global") != "true" {
		t.Fatalf("51st request: %d %v %v", status, body, h)
	}
	s.mu.Lock()
	s.interactions[i.ID].sent = time.Now()
	s.mu.Unlock()
	status, body, _ = do(t, s, http.MethodPost, "/interactions/"+i.ID+"/"+i.Token+"/callback", "", "application/json",
		[]byte(`{"type":4,"data":{"content":"hi","flags":64}}`))
	if status != 204 {
		t.Errorf("an interaction callback under the global limit: %d %v", status, body)
	}
}

// TestInteractionRules checks one answer per interaction, the response
// types each interaction allows, modals, and the token's 15 minutes.
func TestInteractionRules(t *testing.T) {
	s := withChannel(t)
	answer := func(i *discordgo.Interaction, body string) (int, map[string]any) {
		s.mu.Lock()
		s.interactions[i.ID].sent = time.Now()
		s.mu.Unlock()
		status, out, _ := do(t, s, http.MethodPost, "/interactions/"+i.ID+"/"+i.Token+"/callback", "", "application/json", []byte(body))
		return status, out
	}
	command := func() *discordgo.Interaction {
		return s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, ChannelID: testChannel})
	}
	tests := []struct {
		name   string
		i      *discordgo.Interaction
		body   string
		status int
		code   float64
	}{
		{"UPDATE_MESSAGE answers a command", command(), `{"type":7,"data":{"content":"x"}}`, 400, 50035},
		{"a modal answers a modal", s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionModalSubmit, ChannelID: testChannel}),
			`{"type":9,"data":{"custom_id":"m","title":"t","components":[{"type":1,"components":[{"type":4,"custom_id":"p","label":"Points","style":1}]}]}}`, 400, 50035},
		{"UPDATE_MESSAGE answers a modal from a command", s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionModalSubmit, ChannelID: testChannel}),
			`{"type":7,"data":{"content":"x"}}`, 400, 50035},
		{"a modal with a button in it", command(),
			`{"type":9,"data":{"custom_id":"m","title":"t","components":[{"type":1,"components":[{"type":2,"style":1,"label":"x","custom_id":"b"}]}]}}`, 400, 50035},
		{"a modal title over 45", command(),
			`{"type":9,"data":{"custom_id":"m","title":"` + strings.Repeat("t", 46) + `","components":[{"type":1,"components":[{"type":4,"custom_id":"p","label":"Points","style":1}]}]}}`, 400, 50035},
		{"a modal answers a command", command(),
			`{"type":9,"data":{"custom_id":"m","title":"t","components":[{"type":1,"components":[{"type":4,"custom_id":"p","label":"Points","style":1}]}]}}`, 204, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := answer(tt.i, tt.body)
			if status != tt.status || (tt.code != 0 && out["code"] != tt.code) {
				t.Errorf("answered %d %v, want %d %v", status, out, tt.status, tt.code)
			}
		})
	}

	i := command()
	if status, _ := answer(i, `{"type":4,"data":{"content":"first"}}`); status != 204 {
		t.Fatalf("first answer: %d", status)
	}
	if status, out := answer(i, `{"type":4,"data":{"content":"second"}}`); status != 400 || out["code"] != float64(40060) {
		t.Errorf("second answer: %d %v, want 400 40060", status, out)
	}
	late := command()
	s.mu.Lock()
	s.interactions[late.ID].sent = time.Now().Add(-4 * time.Second)
	s.mu.Unlock()
	if status, out, _ := do(t, s, http.MethodPost, "/interactions/"+late.ID+"/"+late.Token+"/callback", "", "application/json",
		[]byte(`{"type":4,"data":{"content":"late"}}`)); status != 404 || out["code"] != float64(10062) {
		t.Errorf("an answer after 3 s: %d %v, want 404 10062", status, out)
	}
	s.Advance(15*time.Minute + time.Second)
	status, out, _ := do(t, s, http.MethodPatch, "/webhooks/"+s.AppID+"/"+i.Token+"/messages/@original", "", "application/json", []byte(`{"content":"edit"}`))
	if status != 401 || out["code"] != float64(50027) {
		t.Errorf("an edit after 15 minutes: %d %v, want 401 50027", status, out)
	}
}

// TestWithResponseNamesTheMessage checks ?with_response=true answers with
// the message the response created, as Discord does.
func TestWithResponseNamesTheMessage(t *testing.T) {
	s := withChannel(t)
	i := s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, ChannelID: testChannel})
	s.mu.Lock()
	s.interactions[i.ID].sent = time.Now()
	s.mu.Unlock()
	status, out, _ := do(t, s, http.MethodPost, "/interactions/"+i.ID+"/"+i.Token+"/callback?with_response=true", "", "application/json",
		[]byte(`{"type":4,"data":{"content":"table"}}`))
	res, _ := out["resource"].(map[string]any)
	msg, _ := res["message"].(map[string]any)
	id, _ := msg["id"].(string)
	if status != 200 || id == "" {
		t.Fatalf("answered %d %v", status, out)
	}
	if m, ok := s.Message(id); !ok || m.Content != "table" {
		t.Errorf("message %s: %+v", id, m)
	}
}

// TestCommandRules holds a bulk overwrite of commands to Discord's rules
// for each type: a chat command's name is lower case without spaces and
// it has a description; a user (or message) command, a context menu, may
// have capitals and spaces but no description or options, and an
// application has at most five of them.
func TestCommandRules(t *testing.T) {
	s := withChannel(t)
	put := func(body string) (int, map[string]any) {
		status, out, _ := do(t, s, http.MethodPut, "/applications/"+s.AppID+"/guilds/1/commands", botAuth, "application/json", []byte(body))
		return status, out
	}
	menu := func(name string) string { return fmt.Sprintf(`{"type":2,"name":%q}`, name) }
	good := `[{"name":"cribbage","description":"Play","name_localizations":{"fr":"cribbage","pt-BR":"cribbage"},"description_localizations":{"fr":"Jouer","es-ES":"Jugar"},` +
		`"options":[{"type":1,"name":"start","description":"Open a table","name_localizations":{"fr":"démarrer"},"options":[{"type":3,"name":"level","description":"How well","choices":[{"name":"easy","value":"easy","name_localizations":{"fr":"Facile"}}]}]}]},` +
		`{"type":2,"name":"Challenge to cribbage","name_localizations":{"fr":"Défier au cribbage"}}]`
	if status, out := put(good); status != 200 {
		t.Fatalf("a chat command and a user command refused: %d %v", status, out)
	}
	five := []string{}
	for i := range 6 {
		five = append(five, menu(fmt.Sprint("Menu ", i)))
	}
	for _, tt := range []struct {
		name, body, field, code string
	}{
		{"a chat command in capitals", `[{"name":"Cribbage","description":"Play"}]`, "0.name", "APPLICATION_COMMAND_INVALID_NAME"},
		{"a chat command with a space", `[{"name":"crib bage","description":"Play"}]`, "0.name", "APPLICATION_COMMAND_INVALID_NAME"},
		{"a chat command without a description", `[{"name":"cribbage"}]`, "0.description", "BASE_TYPE_BAD_LENGTH"},
		{"a user command with a description", `[{"type":2,"name":"Challenge","description":"Challenge them"}]`, "0.description", "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION"},
		{"a user command with options", `[{"type":2,"name":"Challenge","options":[{"type":3,"name":"x","description":"x"}]}]`, "0.options", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"},
		{"a user command of 33 characters", `[` + menu(strings.Repeat("c", 33)) + `]`, "0.name", "BASE_TYPE_BAD_LENGTH"},
		{"a localization to an unknown locale", `[{"name":"cribbage","description":"Play","name_localizations":{"fr-CA":"cribbage"}}]`, "0.name_localizations.fr-CA", "LOCALE_INVALID"},
		{"a locale written in lower case", `[{"name":"cribbage","description":"Play","description_localizations":{"pt-br":"Jogar"}}]`, "0.description_localizations.pt-br", "LOCALE_INVALID"},
		{"a localized name in capitals", `[{"name":"cribbage","description":"Play","name_localizations":{"fr":"Cribbage"}}]`, "0.name_localizations.fr", "APPLICATION_COMMAND_INVALID_NAME"},
		{"a localized name with a space", `[{"name":"cribbage","description":"Play","name_localizations":{"fr":"jeu de cribbage"}}]`, "0.name_localizations.fr", "APPLICATION_COMMAND_INVALID_NAME"},
		{"a localized name of 33 characters", `[{"name":"cribbage","description":"Play","name_localizations":{"de":"` + strings.Repeat("k", 33) + `"}}]`, "0.name_localizations.de", "BASE_TYPE_BAD_LENGTH"},
		{"a localized description of 101 characters", `[{"name":"cribbage","description":"Play","description_localizations":{"fr":"` + strings.Repeat("é", 101) + `"}}]`, "0.description_localizations.fr", "BASE_TYPE_BAD_LENGTH"},
		{"an option's localized name in capitals", `[{"name":"cribbage","description":"Play","options":[{"type":1,"name":"start","description":"Open","name_localizations":{"es-ES":"Empezar"}}]}]`, "0.options.0.name_localizations.es-ES", "APPLICATION_COMMAND_INVALID_NAME"},
		{"an option's name in capitals", `[{"name":"cribbage","description":"Play","options":[{"type":1,"name":"Start","description":"Open"}]}]`, "0.options.0.name", "APPLICATION_COMMAND_INVALID_NAME"},
		{"a choice localized to an unknown locale", `[{"name":"cribbage","description":"Play","options":[{"type":3,"name":"level","description":"How well","choices":[{"name":"easy","value":"easy","name_localizations":{"klingon":"x"}}]}]}]`, "0.options.0.choices.0.name_localizations.klingon", "LOCALE_INVALID"},
		{"a user command localized past 32 characters", `[{"type":2,"name":"Challenge","name_localizations":{"fr":"` + strings.Repeat("d", 33) + `"}}]`, "0.name_localizations.fr", "BASE_TYPE_BAD_LENGTH"},
		{"six user commands", `[` + strings.Join(five, ",") + `]`, "5.type", "APPLICATION_COMMAND_TOO_MANY"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, out := put(tt.body)
			if status != 400 || field(out, tt.field) != tt.code {
				t.Errorf("answered %d, errors.%s = %q; want 400 and %q: %v", status, tt.field, field(out, tt.field), tt.code, out)
			}
		})
	}
}

// TestUserCommandIsAsDiscordSendsIt: a user command's interaction names
// its target and resolves them, and carries no options.
func TestUserCommandIsAsDiscordSendsIt(t *testing.T) {
	target := User{ID: "7", Name: "Bot", Bot: true}
	i := UserCommand("1", testChannel, User{ID: "5", Name: "Ann"}, "Challenge to cribbage", target)
	raw, err := json.Marshal(i)
	if err != nil {
		t.Fatal(err)
	}
	var back discordgo.Interaction
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	d := back.ApplicationCommandData()
	if d.CommandType != discordgo.UserApplicationCommand || d.TargetID != "7" || len(d.Options) != 0 ||
		d.Resolved.Users["7"] == nil || !d.Resolved.Users["7"].Bot || d.Resolved.Members["7"] == nil || back.Member.User.ID != "5" {
		t.Errorf("the user command as the bot reads it: %+v", d)
	}
}

// TestMentionsNotifyAsAllowed: a new message pings the users its content
// mentions that allowed_mentions allows; an edit pings nobody.
func TestMentionsNotifyAsAllowed(t *testing.T) {
	s := withChannel(t)
	for _, tt := range []struct {
		body string
		want []string
	}{
		{`{"content":"<@1> and <@!2>"}`, []string{"1", "2"}},
		{`{"content":"<@1> and <@2>","allowed_mentions":{"parse":[]}}`, nil},
		{`{"content":"<@1> and <@2>","allowed_mentions":{"parse":[],"users":["2"]}}`, []string{"2"}},
		{`{"content":"<@1> and <@1>","allowed_mentions":{"parse":["users"]}}`, []string{"1"}},
		{`{"content":"no one","allowed_mentions":{"parse":[],"users":["3"]}}`, nil},
	} {
		status, out, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", tt.body)
		if status != 200 {
			t.Fatalf("%s: %d %v", tt.body, status, out)
		}
		m, _ := s.Message(out["id"].(string))
		if fmt.Sprint(m.Notified) != fmt.Sprint(tt.want) {
			t.Errorf("%s notified %v, want %v", tt.body, m.Notified, tt.want)
		}
	}
}

// TestWithResponseShowsAnUpdatedMessage: an update (type 7) that leaves a
// message's components as they were answers ?with_response=true with the
// message as it stands, components and all, though its last edit kept
// them as sent.
func TestWithResponseShowsAnUpdatedMessage(t *testing.T) {
	s := withChannel(t)
	comps := func(label string) string {
		return `{` + v2 + `,"components":[{"type":1,"components":[{"type":2,"style":1,"label":"` + label + `","custom_id":"/play/1"}]}]}`
	}
	status, posted, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", comps("5♥"))
	if status != 200 {
		t.Fatalf("post: %d %v", status, posted)
	}
	id := posted["id"].(string)
	i := s.Prepare(&discordgo.Interaction{Type: discordgo.InteractionMessageComponent, ChannelID: testChannel,
		Message: &discordgo.Message{ID: id}, Data: discordgo.MessageComponentInteractionData{CustomID: "/play/1", ComponentType: discordgo.ButtonComponent}})
	if status, out, _ := do(t, s, http.MethodPatch, "/channels/"+testChannel+"/messages/"+id, botAuth, "application/json", []byte(comps("J♣"))); status != 200 {
		t.Fatalf("edit: %d %v", status, out)
	}
	s.mu.Lock()
	s.interactions[i.ID].sent = time.Now()
	s.mu.Unlock()
	status, out, _ := do(t, s, http.MethodPost, "/interactions/"+i.ID+"/"+i.Token+"/callback?with_response=true", "", "application/json",
		[]byte(`{"type":7,"data":{`+v2+`}}`))
	res, _ := out["resource"].(map[string]any)
	msg, _ := res["message"].(map[string]any)
	if got := fmt.Sprint(msg["components"]); status != 200 || !strings.Contains(got, "J♣") {
		t.Errorf("answered %d with components %s, want the message's row with J♣: %v", status, got, out)
	}
}
