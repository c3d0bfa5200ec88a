package discordtest

import (
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// User is a test user: a member of the fake's servers with
// MemberPermissions, and Permissions and Roles besides; Bot marks a bot's
// account.
type User struct {
	ID   string
	Name string
	Bot  bool
	// Permissions are granted in every channel on top of
	// MemberPermissions (discordgo.PermissionManageGuild, say).
	Permissions int64
	// Roles are the ids of the member's roles.
	Roles []string
	// Locale is the language of the user's client, a locale Discord
	// knows (Locales), sent as their interactions' locale; en-US if
	// empty.
	Locale string
}

func (u User) member() *discordgo.Member {
	return &discordgo.Member{User: u.user(), Permissions: MemberPermissions | u.Permissions, Roles: slices.Clone(u.Roles)}
}

// user is the user object Discord sends.
func (u User) user() *discordgo.User {
	return &discordgo.User{ID: u.ID, Username: u.Name, GlobalName: u.Name, Bot: u.Bot}
}

// resolve adds u to an interaction's resolved data as Discord does for a
// user it names: the user, and in a guild their member object, which is
// partial (it carries no user).
func (u User) resolve(r *discordgo.ApplicationCommandInteractionDataResolved, guild string) {
	r.Users[u.ID] = u.user()
	if guild != "" {
		m := u.member()
		m.User = nil
		r.Members[u.ID] = m
	}
}

// Role is a role, as a command option's value.
type Role struct {
	ID   string
	Name string
}

// Channel is a server's text channel, as a command option's value.
type Channel struct {
	ID   string
	Name string
	// Type is the channel's kind: a text channel unless set.
	Type discordgo.ChannelType
}

// Opt is a command option value: string, int, bool, User, Role or
// Channel.
type Opt struct {
	Name  string
	Value any
}

// Command builds a /cribbage subcommand interaction in a guild channel
// (guild "" makes it a DM).
func Command(guild, channel string, u User, sub string, opts ...Opt) *discordgo.Interaction {
	return CommandOf("cribbage", guild, channel, u, sub, opts...)
}

// CommandOf builds a subcommand interaction of the bot's command named
// command, as Command does /cribbage's. A sub of two words, such as
// "season new", is the subcommand new of the group season.
func CommandOf(command, guild, channel string, u User, sub string, opts ...Opt) *discordgo.Interaction {
	data := discordgo.ApplicationCommandInteractionData{ID: "cmd-" + command, Name: command, CommandType: discordgo.ChatApplicationCommand,
		Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{}, Members: map[string]*discordgo.Member{},
			Roles: map[string]*discordgo.Role{}, Channels: map[string]*discordgo.Channel{}}}
	subOpt := &discordgo.ApplicationCommandInteractionDataOption{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}
	for _, o := range opts {
		opt := &discordgo.ApplicationCommandInteractionDataOption{Name: o.Name}
		switch v := o.Value.(type) {
		case string:
			opt.Type, opt.Value = discordgo.ApplicationCommandOptionString, v
		case int:
			opt.Type, opt.Value = discordgo.ApplicationCommandOptionInteger, float64(v)
		case int64:
			opt.Type, opt.Value = discordgo.ApplicationCommandOptionInteger, float64(v)
		case bool:
			opt.Type, opt.Value = discordgo.ApplicationCommandOptionBoolean, v
		case User:
			opt.Type, opt.Value = discordgo.ApplicationCommandOptionUser, v.ID
			v.resolve(data.Resolved, guild)
		case Role:
			opt.Type, opt.Value = discordgo.ApplicationCommandOptionRole, v.ID
			data.Resolved.Roles[v.ID] = &discordgo.Role{ID: v.ID, Name: v.Name}
		case Channel:
			opt.Type, opt.Value = discordgo.ApplicationCommandOptionChannel, v.ID
			data.Resolved.Channels[v.ID] = &discordgo.Channel{ID: v.ID, Name: v.Name, Type: v.Type, GuildID: guild}
		}
		subOpt.Options = append(subOpt.Options, opt)
	}
	top := subOpt
	if group, name, ok := strings.Cut(sub, " "); ok {
		subOpt.Name = name
		top = &discordgo.ApplicationCommandInteractionDataOption{Name: group, Type: discordgo.ApplicationCommandOptionSubCommandGroup,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{subOpt}}
	}
	data.Options = []*discordgo.ApplicationCommandInteractionDataOption{top}
	return withUser(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, GuildID: guild, ChannelID: channel, Data: data}, u)
}

