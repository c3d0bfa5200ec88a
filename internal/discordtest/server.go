// Package discordtest is a small Discord for tests: a gateway websocket
// (HELLO, IDENTIFY, READY, heartbeats, RESUME, dispatches) and the REST
// routes the bot uses, on 127.0.0.1. The real discordgo client connects to
// it through the bot's API base URL. Like Discord, it delivers a command
// only to a member allowed to use it there (permissions.go).
//
// It is at least as strict as Discord: it routes by Discord's published
// OpenAPI spec (an unknown route is a 404), validates every JSON body
// against the operation's request schema, enforces by hand the rules the
// schema leaves out (emoji, lengths and counts, interaction responses), and
// keeps Discord's rate limits. Every refusal of a malformed request is kept
// as a Violation, so a test can fail on any request Discord would refuse.
// It also records every request, keeps the messages it was asked to create,
// can fail chosen requests with 429 or 5xx, and has a clock tests can move
// forward.
package discordtest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Request is one REST request the fake received.
type Request struct {
	Method string
	Path   string
	// Route is the spec's operation, e.g. "POST /channels/{channel_id}/messages",
	// or "" for a path Discord does not have.
	Route string
	// ChannelWebhook marks a request to a channel webhook's own routes,
	// /webhooks/{webhook_id}/{webhook_token}... whose webhook id is not
	// the application's: the webhook's token, not an interaction's, so
	// its post is a new message and never an interaction's followup. It
	// counts against the bot's global limit if it carried the bot token,
	// else against its address's (ratelimit.go). Create Webhook, a
	// channel route, is not one.
	ChannelWebhook bool
	Body           []byte
	// ContentType is the body's, multipart for one with files.
	ContentType string
	At          time.Time
	Status      int
}

// Uploads are the files a multipart request uploaded, in order.
func (r Request) Uploads() [][]byte {
	files, _ := readUploads(r.ContentType, r.Body)
	var out [][]byte
	for _, f := range files {
		out = append(out, f.data)
	}
	return out
}

// JSON is the request's JSON document: the body, or a multipart body's
// payload_json (its files left out).
func (r Request) JSON() []byte {
	doc, _ := requestJSON(r.ContentType, r.Body)
	return doc
}

// Message is a message the fake holds, public or ephemeral.
type Message struct {
	discordgo.Message
	Ephemeral bool
	// Token is the interaction token that made it, for webhook edits.
	Token string
	// Nonce is the nonce it was created with, if any.
	Nonce string
	// Notified are the users the message pinged when it was posted: those
	// its content mentions that its allowed_mentions lets be pinged (edits
	// ping nobody, nor does an ephemeral message).
	Notified []string

	// raw is the components as they were last sent, and lazy is set while
	// Components is still to be decoded from it (decode): discordgo
	// decodes each level of a V2 message's components twice over, the
	// fake's costliest step under load, and most versions of a message
	// are never read.
	raw  json.RawMessage
	lazy bool
}

// decode decodes m's components if they are still as they were sent. Call
// on a message the fake holds with s.mu held.
func (m *Message) decode() {
	if !m.lazy {
		return
	}
	m.Components, _ = decodeComponents(m.raw)
	m.lazy = false
}

