package discordtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// pending is an interaction sent to the bot and its answer.
type pending struct {
	interaction *discordgo.Interaction
	sent        time.Time
	answered    bool
	original    string // the message the response created or updated
	followups   int    // followups created through its token
	edited      int    // edits of @original through its token
	done        chan Answer
}

// Answer is the bot's response to an interaction.
type Answer struct {
	Response *discordgo.InteractionResponse
	// Latency is from the dispatch being sent to the callback request
	// arriving, before the fake does any work on it.
	Latency time.Duration
	// MessageID is the message the response created or updated.
	MessageID string
	// Token is the interaction's token, which edits the answer.
	Token string
}

// Ephemeral reports whether the answer is visible only to the user.
func (a Answer) Ephemeral() bool {
	return a.Response != nil && a.Response.Data != nil && a.Response.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

// Content returns the answer's text: its content, or the text displays
// of a Components V2 answer, a line each; "" for none.
func (a Answer) Content() string {
	if a.Response == nil || a.Response.Data == nil {
		return ""
	}
	d := a.Response.Data
	if d.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		return d.Content
	}
	return strings.Join(TextDisplays(d.Components), "\n")
}

// Interact dispatches an interaction to the bot and waits for its callback.
// The fake fills in the id, token, application and, for a click, the
// message clicked.
func (s *Server) Interact(ctx context.Context, i *discordgo.Interaction) (Answer, error) {
	// One Discord never delivers is not among the interactions at all.
	if err := s.permitted(i); err != nil {
		return Answer{}, err
	}
	p := s.Prepare(i)
	return s.Send(ctx, p)
}

// Prepare registers an interaction without sending it (Send sends it), so
// a test can send the same interaction twice, as Discord may.
func (s *Server) Prepare(i *discordgo.Interaction) *discordgo.Interaction {
	if i.ID == "" {
		i.ID = s.newID()
	}
	i.AppID, i.Version = s.AppID, 1
	if i.Token == "" {
		i.Token = "tok-" + i.ID
	}
	s.locales(i)
	if i.Type == discordgo.InteractionMessageComponent && i.Message != nil {
		if m, ok := s.Message(i.Message.ID); ok {
			msg := m.Message
			i.Message = &msg
		}
	}
	s.mu.Lock()
	// Where it was used, as Discord says: in a server, or (no guild_id,
	// no member, the user instead) in a DM with the bot, unless the test
	// said another DM; who authorized it, and what the bot may do there
	// (installs.go). Installed to a server, the server authorized it: its
	// id, or "0" in the bot's DMs.
	s.place(i)
	s.tokens[i.Token] = s.now()
	if _, ok := s.interactions[i.ID]; !ok {
		p := &pending{interaction: i, done: make(chan Answer, 4)}
		s.interactions[i.ID] = p
		s.byToken[i.Token] = p
		s.interactionOrder = append(s.interactionOrder, i.ID)
	}
	s.mu.Unlock()
	return i
}

// wireInteraction is an interaction as Discord sends it: discordgo's,
// with the partial channel discordgo leaves out (its id and type: a
// server's text channel, or a DM), and without the fields that do not
// apply, which discordgo writes as empty: guild_id and member outside a
// server, user in one (the member carries it), message but on a click.
type wireInteraction struct {
	*discordgo.Interaction
	Channel wireChannel       `json:"channel"`
	GuildID string            `json:"guild_id,omitempty"`
	Member  *discordgo.Member `json:"member,omitempty"`
	User    *discordgo.User   `json:"user,omitempty"`
	Message *wireMessage      `json:"message,omitempty"`
	// GuildLocale is sent in a server only.
	GuildLocale *discordgo.Locale `json:"guild_locale,omitempty"`
}

// wireMessage is a message as Discord sends it (with a click, or in
// answer to a request), its components and all: discordgo's Message
// leaves them out when it is marshalled (its Components are json:"-"),
// and a Components V2 message's words are in them.
type wireMessage struct {
	*discordgo.Message
	// Components are discordgo's, or JSON as the bot sent them.
	Components any `json:"components"`
}

