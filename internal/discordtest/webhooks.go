package discordtest

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Channel webhooks, as Discord has them (resources/webhook): the bot makes
// one in a channel with its token (Create Webhook, which needs Manage
// Webhooks there), and anyone holding the webhook's token executes it with
// no authorization at all, into the channel or one of its threads
// (thread_id). Discord counts such requests against the address they come
// from, apart from the bot token's global limit (ratelimit.go).

// channelWebhook is a webhook made in a channel.
type channelWebhook struct {
	id, token, channelID, name string
}

// maxChannelWebhooks is how many webhooks Discord lets a channel have.
const maxChannelWebhooks = 15

// DenyBotPermission takes perm (discordgo.PermissionManageWebhooks, say)
// from the bot in channelID, as a server's admin may: what needs it there
// is refused 403 50013, and interactions there carry app_permissions
// without it.
func (s *Server) DenyBotPermission(channelID string, perm int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.denied == nil {
		s.denied = map[string]int64{}
	}
	s.denied[channelID] |= perm
}

// botMay reports whether the bot has perm in channelID. s.mu is held.
func (s *Server) botMay(channelID string, perm int64) bool {
	return BotPermissions&^s.denied[channelID]&perm == perm
}

// DeleteWebhook deletes a webhook, as an admin may in the channel's
// settings: executing it is then 404 Unknown Webhook.
func (s *Server) DeleteWebhook(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.webhooks, id)
}

// ChannelWebhooks returns the ids of the webhooks made in channelID.
func (s *Server) ChannelWebhooks(channelID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id, w := range s.webhooks {
		if w.channelID == channelID {
			out = append(out, id)
		}
	}
	return out
}

// isChannelWebhook reports whether a route is a channel webhook's, not an
// interaction token's (whose webhook id is the application's).
func (s *Server) isChannelWebhook(template string, p map[string]string) bool {
	return strings.HasPrefix(template, "/webhooks/{webhook_id}/{webhook_token}") && p["webhook_id"] != s.AppID
}

// createWebhook is Create Webhook in a channel.
func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request, channelID string, body []byte) {
	var req struct {
		Name string `json:"name"`
	}
	json.Unmarshal(body, &req)
	lower := strings.ToLower(req.Name)
	s.mu.Lock()
	n := 0
	for _, wh := range s.webhooks {
		if wh.channelID == channelID {
			n++
		}
	}
	known, elsewhere, may := s.channels[channelID], s.dms[channelID] || s.threadParent[channelID] != "", s.botMay(channelID, discordgo.PermissionManageWebhooks)
	s.mu.Unlock()
	switch {
	case !known:
		writeError(w, 404, 10003, "Unknown Channel")
		return
	case elsewhere:
		s.refuse(w, r, body, &apiError{Status: http.StatusBadRequest, Code: 50024, Message: "Cannot execute action on this channel type"})
		return
	case !may:
		// The server's choice, not the bot's mistake: no violation.
		writeError(w, 403, 50013, "Missing Permissions")
		return
	case utf8.RuneCountInString(req.Name) < 1 || utf8.RuneCountInString(req.Name) > 80 ||
		strings.Contains(lower, "clyde") || strings.Contains(lower, "discord"):
		s.refuse(w, r, body, &apiError{Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body: name", Field: "name"})
		return
	case n >= maxChannelWebhooks:
		writeError(w, 400, 30007, "Maximum number of webhooks reached (15)")
		return
	}
	s.mu.Lock()
	wh := &channelWebhook{id: s.newID(), token: "wh-" + s.newID(), channelID: channelID, name: req.Name}
	if s.webhooks == nil {
		s.webhooks = map[string]*channelWebhook{}
	}
	s.webhooks[wh.id] = wh
	s.mu.Unlock()
	writeJSON(w, 200, map[string]any{"id": wh.id, "type": 1, "channel_id": channelID, "name": wh.name, "avatar": nil,
		"token": wh.token, "application_id": s.AppID, "user": map[string]any{"id": s.BotUserID, "username": "Cribbage", "bot": true}})
}

// executeWebhook serves a channel webhook's routes: Execute Webhook, into
// its channel or, with thread_id, one of that channel's threads; 200 with
// the message when wait is true, else 204.
func (s *Server) executeWebhook(w http.ResponseWriter, r *http.Request, template string, p map[string]string, body []byte, files []upload) {
	s.mu.Lock()
	wh, ok := s.webhooks[p["webhook_id"]]
	s.mu.Unlock()
	switch {
	case !ok:
		writeError(w, 404, 10015, "Unknown Webhook")
		return
	case wh.token != p["webhook_token"]:
		writeError(w, 401, 50027, "Invalid Webhook Token")
		return
	case r.Method != http.MethodPost || template != "/webhooks/{webhook_id}/{webhook_token}":
		s.refuse(w, r, nil, &apiError{Status: http.StatusNotImplemented, Message: "the fake does not serve " + r.Method + " " + template + " for a channel webhook"})
		return
	}
	q := r.URL.Query()
	dest := wh.channelID
	if thread := q.Get("thread_id"); thread != "" {
		s.mu.Lock()
		parent := s.threadParent[thread]
		s.mu.Unlock()
		if parent != wh.channelID {
			s.refuse(w, r, body, &apiError{Status: http.StatusNotFound, Code: 10003, Message: "Unknown Channel"})
			return
		}
		dest = thread
	}
	m, e := s.createMessage(dest, body, files, false, "")
	if e != nil {
		s.refuse(w, r, body, e)
		return
	}
	// The message is the webhook's, under its name, and has no nonce:
	// Execute Webhook takes none.
	s.mu.Lock()
	stored := s.messages[m.ID]
	if stored.Nonce != "" {
		delete(s.nonces, dest+"/"+stored.Nonce)
		stored.Nonce = ""
	}
	stored.WebhookID = wh.id
	stored.Author = &discordgo.User{ID: wh.id, Username: wh.name, Bot: true}
	s.edits[m.ID][0] = *stored
	m = *stored
	s.mu.Unlock()
	if q.Get("wait") != "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, 200, wireOf(m.Message))
}

// addressOf is the address a request came from, which Discord counts
// requests without authorization against.
func addressOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
