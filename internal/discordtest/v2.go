package discordtest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Components V2 (message flag IS_COMPONENTS_V2, 1<<15): a message laid out
// in components — Container, Section, Text Display, Thumbnail, Media
// Gallery, Separator, File, and action rows among them. The OpenAPI schema
// says which component may sit where; Discord's components reference
// ("Using Message Components") adds what the fake holds here:
//
//   - the flag disables content and embeds: a body with it carries
//     neither;
//   - a message has at most 40 components, counting every nested one;
//   - the text of its text displays is at most 4000 characters in all;
//   - custom_ids are unique in the message, wherever their rows sit;
//   - so are the components' numeric ids, where a body gives them
//     (Discord numbers the others itself, around them);
//   - the flag cannot be removed once a message has it, and a message
//     edited into one must clear the content and embeds it had;
//   - every attachment:// a thumbnail, a gallery item or a file points
//     at is one of the message's attachments.
//
// The fake reads each body alone, so it is stricter than Discord in one
// way: a body of layout components says the flag, edits too (Discord
// takes the edited message's own). discordgo's WebhookEdit has no flags,
// so such an edit through a token is a request of the bot's own making.

// Components V2's limits.
const (
	maxV2Components = 40
	maxV2Text       = 4000
)

// Layout component types.
const (
	componentSection     = 9
	componentTextDisplay = 10
	componentThumbnail   = 11
	componentGallery     = 12
	componentFile        = 13
	componentSeparator   = 14
	componentContainer   = 17
)

// legacyWithV2 is Discord's refusal of content or embeds with the flag.
func legacyWithV2(at path, field string) *apiError {
	return at.with(field).fail("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
		"The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
}

// checkV2 applies Components V2's rules to a message body with the flag.
func checkV2(m obj, at path) *apiError {
	if s, _ := m["content"].(string); s != "" {
		return legacyWithV2(at, "content")
	}
	if e, _ := m["embeds"].([]any); len(e) > 0 {
		return legacyWithV2(at, "embeds")
	}
	comps, _ := m["components"].([]any)
	w := &v2Walk{ids: map[string]bool{}, nums: map[int]bool{}}
	for i, c := range comps {
		c, _ := c.(obj)
		if err := w.component(c, at.with("components", i)); err != nil {
			return err
		}
	}
	switch {
	case w.count > maxV2Components:
		return at.with("components").fail("MAX_COMPONENTS", "A message has at most 40 components, counting nested ones.")
	case w.text > maxV2Text:
		return at.with("components").fail("MAX_TEXT_LENGTH", "The text of a message's components is at most 4000 characters in all.")
	}
	return nil
}

// v2Walk counts a V2 message's components and text as it checks them.
type v2Walk struct {
	count, text int
	ids         map[string]bool
	nums        map[int]bool // the numeric ids given
}

// numbered refuses a numeric id given to two components of the message.
func (w *v2Walk) numbered(c obj, at path) *apiError {
	n, ok := c["id"].(float64)
	if !ok {
		return nil
	}
	if w.nums[int(n)] {
		return at.with("id").fail("COMPONENT_ID_DUPLICATED", "A component's id must be unique within the message.")
	}
	w.nums[int(n)] = true
	return nil
}

func (w *v2Walk) component(c obj, at path) *apiError {
	w.count++
	if err := w.numbered(c, at); err != nil {
		return err
	}
	t, _ := c["type"].(float64)
	switch int(t) {
	case componentRow:
		w.count += len(asList(c["components"]))
		for i, child := range asList(c["components"]) {
			child, _ := child.(obj)
			if err := w.numbered(child, at.with("components", i)); err != nil {
				return err
			}
		}
		return checkRow(c, at, w.ids, false)
	case componentTextDisplay:
		s, _ := c["content"].(string)
		w.text += utf8.RuneCountInString(s)
	case componentSection, componentContainer:
		for i, child := range asList(c["components"]) {
			child, _ := child.(obj)
			if err := w.component(child, at.with("components", i)); err != nil {
				return err
			}
		}
		if acc, ok := c["accessory"].(obj); ok {
			w.count++
			if err := w.numbered(acc, at.with("accessory")); err != nil {
				return err
			}
			if t, _ := acc["type"].(float64); int(t) == componentButton {
				// A button beside a section's text: checked as in a row.
				return checkRow(obj{"type": float64(componentRow), "components": []any{acc}}, at.with("accessory"), w.ids, false)
			}
		}
	}
	return nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// v2Edit checks an edit of m, whose body's fields are given (and the body as
// plain JSON values, doc), against the
// flag's permanence: it cannot be removed, and a message edited into one
// must clear its content and embeds. It reports whether m is V2 after it.
// The caller holds no lock; m's fields are read under it.
func (s *Server) v2Edit(m *Message, fields map[string]json.RawMessage, doc obj) (bool, *apiError) {
	s.mu.Lock()
	was := m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0
	content, embeds := m.Content, len(m.Embeds)
	s.mu.Unlock()
	var flags int
	raw, set := fields["flags"]
	if set {
		json.Unmarshal(raw, &flags)
	}
	now := flags&flagComponentsV2 != 0
	switch {
	case was && set && !now:
		return true, path{"flags"}.fail("MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message.")
	case was:
		if doc != nil {
			return true, checkV2Legacy(doc)
		}
		return true, nil
	case !now:
		return false, nil
	}
	// A legacy message made V2: what it showed must be cleared.
	if c, ok := fields["content"]; content != "" && (!ok || (string(c) != `""` && string(c) != "null")) {
		return true, legacyWithV2(nil, "content")
	}
	if e, ok := fields["embeds"]; embeds > 0 && (!ok || (string(e) != "[]" && string(e) != "null")) {
		return true, legacyWithV2(nil, "embeds")
	}
	return true, nil
}

// checkV2Legacy refuses content or embeds in an edit of a V2 message.
func checkV2Legacy(body obj) *apiError {
	if s, _ := body["content"].(string); s != "" {
		return legacyWithV2(nil, "content")
	}
	if e, _ := body["embeds"].([]any); len(e) > 0 {
		return legacyWithV2(nil, "embeds")
	}
	return nil
}

// v2Attachments checks every attachment:// the components of a body point
// at is among the message's attachments.
func v2Attachments(doc []byte, attachments []*discordgo.MessageAttachment) *apiError {
	return v2AttachmentsIn(decodeObject(doc), attachments)
}

// v2AttachmentsIn is v2Attachments of a body already decoded (nil if it
// was not a JSON object).
func v2AttachmentsIn(body obj, attachments []*discordgo.MessageAttachment) *apiError {
	if body == nil {
		return nil
	}
	// The walk builds the failing field's path only as it returns from a
	// refusal, in reverse: every edit is walked, and most refuse nothing.
	var walk func(v any) (back path, name string)
	walk = func(v any) (path, string) {
		switch x := v.(type) {
		case obj:
			for k, val := range x {
				if s, ok := val.(string); ok && k == "url" {
					if name, ok := strings.CutPrefix(s, "attachment://"); ok && attachmentByName(attachments, name) == nil {
						return path{k}, name
					}
				}
				if back, name := walk(val); back != nil {
					return append(back, k), name
				}
			}
		case []any:
			for i, val := range x {
				if back, name := walk(val); back != nil {
					return append(back, strconv.Itoa(i)), name
				}
			}
		}
		return nil, ""
	}
	back, name := walk(body["components"])
	if back == nil {
		return nil
	}
	at := append(back, "components")
	slices.Reverse(at)
	return at.fail("ATTACHMENT_NOT_FOUND", "No attachment named "+name+" on the message.")
}
