package discordtest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// A channel webhook's own routes, taken with its token and no
// authorization (resources/webhook): Execute Webhook, and Get and Edit
// Webhook Message of a message it posted, each in its channel or, with
// thread_id, in one of that channel's threads. Its messages are made and
// edited as every other message is (messages.go), so every message rule
// holds; the webhooks are the application's own, which may send every
// component, buttons among them, with or without with_components.

// The message flags a channel webhook may set (resources/webhook): when
// executed, SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2;
// when editing, SUPPRESS_EMBEDS and IS_COMPONENTS_V2. EPHEMERAL belongs
// to interactions: a channel webhook's message is public.
const (
	executeFlags = discordgo.MessageFlagsSuppressEmbeds | discordgo.MessageFlagsSuppressNotifications | discordgo.MessageFlagsIsComponentsV2
	editFlags    = discordgo.MessageFlagsSuppressEmbeds | discordgo.MessageFlagsIsComponentsV2
)

// channelHook serves a channel webhook's routes: an unknown webhook (an
// admin deleted it) is 404 Unknown Webhook, a wrong token 401.
func (s *Server) channelHook(w http.ResponseWriter, r *http.Request, template string, p map[string]string, body []byte, files []upload) {
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
	}
	switch {
	case r.Method == http.MethodPost && template == "/webhooks/{webhook_id}/{webhook_token}":
		s.executeWebhook(w, r, wh, body, files)
	case strings.HasSuffix(template, "/messages/@original"):
		// Only an interaction's token has an original message.
		s.refuse(w, r, body, &apiError{Status: http.StatusNotFound, Code: 10008, Message: "Unknown Message", Field: "@original: a channel webhook has none"})
	case template == "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}" && (r.Method == http.MethodGet || r.Method == http.MethodPatch):
		s.webhookMessage(w, r, wh, p["message_id"], body, files)
	default:
		s.refuse(w, r, nil, &apiError{Status: http.StatusNotImplemented, Message: "the fake does not serve " + r.Method + " " + template + " for a channel webhook"})
	}
}

// executeWebhook is Execute Webhook: a new message in the webhook's
// channel or thread_id's thread, by the webhook (under the username given,
// or its name); 200 with the message when wait is true, else 204. Every
// refusal is the bot's mistake, a violation.
func (s *Server) executeWebhook(w http.ResponseWriter, r *http.Request, wh *channelWebhook, body []byte, files []upload) {
	q := r.URL.Query()
	wait, e := queryBool(q, "wait")
	if e == nil {
		_, e = queryBool(q, "with_components")
	}
	var where string
	if e == nil {
		where, e = s.hookPlace(wh, q)
	}
	doc := decodeObject(body)
	if e == nil {
		e = checkHookFlags(doc, executeFlags)
	}
	if f, _ := doc["flags"].(float64); e == nil {
		e = v2Files(discordgo.MessageFlags(f), files)
	}
	if _, ok := doc["thread_name"].(string); ok && e == nil {
		// The fake's channels are text channels; only a forum's webhook
		// may open a thread as it posts.
		e = &apiError{Status: http.StatusBadRequest, Code: 220003, Message: "Webhooks can only create threads in forum channels"}
	}
	name := wh.name
	if u, ok := doc["username"].(string); ok && e == nil {
		name, e = strings.TrimSpace(u), checkWebhookName(u, path{"username"})
	}
	if e != nil {
		s.refuse(w, r, body, e)
		return
	}
	m, e := s.createMessage(where, body, files, poster{hook: wh, name: name})
	if e != nil {
		s.refuse(w, r, body, e)
		return
	}
	if !wait {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, 200, m.wire())
}

// webhookMessage is Get and Edit Webhook Message: only a message the
// webhook posted, found where the request says it is (its thread_id, or
// the webhook's channel).
func (s *Server) webhookMessage(w http.ResponseWriter, r *http.Request, wh *channelWebhook, id string, body []byte, files []upload) {
	q := r.URL.Query()
	where, e := s.hookPlace(wh, q)
	if e == nil && r.Method == http.MethodPatch {
		if _, e = queryBool(q, "with_components"); e == nil {
			e = checkHookFlags(decodeObject(body), editFlags)
		}
	}
	if e != nil {
		s.refuse(w, r, body, e)
		return
	}
	s.mu.Lock()
	m, ok := s.messages[id]
	ok = ok && m.WebhookID == wh.id && m.ChannelID == where
	s.mu.Unlock()
	if !ok {
		writeError(w, 404, 10008, "Unknown Message")
		return
	}
	if r.Method == http.MethodGet {
		got, _ := s.Message(id)
		writeJSON(w, 200, got.wire())
		return
	}
	edited, e := s.applyEdit(m, body, files, ViaWebhook, nil)
	if e != nil {
		s.refuse(w, r, body, e)
		return
	}
	writeJSON(w, 200, edited.wire())
}

// hookPlace is where a channel webhook's request is about: thread_id's
// thread, which must be one of the webhook's channel's threads, or else
// the webhook's channel.
func (s *Server) hookPlace(wh *channelWebhook, q url.Values) (string, *apiError) {
	if !q.Has("thread_id") {
		return wh.channelID, nil
	}
	thread := q.Get("thread_id")
	if _, err := strconv.ParseUint(thread, 10, 64); err != nil {
		return "", path{"thread_id"}.fail("NUMBER_TYPE_COERCE", fmt.Sprintf("Value %q is not snowflake.", thread))
	}
	s.mu.Lock()
	parent := s.threadParent[thread]
	s.mu.Unlock()
	if parent != wh.channelID {
		// Discord looks the thread up among the webhook's channel's.
		return "", &apiError{Status: http.StatusNotFound, Code: 10003, Message: "Unknown Channel", Field: "thread_id: not a thread of the webhook's channel"}
	}
	return thread, nil
}

// queryBool reads a boolean query parameter as Discord does (reference,
// Boolean Query Strings): True, true or 1; False, false or 0; absent is
// false. Anything else is refused.
func queryBool(q url.Values, key string) (bool, *apiError) {
	switch v := q.Get(key); v {
	case "", "False", "false", "0":
		return false, nil
	case "True", "true", "1":
		return true, nil
	default:
		return false, path{key}.fail("BOOLEAN_TYPE_COERCE", fmt.Sprintf("Value %q is not a boolean.", v))
	}
}

// checkHookFlags refuses a body's flags outside allowed.
func checkHookFlags(doc obj, allowed discordgo.MessageFlags) *apiError {
	f, _ := doc["flags"].(float64)
	if extra := discordgo.MessageFlags(f) &^ allowed; extra != 0 {
		return path{"flags"}.fail("MESSAGE_FLAGS_INVALID", fmt.Sprintf("A webhook's message cannot set flags %d.", extra))
	}
	return nil
}

// v2Files refuses a webhook's new message, or an interaction's followup
// (which "functions the same as Execute Webhook"), that is Components V2
// and uploads files: "When the flag IS_COMPONENTS_V2 is set, the webhook
// message can only contain components. Providing content, embeds,
// files[n] or poll will fail with a 400" (Execute Webhook), where Create
// Message allows files with it.
func v2Files(flags discordgo.MessageFlags, files []upload) *apiError {
	if flags&discordgo.MessageFlagsIsComponentsV2 == 0 || len(files) == 0 {
		return nil
	}
	return path{"files"}.fail("BASE_TYPE_INVALID", "A webhook's Components V2 message cannot upload files.")
}
