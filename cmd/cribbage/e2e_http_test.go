package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestWholeGamesOverHTTP plays whole games with Discord delivering every
// interaction to the bot's interactions endpoint, signed, and taking the
// HTTP response as the answer: no gateway connection at all. Pictures
// (the replay, /cribbage status) cannot ride in an HTTP response, so they
// are deferred and edited in through the interaction's token.
func TestWholeGamesOverHTTP(t *testing.T) {
	t.Parallel()
	for _, tc := range shortKinds(twoAndFour) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarnessWith(t, func(h *harness) { h.overHTTP = true })
			id, msg := h.seat(tc)
			people := usersOf(tc.people...)
			h.playToEnd(id, msg, people)
			h.drain()
			final := h.table(id)
			if final.Status != cribbage.StatusFinished {
				t.Fatalf("status %s", final.Status)
			}
			if n := h.tableMessages(id); n != 1 {
				t.Errorf("%d table messages, want 1", n)
			}
			if ids, _ := h.fake.Identifies(); ids != 0 {
				t.Errorf("the bot opened %d gateway sessions over HTTP", ids)
			}
			// The metrics counted the plays answered.
			if n := counterValue(t, h.metrics, "cribbage_interactions_total", map[string]string{"kind": "click:play", "outcome": "ok"}); n < 10 {
				t.Errorf("cribbage_interactions_total{kind=click:play,outcome=ok} = %v", n)
			}
			// Each waited for a worker once, and how long is recorded:
			// the wait before the answer goes, the answer's time once
			// its bookkeeping is done.
			h.eventually("every interaction's wait for a worker recorded", func() bool {
				n := histogramOf(t, h, handledSeconds).total
				return n > 0 && histogramOf(t, h, queuedSeconds).total == n
			})
			// A status with its board, and a replay page turned: files,
			// deferred and edited in.
			status := h.command(alice, "status", discordtest.Opt{Name: "table", Value: id})
			h.within(5*time.Second, "the status's board edited in", func() bool {
				m, _ := h.fake.Message(status.MessageID)
				_, ok := h.fake.File(m, "board.png")
				return ok
			})
			page := h.click(bob, msg, "/replay/"+itoa64(id)+"/1")
			var pm discordtest.Message
			h.within(5*time.Second, "the replay page edited in", func() bool {
				pm, _ = h.fake.Message(page.MessageID)
				return len(pm.Attachments) == 2 && len(pm.Components) > 0
			})
			next, ok := button(t, pm.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.Label, "Next") })
			if !ok {
				t.Fatal("no Next on the replay page")
			}
			h.click(bob, page.MessageID, next.CustomID)
			h.within(5*time.Second, "page 2 edited in", func() bool {
				pm, _ = h.fake.Message(page.MessageID)
				return len(pm.Embeds) == 2 && strings.Contains(pm.Embeds[0].Title, "hand 2 of") && len(pm.Attachments) == 2
			})
		})
	}
}

// TestInteractionsEndpointRefusesWhatDiscordDidNotSign sends the endpoint
// what an attacker could: every request not signed by Discord's key over
// exactly its timestamp and body, recently, and once, is refused with 401
// before anything is done; an oversized body with 413. Discord's PING gets
// PONG.
func TestInteractionsEndpointRefusesWhatDiscordDidNotSign(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) { h.overHTTP = true })
	url := h.endpoint.URL
	ping := []byte(`{"id":"1","application_id":"` + h.fake.AppID + `","type":1,"token":"t","version":1}`)
	command, _ := json.Marshal(h.fake.Prepare(discordtest.Command(testGuild, testChannel, alice, "start")))
	post := func(body []byte, header http.Header) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	if status, body := post(ping, h.fake.Sign(ping)); status != 200 || !strings.Contains(body, `"type":1`) {
		t.Fatalf("PING: %d %s", status, body)
	}
	old := h.fake.Sign(command)
	h.fake.Advance(6 * time.Minute)
	replayed := h.fake.Sign(command)
	if status, _ := post(command, replayed); status != 200 {
		t.Fatalf("a signed command: %d", status)
	}
	wrong := h.fake.Sign(command)
	sig := []byte(wrong.Get("X-Signature-Ed25519"))
	sig[10] ^= 1 // one hex digit off
	wrong.Set("X-Signature-Ed25519", string(sig))
	noSig := h.fake.Sign(command)
	noSig.Del("X-Signature-Ed25519")
	other := h.fake.Sign(ping) // valid, but over another body
	garbled := h.fake.Sign(command)
	garbled.Set("X-Signature-Ed25519", "not hex")
	big := append([]byte(`{"type":2,"pad":"`), bytes.Repeat([]byte("x"), 1<<20)...)
	big = append(big, `"}`...)
	for _, tc := range []struct {
		name   string
		body   []byte
		header http.Header
		want   int
	}{
		{"no signature", command, noSig, 401},
		{"a wrong signature", command, wrong, 401},
		{"a signature that is not hex", command, garbled, 401},
		{"a valid signature over another body", command, other, 401},
		{"a timestamp six minutes old", command, old, 401},
		{"the same signed request again", command, replayed, 401},
		{"a body over 1 MB", big, h.fake.Sign(big), 413},
	} {
		if status, body := post(tc.body, tc.header); status != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, status, body, tc.want)
		}
	}
	// Only the one signed command opened a table.
	if tables, _ := h.store.ChannelTables(context.Background(), testChannel); len(tables) != 1 {
		t.Errorf("%d tables opened, want the 1 signed command's", len(tables))
	}
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %v %v", resp.StatusCode, err)
	}
}

// counterValue reads a counter (or gauge) with the given labels from reg.
func counterValue(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metric:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if want, ok := labels[l.GetName()]; ok && want != l.GetValue() {
					continue metric
				}
			}
			if m.Counter != nil {
				return m.Counter.GetValue()
			}
			return m.Gauge.GetValue()
		}
	}
	return 0
}
