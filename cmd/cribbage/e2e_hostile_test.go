package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/prometheus/client_golang/prometheus"
)

// Places other than the tables' channel: another channel of the same
// server (which the table's channel may hide from its members), and a
// channel of another server.
const (
	otherChannel      = "400000000000000009"
	otherGuild        = "400000000000000010"
	otherGuildChannel = "400000000000000011"
)

// TestATableAnswersOnlyInItsChannel names tables from elsewhere, as a
// user may with the table option and as a forged click may with any
// custom_id: every such reference is refused with the same private answer,
// tells nothing about the table and changes nothing. The same requests
// made in the table's channel work.
func TestATableAnswersOnlyInItsChannel(t *testing.T) {
	t.Parallel()
	for _, overHTTP := range []bool{false, true} {
		t.Run(map[bool]string{false: "gateway", true: "HTTP"}[overHTTP], func(t *testing.T) {
			tableAnswersOnlyInItsChannel(t, newHarnessWith(t, func(h *harness) { h.overHTTP = overHTTP }))
		})
	}
}

func tableAnswersOnlyInItsChannel(t *testing.T, h *harness) {
	lobby, _ := h.open(alice)
	game, gameMsg := twoPlayerGame(t, h)
	// Messages of their own, elsewhere, for the forged clicks to be on.
	eveMsg := h.send(discordtest.Command(testGuild, otherChannel, eve, "start")).MessageID
	danMsg := h.send(discordtest.Command(otherGuild, otherGuildChannel, dan, "start")).MessageID
	elsewhere := func(name string, u discordtest.User, i *discordgo.Interaction) {
		t.Helper()
		before := map[int64]int64{lobby: h.table(lobby).Version, game: h.table(game).Version}
		a := h.send(i)
		if !a.Ephemeral() || !strings.Contains(a.Content(), "no such table in this channel") {
			t.Errorf("%s: answered %q, embeds %d", name, a.Content(), len(a.Response.Data.Embeds))
		}
		for id, v := range before {
			if got := h.table(id).Version; got != v {
				t.Errorf("%s changed table %d (version %d → %d)", name, id, v, got)
			}
		}
	}
	other := func(u discordtest.User, sub string, id int64) *discordgo.Interaction {
		return discordtest.Command(testGuild, otherChannel, u, sub, discordtest.Opt{Name: "table", Value: id})
	}
	lobbyID, gameID := itoa64(lobby), itoa64(game)
	for _, tc := range []struct {
		name string
		u    discordtest.User
		i    *discordgo.Interaction
	}{
		{"status of a lobby from another channel", eve, other(eve, "status", lobby)},
		{"join a lobby from another channel", eve, other(eve, "join", lobby)},
		{"Join clicked from another channel", eve, discordtest.Click(testGuild, otherChannel, eve, eveMsg, "/join/"+lobbyID)},
		{"Join clicked from another server", dan, discordtest.Click(otherGuild, otherGuildChannel, dan, danMsg, "/join/"+lobbyID)},
		{"Start clicked by the host from another channel", alice, discordtest.Click(testGuild, otherChannel, alice, eveMsg, "/begin/"+lobbyID)},
		{"Leave clicked by the host from another server", alice, discordtest.Click(otherGuild, otherGuildChannel, alice, danMsg, "/leave/"+lobbyID)},
		{"hand of a game from another channel", bob, other(bob, "hand", game)},
		{"Show my hand clicked from another server", bob, discordtest.Click(otherGuild, otherGuildChannel, bob, danMsg, "/hand/"+gameID)},
		{"resign from another channel", bob, other(bob, "resign", game)},
		{"Resign clicked from another server", bob, discordtest.Click(otherGuild, otherGuildChannel, bob, danMsg, "/resign/"+gameID)},
		{"Claim the win clicked from another channel", bob, discordtest.Click(testGuild, otherChannel, bob, eveMsg, "/claimwin/"+gameID)},
		{"replay of a game on from another channel", bob, other(bob, "replay", game)},
	} {
		elsewhere(tc.name, tc.u, tc.i)
	}
	// The game ends; its replay is open to the channel, and only to it.
	if a := h.command(bob, "resign", discordtest.Opt{Name: "table", Value: game}); !a.Ephemeral() {
		t.Fatalf("resign here: %q", a.Content())
	}
	h.click(bob, gameMsg, "/resign/"+gameID)
	if s := h.table(game).Status; s != cribbage.StatusFinished {
		t.Fatalf("the resignation in the table's channel: %s", s)
	}
	elsewhere("replay of a finished game from another channel", eve, other(eve, "replay", game))
	elsewhere("Replay clicked from another server", dan, discordtest.Click(otherGuild, otherGuildChannel, dan, danMsg, "/replay/"+gameID+"/1"))
	elsewhere("Rematch clicked from another channel", bob, discordtest.Click(testGuild, otherChannel, bob, eveMsg, "/rematch/"+gameID))
	// Here the same requests are answered.
	answered := func(a discordtest.Answer) bool {
		return len(a.Response.Data.Embeds) > 0 || a.Response.Data.Flags&discordgo.MessageFlagsIsComponentsV2 != 0
	}
	if a := h.command(eve, "replay", discordtest.Opt{Name: "table", Value: game}); !answered(a) {
		t.Errorf("replay of a finished game in its channel: %q", a.Content())
	}
	// In the lobby's channel, Eve may look and join.
	if a := h.command(eve, "status", discordtest.Opt{Name: "table", Value: lobby}); !answered(a) {
		t.Errorf("status in the lobby's channel: %q", a.Content())
	}
	h.command(eve, "join", discordtest.Opt{Name: "table", Value: lobby})
	if seats := h.table(lobby).Seats; len(seats) != 2 || seats[1].UserID != eve.ID {
		t.Errorf("after joining in the lobby's channel: %+v", seats)
	}
}

