package rest

import (
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// wired is a component that writes its own JSON, the same bytes as
// discordgo's MarshalJSON, in one pass. discordgo marshals each component
// through encoding/json by a method that calls encoding/json again, so a
// button in a V2 container is marshalled three times over and its bytes
// checked again at every level above it: a fortieth of the bot's CPU at
// 900 tables. A request's body is marshalled with its components wired
// (MarshalBody); a kind wired does not know is left to discordgo. Only the
// copy of the body that is marshalled holds wired values: the bodies the
// bot builds, and tests read, hold discordgo's own.
type wired struct{ discordgo.MessageComponent }

// MarshalJSON implements json.Marshaler.
func (w wired) MarshalJSON() ([]byte, error) {
	return appendComponent(make([]byte, 0, 1024), w.MessageComponent)
}

// wire wraps each of cs in wired, in a new list.
func wire(cs []discordgo.MessageComponent) []discordgo.MessageComponent {
	if cs == nil {
		return nil
	}
	out := make([]discordgo.MessageComponent, len(cs))
	for i, c := range cs {
		if c != nil {
			c = wired{c}
		}
		out[i] = c
	}
	return out
}

// MarshalBody is a request body's JSON, the same bytes as json.Marshal
// writes, with the components of the bodies the bot sends often (answers,
// edits, new messages) marshalled in one pass.
func MarshalBody(body any) ([]byte, error) {
	return json.Marshal(wiredBody(body))
}

// wiredBody is body, or a shallow copy of it whose components are wired.
func wiredBody(body any) any {
	switch b := body.(type) {
	case discordgo.InteractionResponse:
		return wiredResponse(&b)
	case *discordgo.InteractionResponse:
		if b != nil {
			return wiredResponse(b)
		}
	case WebhookEdit:
		if b.Components != nil {
			cs := wire(*b.Components)
			b.Components = &cs
		}
		return b
	case *discordgo.MessageEdit:
		if b != nil && b.Components != nil {
			e := *b
			cs := wire(*e.Components)
			e.Components = &cs
			return &e
		}
	case *discordgo.MessageSend:
		if b != nil {
			m := *b
			m.Components = wire(m.Components)
			return &m
		}
	case MessageCreate:
		if b.MessageSend != nil {
			m := *b.MessageSend
			m.Components = wire(m.Components)
			b.MessageSend = &m
		}
		return b
	case *discordgo.WebhookParams:
		if b != nil {
			p := *b
			p.Components = wire(p.Components)
			return &p
		}
	}
	return body
}

// wiredResponse is a copy of an interaction's answer with its data's
// components wired.
func wiredResponse(r *discordgo.InteractionResponse) *discordgo.InteractionResponse {
	out := *r
	if out.Data != nil {
		d := *out.Data
		d.Components = wire(d.Components)
		out.Data = &d
	}
	return &out
}

// appendComponent appends c's JSON to b as encoding/json writes it from
// discordgo's MarshalJSON: the component's fields in their order, each
// omitted where its tag says, then its type.
func appendComponent(b []byte, c discordgo.MessageComponent) ([]byte, error) {
	// A pointer to a component writes what the component does, and a nil
	// one null, as encoding/json does.
	if p := reflect.ValueOf(c); p.Kind() == reflect.Pointer {
		if p.IsNil() {
			return append(b, "null"...), nil
		}
		if e, ok := p.Elem().Interface().(discordgo.MessageComponent); ok {
			c = e
		}
	}
	switch v := c.(type) {
	case nil:
		return append(b, "null"...), nil
	case wired:
		return appendComponent(b, v.MessageComponent)
	case discordgo.ActionsRow:
		b = append(b, `{"components":`...)
		b, err := appendComponents(b, v.Components)
		if err != nil {
			return nil, err
		}
		b = appendID(b, v.ID)
		return appendType(b, v.Type()), nil
	case discordgo.Button:
		style := v.Style
		if style == 0 {
			style = discordgo.PrimaryButton
		}
		b = append(b, `{"label":`...)
		b = appendString(b, v.Label)
		b = append(b, `,"style":`...)
		b = strconv.AppendUint(b, uint64(style), 10)
		b = append(b, `,"disabled":`...)
		b = strconv.AppendBool(b, v.Disabled)
		if v.Emoji != nil {
			b = appendEmoji(append(b, `,"emoji":`...), v.Emoji)
		}
		b = appendOptional(b, "url", v.URL)
		b = appendOptional(b, "custom_id", v.CustomID)
		b = appendOptional(b, "sku_id", v.SKUID)
		b = appendID(b, v.ID)
		return appendType(b, v.Type()), nil
	case discordgo.TextDisplay:
		b = append(b, `{"content":`...)
		b = appendString(b, v.Content)
		return appendType(b, v.Type()), nil
	case discordgo.Container:
		b = appendLeadingID(append(b, '{'), v.ID)
		if v.AccentColor != nil {
			b = strconv.AppendInt(append(b, `"accent_color":`...), int64(*v.AccentColor), 10)
			b = append(b, ',')
		}
		b = append(b, `"spoiler":`...)
		b = strconv.AppendBool(b, v.Spoiler)
		b = append(b, `,"components":`...)
		b, err := appendComponents(b, v.Components)
		if err != nil {
			return nil, err
		}
		return appendType(b, v.Type()), nil
	case discordgo.Section:
		b = appendLeadingID(append(b, '{'), v.ID)
		b = append(b, `"components":`...)
		b, err := appendComponents(b, v.Components)
		if err != nil {
			return nil, err
		}
		if b, err = appendComponent(append(b, `,"accessory":`...), v.Accessory); err != nil {
			return nil, err
		}
		return appendType(b, v.Type()), nil
	case discordgo.Thumbnail:
		b = appendLeadingID(append(b, '{'), v.ID)
		b = appendMedia(append(b, `"media":`...), v.Media)
		if v.Description != nil {
			b = appendString(append(b, `,"description":`...), *v.Description)
		}
		// Always written: discordgo's tag misspells omitempty.
		b = strconv.AppendBool(append(b, `,"spoiler":`...), v.Spoiler)
		return appendType(b, v.Type()), nil
	case discordgo.MediaGallery:
		b = appendLeadingID(append(b, '{'), v.ID)
		b = append(b, `"items":`...)
		if v.Items == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, it := range v.Items {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendMedia(append(b, `{"media":`...), it.Media)
				if it.Description != nil {
					b = appendString(append(b, `,"description":`...), *it.Description)
				}
				b = strconv.AppendBool(append(b, `,"spoiler":`...), it.Spoiler)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		return appendType(b, v.Type()), nil
	case discordgo.FileComponent:
		b = appendLeadingID(append(b, '{'), v.ID)
		b = appendMedia(append(b, `"file":`...), v.File)
		b = strconv.AppendBool(append(b, `,"spoiler":`...), v.Spoiler)
		return appendType(b, v.Type()), nil
	case discordgo.Separator:
		b = append(b, '{')
		sep := false
		if v.ID != 0 {
			b = strconv.AppendInt(append(b, `"id":`...), int64(v.ID), 10)
			sep = true
		}
		if v.Divider != nil {
			if sep {
				b = append(b, ',')
			}
			b = strconv.AppendBool(append(b, `"divider":`...), *v.Divider)
			sep = true
		}
		if v.Spacing != nil {
			if sep {
				b = append(b, ',')
			}
			b = strconv.AppendUint(append(b, `"spacing":`...), uint64(*v.Spacing), 10)
			sep = true
		}
		if sep {
			b = append(b, ',')
		}
		b = append(b, `"type":`...)
		b = strconv.AppendUint(b, uint64(v.Type()), 10)
		return append(b, '}'), nil
	}
	// Select menus, text inputs and kinds to come: as discordgo writes
	// them. Their JSON is already compact, as encoding/json would leave it.
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

// appendComponents appends a list of components: null for a nil list, as
// encoding/json writes one.
func appendComponents(b []byte, cs []discordgo.MessageComponent) ([]byte, error) {
	if cs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendComponent(b, c); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendID appends a component's id, which is omitted when zero, after
// the fields before it.
func appendID(b []byte, id int) []byte {
	if id == 0 {
		return b
	}
	return strconv.AppendInt(append(b, `,"id":`...), int64(id), 10)
}

// appendLeadingID appends a component's id as its first field, with the
// comma before the next; nothing when it is zero (omitted).
func appendLeadingID(b []byte, id int) []byte {
	if id == 0 {
		return b
	}
	b = strconv.AppendInt(append(b, `"id":`...), int64(id), 10)
	return append(b, ',')
}

// appendType ends a component's object, after at least one field, with its
// type.
func appendType(b []byte, t discordgo.ComponentType) []byte {
	b = strconv.AppendUint(append(b, `,"type":`...), uint64(t), 10)
	return append(b, '}')
}

// appendOptional appends a string field that is omitted when empty, after
// the fields before it.
func appendOptional(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	b = append(append(append(b, `,"`...), name...), `":`...)
	return appendString(b, s)
}

// appendEmoji appends a button's emoji: each field omitted when empty.
func appendEmoji(b []byte, e *discordgo.ComponentEmoji) []byte {
	b = append(b, '{')
	sep := false
	field := func(name string) {
		if sep {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), name...), `":`...)
		sep = true
	}
	if e.Name != "" {
		field("name")
		b = appendString(b, e.Name)
	}
	if e.ID != "" {
		field("id")
		b = appendString(b, e.ID)
	}
	if e.Animated {
		field("animated")
		b = append(b, "true"...)
	}
	return append(b, '}')
}

// appendMedia appends an unfurled media item: its url.
func appendMedia(b []byte, m discordgo.UnfurledMediaItem) []byte {
	return append(appendString(append(b, `{"url":`...), m.URL), '}')
}

// appendString appends s as a JSON string as encoding/json writes it. A
// string of printable ASCII that needs no escape, and valid UTF-8 beyond
// it (but the two line separators encoding/json escapes), is written as
// it is; any other goes to encoding/json, which escapes the rest (quotes,
// backslashes, control bytes, <, > and &, invalid UTF-8) its own way.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendEscaped(b, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return appendEscaped(b, s)
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendEscaped appends s as encoding/json writes it.
func appendEscaped(b []byte, s string) []byte {
	raw, _ := json.Marshal(s) // a string always marshals
	return append(b, raw...)
}