// Server is the fake Discord.
type Server struct {
	AppID     string
	BotUserID string

	http     *httptest.Server
	nextID   atomic.Int64
	contract *contract
	limits   *limiter

	// editMu makes each message edit one step, as Discord applies a
	// message's edits one after another: an edit's attachments are
	// worked out from the message as the edit before it left it. Taken
	// before mu, never while holding it.
	editMu sync.Mutex

	mu       sync.Mutex
	offset   time.Duration
	requests []Request
	// arrived numbers the REST requests as they arrive, and unrecorded
	// holds those not yet recorded in requests: Requests waits for the
	// ones that arrived before it was called (settled signals each
	// recording).
	arrived    uint64
	unrecorded map[uint64]bool
	settled    *sync.Cond
	messages   map[string]*Message
	// files holds uploaded attachments' bytes by attachment id, and sums
	// their SHA-256.
	files        map[string][]byte
	sums         map[string][32]byte
	order        []string
	nonces       map[string]*Message
	interactions map[string]*pending
	// byToken finds an interaction by its token (webhook requests name
	// it), in constant time however many interactions a run makes.
	byToken map[string]*pending
	// edits keeps every version of each message, in order, with when it
	// was made: tests ask when a message first showed something.
	edits map[string][]Message
	// editLog is every edit of a message, in order (see Edits).
	editLog []Edit
	// interactionOrder is the ids of interactions in the order prepared.
	interactionOrder []string
	tokens           map[string]time.Time
	faults           []*fault
	commands         map[string][]*discordgo.ApplicationCommand
	gateways         []*gateway
	channels         map[string]bool
	// hidden are channels only a user's install was used in, which the
	// bot token cannot reach; absent are servers the bot is not a member
	// of, and noExternal those that turned off Use External Apps
	// (installs.go); dms are the bot's DMs, which have no threads.
	hidden     map[string]bool
	dms        map[string]bool
	absent     map[string]bool
	noExternal map[string]bool
	// guildLocales are the servers' locales (SetGuildLocale), sent as an
	// interaction's guild_locale; en-US for a server not set.
	guildLocales map[string]string
	violations   []Violation
	// noSchema turns off the schema check (see SkipSchemaCheck).
	noSchema   atomic.Bool
	identifies int
	resumes    int
	readyCh    chan struct{}
	// signer signs interactions delivered over HTTP to endpoint, when set.
	signer    ed25519.PrivateKey
	endpoints []string
	turn      int
	// shards is the shard count /gateway/bot recommends (0: one).
	shards int
	// overrides are servers' own permissions for commands, by server and
	// command name (see SetCommandPermissions).
	overrides map[[2]string][]*discordgo.ApplicationCommandPermissions
	// webhooks are the channels' webhooks, by id; threadParent the
	// channel of each thread opened; denied the bot's permissions taken
	// in a channel (webhooks.go); guildOf the server of each channel an
	// interaction came from in one, which a webhook made there names.
	webhooks     map[string]*channelWebhook
	threadParent map[string]string
	denied       map[string]int64
	guildOf      map[string]string
}

// New starts a fake Discord on 127.0.0.1.
func New() *Server {
	c, err := theContract()
	if err != nil {
		panic(err) // the embedded spec is part of the build
	}
	s := &Server{
		contract:     c,
		limits:       newLimiter(),
		channels:     map[string]bool{},
		hidden:       map[string]bool{},
		dms:          map[string]bool{},
		absent:       map[string]bool{},
		noExternal:   map[string]bool{},
		guildLocales: map[string]string{},
		AppID:        "100000000000000001",
		BotUserID:    "100000000000000001",
		messages:     map[string]*Message{},
		files:        map[string][]byte{},
		sums:         map[string][32]byte{},
		nonces:       map[string]*Message{},
		interactions: map[string]*pending{},
		byToken:      map[string]*pending{},
		edits:        map[string][]Message{},
		tokens:       map[string]time.Time{},
		commands:     map[string][]*discordgo.ApplicationCommand{},
		readyCh:      make(chan struct{}, 16),
		unrecorded:   map[uint64]bool{},
	}
	s.settled = sync.NewCond(&s.mu)
	_, s.signer, _ = ed25519.GenerateKey(rand.Reader)
	s.nextID.Store(200000000000000000)
	mux := http.NewServeMux()
	mux.HandleFunc("/gateway-ws", s.serveGateway)
	mux.HandleFunc("/gateway-ws/", s.serveGateway)
	mux.HandleFunc("/api/v9/", s.serveREST)
	// The server's goroutines (its accept loop, and each connection's,
	// which reads requests and writes answers around the handler) are
	// started with the label too, and so are the fake's work.
	pprof.Do(context.Background(), pprof.Labels("side", "discord"), func(context.Context) {
		s.http = httptest.NewServer(labelled(mux))
	})
	return s
}

