package discordtest

import (
	"context"
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestSettleReadsADeferredAnswerOnceCompleted holds Settle to what the
// user sees: a deferral is no answer until the bot edits @original (the
// message "thinking…" made, or the one clicked) or follows it up; an
// answer that was no deferral is itself.
func TestSettleReadsADeferredAnswerOnceCompleted(t *testing.T) {
	s := withChannel(t)
	_, out, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", `{"content":"a page"}`)
	page, _ := out["id"].(string)
	cases := []struct {
		name     string
		click    bool
		response string
		then     func(token string)
		want     discordgo.InteractionResponseType
		content  string
	}{
		{"no deferral", false, `{"type":4,"data":{"content":"at once","flags":64}}`, nil,
			discordgo.InteractionResponseChannelMessageWithSource, "at once"},
		{"thinking, then edited", false, `{"type":5,"data":{"flags":64}}`, func(token string) {
			do(t, s, http.MethodPatch, "/webhooks/"+s.AppID+"/"+token+"/messages/@original", "", "application/json", []byte(`{"content":"hand 1"}`))
		}, discordgo.InteractionResponseChannelMessageWithSource, "hand 1"},
		{"a click acknowledged, then the page edited", true, `{"type":6}`, func(token string) {
			do(t, s, http.MethodPatch, "/webhooks/"+s.AppID+"/"+token+"/messages/@original", "", "application/json", []byte(`{"content":"hand 2"}`))
		}, discordgo.InteractionResponseUpdateMessage, "hand 2"},
		{"a click acknowledged, then followed", true, `{"type":6}`, func(token string) {
			do(t, s, http.MethodPost, "/webhooks/"+s.AppID+"/"+token, "", "application/json", []byte(`{"content":"no replay yet","flags":64}`))
		}, discordgo.InteractionResponseChannelMessageWithSource, "no replay yet"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i := &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, ChannelID: testChannel}
			if c.click {
				i = &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, ChannelID: testChannel,
					Message: &discordgo.Message{ID: page}, Data: discordgo.MessageComponentInteractionData{CustomID: "/next", ComponentType: discordgo.ButtonComponent}}
			}
			i = s.Prepare(i)
			if status := answer(t, s, i, c.response); status >= 300 {
				t.Fatalf("the response: %d", status)
			}
			resp, err := decodeResponse([]byte(c.response))
			if err != nil {
				t.Fatal(err)
			}
			a := Answer{Response: resp, Token: i.Token}
			// A context already over: Settle looks once and does not wait.
			over, cancel := context.WithCancel(context.Background())
			cancel()
			if c.then != nil {
				if _, err := s.Settle(over, a); err == nil {
					t.Fatal("a deferral nobody completed settled")
				}
				c.then(i.Token)
			}
			got, err := s.Settle(over, a)
			if err != nil {
				t.Fatal(err)
			}
			if got.Response.Type != c.want || got.Response.Data == nil || got.Response.Data.Content != c.content {
				t.Errorf("settled as type %d %+v, want type %d %q", got.Response.Type, got.Response.Data, c.want, c.content)
			}
			if c.want == discordgo.InteractionResponseUpdateMessage && got.MessageID != page {
				t.Errorf("the page turned is message %s, want %s", got.MessageID, page)
			}
		})
	}
}
