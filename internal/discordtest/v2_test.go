package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// texts is n text displays, as JSON.
func texts(n int, content string) string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf(`{"type":10,"content":%q}`, fmt.Sprint(content, i)))
	}
	return strings.Join(out, ",")
}

// container is a Container of children with an accent colour.
func container(children string) string {
	return `{"type":17,"accent_color":3046706,"components":[` + children + `]}`
}

const v2 = `"flags":32768`

// TestComponentsV2Rules plants each kind of Components V2 body Discord
// refuses and checks the fake answers 400 naming the field, and passes a
// good one.
func TestComponentsV2Rules(t *testing.T) {
	s := withChannel(t)
	row := func(ids ...string) string {
		var bs []string
		for _, id := range ids {
			bs = append(bs, button(id))
		}
		return `{"type":1,"components":[` + strings.Join(bs, ",") + `]}`
	}
	for _, tc := range []struct {
		name, body, field string
		status            int
	}{
		{"content with the flag", `{` + v2 + `,"content":"hi","components":[` + texts(1, "x") + `]}`, "content", 400},
		{"embeds with the flag", `{` + v2 + `,"embeds":[{"title":"t"}],"components":[` + texts(1, "x") + `]}`, "embeds", 400},
		{"41 components, nested", `{` + v2 + `,"components":[` + container(texts(40, "x")) + `]}`, "components", 400},
		{"40 components, nested", `{` + v2 + `,"components":[` + container(texts(39, "x")) + `]}`, "", 200},
		{"over 4000 characters of text", `{` + v2 + `,"components":[` + texts(2, strings.Repeat("a", 2001)) + `]}`, "components", 400},
		{"a custom_id twice, in two rows", `{` + v2 + `,"components":[` + container(row("a")+","+row("a")) + `]}`, "components.0.components.1.components.0.custom_id", 400},
		{"a section with a button", `{` + v2 + `,"components":[` + container(`{"type":9,"components":[`+texts(1, "x")+`],"accessory":`+button("b")+`}`) + `]}`, "", 200},
		{"a thumbnail of a file never uploaded", `{` + v2 + `,"components":[` + container(`{"type":9,"components":[`+texts(1, "x")+`],"accessory":{"type":11,"media":{"url":"attachment://board.png"}}}`) + `]}`,
			"components.0.components.0.accessory.media.url", 400},
		{"a text display in an action row", `{` + v2 + `,"components":[{"type":1,"components":[` + texts(1, "x") + `]}]}`, "", 400},
		{"an id twice, nested", `{` + v2 + `,"components":[{"type":10,"id":7,"content":"a"},` + container(`{"type":10,"id":7,"content":"b"}`) + `]}`,
			"components.1.components.0.id", 400},
		{"distinct ids", `{` + v2 + `,"components":[{"type":10,"id":7,"content":"a"},{"type":17,"id":8,"components":[` + texts(1, "b") + `]}]}`, "", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Violations())
			status, out, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", tc.body)
			if status != tc.status {
				t.Fatalf("answered %d %v, want %d", status, out, tc.status)
			}
			if tc.status == 400 && tc.field != "" && field(out, tc.field) == "" {
				t.Errorf("no error at %s: %v", tc.field, out)
			}
			if got := len(s.Violations()) - before; (tc.status == 400) != (got == 1) {
				t.Errorf("%d violations recorded", got)
			}
		})
	}
	// A thumbnail of a file uploaded with it.
	ct, body := multipartBody(`{`+v2+`,"components":[`+container(`{"type":9,"components":[`+texts(1, "x")+`],"accessory":{"type":11,"media":{"url":"attachment://board.png"}}}`)+`]}`,
		map[string][2]string{"files[0]": {"board.png", string(tinyPNG(t))}})
	if status, out, _ := do(t, s, http.MethodPost, "/channels/"+testChannel+"/messages", botAuth, ct, body); status != 200 {
		t.Errorf("a thumbnail of an uploaded file: %d %v", status, out)
	}
}

