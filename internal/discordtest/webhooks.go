package discordtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Channel webhooks, as Discord has them (resources/webhook): the bot makes
// one in a channel with its token (Create Webhook, which needs Manage
// Webhooks there), and anyone holding the webhook's token executes it with
// no authorization at all, into the channel or one of its threads
// (thread_id; webhook_exec.go). Discord counts such requests against the
// address they come from, apart from the bot token's global limit
// (ratelimit.go).

// channelWebhook is a webhook made in a channel. Its fields never change
// once it is made.
type channelWebhook struct {
	id, token, channelID, name string
	// appID is the application that made it; "" for one a member made in
	// the channel's settings (AddMembersWebhook).
	appID string
}

// maxChannelWebhooks is how many webhooks Discord lets a channel have.
const maxChannelWebhooks = 15

// maxWebhookName is how long a webhook's name may be, in characters.
const maxWebhookName = 80

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
// settings: executing it is then 404 Unknown Webhook. The messages it
// posted stay.
func (s *Server) DeleteWebhook(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.webhooks, id)
}

// ChannelWebhooks returns the ids of the webhooks in channelID, in the
// order they were made (snowflakes grow).
func (s *Server) ChannelWebhooks(channelID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id, w := range s.webhooks {
		if w.channelID == channelID {
			out = append(out, id)
		}
	}
	// A longer snowflake is a later one.
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) })
	return out
}

// isChannelWebhook reports whether a route is a channel webhook's, taken
// with its token: a /webhooks/{webhook_id}/{webhook_token} route whose
// webhook id is not the application's (an interaction token's webhook id
// is the application's).
func (s *Server) isChannelWebhook(template string, p map[string]string) bool {
	return strings.HasPrefix(template, "/webhooks/{webhook_id}/{webhook_token}") && p["webhook_id"] != s.AppID
}

// createWebhook is Create Webhook in a channel: not in a DM nor a thread,
// which cannot have webhooks; only with Manage Webhooks there; under a
// name Discord takes; fifteen a channel at most.
func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request, channelID string, body []byte) {
	var req struct {
		Name string `json:"name"`
	}
	json.Unmarshal(body, &req)
	wh, refused, violation := s.addWebhook(channelID, req.Name)
	switch {
	case refused != nil && violation:
		s.refuse(w, r, body, refused)
		return
	case refused != nil:
		refused.write(w)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, 200, s.webhookObject(wh))
}

// webhookObject is wh as Discord describes it, with its token (which the
// bot, holding Manage Webhooks, is shown) and who made it. s.mu is held.
func (s *Server) webhookObject(wh *channelWebhook) map[string]any {
	var guild any // null where the fake never saw the channel's server
	if g := s.guildOf[wh.channelID]; g != "" {
		guild = g
	}
	var app any
	user := map[string]any{"id": "600000000000000099", "username": "admin", "discriminator": "0", "global_name": nil, "avatar": nil,
		"public_flags": 0, "flags": 0, "primary_guild": nil}
	if wh.appID != "" {
		app = wh.appID
		user = map[string]any{"id": s.BotUserID, "username": "Cribbage", "discriminator": "0001",
			"global_name": nil, "avatar": nil, "public_flags": 0, "flags": 0, "primary_guild": nil, "bot": true}
	}
	return map[string]any{"id": wh.id, "type": 1, "guild_id": guild, "channel_id": wh.channelID, "name": wh.name, "avatar": nil,
		"token": wh.token, "application_id": app, "user": user}
}

// listWebhooks is Get Channel Webhooks: every webhook of the channel, in
// the order they were made, to a bot with Manage Webhooks there.
func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request, channelID string) {
	ids := s.ChannelWebhooks(channelID)
	s.mu.Lock()
	refused, violation := s.webhooksRefused(channelID)
	out := []map[string]any{}
	for _, id := range ids {
		if wh := s.webhooks[id]; wh != nil && refused == nil {
			out = append(out, s.webhookObject(wh))
		}
	}
	s.mu.Unlock()
	switch {
	case violation:
		s.refuse(w, r, nil, refused)
	case refused != nil:
		refused.write(w)
	default:
		writeJSON(w, 200, out)
	}
}

