package main

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// leakScanner checks that no public payload names a card that was hidden
// in a hand (or the crib, or the deck) all through the change that
// produced it. It follows the game by replaying the stored action log.
type leakScanner struct {
	h        *harness
	id       int64
	g        *engine.State
	actions  int
	requests int
	payloads int
	// queued is the last announcement scanned where it was queued.
	queued int64
	// before is what was hidden all through the previous check's span.
	before engine.CardSet
	// own and ownBefore are each seat's cards (hand and throw) at any
	// point of this span and the previous one: a seat's own view may name
	// them.
	own, ownBefore []engine.CardSet
	// handOwn is each seat's cards in each hand of the game so far, and
	// handShown every card shown at some point of it, by hand number: a
	// view of hand 5 whose edit reaches Discord late, after the next deal,
	// may name them. firstHand and firstHandBefore are the first hand this
	// span and the previous one saw: a view of an earlier hand is late.
	handOwn                    map[int][]engine.CardSet
	handShown                  map[int]engine.CardSet
	firstHand, firstHandBefore int
}

// seatCards is every card a seat may see of its own: its hand, its throw,
// and in the show its crib, which it is given to count.
func seatCards(g *engine.State, seat int) engine.CardSet {
	if g == nil || seat >= len(g.Hands) {
		return 0
	}
	c := g.Hands[seat]
	if seat < len(g.Discards) {
		c |= g.Discards[seat]
	}
	if g.Phase == engine.PhaseShow && seat == g.Dealer {
		c |= g.Crib
	}
	return c
}

// hidden is every card nobody outside its holder may know: not laid, not
// shown, and not the turned starter.
func hidden(g *engine.State) engine.CardSet {
	if g == nil || g.HandNo == 0 {
		return 0
	}
	var visible engine.CardSet
	for _, p := range g.Plays {
		visible = visible.Add(p.Card)
	}
	if g.StarterUp {
		visible = visible.Add(g.Starter)
	}
	for i := 0; i < g.Shown; i++ {
		seat, crib := g.ShowOrder(i)
		if crib {
			visible |= g.Crib
		} else {
			visible |= g.Hands[seat]
		}
	}
	return engine.SetOf(allCards()...) &^ visible
}

func allCards() []engine.Card {
	var out []engine.Card
	for s := engine.Spades; s <= engine.Clubs; s++ {
		for r := engine.Ace; r <= engine.King; r++ {
			out = append(out, engine.NewCard(r, s))
		}
	}
	return out
}

// check replays the actions logged since the last check and scans the
// public payloads made since. Story lines are scanned in the outbox, as
// queued by the change that made them: under Discord's rate limits they go
// out later, merged, when the cards they could name may be hidden again in
// a new hand. Everything else (answers, table messages) is scanned as sent.
func (s *leakScanner) check() {
	h := s.h
	h.t.Helper()
	t := h.table(s.id)
	logged, err := h.store.Actions(context.Background(), s.id)
	if err != nil {
		h.t.Fatal(err)
	}
	always := hidden(s.g)
	if s.g == nil && t.State != nil {
		// The start: the cut for deal shows cards that are then shuffled
		// back; nothing of a hand is known before the first deal.
		s.g, _, _ = engine.New(t.Options, *t.CutSeed)
		always = 0
	}
	s.ownBefore, s.own = s.own, make([]engine.CardSet, len(t.Seats))
	if s.ownBefore == nil {
		s.ownBefore = make([]engine.CardSet, len(t.Seats))
	}
	if s.handOwn == nil {
		s.handOwn, s.handShown = map[int][]engine.CardSet{}, map[int]engine.CardSet{}
	}
	s.firstHandBefore, s.firstHand = s.firstHand, -1
	note := func(g *engine.State) {
		if g == nil {
			return
		}
		if s.handOwn[g.HandNo] == nil {
			s.handOwn[g.HandNo] = make([]engine.CardSet, len(t.Seats))
		}
		if s.firstHand < 0 {
			s.firstHand = g.HandNo
		}
		s.handShown[g.HandNo] |= engine.SetOf(allCards()...) &^ hidden(g)
		for seat := range s.own {
			s.own[seat] |= seatCards(g, seat)
			s.handOwn[g.HandNo][seat] |= seatCards(g, seat)
		}
	}
	note(s.g)
	for _, la := range logged[s.actions:] {
		next, _, err := s.g.Apply(la.Action)
		if err != nil {
			h.t.Fatalf("replay: %v", err)
		}
		s.g = next
		always &= hidden(next)
		note(next)
	}
	s.actions = len(logged)
	queued, err := h.store.TableOutbox(context.Background(), s.id)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, it := range queued {
		if it.ID <= s.queued {
			continue
		}
		s.queued = it.ID
		if it.Kind != "post" && it.Kind != "line" {
			continue
		}
		s.payloads++
		if c, where, ok := leakIn(always, discordtest.Request{Method: "POST", Path: "/channels/outbox/messages", Body: []byte(it.Payload), ContentType: "application/json"}); ok {
			h.t.Fatalf("hidden %s in a queued story %s: %s", c, where, it.Payload)
		}
	}
	// A table message is rendered when the sender gets to it, and the fake
	// records a request when it has answered it: one rendered before the
	// last check may be recorded after it. So requests are held to what was
	// hidden through both spans.
	sent := always & s.before
	s.before = always
	reqs := h.fake.Requests()
	for _, r := range reqs[s.requests:] {
		if r.Route == "POST /channels/{channel_id}/messages" {
			continue // a story post: its lines were scanned as queued
		}
		// A followup at a table only tokens reach is a story post too
		// (scanned as queued), or a player's own hand view, private:
		// publicPayload counts neither.
		if strings.HasPrefix(r.Route, "PATCH /webhooks/") && r.Status == 200 {
			// An edit through an interaction's token: the table message
			// (public), or a player's own hand view, which may name that
			// player's cards and no one else's.
			s.checkTokenEdit(r, sent, t)
			continue
		}
		if _, _, public := publicPayload(r); public {
			s.payloads++
		}
		if c, where, ok := leakIn(sent, r); ok {
			h.t.Fatalf("hidden %s in a public %s: %s %s: %s", c, where, r.Method, r.Path, r.JSON())
		}
	}
	s.requests = len(reqs)
}