// wireOf is m as Discord sends it.
func wireOf(m discordgo.Message) *wireMessage {
	return &wireMessage{Message: &m, Components: m.Components}
}

// wire is a message the fake holds as Discord sends it, its components as
// they were sent (decoded or not).
func (m Message) wire() *wireMessage {
	if m.raw == nil {
		return wireOf(m.Message)
	}
	return &wireMessage{Message: &m.Message, Components: m.raw}
}

type wireChannel struct {
	ID   string                `json:"id"`
	Type discordgo.ChannelType `json:"type"`
}

// wire is i as Discord sends it.
func wire(i *discordgo.Interaction) wireInteraction {
	typ := discordgo.ChannelTypeGuildText
	switch i.Context {
	case discordgo.InteractionContextBotDM:
		typ = discordgo.ChannelTypeDM
	case discordgo.InteractionContextPrivateChannel:
		typ = discordgo.ChannelTypeGroupDM
	}
	w := wireInteraction{Interaction: i, Channel: wireChannel{ID: i.ChannelID, Type: typ}, GuildID: i.GuildID, Member: i.Member, GuildLocale: i.GuildLocale}
	if i.Message != nil {
		w.Message = wireOf(*i.Message)
	}
	if i.Member == nil {
		w.User = i.User
	}
	return w
}

// Interactions returns every interaction prepared so far, in order.
func (s *Server) Interactions() []*discordgo.Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*discordgo.Interaction, 0, len(s.interactionOrder))
	for _, id := range s.interactionOrder {
		out = append(out, s.interactions[id].interaction)
	}
	return out
}

// Send dispatches a prepared interaction and waits for the callback. A
// command Discord would not let the member use there is not sent: Send
// fails with ErrNotPermitted.
func (s *Server) Send(ctx context.Context, i *discordgo.Interaction) (Answer, error) {
	if err := s.permitted(i); err != nil {
		return Answer{}, err
	}
	s.mu.Lock()
	p := s.interactions[i.ID]
	// A redelivery (Discord may send an interaction again) may be answered
	// again; it is the bot's job to not apply it twice.
	p.sent, p.answered = time.Now(), false
	// Answers to an earlier sending that nobody waited for any more (its
	// context ended first) are not this one's.
drain:
	for {
		select {
		case <-p.done:
		default:
			break drain
		}
	}
	s.mu.Unlock()
	endpoint := s.nextEndpoint()
	if endpoint != "" {
		if err := s.deliverHTTP(ctx, endpoint, i); err != nil {
			return Answer{}, err
		}
	} else if err := s.Dispatch("INTERACTION_CREATE", wire(i)); err != nil {
		return Answer{}, err
	}
	select {
	case a := <-p.done:
		return a, nil
	case <-ctx.Done():
		return Answer{}, fmt.Errorf("discordtest: no answer to interaction %s: %w", i.ID, ctx.Err())
	}
}