// AddMembersWebhook makes a webhook in channelID as a member with Manage
// Webhooks does in the channel's settings (no application made it), and
// returns its id: it counts toward the channel's fifteen.
func (s *Server) AddMembersWebhook(channelID, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.storeWebhook(channelID, name, "").id
}

// storeWebhook keeps a new webhook of channelID, named name, that appID
// made ("" for a member). s.mu is held.
func (s *Server) storeWebhook(channelID, name, appID string) *channelWebhook {
	wh := &channelWebhook{id: s.newID(), token: "wh-" + s.newID(), channelID: channelID, name: name, appID: appID}
	if s.webhooks == nil {
		s.webhooks = map[string]*channelWebhook{}
	}
	s.webhooks[wh.id] = wh
	return wh
}

// webhooksRefused says why Discord would not let the bot make or list
// channelID's webhooks, if it would not, and whether that is the bot's
// mistake (a violation) rather than the server's choice or state: not in
// a DM nor a thread, which cannot have webhooks, and only with Manage
// Webhooks there. s.mu is held.
func (s *Server) webhooksRefused(channelID string) (*apiError, bool) {
	switch {
	case !s.channels[channelID]:
		return &apiError{Status: http.StatusNotFound, Code: 10003, Message: "Unknown Channel"}, false
	case s.dms[channelID]:
		return &apiError{Status: http.StatusForbidden, Code: 50003, Message: "Cannot execute action on a DM channel"}, true
	case s.threadParent[channelID] != "":
		// A thread's messages go through its parent's webhooks, with
		// thread_id.
		return &apiError{Status: http.StatusBadRequest, Code: 50024, Message: "Cannot execute action on this channel type"}, true
	case !s.botMay(channelID, discordgo.PermissionManageWebhooks):
		// The server's choice, not the bot's mistake.
		return &apiError{Status: http.StatusForbidden, Code: 50013, Message: "Missing Permissions"}, false
	}
	return nil, false
}

// addWebhook makes a webhook named name in channelID, or says why Discord
// would not, and whether that is the bot's mistake (a violation) rather
// than the server's choice or state. The checks and the making are one
// step, so two requests at once cannot make a sixteenth.
func (s *Server) addWebhook(channelID, name string) (wh *channelWebhook, refused *apiError, violation bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, h := range s.webhooks {
		if h.channelID == channelID {
			n++
		}
	}
	if refused, violation := s.webhooksRefused(channelID); refused != nil {
		return nil, refused, violation
	}
	if e := checkWebhookName(name, path{"name"}); e != nil {
		return nil, e, true
	}
	if n >= maxChannelWebhooks {
		// How many the channel has is the server's state, which the bot
		// sees only by asking (Get Channel Webhooks): no violation.
		return nil, &apiError{Status: http.StatusBadRequest, Code: 30007, Message: "Maximum number of webhooks reached (15)"}, false
	}
	return s.storeWebhook(channelID, strings.TrimSpace(name), s.AppID), nil, false
}

// checkWebhookName checks a webhook's name, or the username an execution
// gives its message, as Discord does (resources/webhook, Create Webhook):
// 1 to 80 characters once trimmed of whitespace, and neither "clyde" nor
// "discord" in it, in any case.
func checkWebhookName(name string, at path) *apiError {
	trimmed := strings.TrimSpace(name)
	lower := strings.ToLower(trimmed)
	switch {
	case trimmed == "" || utf8.RuneCountInString(trimmed) > maxWebhookName:
		return at.fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 80 in length.")
	case strings.Contains(lower, "clyde"):
		return at.fail("USERNAME_INVALID_CONTAINS", `Username cannot contain "clyde"`)
	case strings.Contains(lower, "discord"):
		return at.fail("USERNAME_INVALID_CONTAINS", `Username cannot contain "discord"`)
	}
	return nil
}