// viewHand finds the hand a hand view shows ("**Your hand** · table 1 ·
// hand 5 · …").
var viewHand = regexp.MustCompile(`\*\*Your hand\*\* · table \d+ · hand (\d+) ·`)

// tableHand finds the hand a table message shows ("Hand 5 · Ann deals").
var tableHand = regexp.MustCompile(`Hand (\d+) · `)

// checkTokenEdit scans an edit made through an interaction's token.
func (s *leakScanner) checkTokenEdit(r discordtest.Request, sent engine.CardSet, t *cribbage.Table) {
	h := s.h
	token := strings.Split(strings.TrimPrefix(r.Path, "/api/v9/webhooks/"), "/")[1]
	m, ic, ok := h.fake.Original(token)
	if !ok {
		h.t.Fatalf("an edit through a token with no original message: %s", r.Path)
	}
	allowed := engine.CardSet(0)
	where := "the table message"
	if m.Ephemeral {
		uid := ""
		if ic.Member != nil && ic.Member.User != nil {
			uid = ic.Member.User.ID
		} else if ic.User != nil {
			uid = ic.User.ID
		}
		seat := t.SeatOf(uid)
		if seat < 0 {
			h.t.Fatalf("a private view edited for someone not seated: %s", r.Path)
		}
		allowed = s.own[seat] | s.ownBefore[seat]
		// The view names the hand it shows. On a busy machine its edit
		// can reach Discord after the next deal: a view of a hand before
		// both spans may name what the seat held or saw shown in it.
		if m := viewHand.FindStringSubmatch(viewText(r)); m != nil {
			n, _ := strconv.Atoi(m[1])
			if own := s.handOwn[n]; own != nil && n < min(s.firstHand, s.firstHandBefore) {
				allowed |= own[seat] | s.handShown[n]
			}
		}
		where = seatName(t, seat) + "'s hand view"
	} else if m := tableHand.FindSubmatch(r.JSON()); m != nil {
		// The table message names its hand too, and its edit is rendered
		// from the table as a pass read it: on a busy machine it can
		// reach Discord after the next deal, paced or retried, showing
		// the hand before, whose cards shown then were public.
		n, _ := strconv.Atoi(string(m[1]))
		if s.handOwn[n] != nil && n < min(s.firstHand, s.firstHandBefore) {
			allowed |= s.handShown[n]
		}
	}
	s.payloads++
	text, ids := payloadText(r)
	if m.Ephemeral {
		// A view's note says what the last change did, as the story does,
		// and is scanned with the story where it was queued: it may name
		// the last hand's cards, dealt again since.
		words := viewText(r)
		if _, rest, ok := strings.Cut(words, "**Your hand**"); ok && strings.HasPrefix(words, "-# Last move") {
			text = strings.Replace(string(r.JSON()), jsonString(words), jsonString("**Your hand**"+rest), 1)
		}
	}
	if c, ok := namesCard(sent&^allowed, text, ids); ok {
		h.t.Fatalf("hidden %s in %s: %s %s: %s", c, where, r.Method, r.Path, r.JSON())
	}
}

