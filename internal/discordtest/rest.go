package discordtest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// serveREST routes /api/v9/..., recording every request first.
func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	body, _ := io.ReadAll(r.Body)
	path := strings.TrimPrefix(r.URL.Path, "/api/v9/")
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		s.mu.Lock()
		s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body, At: time.Now().Add(s.offset), Status: rec.status})
		s.mu.Unlock()
	}()
	if status := s.takeFault(r.Method, r.URL.Path); status != 0 {
		if status == http.StatusTooManyRequests {
			writeJSON(rec, status, map[string]any{"message": "You are being rate limited.", "retry_after": 0.01, "global": false})
			return
		}
		writeError(rec, status, 0, http.StatusText(status))
		return
	}
	if r.Header.Get("Authorization") == "" && !strings.HasPrefix(path, "webhooks/") && !strings.HasPrefix(path, "interactions/") {
		writeError(rec, http.StatusUnauthorized, 0, "401: Unauthorized")
		return
	}
	p := strings.Split(path, "/")
	switch {
	case r.Method == http.MethodGet && path == "gateway":
		writeJSON(rec, 200, map[string]string{"url": "ws://" + r.Host + "/gateway-ws"})
	case r.Method == http.MethodPut && len(p) == 3 && p[0] == "applications" && p[2] == "commands":
		s.putCommands(rec, "", body)
	case r.Method == http.MethodPut && len(p) == 5 && p[0] == "applications" && p[2] == "guilds" && p[4] == "commands":
		s.putCommands(rec, p[3], body)
	case r.Method == http.MethodPost && len(p) == 4 && p[0] == "interactions" && p[3] == "callback":
		s.callback(rec, p[1], p[2], body, received)
	case len(p) >= 3 && p[0] == "webhooks":
		s.webhook(rec, r.Method, p, body)
	case r.Method == http.MethodPost && len(p) == 3 && p[0] == "channels" && p[2] == "messages":
		m := s.createMessage(p[1], body, false, "")
		writeJSON(rec, 200, m.Message)
	case r.Method == http.MethodPatch && len(p) == 4 && p[0] == "channels" && p[2] == "messages":
		s.editMessage(rec, p[3], body, "")
	case r.Method == http.MethodPost && len(p) == 5 && p[0] == "channels" && p[2] == "messages" && p[4] == "threads":
		s.startThread(rec, p[1], p[3], body)
	default:
		writeError(rec, http.StatusNotFound, 0, "404: Not Found")
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
	if err := json.Unmarshal(body, &cmds); err != nil {
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

// createMessage stores a new message from a JSON message body and returns
// a copy of it. A body with enforce_nonce and a nonce seen before in the
// channel returns the earlier message instead, as Discord does.
func (s *Server) createMessage(channelID string, body []byte, ephemeral bool, token string) Message {
	var nonce struct {
		Nonce   string `json:"nonce"`
		Enforce bool   `json:"enforce_nonce"`
	}
	json.Unmarshal(body, &nonce)
	if nonce.Enforce && nonce.Nonce != "" {
		s.mu.Lock()
		m, ok := s.nonces[channelID+"/"+nonce.Nonce]
		var earlier Message
		if ok {
			earlier = *m
		}
		s.mu.Unlock()
		if ok {
			return earlier
		}
	}
	var m Message
	json.Unmarshal(body, &m.Message)
	m.Nonce = nonce.Nonce
	m.ID, m.ChannelID, m.Ephemeral, m.Token = s.newID(), channelID, ephemeral, token
	m.Author = &discordgo.User{ID: s.BotUserID, Username: "Cribbage", Bot: true}
	m.Timestamp = s.Now()
	if ephemeral {
		m.Flags |= discordgo.MessageFlagsEphemeral
	}
	s.mu.Lock()
	s.messages[m.ID] = &m
	s.order = append(s.order, m.ID)
	if m.Nonce != "" {
		s.nonces[channelID+"/"+m.Nonce] = &m
	}
	out := m
	s.mu.Unlock()
	return out
}

// editMessage replaces the parts of a message a body sets. With a token,
// only a message made through that token may be edited.
func (s *Server) editMessage(w http.ResponseWriter, id string, body []byte, token string) {
	s.mu.Lock()
	m, ok := s.messages[id]
	s.mu.Unlock()
	if !ok || (token != "" && m.Token != token) {
		writeError(w, 404, 10008, "Unknown Message")
		return
	}
	writeJSON(w, 200, s.applyEdit(m, body).Message)
}

// applyEdit updates content, embeds and components from a body (a field
// absent keeps its value, null clears embeds as Discord does and leaves
// components, as discordgo sends unset fields as null) and returns a copy
// of the message taken under the lock: other requests may edit it at once.
func (s *Server) applyEdit(m *Message, body []byte) Message {
	var fields map[string]json.RawMessage
	json.Unmarshal(body, &fields)
	var edit discordgo.Message
	json.Unmarshal(body, &edit)
	s.mu.Lock()
	defer s.mu.Unlock()
	if raw, ok := fields["content"]; ok && string(raw) != "null" {
		m.Content = edit.Content
	}
	if raw, ok := fields["embeds"]; ok {
		m.Embeds = edit.Embeds
		if string(raw) == "null" {
			m.Embeds = nil
		}
	}
	if raw, ok := fields["components"]; ok && string(raw) != "null" {
		m.Components = edit.Components
	}
	now := s.now()
	m.EditedTimestamp = &now
	return *m
}

// now is Now for callers holding the lock.
func (s *Server) now() time.Time { return time.Now().Add(s.offset) }

// startThread opens a thread on a message.
func (s *Server) startThread(w http.ResponseWriter, channelID, messageID string, body []byte) {
	var req struct {
		Name string `json:"name"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	m, ok := s.messages[messageID]
	s.mu.Unlock()
	if !ok || m.ChannelID != channelID {
		writeError(w, 404, 10008, "Unknown Message")
		return
	}
	ch := &discordgo.Channel{ID: s.newID(), Type: discordgo.ChannelTypeGuildPublicThread, ParentID: channelID, Name: req.Name}
	writeJSON(w, 201, ch)
}

// webhook serves interaction follow-ups and edits, which live as long as
// the interaction token: 15 minutes.
func (s *Server) webhook(w http.ResponseWriter, method string, p []string, body []byte) {
	token := p[2]
	s.mu.Lock()
	created, ok := s.tokens[token]
	expired := ok && s.now().Sub(created) > 15*time.Minute
	s.mu.Unlock()
	if !ok || expired || p[1] != s.AppID {
		writeError(w, 401, 50027, "Invalid Webhook Token")
		return
	}
	switch {
	case method == http.MethodPost && len(p) == 3:
		var data discordgo.WebhookParams
		json.Unmarshal(body, &data)
		m := s.createMessage(s.tokenChannel(token), body, data.Flags&discordgo.MessageFlagsEphemeral != 0, token)
		writeJSON(w, 200, m.Message)
	case len(p) == 5 && p[3] == "messages":
		id := p[4]
		if id == "@original" {
			id = s.originalOf(token)
		}
		if method == http.MethodGet {
			if m, ok := s.Message(id); ok && m.Token == token {
				writeJSON(w, 200, m.Message)
				return
			}
			writeError(w, 404, 10008, "Unknown Message")
			return
		}
		s.editMessage(w, id, body, token)
	default:
		writeError(w, 404, 0, "404: Not Found")
	}
}