// callback records the bot's answer to an interaction. Discord allows one
// answer (40060 for a second), within 3 seconds of the interaction (10062
// after), of a type that fits the interaction. With ?with_response=true it
// answers with the interaction and the message the response made, as
// Discord does. received is when the callback request arrived, which ends
// the latency.
func (s *Server) callback(w http.ResponseWriter, r *http.Request, id, token string, body []byte, files []upload, received time.Time) {
	resp, err := decodeResponse(body)
	if err != nil {
		s.refuse(w, r, body, &apiError{Status: 400, Code: 50035, Message: "Invalid Form Body"})
		return
	}
	s.mu.Lock()
	p, ok := s.interactions[id]
	if !ok || p.interaction.Token != token {
		s.mu.Unlock()
		writeError(w, 404, 10062, "Unknown interaction")
		return
	}
	if e := checkResponseType(p.interaction, int(resp.Type)); e != nil {
		s.mu.Unlock()
		s.refuse(w, r, body, e)
		return
	}
	if p.answered {
		s.mu.Unlock()
		s.refuse(w, r, body, &apiError{Status: 400, Code: 40060, Message: "Interaction has already been acknowledged."})
		return
	}
	if received.Sub(p.sent) > 3*time.Second {
		s.mu.Unlock()
		writeError(w, 404, 10062, "Unknown interaction")
		return
	}
	p.answered = true
	latency := received.Sub(p.sent)
	i := p.interaction
	s.mu.Unlock()

	var raw struct {
		Data json.RawMessage `json:"data"`
	}
	json.Unmarshal(body, &raw)
	data := []byte(raw.Data)
	var msg *Message
	s.mu.Lock()
	forced := s.forcedEphemeral(i)
	s.mu.Unlock()
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		ephemeral := forced || resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
		m, e := s.createMessage(i.ChannelID, data, files, poster{ephemeral: ephemeral, token: token})
		if e != nil {
			s.unanswer(id)
			s.refuse(w, r, body, e)
			return
		}
		msg = &m
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		// Discord shows "thinking…" in a message of its own, which the
		// bot then edits through @original.
		ephemeral := forced || resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
		m, e := s.createMessage(i.ChannelID, []byte(`{}`), nil, poster{ephemeral: ephemeral, token: token})
		if e != nil {
			s.unanswer(id)
			s.refuse(w, r, body, e)
			return
		}
		msg = &m
	case discordgo.InteractionResponseDeferredMessageUpdate:
		// @original is then the message clicked.
		if i.Message != nil {
			s.mu.Lock()
			p.original = i.Message.ID
			s.mu.Unlock()
		}
	case discordgo.InteractionResponseUpdateMessage:
		if i.Message != nil {
			s.mu.Lock()
			m := s.messages[i.Message.ID]
			s.mu.Unlock()
			if m != nil {
				// The response's data is the edit, decoded already.
				var decoded *discordgo.Message
				if d := resp.Data; d != nil {
					decoded = &discordgo.Message{Content: d.Content, Embeds: d.Embeds, Components: d.Components}
				}
				edited, e := s.applyEdit(m, data, files, ViaAnswer, decoded)
				if e != nil {
					s.unanswer(id)
					s.refuse(w, r, body, e)
					return
				}
				msg = &edited
			}
		}
	}
	var messageID string
	if msg != nil {
		messageID = msg.ID
	}
	s.mu.Lock()
	// @original is the message the response posted, or the one it updated.
	if msg != nil && p.original == "" && (resp.Type == discordgo.InteractionResponseChannelMessageWithSource ||
		resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource || resp.Type == discordgo.InteractionResponseUpdateMessage) {
		p.original = msg.ID
	}
	s.mu.Unlock()
	if r.URL.Query().Get("with_response") == "true" {
		out := map[string]any{"interaction": map[string]any{"id": i.ID, "type": i.Type,
			"response_message_id": messageID, "response_message_loading": false, "response_message_ephemeral": msg != nil && msg.Ephemeral}}
		if msg != nil {
			out["resource"] = map[string]any{"type": resp.Type, "message": msg.wire()}
		}
		writeJSON(w, 200, out)
	} else {
		w.WriteHeader(204)
	}
	// The answer waits for the test that sent the interaction. Nothing
	// may block a request's handler, since Requests waits for every
	// request to be recorded: an answer that finds the channel full (the
	// sendings it was for gave up waiting) is dropped.
	select {
	case p.done <- Answer{Response: resp, Latency: latency, MessageID: messageID, Token: token}:
	default:
	}
}

// unanswer takes back the answer of an interaction whose response was
// refused: Discord answers nothing, so the bot may still respond.
func (s *Server) unanswer(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.interactions[id]; ok {
		p.answered = false
	}
}

// originalOf returns the message an interaction's response created.
// A request to @original that arrives before Discord has taken in the
// answer (the bot sends it right after its HTTP response) waits for it, as
// Discord's own ordering would have it, up to a second.
func (s *Server) originalOf(token string) string {
	deadline := time.Now().Add(time.Second)
	for {
		s.mu.Lock()
		p := s.byToken[token]
		if p == nil || p.original != "" || time.Now().After(deadline) {
			s.mu.Unlock()
			if p == nil {
				return ""
			}
			return p.original
		}
		s.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}
}