// labelled serves h with the CPU profiler's label side=discord, so a
// profile of a test or benchmark tells the fake's work from the bot's
// (go tool pprof -tagignore side=discord).
func labelled(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pprof.Do(r.Context(), pprof.Labels("side", "discord"), func(context.Context) { h.ServeHTTP(w, r) })
	})
}

// URL is the base URL to give the bot in place of https://discord.com.
func (s *Server) URL() string { return s.http.URL }

// Close stops the server and drops every connection.
func (s *Server) Close() {
	s.mu.Lock()
	gws := append([]*gateway(nil), s.gateways...)
	s.mu.Unlock()
	for _, g := range gws {
		g.close()
	}
	s.http.CloseClientConnections()
	s.http.Close()
}

// SkipSchemaCheck turns off the check of bodies against the OpenAPI schema,
// and only that: the hand rules, rate limits and interaction rules stay.
// It is for benchmarks of the bot's own latency alone: the check costs the
// fake about 0.4 ms of CPU for a hand view, on the cores the bot runs on.
// Every test leaves it on.
func (s *Server) SkipSchemaCheck() { s.noSchema.Store(true) }

// Now is the fake's clock: real time plus whatever Advance added.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Now().Add(s.offset)
}

// Advance moves the fake's clock forward (interaction tokens age with it).
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	s.offset += d
	s.mu.Unlock()
}

// newID returns a fresh snowflake.
func (s *Server) newID() string { return strconv.FormatInt(s.nextID.Add(1), 10) }

// Requests returns a copy of every REST request so far. A request is
// recorded once it is answered, after it took effect: Requests waits for
// the requests that arrived before it was called, so a caller that has
// seen a request's effect (a message edited) finds the request among them.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	for upTo := s.arrived; s.unrecordedUpTo(upTo); {
		s.settled.Wait()
	}
	return append([]Request(nil), s.requests...)
}

// unrecordedUpTo reports whether a request numbered up to n is still to
// be recorded. s.mu is held.
func (s *Server) unrecordedUpTo(n uint64) bool {
	for k := range s.unrecorded {
		if k <= n {
			return true
		}
	}
	return false
}

// arrive numbers a REST request as it arrives and returns its number, for
// recorded.
func (s *Server) arrive() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arrived++
	s.unrecorded[s.arrived] = true
	return s.arrived
}

// recorded records request n, r, as answered now.
func (s *Server) recorded(n uint64, r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.At = time.Now().Add(s.offset)
	s.requests = append(s.requests, r)
	delete(s.unrecorded, n)
	s.settled.Broadcast()
}

// Commands returns the commands registered for a guild ("" for global).
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commands[guildID]
}

// Message returns a copy of a message by id.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	m.decode()
	return *m, true
}

// ChannelMessages returns the public messages in a channel (or thread), in
// the order they were created, as they are now.
func (s *Server) ChannelMessages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.order {
		if m := s.messages[id]; m.ChannelID == channelID && !m.Ephemeral {
			m.decode()
			out = append(out, *m)
		}
	}
	return out
}

// fault fails matching requests: before handling them, or (lost) after,
// so the request took effect but its answer never arrived.
type fault struct {
	method, path string
	status       int
	left         int
	lost         bool
}

// FailNext makes the next n requests whose method matches and whose path
// contains path fail with status (429 comes with a short retry_after).
func (s *Server) FailNext(method, path string, status, n int) {
	s.mu.Lock()
	s.faults = append(s.faults, &fault{method: method, path: path, status: status, left: n})
	s.mu.Unlock()
}

// LoseNextAnswers makes the next n matching requests take effect and then
// answer status, as when Discord did the work but its answer was lost on
// the way (a timeout, a proxy's error).
func (s *Server) LoseNextAnswers(method, path string, status, n int) {
	s.mu.Lock()
	s.faults = append(s.faults, &fault{method: method, path: path, status: status, left: n, lost: true})
	s.mu.Unlock()
}

