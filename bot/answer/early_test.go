package answer

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/intake"
)

// TestAHandlerDefersItsAnswerBeforeDrawingIt: over HTTP, a handler that
// defers its answer (Defer) has the deferral written as the HTTP response
// at once, before it returns, and its answer then edits the deferral's
// message, or follows it when a quiet acknowledgement was followed by a
// new message (a refusal where a page was to be turned). Over the
// gateway the deferral is the callback, posted before Defer returns, and
// the answer edits it the same way.
func TestAHandlerDefersItsAnswerBeforeDrawingIt(t *testing.T) {
	const picture = "PNGPNGPNG"
	withPicture := func(kind discordgo.InteractionResponseType, flags discordgo.MessageFlags) *discordgo.InteractionResponse {
		return &discordgo.InteractionResponse{Type: kind, Data: &discordgo.InteractionResponseData{Content: "Hand 2", Flags: flags,
			Files: []*discordgo.File{{Name: "hand.png", ContentType: "image/png", Reader: strings.NewReader(picture)}}}}
	}
	refusal := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "No replay", Flags: discordgo.MessageFlagsEphemeral}}
	cases := []struct {
		name     string
		http     bool
		defers   bool // the handler calls Defer, update as below
		update   bool
		resp     *discordgo.InteractionResponse
		written  string // what the HTTP response holds, |-separated; written before the handler returns when it defers
		requests []string
	}{
		{"a page turned in place", true, true, true, withPicture(discordgo.InteractionResponseUpdateMessage, 0),
			`{"type":6}`, []string{"PATCH /api/v9/webhooks/9/tok-3/messages/@original " + picture}},
		{"a replay opened privately", true, true, false, withPicture(discordgo.InteractionResponseChannelMessageWithSource, discordgo.MessageFlagsEphemeral),
			`{"type":5,|"flags":64}`, []string{"PATCH /api/v9/webhooks/9/tok-3/messages/@original " + picture}},
		{"a refusal after a quiet acknowledgement", true, true, true, refusal,
			`{"type":6}`, []string{`POST /api/v9/webhooks/9/tok-3 "flags":64`}},
		{"no deferral: the answer whole", true, false, false, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: "Hand 2"}}, `{"type":7,|"content":"Hand 2"`, nil},
		{"a page turned in place, over the gateway", false, true, true, withPicture(discordgo.InteractionResponseUpdateMessage, 0),
			"", []string{`POST /api/v9/interactions/3/tok-3/callback {"type":6}`, "PATCH /api/v9/webhooks/9/tok-3/messages/@original " + picture}},
		{"a replay opened privately, over the gateway", false, true, false, withPicture(discordgo.InteractionResponseChannelMessageWithSource, discordgo.MessageFlagsEphemeral),
			"", []string{`POST /api/v9/interactions/3/tok-3/callback {"type":5,`, "PATCH /api/v9/webhooks/9/tok-3/messages/@original " + picture}},
		{"no deferral, over the gateway: the answer whole", false, false, true, withPicture(discordgo.InteractionResponseUpdateMessage, 0),
			"", []string{"POST /api/v9/interactions/3/tok-3/callback " + picture}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			send, callback := answerThrough(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				seen = append(seen, r.Method+" "+r.URL.Path+" "+string(body))
				mu.Unlock()
				if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/callback") {
					w.WriteHeader(http.StatusNoContent)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"id":"777"}`)
			})
			ic := &discordgo.Interaction{ID: "3", Token: "tok-3", AppID: "9"}

			// The endpoint's side of an HTTP answer: it writes the first
			// body it is given; a second would never reach Discord.
			var out intake.Out
			bodies := make(chan string, 2)
			body := make(chan []byte, 1)
			if c.http {
				written := make(chan struct{})
				out = intake.Out{Body: body, Written: written}
				go func() {
					bodies <- string(<-body)
					close(written)
				}()
			}
			ctx := Awaiting(context.Background(), out, callback(ic))
			if c.defers {
				Defer(ctx, c.update)
				if c.http {
					// Written before the handler goes on to draw.
					select {
					case got := <-bodies:
						if !holds(got, c.written) {
							t.Errorf("the deferral written %s, want %s", got, c.written)
						}
					default:
						t.Fatal("Defer returned before the deferral was written")
					}
				} else {
					mu.Lock()
					posted := len(seen) == 1 && strings.Contains(seen[0], "/callback")
					mu.Unlock()
					if !posted {
						t.Fatal("Defer returned before the deferral was posted")
					}
				}
			}
			send(ctx, ic, out, c.resp, false)
			if c.http && !c.defers {
				if got := <-bodies; !holds(got, c.written) {
					t.Errorf("the HTTP response %s, want %s", got, c.written)
				}
			}
			select {
			case b := <-body:
				t.Errorf("a second HTTP response: %s", b)
			default:
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != len(c.requests) {
				t.Fatalf("requests %q, want %d", seen, len(c.requests))
			}
			for i, want := range c.requests {
				method, rest, _ := strings.Cut(want, " ")
				path, part, _ := strings.Cut(rest, " ")
				if !strings.HasPrefix(seen[i], method+" "+path+" ") || !strings.Contains(seen[i], part) {
					t.Errorf("request %d: %.200q, want %s %s carrying %s", i+1, seen[i], method, path, part)
				}
			}
		})
	}
}

// holds reports whether s holds each of parts' |-separated pieces.
func holds(s, parts string) bool {
	for _, p := range strings.Split(parts, "|") {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestAGatewayDeferralDiscordTookIsCompleted: a deferral posted to the
// callback route may reach Discord although its request failed: sent
// again after a 502, Discord says 40060 (answered already); or its
// answer is lost (a 500 here). Either way the deferral stands, and the
// answer edits it: posted whole to the callback route, it would meet
// 40060 and leave the player with "thinking…" for good.
func TestAGatewayDeferralDiscordTookIsCompleted(t *testing.T) {
	for _, c := range []struct {
		name     string
		statuses []int // the callback route's answers, in order; 40060 after those
		requests []string
	}{
		{"a 502, then answered already", []int{http.StatusBadGateway},
			[]string{"POST /callback", "POST /callback", "PATCH /@original"}},
		{"its answer lost", []int{http.StatusInternalServerError},
			[]string{"POST /callback", "POST /callback", "PATCH /@original"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			send, callback := answerThrough(t, func(w http.ResponseWriter, r *http.Request) {
				io.ReadAll(r.Body)
				mu.Lock()
				defer mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				if strings.HasSuffix(r.URL.Path, "/callback") {
					seen = append(seen, "POST /callback")
					n := len(seen)
					if n <= len(c.statuses) {
						w.WriteHeader(c.statuses[n-1])
						io.WriteString(w, `{"message":"no","code":0}`)
						return
					}
					w.WriteHeader(http.StatusBadRequest)
					io.WriteString(w, `{"message":"Interaction has already been acknowledged.","code":40060}`)
					return
				}
				seen = append(seen, r.Method+" /"+r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:])
				io.WriteString(w, `{"id":"777"}`)
			})
			ic := &discordgo.Interaction{ID: "3", Token: "tok-3", AppID: "9"}
			ctx := Awaiting(context.Background(), intake.Out{}, callback(ic))
			Defer(ctx, false)
			send(ctx, ic, intake.Out{}, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "Hand 1", Flags: discordgo.MessageFlagsEphemeral}}, false)
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(seen, ", ") != strings.Join(c.requests, ", ") {
				t.Errorf("requests %q, want %q", seen, c.requests)
			}
		})
	}
}
