package discordtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// serveREST answers /api/v9/... as Discord would: an unknown route is a
// 404, a request without a bot token a 401, a body the spec or Discord's
// other rules refuse a 400 50035 naming the field, a request over a rate
// limit a 429; then the route's own handler. Every request is recorded, and
// every refusal of a malformed request is kept as a violation.
func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	var tmpl string
	var body []byte
	var hook bool
	n := s.arrive()
	defer func() {
		s.recorded(n, Request{Method: r.Method, Path: r.URL.Path, Route: tmpl, Body: body, ContentType: r.Header.Get("Content-Type"), Status: rec.status,
			ChannelWebhook: hook})
	}()
	body, _ = io.ReadAll(io.LimitReader(r.Body, maxBody))
	path := strings.TrimPrefix(r.URL.Path, "/api/v9")
	rt, params, ok := s.contract.match(r.Method, path)
	if !ok {
		s.refuse(rec, r, body, &apiError{Status: http.StatusNotFound, Code: 0, Message: "404: Not Found"})
		return
	}
	tmpl = r.Method + " " + rt.Template
	hook = s.isChannelWebhook(rt.Template, params)
	botToken := strings.HasPrefix(r.Header.Get("Authorization"), "Bot ")
	if !botToken && !tokenInPath(rt.Template) {
		s.refuse(rec, r, body, &apiError{Status: http.StatusUnauthorized, Code: 0, Message: "401: Unauthorized"})
		return
	}
	doc, err := requestJSON(r.Header.Get("Content-Type"), body)
	if err != nil {
		s.refuse(rec, r, body, &apiError{Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body: " + err.Error()})
		return
	}
	if !s.noSchema.Load() { // off only in benchmarks of the bot alone
		if e := s.contract.validate(rt, doc); e != nil {
			s.refuse(rec, r, body, e)
			return
		}
	}
	if e := checkRules(rt, doc); e != nil {
		s.refuse(rec, r, body, e)
		return
	}
	files, e := readUploads(r.Header.Get("Content-Type"), body)
	if e == nil {
		e = checkUploads(doc, files)
	}
	if e != nil {
		s.refuse(rec, r, body, e)
		return
	}
	d := s.limits.take(s.limits.now(), r.Method, rt.Template, params, s.globalCount(r, rt.Template, params, botToken))
	for k, v := range d.headers {
		rec.Header()[k] = v
	}
	if d.refused {
		writeRateLimited(rec, d)
		return
	}
	if status, lost := s.takeFault(r.Method, r.URL.Path); status != 0 {
		if lost {
			s.handle(httptest.NewRecorder(), r, rt, params, doc, files, received)
		}
		if status == http.StatusTooManyRequests {
			writeRateLimited(rec, rateDecision{scope: "user", retryAfter: 10 * time.Millisecond})
			return
		}
		writeError(rec, status, 0, http.StatusText(status))
		return
	}
	s.handle(rec, r, rt, params, doc, files, received)
}

// maxBody is the most of a request body the fake reads: Discord takes
// attachments up to 10 MiB without boosts.
const maxBody = 10 << 20

// handle runs the route's handler for a request that passed every check.
func (s *Server) handle(w http.ResponseWriter, r *http.Request, rt route, p map[string]string, doc []byte, files []upload, received time.Time) {
	if ch := p["channel_id"]; ch != "" && s.unreachable(ch) {
		// The bot is not in a channel only a user's install was used in.
		s.refuse(w, r, doc, missingAccess())
		return
	}
	switch r.Method + " " + rt.Template {
	case "GET /gateway":
		writeJSON(w, 200, map[string]string{"url": "ws://" + r.Host + "/gateway-ws"})
	case "GET /oauth2/applications/@me":
		writeJSON(w, 200, map[string]any{"id": s.AppID, "name": "Cribbage", "description": "", "bot_public": true, "verify_key": s.PublicKey()})
	case "GET /gateway/bot":
		s.mu.Lock()
		shards := max(s.shards, 1)
		s.mu.Unlock()
		writeJSON(w, 200, map[string]any{"url": "ws://" + r.Host + "/gateway-ws", "shards": shards,
			"session_start_limit": map[string]int{"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})
	case "PUT /applications/{application_id}/commands":
		s.putCommands(w, "", doc)
	case "PUT /applications/{application_id}/guilds/{guild_id}/commands":
		s.putCommands(w, p["guild_id"], doc)
	case "POST /interactions/{interaction_id}/{interaction_token}/callback":
		s.callback(w, r, p["interaction_id"], p["interaction_token"], doc, files, received)
	case "POST /channels/{channel_id}/messages":
		if !s.knowsChannel(p["channel_id"]) {
			writeError(w, 404, 10003, "Unknown Channel")
			return
		}
		m, e := s.createMessage(p["channel_id"], doc, files, poster{})
		if e != nil {
			s.refuse(w, r, doc, e)
			return
		}
		writeJSON(w, 200, wireOf(m.Message))
	case "PATCH /channels/{channel_id}/messages/{message_id}":
		s.editMessage(w, r, p["channel_id"], p["message_id"], doc, files, "")
	case "GET /channels/{channel_id}/messages/{message_id}":
		s.getMessage(w, p["channel_id"], p["message_id"])
	case "POST /channels/{channel_id}/webhooks":
		s.createWebhook(w, r, p["channel_id"], doc)
	case "GET /channels/{channel_id}/webhooks":
		s.listWebhooks(w, r, p["channel_id"])
	case "POST /channels/{channel_id}/messages/{message_id}/threads":
		if s.isDM(p["channel_id"]) {
			s.refuse(w, r, doc, noThreadHere())
			return
		}
		s.startThread(w, p["channel_id"], p["message_id"], doc)
	default:
		if s.isChannelWebhook(rt.Template, p) {
			s.channelHook(w, r, rt.Template, p, doc, files)
			return
		}
		if strings.HasPrefix(rt.Template, "/webhooks/{webhook_id}/{webhook_token}") {
			s.webhook(w, r, rt.Template, p, doc, files)
			return
		}
		// A real route the fake does not serve: the bot has no business
		// there, so it counts as a violation too.
		s.refuse(w, r, nil, &apiError{Status: http.StatusNotImplemented, Code: 0, Message: "the fake does not serve " + r.Method + " " + rt.Template})
	}
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

// putCommands is the bulk overwrite of a guild's (or the global) commands.
func (s *Server) putCommands(w http.ResponseWriter, guildID string, body []byte) {
	var cmds []*discordgo.ApplicationCommand
	if err := json.Unmarshal(permissionsAsStrings(body), &cmds); err != nil {
		writeError(w, 400, 50035, "Invalid Form Body")
		return
	}
	for _, c := range cmds {
		c.ID, c.ApplicationID, c.GuildID = s.newID(), s.AppID, guildID
	}
	s.mu.Lock()
	s.commands[guildID] = cmds
	s.mu.Unlock()
	writeJSON(w, 200, cmds)
}

// permissionsAsStrings rewrites each command's default_member_permissions,
// an integer in the request (the schema has checked it), as the string
// discordgo decodes (and Discord answers with).
func permissionsAsStrings(body []byte) []byte {
	var cmds []map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // a bit set wider than a float64 holds exactly
	if dec.Decode(&cmds) != nil {
		return body
	}
	for _, c := range cmds {
		if v, ok := c["default_member_permissions"].(json.Number); ok {
			c["default_member_permissions"] = v.String()
		}
	}
	out, err := json.Marshal(cmds)
	if err != nil {
		return body
	}
	return out
}

// startThread opens a thread on a message; a message has one thread at most.
func (s *Server) startThread(w http.ResponseWriter, channelID, messageID string, body []byte) {
	var req struct {
		Name string `json:"name"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[messageID]
	switch {
	case !ok || m.ChannelID != channelID || m.Ephemeral:
		writeError(w, 404, 10008, "Unknown Message")
		return
	case m.Thread != nil:
		writeError(w, 400, 160004, "A thread has already been created for this message")
		return
	}
	ch := &discordgo.Channel{ID: s.newID(), Type: discordgo.ChannelTypeGuildPublicThread, ParentID: channelID, Name: req.Name}
	m.Thread = ch
	s.channels[ch.ID] = true
	if s.threadParent == nil {
		s.threadParent = map[string]string{}
	}
	s.threadParent[ch.ID] = channelID
	writeJSON(w, 201, ch)
}

// webhook serves interaction follow-ups and edits, which live as long as
// the interaction token: 15 minutes.
func (s *Server) webhook(w http.ResponseWriter, r *http.Request, template string, p map[string]string, body []byte, files []upload) {
	method := r.Method
	token := p["webhook_token"]
	s.mu.Lock()
	created, ok := s.tokens[token]
	expired := ok && s.now().Sub(created) > 15*time.Minute
	s.mu.Unlock()
	if !ok || expired || p["webhook_id"] != s.AppID {
		writeError(w, 401, 50027, "Invalid Webhook Token")
		return
	}
	id := p["message_id"]
	if strings.HasSuffix(template, "/@original") {
		id = s.originalOf(token)
	}
	switch {
	case method == http.MethodPost && template == "/webhooks/{webhook_id}/{webhook_token}":
		var data discordgo.WebhookParams
		json.Unmarshal(body, &data)
		allowed, forced := s.followupAllowed(token)
		if e := v2Files(data.Flags, files); e != nil {
			s.refuse(w, r, body, e)
			return
		}
		if !allowed {
			s.refuse(w, r, body, &apiError{Status: http.StatusBadRequest, Code: 40094, Message: "Maximum number of follow-up messages reached"})
			return
		}
		m, e := s.createMessage(s.tokenChannel(token), body, files, poster{ephemeral: forced || data.Flags&discordgo.MessageFlagsEphemeral != 0, token: token})
		if e != nil {
			s.refuse(w, r, body, e)
			return
		}
		s.countFollowup(token)
		writeJSON(w, 200, wireOf(m.Message))
	case method == http.MethodGet && id != "":
		if m, ok := s.Message(id); ok && m.Token == token {
			writeJSON(w, 200, wireOf(m.Message))
			return
		}
		writeError(w, 404, 10008, "Unknown Message")
	case method == http.MethodPatch && id != "":
		if s.editMessage(w, r, "", id, body, files, token) {
			s.countOriginalEdit(token, id)
		}
	default:
		writeError(w, 404, 10008, "Unknown Message")
	}
}
