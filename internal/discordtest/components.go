package discordtest

import (
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// The fake reads the components of every answer and of every message a
// player looks at. discordgo's decoding reads each component twice (once
// for its type, once for its fields), and each time its whole subtree: a
// V2 hand view's buttons, three levels down, are scanned many times over.
// At 900 tables that was 5% of the process's CPU, in the fake and its
// players. decodeComponents reads the tree once into wireComponent, which
// has the fields of every kind, and builds the same discordgo values
// (TestComponentsDecodeAsDiscordgoDoes, FuzzDecodeComponents).

// wireComponent is a component of any kind as JSON carries it.
type wireComponent struct {
	Type       discordgo.ComponentType `json:"type"`
	ID         int                     `json:"id"`
	Components []wireComponent         `json:"components"`
	// Accessory is decoded on its own (see component): discordgo refuses
	// a null one, which a pointer would not tell from none.
	Accessory json.RawMessage `json:"accessory"`

	// A button; a text input's label, style and custom_id.
	Label    string                    `json:"label"`
	Style    uint                      `json:"style"`
	Disabled bool                      `json:"disabled"`
	Emoji    *discordgo.ComponentEmoji `json:"emoji"`
	URL      string                    `json:"url"`
	CustomID string                    `json:"custom_id"`
	SKUID    string                    `json:"sku_id"`

	// A select menu.
	Placeholder   string                             `json:"placeholder"`
	MinValues     *int                               `json:"min_values"`
	MaxValues     int                                `json:"max_values"`
	DefaultValues []discordgo.SelectMenuDefaultValue `json:"default_values"`
	Options       []discordgo.SelectMenuOption       `json:"options"`
	ChannelTypes  []discordgo.ChannelType            `json:"channel_types"`

	// A text input.
	Value     string `json:"value"`
	Required  bool   `json:"required"`
	MinLength int    `json:"min_length"`
	MaxLength int    `json:"max_length"`

	// A text display.
	Content string `json:"content"`

	// A thumbnail, a media gallery, a file.
	Media       discordgo.UnfurledMediaItem  `json:"media"`
	Description *string                      `json:"description"`
	Spoiler     bool                         `json:"spoiler"`
	Items       []discordgo.MediaGalleryItem `json:"items"`
	File        discordgo.UnfurledMediaItem  `json:"file"`

	// A separator.
	Divider *bool                           `json:"divider"`
	Spacing *discordgo.SeparatorSpacingSize `json:"spacing"`

	// A container.
	AccentColor *int `json:"accent_color"`
}

// decodeComponents decodes a JSON array of components (or null) as
// discordgo would, into the same values. Anything it does not read as
// discordgo does (a kind it does not know, a field of a kind it does not
// expect) is handed to discordgo's own decoding, which has the last word.
func decodeComponents(raw []byte) ([]discordgo.MessageComponent, error) {
	if len(raw) == 0 {
		raw = []byte("null") // none: as discordgo reads a message without them
	}
	var wire []wireComponent
	if err := json.Unmarshal(raw, &wire); err == nil {
		if out, ok := fromWire(wire); ok {
			return out, nil
		}
	}
	var m discordgo.Message
	if err := json.Unmarshal(append(append([]byte(`{"components":`), raw...), '}'), &m); err != nil {
		return nil, err
	}
	return m.Components, nil
}

// fromWire builds discordgo's components from decoded ones; false if one
// is of a kind it does not build. Like discordgo, it makes a list even of
// none.
func fromWire(wire []wireComponent) ([]discordgo.MessageComponent, bool) {
	out := make([]discordgo.MessageComponent, len(wire))
	for i := range wire {
		c, ok := wire[i].component()
		if !ok {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

// component is w as discordgo decodes it: a pointer to its kind's type.
func (w *wireComponent) component() (discordgo.MessageComponent, bool) {
	switch w.Type {
	case discordgo.ActionsRowComponent:
		inner, ok := fromWire(w.Components)
		return &discordgo.ActionsRow{Components: inner, ID: w.ID}, ok
	case discordgo.ButtonComponent:
		return &discordgo.Button{Label: w.Label, Style: discordgo.ButtonStyle(w.Style), Disabled: w.Disabled, Emoji: w.Emoji,
			URL: w.URL, CustomID: w.CustomID, SKUID: w.SKUID, ID: w.ID}, true
	case discordgo.SelectMenuComponent, discordgo.ChannelSelectMenuComponent, discordgo.UserSelectMenuComponent,
		discordgo.RoleSelectMenuComponent, discordgo.MentionableSelectMenuComponent:
		return &discordgo.SelectMenu{MenuType: discordgo.SelectMenuType(w.Type), CustomID: w.CustomID, Placeholder: w.Placeholder,
			MinValues: w.MinValues, MaxValues: w.MaxValues, DefaultValues: w.DefaultValues, Options: w.Options,
			Disabled: w.Disabled, ChannelTypes: w.ChannelTypes, ID: w.ID}, true
	case discordgo.TextInputComponent:
		return &discordgo.TextInput{CustomID: w.CustomID, Label: w.Label, Style: discordgo.TextInputStyle(w.Style),
			Placeholder: w.Placeholder, Value: w.Value, Required: w.Required, MinLength: w.MinLength, MaxLength: w.MaxLength, ID: w.ID}, true
	case discordgo.SectionComponent:
		inner, ok := fromWire(w.Components)
		if !ok {
			return nil, false
		}
		s := &discordgo.Section{ID: w.ID, Components: inner}
		if w.Accessory != nil {
			var a wireComponent
			if json.Unmarshal(w.Accessory, &a) != nil {
				return nil, false
			}
			if s.Accessory, ok = a.component(); !ok {
				return nil, false // null too: discordgo finds no kind in it
			}
		}
		return s, true
	case discordgo.TextDisplayComponent:
		return &discordgo.TextDisplay{Content: w.Content}, true
	case discordgo.ThumbnailComponent:
		return &discordgo.Thumbnail{ID: w.ID, Media: w.Media, Description: w.Description, Spoiler: w.Spoiler}, true
	case discordgo.MediaGalleryComponent:
		return &discordgo.MediaGallery{ID: w.ID, Items: w.Items}, true
	case discordgo.FileComponentType:
		return &discordgo.FileComponent{ID: w.ID, File: w.File, Spoiler: w.Spoiler}, true
	case discordgo.SeparatorComponent:
		return &discordgo.Separator{ID: w.ID, Divider: w.Divider, Spacing: w.Spacing}, true
	case discordgo.ContainerComponent:
		inner, ok := fromWire(w.Components)
		return &discordgo.Container{ID: w.ID, AccentColor: w.AccentColor, Spoiler: w.Spoiler, Components: inner}, ok
	}
	return nil, false
}