// UserCommand builds a user context-menu command (type 2) named name,
// used on target: as Discord sends one, it has no options, names the
// person in target_id, and resolves them in users (and, in a guild,
// members).
func UserCommand(guild, channel string, u User, name string, target User) *discordgo.Interaction {
	data := discordgo.ApplicationCommandInteractionData{ID: "cmd-" + name, Name: name, CommandType: discordgo.UserApplicationCommand, TargetID: target.ID,
		Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{}, Members: map[string]*discordgo.Member{}}}
	target.resolve(data.Resolved, guild)
	return withUser(&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, GuildID: guild, ChannelID: channel, Data: data}, u)
}

// Click builds a button click on a message.
func Click(guild, channel string, u User, messageID, customID string) *discordgo.Interaction {
	return withUser(&discordgo.Interaction{Type: discordgo.InteractionMessageComponent, GuildID: guild, ChannelID: channel,
		Message: &discordgo.Message{ID: messageID, ChannelID: channel},
		Data:    discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent}}, u)
}

// Submit builds a modal submission with text inputs, from a message.
func Submit(guild, channel string, u User, messageID, customID string, fields map[string]string) *discordgo.Interaction {
	var rows []discordgo.MessageComponent
	for id, value := range fields {
		rows = append(rows, &discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: id, Value: value}}})
	}
	i := withUser(&discordgo.Interaction{Type: discordgo.InteractionModalSubmit, GuildID: guild, ChannelID: channel,
		Data: modalData{CustomID: customID, Components: rows}}, u)
	if messageID != "" {
		i.Message = &discordgo.Message{ID: messageID, ChannelID: channel, Flags: discordgo.MessageFlagsEphemeral}
	}
	return i
}

// withUser sets the member (in a guild) or the user (in a DM).
func withUser(i *discordgo.Interaction, u User) *discordgo.Interaction {
	i.Locale = discordgo.Locale(u.Locale)
	if i.GuildID != "" {
		i.Member = u.member()
	} else {
		i.User = u.member().User
	}
	return i
}

// Buttons lists a message's buttons, row by row.
func Buttons(components []discordgo.MessageComponent) []discordgo.Button {
	var out []discordgo.Button
	for _, c := range components {
		switch row := c.(type) {
		case discordgo.ActionsRow:
			out = append(out, Buttons(row.Components)...)
		case *discordgo.ActionsRow:
			out = append(out, Buttons(row.Components)...)
		case discordgo.Button:
			out = append(out, row)
		case *discordgo.Button:
			out = append(out, *row)
		case discordgo.Container:
			out = append(out, Buttons(row.Components)...)
		case *discordgo.Container:
			out = append(out, Buttons(row.Components)...)
		case discordgo.Section:
			out = append(out, Buttons(append(row.Components, row.Accessory))...)
		case *discordgo.Section:
			out = append(out, Buttons(append(row.Components, row.Accessory))...)
		}
	}
	return out
}

// TextDisplays are the contents of a message's text displays, in order,
// wherever they sit (Components V2: at the top, in a container, in a
// section).
func TextDisplays(components []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range components {
		switch c := c.(type) {
		case discordgo.TextDisplay:
			out = append(out, c.Content)
		case *discordgo.TextDisplay:
			out = append(out, c.Content)
		case discordgo.Container:
			out = append(out, TextDisplays(c.Components)...)
		case *discordgo.Container:
			out = append(out, TextDisplays(c.Components)...)
		case discordgo.Section:
			out = append(out, TextDisplays(c.Components)...)
		case *discordgo.Section:
			out = append(out, TextDisplays(c.Components)...)
		}
	}
	return out
}

// modalData is a modal submission as Discord sends it. discordgo's own
// type does not marshal its components (they are tagged "-"), so the fake
// sends this instead.
type modalData struct {
	CustomID   string                       `json:"custom_id"`
	Components []discordgo.MessageComponent `json:"components"`
}

// Type implements discordgo.InteractionData.
func (modalData) Type() discordgo.InteractionType { return discordgo.InteractionModalSubmit }

// CustomID returns the custom_id of a button click or a modal submission
// built here, or "".
func CustomID(i *discordgo.Interaction) string {
	switch d := i.Data.(type) {
	case discordgo.MessageComponentInteractionData:
		return d.CustomID
	case modalData:
		return d.CustomID
	}
	return ""
}