// TestAComponentsV2MessageStaysOne holds edits to the flag's permanence:
// it cannot be removed, content and embeds stay out, and a message edited
// into one clears what it showed.
func TestAComponentsV2MessageStaysOne(t *testing.T) {
	s := withChannel(t)
	_, made, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", `{`+v2+`,"components":[`+texts(1, "x")+`]}`)
	id, _ := made["id"].(string)
	patch := func(id, body string) int {
		status, _, _ := do(t, s, http.MethodPatch, "/channels/"+testChannel+"/messages/"+id, botAuth, "application/json", []byte(body))
		return status
	}
	for _, tc := range []struct {
		name, body string
		status     int
	}{
		{"the flag removed", `{"flags":0,"components":[` + button("x") + `]}`, 400},
		{"content added", `{"content":"hi"}`, 400},
		{"new components, the flag said again", `{` + v2 + `,"components":[` + texts(2, "y") + `]}`, 200},
		// Stricter than Discord, which takes the message's flag: the
		// fake reads each body alone, so a body of layout components
		// says the flag.
		{"new components, the flag unsaid", `{"components":[` + texts(2, "y") + `]}`, 400},
	} {
		if got := patch(id, tc.body); got != tc.status {
			t.Errorf("a V2 message, %s: %d, want %d", tc.name, got, tc.status)
		}
	}

	_, made, _ = postJSON(t, s, "/channels/"+testChannel+"/messages", `{"content":"table","embeds":[{"title":"t"}]}`)
	legacy, _ := made["id"].(string)
	if got := patch(legacy, `{`+v2+`,"content":"","components":[`+texts(1, "x")+`]}`); got != 400 {
		t.Errorf("a legacy message made V2 keeping its embeds: %d, want 400", got)
	}
	if got := patch(legacy, `{`+v2+`,"embeds":[],"components":[`+texts(1, "x")+`]}`); got != 400 {
		t.Errorf("a legacy message made V2 keeping its content: %d, want 400", got)
	}
	if got := patch(legacy, `{`+v2+`,"content":"","embeds":[],"components":[`+texts(1, "x")+`]}`); got != 200 {
		t.Errorf("a legacy message made V2, cleared: %d, want 200", got)
	}
	if m, _ := s.Message(legacy); m.Flags&flagComponentsV2 == 0 || m.Content != "" || len(m.Embeds) != 0 {
		t.Errorf("after: flags %d, content %q, %d embeds", m.Flags, m.Content, len(m.Embeds))
	}
}

// TestATextDisplayPingsAsContentDoes: Discord pings the mentions in a V2
// message's text displays as it does content's, as allowed_mentions
// allows ("Text Display", Discord's components reference); and Text and
// TextDisplays read the words wherever they sit.
func TestATextDisplayPingsAsContentDoes(t *testing.T) {
	s := withChannel(t)
	body := `{` + v2 + `,"allowed_mentions":{"parse":[],"users":["22"]},"components":[{"type":10,"content":"<@22>, you are challenged"},` +
		container(`{"type":10,"content":"<@33> waits"}`) + `]}`
	status, made, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", body)
	if status != 200 {
		t.Fatalf("answered %d %v", status, made)
	}
	id, _ := made["id"].(string)
	m, _ := s.Message(id)
	if len(m.Notified) != 1 || m.Notified[0] != "22" {
		t.Errorf("notified %v, want 22 alone (33 is not allowed)", m.Notified)
	}
	if got := m.Text(); got != "<@22>, you are challenged\n<@33> waits" {
		t.Errorf("Text() = %q", got)
	}
}

// TestAMessageIsSentWithItsComponents: Discord sends a message's
// components with it, in an answer to a request and in a click's
// interaction; a V2 message's words are there. (discordgo's Message
// leaves them out when marshalled: the fake sends wireMessage.)
func TestAMessageIsSentWithItsComponents(t *testing.T) {
	s := withChannel(t)
	_, made, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", `{`+v2+`,"components":[`+container(`{"type":10,"content":"table 1"}`)+`]}`)
	if comps, _ := made["components"].([]any); len(comps) != 1 {
		t.Errorf("the answer to the post has components %v", made["components"])
	}
	id, _ := made["id"].(string)
	_, got, _ := do(t, s, http.MethodGet, "/channels/"+testChannel+"/messages/"+id, botAuth, "", nil)
	if comps, _ := got["components"].([]any); len(comps) != 1 {
		t.Errorf("GET answers components %v", got["components"])
	}
	m, _ := s.Message(id)
	raw, _ := json.Marshal(wire(&discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Message: &m.Message}))
	var back discordgo.Interaction
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Message == nil || len(TextDisplays(back.Message.Components)) != 1 || TextDisplays(back.Message.Components)[0] != "table 1" {
		t.Errorf("a click carries its message without its words: %s", raw)
	}
}