// viewText is the words a hand view's edit writes: its content, or the
// first text display of a Components V2 view, which holds them all.
func viewText(r discordtest.Request) string {
	var m discordgo.Message
	json.Unmarshal(r.JSON(), &m)
	if tds := discordtest.TextDisplays(m.Components); m.Content == "" && len(tds) > 0 {
		return tds[0]
	}
	return m.Content
}

// jsonString is s as JSON writes it.
func jsonString(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

// seatName names a seat for a message.
func seatName(t *cribbage.Table, seat int) string { return t.Seats[seat].Name }

// leakIn reports a hidden card named in a public request: by its face
// (5♥) anywhere, or by its notation (5H) as a part of a custom_id or value.
func leakIn(hiddenCards engine.CardSet, r discordtest.Request) (engine.Card, string, bool) {
	if _, _, public := publicPayload(r); !public {
		return engine.NoCard, "", false
	}
	text, ids := payloadText(r)
	if c, ok := namesCard(hiddenCards, text, ids); ok {
		return c, "message", true
	}
	return engine.NoCard, "", false
}

// namesCard reports a card of cards named in a payload's text by its face
// (5♥), or in its custom_ids and values by its notation (5H).
func namesCard(cards engine.CardSet, text string, ids []string) (engine.Card, bool) {
	for _, c := range cards.Cards() {
		if strings.Contains(text, c.Display()) {
			return c, true
		}
		for _, id := range ids {
			for _, part := range strings.Split(id, "/") {
				if part == c.String() {
					return c, true
				}
			}
		}
	}
	return engine.NoCard, false
}

// payloadText returns a request's JSON text and the custom_ids and values
// in it. A picture is drawn from what its message may show; the text is
// in the JSON, and a picture's bytes would match a card's characters by
// chance.
func payloadText(r discordtest.Request) (string, []string) {
	var v any
	json.Unmarshal(r.JSON(), &v)
	var ids []string
	collectIDs(v, &ids)
	return string(r.JSON()), ids
}

// publicPayload returns the text of a request everyone in the channel can
// see, and the custom_ids and values in it.
func publicPayload(r discordtest.Request) (text string, ids []string, public bool) {
	switch {
	case strings.Contains(r.Path, "/channels/") && (r.Method == "POST" || r.Method == "PATCH"):
	case strings.HasSuffix(r.Path, "/callback"):
		var resp struct {
			Type int `json:"type"`
			Data struct {
				Flags int `json:"flags"`
			} `json:"data"`
		}
		json.Unmarshal(r.JSON(), &resp)
		if resp.Data.Flags&int(discordgo.MessageFlagsEphemeral) != 0 || resp.Type == int(discordgo.InteractionResponseModal) {
			return "", nil, false
		}
	default:
		return "", nil, false
	}
	text, ids = payloadText(r)
	return text, ids, true
}

// collectIDs gathers custom_id and value strings from decoded JSON.
func collectIDs(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && (k == "custom_id" || k == "value") {
				*out = append(*out, s)
			}
			collectIDs(val, out)
		}
	case []any:
		for _, val := range x {
			collectIDs(val, out)
		}
	}
}

// playScanned plays a table to the end, scanning after every move.
func (h *harness) playScanned(id int64, msg string, people map[string]discordtest.User) *leakScanner {
	h.t.Helper()
	s := &leakScanner{h: h, id: id}
	s.check()
	for n := 0; h.step(id, msg, people); n++ {
		s.check()
		if n > 3000 {
			h.t.Fatal("the game did not end")
		}
	}
	s.check()
	return s
}