// Original returns the message an interaction token's @original is (the
// message its response created or updated) and the interaction, once
// answered.
func (s *Server) Original(token string) (Message, *discordgo.Interaction, bool) {
	s.mu.Lock()
	p := s.byToken[token]
	var id string
	if p != nil {
		id = p.original
	}
	s.mu.Unlock()
	if p == nil || id == "" {
		return Message{}, nil, false
	}
	m, ok := s.Message(id)
	return m, p.interaction, ok
}

// Settle returns what the user sees of an answer: a itself, unless it was
// a deferral ("thinking…", or a quiet acknowledgement of a click), which
// Settle waits for the bot to complete, by editing @original or with a
// followup, until ctx ends. The answer it returns is that message, as a
// response that made it (type 4) or updated the clicked one (type 7); its
// Latency stays the deferral's, the time Discord's 3 seconds count.
func (s *Server) Settle(ctx context.Context, a Answer) (Answer, error) {
	if a.Response == nil || a.Response.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource &&
		a.Response.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		return a, nil
	}
	for {
		s.mu.Lock()
		p := s.byToken[a.Token]
		var original string
		var edited, followed bool
		if p != nil {
			original, edited, followed = p.original, p.edited > 0, p.followups > 0
		}
		s.mu.Unlock()
		if p == nil {
			return a, fmt.Errorf("discordtest: no interaction with the answer's token")
		}
		var id string
		kind := discordgo.InteractionResponseChannelMessageWithSource
		switch {
		case edited:
			id = original
			if a.Response.Type == discordgo.InteractionResponseDeferredMessageUpdate {
				kind = discordgo.InteractionResponseUpdateMessage
			}
		case followed:
			f := s.Followups(a.Token)
			id = f[len(f)-1].ID
		}
		if id != "" {
			m, ok := s.Message(id)
			if !ok {
				return a, fmt.Errorf("discordtest: the deferred answer's message %s is gone", id)
			}
			return Answer{Response: &discordgo.InteractionResponse{Type: kind, Data: &discordgo.InteractionResponseData{
				Content: m.Content, Embeds: m.Embeds, Components: m.Components, Flags: m.Flags}},
				Latency: a.Latency, MessageID: id, Token: a.Token}, nil
		}
		select {
		case <-ctx.Done():
			return a, fmt.Errorf("discordtest: a deferred answer was never completed: %w", ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// tokenChannel returns the channel of the interaction with that token.
func (s *Server) tokenChannel(token string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.byToken[token]; p != nil {
		return p.interaction.ChannelID
	}
	return ""
}

// decodeResponse reads an interaction response: its data in one pass, and
// the components in it with decodeComponents. It reads only the fields the
// fake keeps; the schema check (Server.SkipSchemaCheck aside) refuses a
// wrong type in the others.
func decodeResponse(body []byte) (*discordgo.InteractionResponse, error) {
	var raw struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, err
	}
	resp := &discordgo.InteractionResponse{Type: raw.Type}
	if len(raw.Data) == 0 || string(raw.Data) == "null" {
		return resp, nil
	}
	var data struct {
		Content         string                                      `json:"content"`
		Embeds          []*discordgo.MessageEmbed                   `json:"embeds"`
		Components      json.RawMessage                             `json:"components"`
		Flags           discordgo.MessageFlags                      `json:"flags"`
		CustomID        string                                      `json:"custom_id"`
		Title           string                                      `json:"title"`
		Choices         []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
		AllowedMentions *discordgo.MessageAllowedMentions           `json:"allowed_mentions"`
	}
	if err := json.Unmarshal(raw.Data, &data); err != nil {
		return nil, err
	}
	components, err := decodeComponents(data.Components)
	if err != nil {
		return nil, err
	}
	resp.Data = &discordgo.InteractionResponseData{Content: data.Content, Embeds: data.Embeds, Components: components, Flags: data.Flags,
		CustomID: data.CustomID, Title: data.Title, Choices: data.Choices, AllowedMentions: data.AllowedMentions}
	return resp, nil
}