// TestOptionsOutsideTheDefinitionsAreRefused sends, over the gateway and
// signed over HTTP, commands with options Discord's client would never
// send: out of their choices or range, of the wrong type, unknown, or
// missing when required, and interactions that name no user. Each gets a
// clear private answer, nothing panics, and nothing changes.
func TestOptionsOutsideTheDefinitionsAreRefused(t *testing.T) {
	t.Parallel()
	seed := strings.Repeat("ab", 32)
	noUser := func(i *discordgo.Interaction) *discordgo.Interaction {
		i.Member, i.User = nil, nil
		return i
	}
	cmd := func(sub string, opts ...discordtest.Opt) *discordgo.Interaction {
		return discordtest.Command(testGuild, testChannel, carol, sub, opts...)
	}
	opt := func(name string, v any) discordtest.Opt { return discordtest.Opt{Name: name, Value: v} }
	for _, overHTTP := range []bool{false, true} {
		name := "gateway"
		if overHTTP {
			name = "HTTP"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarnessWith(t, func(h *harness) { h.overHTTP = overHTTP })
			lobby, msg := h.open(alice)
			const badOptions, nobody = "aren't ones the command offers", "can't tell who sent that"
			for _, tc := range []struct {
				name string
				i    *discordgo.Interaction
				want string
			}{
				{"verify at 100 players", cmd("verify", opt("seed", seed), opt("players", 100)), badOptions},
				{"verify without a seed", cmd("verify", opt("players", 2)), badOptions},
				{"verify with a seed too short", cmd("verify", opt("seed", "ab")), badOptions},
				{"count without a starter", cmd("count", opt("cards", "5H 5D 5C JS")), badOptions},
				{"count with the starter a number", cmd("count", opt("cards", "5H 5D 5C JS"), opt("starter", 5)), badOptions},
				{"start at 5 players", cmd("start", opt("players", 5)), badOptions},
				{"start to 99 points", cmd("start", opt("points", 99)), badOptions},
				{"start with a computer nobody offers", cmd("start", opt("computer", "godlike")), badOptions},
				{"start with an option it does not have", cmd("start", opt("colour", true)), badOptions},
				{"the table option a word", cmd("status", opt("table", "one")), badOptions},
				{"the table option zero", cmd("join", opt("table", 0)), badOptions},
				{"the same option twice", cmd("join", opt("table", int(lobby)), opt("table", int(lobby))), badOptions},
				{"a start with no user", noUser(cmd("start")), nobody},
				{"a Join click with no user", noUser(discordtest.Click(testGuild, testChannel, carol, msg, "/join/"+itoa64(lobby))), nobody},
			} {
				a := h.send(tc.i)
				if !a.Ephemeral() || !strings.Contains(a.Content(), tc.want) {
					t.Errorf("%s: answered %q, want a private %q", tc.name, a.Content(), tc.want)
				}
			}
			tables, err := h.store.ChannelTables(context.Background(), testChannel)
			if err != nil || len(tables) != 1 || len(tables[0].Seats) != 1 {
				t.Errorf("after the refusals: %d tables (%v), want Alice's lobby alone", len(tables), err)
			}
			if n := outcomes(t, h.metrics, "panic") + outcomes(t, h.metrics, "error"); n != 0 {
				t.Errorf("%v interactions panicked or failed", n)
			}
			// The same commands within their definitions are answered.
			if a := h.send(cmd("verify", opt("seed", seed), opt("players", 4))); !strings.Contains(a.Content(), "Commitment") {
				t.Errorf("verify at 4 players: %q", a.Content())
			}
		})
	}
}

