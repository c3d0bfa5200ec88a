package discordtest

import (
	"encoding/json"
	"errors"

	"github.com/bwmarrin/discordgo"
)

// The fake reads the components of every answer and of every message a
// player looks at. discordgo's decoding reads each component twice (once
// for its type, once for its fields), and each time its whole subtree: a
// V2 hand view's buttons, three levels down, are scanned many times over.
// At 900 tables that was 5% of the process's CPU, in the fake and its
// players. decodeComponents decodes each level once into wireComponent,
// which has the fields of every kind, and builds the same discordgo values
// (TestComponentsDecodeAsDiscordgoDoes, FuzzDecodeComponents): a hand view
// in 45 µs against discordgo's 98.

// wireComponent is a component of any kind as JSON carries it.
type wireComponent struct {
	Type       discordgo.ComponentType `json:"type"`
	ID         int                     `json:"id"`
	Components wireList                `json:"components"`
	Accessory  wireAccessory           `json:"accessory"`

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

// wireList is a row's, a section's or a container's components, built as
// discordgo builds them each time the key appears: anew (a repeated key
// must not decode into the components the first one made), and refused
// if one of them is of no kind discordgo knows.
type wireList []discordgo.MessageComponent

func (l *wireList) UnmarshalJSON(raw []byte) error {
	var wire []wireComponent
	if err := json.Unmarshal(raw, &wire); err != nil {
		return err
	}
	out := make([]discordgo.MessageComponent, len(wire))
	for i := range wire {
		c, err := wire[i].component()
		if err != nil {
			return err
		}
		out[i] = c
	}
	*l = out
	return nil
}

// wireAccessory is a section's accessory, built as wireList builds a
// component: a null one refused, as discordgo refuses it.
type wireAccessory struct{ c discordgo.MessageComponent }

func (a *wireAccessory) UnmarshalJSON(raw []byte) error {
	var w wireComponent
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	c, err := w.component()
	a.c = c
	return err
}

// errNoKind is a component of a kind discordgo does not decode (or
// null); decodeComponents then hands the whole list to discordgo.
var errNoKind = errors.New("discordtest: no component kind discordgo decodes")

// decodeComponents decodes a JSON array of components (or null) as
// discordgo would, into the same values. Anything it does not read as
// discordgo does (a kind it does not know, a field of a kind it does not
// expect) is handed to discordgo's own decoding, which has the last word.
func decodeComponents(raw []byte) ([]discordgo.MessageComponent, error) {
	if len(raw) == 0 {
		raw = []byte("null") // none: as discordgo reads a message without them
	}
	var l wireList
	if err := json.Unmarshal(raw, &l); err == nil {
		return l, nil
	}
	return discordgoComponents(raw)
}

// discordgoComponents decodes components (a JSON array, null, or nothing)
// the way discordgo does, in a message.
func discordgoComponents(raw []byte) ([]discordgo.MessageComponent, error) {
	if len(raw) == 0 {
		raw = []byte("null")
	}
	var m discordgo.Message
	err := json.Unmarshal(append(append([]byte(`{"components":`), raw...), '}'), &m)
	return m.Components, err
}

// list is a row's, a section's or a container's components: discordgo
// makes a list even of none.
func (l wireList) list() []discordgo.MessageComponent {
	if l == nil {
		return []discordgo.MessageComponent{}
	}
	return l
}

// component is w as discordgo decodes it: a pointer to its kind's type.
func (w *wireComponent) component() (discordgo.MessageComponent, error) {
	switch w.Type {
	case discordgo.ActionsRowComponent:
		return &discordgo.ActionsRow{Components: w.Components.list(), ID: w.ID}, nil
	case discordgo.ButtonComponent:
		return &discordgo.Button{Label: w.Label, Style: discordgo.ButtonStyle(w.Style), Disabled: w.Disabled, Emoji: w.Emoji,
			URL: w.URL, CustomID: w.CustomID, SKUID: w.SKUID, ID: w.ID}, nil
	case discordgo.SelectMenuComponent, discordgo.ChannelSelectMenuComponent, discordgo.UserSelectMenuComponent,
		discordgo.RoleSelectMenuComponent, discordgo.MentionableSelectMenuComponent:
		return &discordgo.SelectMenu{MenuType: discordgo.SelectMenuType(w.Type), CustomID: w.CustomID, Placeholder: w.Placeholder,
			MinValues: w.MinValues, MaxValues: w.MaxValues, DefaultValues: w.DefaultValues, Options: w.Options,
			Disabled: w.Disabled, ChannelTypes: w.ChannelTypes, ID: w.ID}, nil
	case discordgo.TextInputComponent:
		return &discordgo.TextInput{CustomID: w.CustomID, Label: w.Label, Style: discordgo.TextInputStyle(w.Style),
			Placeholder: w.Placeholder, Value: w.Value, Required: w.Required, MinLength: w.MinLength, MaxLength: w.MaxLength, ID: w.ID}, nil
	case discordgo.SectionComponent:
		return &discordgo.Section{ID: w.ID, Components: w.Components.list(), Accessory: w.Accessory.c}, nil
	case discordgo.TextDisplayComponent:
		return &discordgo.TextDisplay{Content: w.Content}, nil
	case discordgo.ThumbnailComponent:
		return &discordgo.Thumbnail{ID: w.ID, Media: w.Media, Description: w.Description, Spoiler: w.Spoiler}, nil
	case discordgo.MediaGalleryComponent:
		return &discordgo.MediaGallery{ID: w.ID, Items: w.Items}, nil
	case discordgo.FileComponentType:
		return &discordgo.FileComponent{ID: w.ID, File: w.File, Spoiler: w.Spoiler}, nil
	case discordgo.SeparatorComponent:
		return &discordgo.Separator{ID: w.ID, Divider: w.Divider, Spacing: w.Spacing}, nil
	case discordgo.ContainerComponent:
		return &discordgo.Container{ID: w.ID, AccentColor: w.AccentColor, Spoiler: w.Spoiler, Components: w.Components.list()}, nil
	}
	return nil, errNoKind
}
