package intake

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestEndpoint holds the endpoint to what Discord's Interactions Endpoint
// must do: PONG a PING, hand on only what the application's key signed,
// refuse a replay and a stale timestamp, and answer 503 while the bot is
// not running.
func TestEndpoint(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	now := time.Unix(1_800_000_000, 0)
	sign := func(key ed25519.PrivateKey, at time.Time, body string) http.Header {
		stamp := strconv.FormatInt(at.Unix(), 10)
		h := http.Header{}
		h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, []byte(stamp+body))))
		h.Set("X-Signature-Timestamp", stamp)
		return h
	}
	const command = `{"id":"1","type":2,"token":"t","data":{"name":"cribbage"}}`
	replayed := sign(priv, now, command)
	cases := []struct {
		name    string
		method  string
		header  http.Header
		body    string
		running bool
		want    int
		handed  bool
		wantOut string
	}{
		{"ping", "POST", sign(priv, now, `{"type":1}`), `{"type":1}`, false, 200, false, `"type":1`},
		{"command", "POST", replayed, command, true, 200, true, `"type":4`},
		{"replay", "POST", replayed, command, true, 401, false, ""},
		{"other key", "POST", sign(other, now, command), command, true, 401, false, ""},
		{"stale", "POST", sign(priv, now.Add(-6*time.Minute), command), command, true, 401, false, ""},
		{"ahead", "POST", sign(priv, now.Add(6*time.Minute), command), command, true, 401, false, ""},
		{"no signature", "POST", http.Header{}, command, true, 401, false, ""},
		{"not running", "POST", sign(priv, now.Add(time.Second), command), command, false, 503, false, ""},
		{"not json", "POST", sign(priv, now, "{"), "{", true, 400, false, ""},
		{"get", "GET", sign(priv, now, ""), "", true, 405, false, ""},
	}
	var gate Gate
	handed := false
	e := New(pub, func() time.Time { return now }, &gate,
		func(ctx context.Context, ic *discordgo.Interaction, out Out) {
			handed = true
			out.Body <- []byte(`{"type":4,"data":{"content":"hi"}}`)
			<-out.Written
		})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			handed = false
			if c.running {
				gate.Open(context.Background(), context.Background())
			} else {
				gate.Close()
			}
			r := httptest.NewRequest(c.method, "/interactions", strings.NewReader(c.body))
			r.Header = c.header
			w := httptest.NewRecorder()
			e.ServeHTTP(w, r)
			if w.Code != c.want || handed != c.handed {
				t.Fatalf("status %d, handed on %v; want %d, %v (%s)", w.Code, handed, c.want, c.handed, w.Body)
			}
			if c.wantOut != "" && !strings.Contains(w.Body.String(), c.wantOut) {
				t.Errorf("body %s, want it to hold %s", w.Body, c.wantOut)
			}
		})
	}
}

// TestGateClosesWhenStopEnds: an open gate takes interactions in its run
// context until the context it was opened with to stop ends, before
// anyone closes it; Close closes it too.
func TestGateClosesWhenStopEnds(t *testing.T) {
	var g Gate
	if _, ok := g.Taking(); ok {
		t.Fatal("a zero gate takes interactions")
	}
	run := context.WithValue(context.Background(), struct{}{}, "run")
	stop, cancel := context.WithCancel(context.Background())
	g.Open(run, stop)
	if ctx, ok := g.Taking(); !ok || ctx != run {
		t.Fatalf("an open gate: %v, %v; want its run context", ctx, ok)
	}
	cancel()
	if _, ok := g.Taking(); ok {
		t.Error("the gate takes interactions after stop ended")
	}
	g.Open(run, context.Background())
	g.Close()
	if _, ok := g.Taking(); ok {
		t.Error("a closed gate takes interactions")
	}
}
