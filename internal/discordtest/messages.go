package discordtest

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Messages as the fake keeps them: made by the bot (with its token or an
// interaction's) or by a channel webhook, and edited one step at a time.

// poster is who creates a message: the bot, with its token or an
// interaction's (ephemerally or not), or a channel webhook.
type poster struct {
	ephemeral bool
	// token is the interaction token that made it, for webhook edits.
	token string
	// hook is the channel webhook executed, the message's author under
	// name: its own, or the username the execution gave.
	hook *channelWebhook
	name string
}

// createMessage stores a new message from a JSON message body and returns
// a copy of it. A body with enforce_nonce and a nonce seen before in the
// channel returns the earlier message instead, as Discord does; a
// webhook's body has no nonce (Execute Webhook takes none), so a nonce in
// it is ignored, as Discord ignores fields it does not know.
func (s *Server) createMessage(channelID string, body []byte, files []upload, by poster) (Message, *apiError) {
	var nonce struct {
		Nonce   string `json:"nonce"`
		Enforce bool   `json:"enforce_nonce"`
	}
	if by.hook == nil {
		json.Unmarshal(body, &nonce)
	}
	if nonce.Enforce && nonce.Nonce != "" {
		s.mu.Lock()
		m, ok := s.nonces[channelID+"/"+nonce.Nonce]
		var earlier Message
		if ok {
			m.decode()
			earlier = *m
		}
		s.mu.Unlock()
		if ok {
			return earlier, nil
		}
	}
	var m Message
	json.Unmarshal(body, &m.Message)
	var sent struct {
		Components json.RawMessage `json:"components"`
	}
	json.Unmarshal(body, &sent)
	if len(sent.Components) > 0 && string(sent.Components) != "null" {
		m.raw = sent.Components
	}
	attachments, e := s.attachmentsAfter(channelID, nil, body, files, m.Embeds)
	if e == nil {
		e = v2Attachments(body, attachments)
	}
	if e != nil {
		return Message{}, e
	}
	m.Attachments = attachments
	m.Nonce = nonce.Nonce
	if !by.ephemeral {
		// A text display's mentions ping as content's do (Components V2).
		m.Notified = notified(strings.Join(append([]string{m.Content}, TextDisplays(m.Components)...), "\n"), body)
	}
	m.ID, m.ChannelID, m.Ephemeral, m.Token = s.newID(), channelID, by.ephemeral, by.token
	m.Author = &discordgo.User{ID: s.BotUserID, Username: "Cribbage", Bot: true}
	if by.hook != nil {
		// A webhook's message is the webhook's, as Discord shows it: its
		// id and name, discriminator 0000, a bot.
		m.WebhookID = by.hook.id
		m.Author = &discordgo.User{ID: by.hook.id, Username: by.name, Discriminator: "0000", Bot: true}
	}
	m.Timestamp = s.Now()
	if by.ephemeral {
		m.Flags |= discordgo.MessageFlagsEphemeral
	}
	s.mu.Lock()
	s.messages[m.ID] = &m
	s.edits[m.ID] = append(s.edits[m.ID], m)
	s.order = append(s.order, m.ID)
	if m.Nonce != "" {
		s.nonces[channelID+"/"+m.Nonce] = &m
	}
	out := m
	s.mu.Unlock()
	return out, nil
}

// userMention is a user mention in a message's content: <@id> or <@!id>.
var userMention = regexp.MustCompile(`<@!?(\d+)>`)

// notified returns the users a new message with content and body pings,
// as Discord decides: each user its content mentions, if allowed_mentions
// allows them. With no allowed_mentions every mention pings; with it, a
// user pings if "users" is in its parse list, or if it names them in its
// users list.
func notified(content string, body []byte) []string {
	var am struct {
		AllowedMentions *struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	json.Unmarshal(body, &am)
	var out []string
	for _, m := range userMention.FindAllStringSubmatch(content, -1) {
		id := m[1]
		allowed := am.AllowedMentions == nil || slices.Contains(am.AllowedMentions.Parse, "users") || slices.Contains(am.AllowedMentions.Users, id)
		if allowed && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// editMessage replaces the parts of a message a body sets. With a token,
// only a message made through that token (or the message its interaction
// answered on, after a deferred update) may be edited; without one (the
// bot token on the channel route), only a public message of that channel
// the bot wrote. It reports whether the message was edited.
func (s *Server) editMessage(w http.ResponseWriter, r *http.Request, channelID, id string, body []byte, files []upload, token string) bool {
	s.mu.Lock()
	m, ok := s.messages[id]
	s.mu.Unlock()
	switch {
	case !ok,
		token != "" && m.Token != token && s.originalOf(token) != id,
		token == "" && (m.Ephemeral || m.ChannelID != channelID):
		writeError(w, 404, 10008, "Unknown Message")
		return false
	case token == "" && m.WebhookID != "":
		// A channel webhook's message is the webhook's: the bot token may
		// not edit it, only the webhook's own token (webhookMessage).
		s.refuse(w, r, body, &apiError{Status: http.StatusForbidden, Code: 50005, Message: "Cannot edit a message authored by another user"})
		return false
	}
	via := ViaBot
	if token != "" {
		via = ViaToken
	}
	edited, e := s.applyEdit(m, body, files, via, nil)
	if e != nil {
		s.refuse(w, r, body, e)
		return false
	}
	writeJSON(w, 200, edited.wire())
	return true
}

// getMessage answers a public message of a channel.
func (s *Server) getMessage(w http.ResponseWriter, channelID, id string) {
	m, ok := s.Message(id)
	if !ok || m.Ephemeral || m.ChannelID != channelID {
		writeError(w, 404, 10008, "Unknown Message")
		return
	}
	writeJSON(w, 200, wireOf(m.Message))
}

// applyEdit updates content, embeds and components from a body (a field
// absent keeps its value, null clears embeds as Discord does and leaves
// components, as discordgo sends unset fields as null) and returns a copy
// of the message taken under the lock. Edits are applied one at a time
// (editMu); reads of the message may come in between. The edit is
// recorded as made via (see Edits). decoded, when given, is the body
// decoded already (an answer's data, read with the answer): the message
// keeps those components rather than decoding them again when read,
// which at 900 tables was 3% of the process's CPU with discordgo's
// decoding (before decodeComponents, which takes half the time).
func (s *Server) applyEdit(m *Message, body []byte, files []upload, via string, decoded *discordgo.Message) (Message, *apiError) {
	var fields map[string]json.RawMessage
	json.Unmarshal(body, &fields)
	// Content and embeds are read now; the components are kept as sent
	// (Message.decode), unless they come decoded already.
	var edit struct {
		Content string                    `json:"content"`
		Embeds  []*discordgo.MessageEmbed `json:"embeds"`
	}
	if decoded != nil {
		edit.Content, edit.Embeds = decoded.Content, decoded.Embeds
	} else {
		json.Unmarshal(body, &edit)
	}
	// The body as plain JSON values, which the checks below walk.
	doc := decodeObject(body)
	s.editMu.Lock()
	defer s.editMu.Unlock()
	v2, e := s.v2Edit(m, fields, doc)
	if e != nil {
		return Message{}, e
	}
	s.mu.Lock()
	existing, embeds, channelID := m.Attachments, m.Embeds, m.ChannelID
	s.mu.Unlock()
	if raw, ok := fields["embeds"]; ok {
		embeds = edit.Embeds
		if string(raw) == "null" {
			embeds = nil
		}
	}
	attachments, e := s.attachmentsAfter(channelID, existing, body, files, embeds)
	if e == nil {
		e = v2AttachmentsIn(doc, attachments)
	}
	if e != nil {
		return Message{}, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	before := s.face(m)
	m.Attachments = attachments
	if v2 {
		m.Flags |= discordgo.MessageFlagsIsComponentsV2
	}
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
		m.raw = raw
		if decoded != nil {
			m.Components, m.lazy = decoded.Components, false
		} else {
			m.Components, m.lazy = nil, true
		}
	}
	now := s.now()
	m.EditedTimestamp = &now
	s.edits[m.ID] = append(s.edits[m.ID], *m)
	s.noteEdit(m, via, before, body, len(files))
	return *m, nil
}

// now is Now for callers holding the lock.
func (s *Server) now() time.Time { return time.Now().Add(s.offset) }
