package answer

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// TestAnswerOverREST answers through the callback route with the
// interaction's token and no bot token, sends it again when Discord's edge
// answers 502 (it never reached the API), and reads the posted message's
// id from Discord's answer.
func TestAnswerOverREST(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	gateway := 1 // 502s still to answer
	send := sendThrough(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" auth="+r.Header.Get("Authorization")+" "+string(body))
		if gateway > 0 {
			gateway--
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"interaction":{"id":"1"},"resource":{"type":4,"message":{"id":"555"}}}`)
	})
	ic := &discordgo.Interaction{ID: "1", Token: "tok-1", AppID: "9"}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "A table"}}
	if got := send(context.Background(), ic, intake.Out{}, resp, true); got != "555" {
		t.Errorf("posted message %q, want 555", got)
	}
	if len(seen) != 2 {
		t.Fatalf("%d requests, want the answer and its one retry: %q", len(seen), seen)
	}
	for _, s := range seen {
		if !strings.HasPrefix(s, "POST /api/v9/interactions/1/tok-1/callback?with_response=true auth= ") || !strings.Contains(s, `"content":"A table"`) {
			t.Errorf("request %q, want the answer through the callback route with no bot token", s)
		}
	}
}

// TestAnswerSentAgainKeepsItsFiles: an answer sent again, after a 502 or
// after the wait a 429 asked for, uploads its picture again, whole.
func TestAnswerSentAgainKeepsItsFiles(t *testing.T) {
	picture := strings.Repeat("PNG", 40)
	for _, first := range []int{http.StatusBadGateway, http.StatusTooManyRequests} {
		t.Run(http.StatusText(first), func(t *testing.T) {
			var mu sync.Mutex
			var bodies []string
			send := sendThrough(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				defer mu.Unlock()
				bodies = append(bodies, string(body))
				if len(bodies) == 1 {
					if first == http.StatusTooManyRequests {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(first)
						io.WriteString(w, `{"message":"You are being rate limited.","retry_after":0.01,"global":false}`)
						return
					}
					w.WriteHeader(first)
					return
				}
				w.WriteHeader(http.StatusNoContent)
			})
			ic := &discordgo.Interaction{ID: "2", Token: "tok-2", AppID: "9"}
			resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
				Content: "The board", Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: strings.NewReader(picture)}}}}
			send(context.Background(), ic, intake.Out{}, resp, false)
			if len(bodies) != 2 {
				t.Fatalf("%d requests, want the answer and its second sending", len(bodies))
			}
			for i, b := range bodies {
				if !strings.Contains(b, picture) {
					t.Errorf("sending %d carries no whole picture: %.300q", i+1, b)
				}
			}
		})
	}
}

// TestAnHTTPAnswersMessageIsAskedAboutAgain: after an HTTP response,
// the bot reads the message it posted from @original (to learn its id),
// or edits its pictures into it; Discord may not know that message yet
// when the request arrives. An Unknown Message (10008) is asked again
// until Discord knows it or the answer's time is up, each edit with its
// whole picture; other errors, another 404 among them, are not.
func TestAnHTTPAnswersMessageIsAskedAboutAgain(t *testing.T) {
	const picture = "PNGPNGPNG"
	for _, c := range []struct {
		name    string
		answers []string // "status code" before Discord knows the message
		endAt   int      // the answer's context ends at this request, if > 0
		want    string   // the message id learnt
		asked   int
	}{
		{"known at once", nil, 0, "777", 1},
		{"known after two Unknown Messages", []string{"404 10008", "404 10008"}, 0, "777", 3},
		{"not known before the answer's time is up", []string{"404 10008", "404 10008", "404 10008", "404 10008"}, 3, "", 3},
		{"another 404", []string{"404 10015"}, 0, "", 1},
		{"refused", []string{"403 50001"}, 0, "", 1},
	} {
		for _, edit := range []bool{false, true} {
			t.Run(c.name+map[bool]string{false: ", read", true: ", edited"}[edit], func(t *testing.T) {
				var mu sync.Mutex
				asked := 0
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				send := sendThrough(t, func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					mu.Lock()
					defer mu.Unlock()
					method := map[bool]string{false: http.MethodGet, true: http.MethodPatch}[edit]
					if r.Method != method || r.URL.Path != "/api/v9/webhooks/9/tok-4/messages/@original" {
						t.Errorf("%s %s, want %s of @original", r.Method, r.URL.Path, method)
					}
					if edit && !strings.Contains(string(b), picture) {
						t.Errorf("edit %d carries no whole picture", asked+1)
					}
					asked++
					if asked == c.endAt {
						cancel()
					}
					w.Header().Set("Content-Type", "application/json")
					if asked <= len(c.answers) {
						var status, code int
						fmt.Sscan(c.answers[asked-1], &status, &code)
						w.WriteHeader(status)
						fmt.Fprintf(w, `{"message":"no","code":%d}`, code)
						return
					}
					io.WriteString(w, `{"id":"777"}`)
				})
				body, written := make(chan []byte, 1), make(chan struct{})
				go func() {
					<-body
					close(written)
				}()
				out := intake.Out{Body: body, Written: written}
				ic := &discordgo.Interaction{ID: "4", Token: "tok-4", AppID: "9"}
				resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "A table"}}
				if edit {
					resp.Data.Files = []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: strings.NewReader(picture)}}
				}
				if got := send(ctx, ic, out, resp, true); got != c.want {
					t.Errorf("posted message %q, want %q", got, c.want)
				}
				mu.Lock()
				defer mu.Unlock()
				if asked != c.asked {
					t.Errorf("asked %d times, want %d", asked, c.asked)
				}
			})
		}
	}
}

// sendThrough is the bot's Send with its REST client pointed at a test
// server answering with h, on a fixed clock.
func sendThrough(t *testing.T, h http.HandlerFunc) Send {
	send, _ := answerThrough(t, h)
	return send
}

// answerThrough is sendThrough, and Callback for an interaction through
// the same server, on the same clock.
func answerThrough(t *testing.T, h http.HandlerFunc) (Send, func(*discordgo.Interaction) func(context.Context, *discordgo.InteractionResponse) bool) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	base, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC) }
	rc := &rest.Client{HTTP: &http.Client{Transport: rest.NewRewriteTransport(base, http.DefaultTransport)}, Token: "secret", Limits: rest.NewLimits(now)}
	log := slog.New(slog.DiscardHandler)
	return New(rc, now, log), func(ic *discordgo.Interaction) func(context.Context, *discordgo.InteractionResponse) bool {
		return Callback(rc, now, now(), log, ic)
	}
}