// TestEveryTableToAWinnerWithoutLeaks plays complete games of every kind
// of table through commands and buttons, scanning every public payload for
// hidden cards, and checks the records each game leaves.
func TestEveryTableToAWinnerWithoutLeaks(t *testing.T) {
	t.Parallel()
	tests := []tableKind{
		{"two players", nil, []discordtest.User{alice, bob}},
		{"three players", []discordtest.Opt{{Name: "players", Value: 3}, {Name: "points", Value: 61}}, []discordtest.User{alice, bob, carol}},
		{"four players", []discordtest.Opt{{Name: "players", Value: 4}, {Name: "points", Value: 61}}, []discordtest.User{alice, bob, carol, dan}},
		{"two teams of two", []discordtest.Opt{{Name: "players", Value: 4}, {Name: "teams", Value: true}}, []discordtest.User{alice, bob, carol, dan}},
		{"manual counting with muggins", []discordtest.Opt{{Name: "points", Value: 61}, {Name: "counting", Value: "manual"}, {Name: "muggins", Value: true}}, []discordtest.User{alice, bob}},
	}
	for _, tc := range shortKinds(tests) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			id, msg := h.open(tc.people[0], tc.opts...)
			for _, u := range tc.people[1:] {
				if a := h.click(u, msg, "/join/"+itoa64(id)); a.Ephemeral() {
					t.Fatalf("%s could not join: %s", u.Name, a.Content())
				}
			}
			scan := h.playScanned(id, msg, usersOf(tc.people...))
			final := h.table(id)
			if final.Status != cribbage.StatusFinished {
				t.Fatalf("status %s", final.Status)
			}
			r := final.State.Result
			if final.State.Scores[r.Winner] < final.Options.Target {
				t.Errorf("winner has %d", final.State.Scores[r.Winner])
			}
			board, _ := h.store.Leaderboard(context.Background(), testGuild, 0, fromZero())
			if len(board) != len(tc.people) {
				t.Errorf("%d players on the leaderboard, want %d", len(board), len(tc.people))
			}
			winners := 0
			for _, st := range board {
				winners += st.Wins
			}
			wantWinners := 1
			if final.Options.Partners {
				wantWinners = 2 // both partners are credited
			}
			if winners != wantWinners {
				t.Errorf("%d wins credited, want %d", winners, wantWinners)
			}
			// A post a hand and the table message's edits: a game of 61
			// points is some ten public payloads at the least.
			if scan.payloads < 8 {
				t.Errorf("only %d public payloads scanned", scan.payloads)
			}
		})
	}
}

// TestLeakScanCatchesLeaks makes sure the scan would fail on a leak.
func TestLeakScanCatchesLeaks(t *testing.T) {
	t.Parallel()
	five := engine.SetOf(engine.MustParseCard("5H"))
	tests := []struct {
		name string
		r    discordtest.Request
		leak bool
	}{
		{"card face in a post", discordtest.Request{Method: "POST", Path: "/api/v9/channels/1/messages", Body: []byte(`{"content":"Bob holds 5♥"}`), ContentType: "application/json"}, true},
		{"card in a custom_id", discordtest.Request{Method: "PATCH", Path: "/api/v9/channels/1/messages/2", Body: []byte(`{"components":[{"type":1,"components":[{"type":2,"custom_id":"/play/1/ab/5H"}]}]}`), ContentType: "application/json"}, true},
		{"card in a public answer", discordtest.Request{Method: "POST", Path: "/api/v9/interactions/1/t/callback", Body: []byte(`{"type":4,"data":{"content":"5♥"}}`), ContentType: "application/json"}, true},
		{"card in a private answer", discordtest.Request{Method: "POST", Path: "/api/v9/interactions/1/t/callback", Body: []byte(`{"type":4,"data":{"content":"5♥","flags":64}}`), ContentType: "application/json"}, false},
		{"another card", discordtest.Request{Method: "POST", Path: "/api/v9/channels/1/messages", Body: []byte(`{"content":"Bob plays 5♦"}`), ContentType: "application/json"}, false},
	}
	// A table edit with a board: the text is in payload_json.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("payload_json", `{"content":"Bob holds 5♥"}`)
	fw, _ := mw.CreateFormFile("files[0]", "board.png")
	fw.Write([]byte("\x89PNG"))
	mw.Close()
	tests = append(tests, struct {
		name string
		r    discordtest.Request
		leak bool
	}{"card face in an upload's payload_json", discordtest.Request{Method: "PATCH", Path: "/api/v9/channels/1/messages/2", Body: buf.Bytes(), ContentType: mw.FormDataContentType()}, true})
	for _, tc := range tests {
		if _, _, got := leakIn(five, tc.r); got != tc.leak {
			t.Errorf("%s: leak %v, want %v", tc.name, got, tc.leak)
		}
	}
}