// outcomes sums cribbage_interactions_total over kinds for one outcome.
func outcomes(t *testing.T, reg *prometheus.Registry, outcome string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != "cribbage_interactions_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					sum += m.GetCounter().GetValue()
				}
			}
		}
	}
	return sum
}

// TestASignedRequestIsRefusedAgainForAsLongAsItsTimestampIsGood replays a
// request stamped 4m50s ahead of the bot's clock, after other requests
// have come and gone for ten minutes: it is refused for as long as its
// timestamp would be accepted, and by its timestamp after that.
func TestASignedRequestIsRefusedAgainForAsLongAsItsTimestampIsGood(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) { h.overHTTP = true })
	n := 0
	ping := func() []byte {
		n++
		return []byte(`{"id":"` + itoa64(int64(n)) + `","application_id":"` + h.fake.AppID + `","type":1,"token":"t","version":1}`)
	}
	post := func(body []byte, header http.Header) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, h.endpoint.URL, bytes.NewReader(body))
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	fresh := func() {
		t.Helper()
		body := ping()
		if status := post(body, h.fake.Sign(body)); status != 200 {
			t.Fatalf("a fresh request: %d", status)
		}
	}
	fresh()
	h.fake.Advance(4*time.Minute + 59*time.Second)
	ahead := ping()
	header := h.fake.SignAt(ahead, h.fake.Now().Add(4*time.Minute+50*time.Second))
	if status := post(ahead, header); status != 200 {
		t.Fatalf("a request stamped 4m50s ahead: %d", status)
	}
	for _, step := range []time.Duration{2 * time.Second, 5*time.Minute + time.Second, time.Second, 4*time.Minute + 40*time.Second, 20 * time.Second} {
		h.fake.Advance(step)
		fresh()
		if status := post(ahead, header); status != 401 {
			t.Fatalf("the same request again, %s after it was stamped: %d, want 401", h.fake.Now().Sub(time.Unix(mustAtoi(t, header.Get("X-Signature-Timestamp")), 0)), status)
		}
	}
}

// mustAtoi reads a decimal number.
func mustAtoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNetworkErrorsDoNotLogTokens cuts the connection of every request
// that carries an interaction's token in its URL (the answer over the
// gateway, the edit that brings a deferred answer's pictures over HTTP):
// Go's errors quote the URL, and the bot logs them, without the token.
func TestNetworkErrorsDoNotLogTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		overHTTP bool
		logged   string
	}{
		{"gateway", false, "could not answer interaction"},
		{"HTTP", true, "could not complete a deferred answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cut atomic.Bool
			h := newHarnessWith(t, func(h *harness) {
				h.overHTTP = tc.overHTTP
				target, _ := url.Parse(h.fake.URL())
				proxy := httputil.NewSingleHostReverseProxy(target)
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if cut.Load() && (strings.Contains(r.URL.Path, "/interactions/") || strings.Contains(r.URL.Path, "/webhooks/")) {
						conn, _, err := w.(http.Hijacker).Hijack()
						if err == nil {
							conn.Close()
						}
						return
					}
					proxy.ServeHTTP(w, r)
				}))
				t.Cleanup(srv.Close)
				h.apiURL = srv.URL
			})
			// A game's status carries its board, a picture: over HTTP it is
			// deferred and edited in with the interaction's token.
			id, _ := twoPlayerGame(t, h)
			cut.Store(true)
			i := h.fake.Prepare(discordtest.Command(testGuild, testChannel, alice, "status", discordtest.Opt{Name: "table", Value: id}))
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			h.fake.Send(ctx, i) // over the gateway the answer is lost: no answer is expected
			h.eventually("the network error logged", func() bool { return strings.Contains(h.logs.String(), tc.logged) })
			logs := h.logs.String()
			if strings.Contains(logs, i.Token) || !strings.Contains(logs, "[redacted]") {
				t.Errorf("the logs show the token %s, or no redacted URL:\n%s", i.Token, logs)
			}
		})
	}
}