// ClearFaults drops every fault not yet used.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// takeFault returns the status of a fault matching the request, or 0, and
// whether the request is to take effect first.
func (s *Server) takeFault(method, path string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.left > 0 && f.method == method && strings.Contains(path, f.path) {
			f.left--
			return f.status, f.lost
		}
	}
	return 0, false
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError answers with a Discord-shaped error.
func writeError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, map[string]any{"code": code, "message": msg})
}

// WaitReady waits until a bot has identified and been sent READY.
func (s *Server) WaitReady(timeout time.Duration) error {
	select {
	case <-s.readyCh:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("discordtest: no bot identified within %v", timeout)
	}
}

// Identifies and Resumes count the sessions started and resumed.
func (s *Server) Identifies() (identifies, resumes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identifies, s.resumes
}

// Violation is a request the fake refused because Discord would: a route
// Discord does not have, a missing token, a body its spec or its rules
// refuse, or an interaction answered against the rules.
type Violation struct {
	Method string
	Path   string
	Status int
	Code   int
	// Field names what was wrong, e.g. "components.0.components.0.emoji.name
	// BUTTON_COMPONENT_INVALID_EMOJI".
	Field string
	// Answer is the error body Discord would send.
	Answer string
	Body   []byte
}

// String describes the violation for a test failure.
func (v Violation) String() string {
	return fmt.Sprintf("%s %s → %d %s\n  body: %.600s", v.Method, v.Path, v.Status, v.Answer, v.Body)
}

// Violations returns every request refused so far as one Discord would
// refuse.
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Violation(nil), s.violations...)
}

// refuse answers with a contract error and records it as a violation.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, body []byte, e *apiError) {
	answer, _ := json.Marshal(e)
	s.mu.Lock()
	s.violations = append(s.violations, Violation{Method: r.Method, Path: r.URL.Path, Status: e.Status, Code: e.Code, Field: e.Field, Answer: string(answer), Body: body})
	s.mu.Unlock()
	e.write(w)
}

// knowsChannel reports whether a channel exists: one an interaction came
// from, or a thread the bot opened.
func (s *Server) knowsChannel(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.channels[id]
}

// DeleteMessage deletes a message, as a moderator may delete the bot's.
func (s *Server) DeleteMessage(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.messages, id)
	for i, m := range s.order {
		if m == id {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}

// AddChannel makes a channel the bot can post in, as the server's channels
// are (an interaction in a channel makes it known too).
func (s *Server) AddChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channels[id] = true
}

// History returns every version a message has had, the first as created,
// in order; each one's EditedTimestamp (or Timestamp, for the first) is
// when it was made.
func (s *Server) History(id string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	versions := s.edits[id]
	for i := range versions {
		versions[i].decode()
	}
	return slices.Clone(versions)
}

// FirstShowing returns when message id first showed what shows says, at or
// after from, and whether it ever did.
func (s *Server) FirstShowing(id string, from time.Time, shows func(m Message) bool) (time.Time, bool) {
	for _, m := range s.History(id) {
		at := m.Timestamp
		if m.EditedTimestamp != nil {
			at = *m.EditedTimestamp
		}
		if !at.Before(from) && shows(m) {
			return at, true
		}
	}
	return time.Time{}, false
}

// Text is everything a reader sees written in the message: its content,
// then each embed's title, description, fields and footer, then its text
// displays (Components V2) in order, a line each.
func (m Message) Text() string {
	parts := []string{m.Content}
	for _, e := range m.Embeds {
		parts = append(parts, e.Title, e.Description)
		for _, f := range e.Fields {
			parts = append(parts, f.Name, f.Value)
		}
		if e.Footer != nil {
			parts = append(parts, e.Footer.Text)
		}
	}
	parts = append(parts, TextDisplays(m.Components)...)
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n")
}
