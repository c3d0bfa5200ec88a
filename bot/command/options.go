package command

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/bwmarrin/discordgo"
)

// A slash command's options are checked against the command's own
// definition before any handler reads them: Discord's client keeps to the
// choices, types and ranges registered, but an interaction is whatever was
// sent, and discordgo's accessors panic on a value of the wrong type. So
// each option must be one the subcommand defines, of its type, within its
// choices, range or length, and every required option must be there.

// ErrBadOptions refuses a command whose options the bot does not offer.
var ErrBadOptions = errors.New("bot: options outside the command's definition")

// subcommandOptions are the registered options of each subcommand, by
// command and subcommand path (see invoked).
var subcommandOptions = func() map[Key][]*discordgo.ApplicationCommandOption {
	out := map[Key][]*discordgo.ApplicationCommandOption{}
	for _, c := range Definitions() {
		for _, sub := range c.Options {
			if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				for _, s := range sub.Options {
					out[Key{c.Name, sub.Name + " " + s.Name}] = s.Options
				}
				continue
			}
			out[Key{c.Name, sub.Name}] = sub.Options
		}
	}
	return out
}()

// Check checks a command's subcommand (alone, or alone in its
// group) and its options against their definitions.
func Check(data discordgo.ApplicationCommandInteractionData) error {
	if len(data.Options) != 1 {
		return ErrBadOptions
	}
	if g := data.Options[0]; g.Type == discordgo.ApplicationCommandOptionSubCommandGroup && len(g.Options) != 1 {
		return ErrBadOptions
	}
	path, sub := Invoked(data)
	defs, ok := subcommandOptions[Key{data.Name, path}]
	if !ok || sub.Type != discordgo.ApplicationCommandOptionSubCommand {
		return ErrBadOptions
	}
	given := map[string]bool{}
	for _, o := range sub.Options {
		def := optionNamed(defs, o.Name)
		if def == nil || given[o.Name] {
			return fmt.Errorf("%w: option %q", ErrBadOptions, o.Name)
		}
		given[o.Name] = true
		if err := checkOption(def, o, data.Resolved); err != nil {
			return fmt.Errorf("%w: option %q: %v", ErrBadOptions, o.Name, err)
		}
	}
	for _, def := range defs {
		if def.Required && !given[def.Name] {
			return fmt.Errorf("%w: option %q is required", ErrBadOptions, def.Name)
		}
	}
	return nil
}

// optionNamed finds an option's definition.
func optionNamed(defs []*discordgo.ApplicationCommandOption, name string) *discordgo.ApplicationCommandOption {
	for _, d := range defs {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// checkOption checks one option's value against its definition.
func checkOption(def *discordgo.ApplicationCommandOption, o *discordgo.ApplicationCommandInteractionDataOption, resolved *discordgo.ApplicationCommandInteractionDataResolved) error {
	if o.Type != def.Type {
		return fmt.Errorf("type %s, want %s", o.Type, def.Type)
	}
	switch def.Type {
	case discordgo.ApplicationCommandOptionInteger:
		v, ok := o.Value.(float64)
		// Discord's integers are those a float64 holds exactly.
		if !ok || v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return errors.New("not an integer")
		}
		if def.MinValue != nil && v < *def.MinValue || def.MaxValue != 0 && v > def.MaxValue {
			return errors.New("out of range")
		}
		return checkChoice(def, v)
	case discordgo.ApplicationCommandOptionString:
		v, ok := o.Value.(string)
		if !ok {
			return errors.New("not a string")
		}
		n := len([]rune(v))
		if def.MinLength != nil && n < *def.MinLength || def.MaxLength != 0 && n > def.MaxLength {
			return errors.New("wrong length")
		}
		return checkChoice(def, v)
	case discordgo.ApplicationCommandOptionBoolean:
		if _, ok := o.Value.(bool); !ok {
			return errors.New("not a boolean")
		}
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionRole:
		if v, ok := o.Value.(string); !ok || v == "" {
			return errors.New("not an id")
		}
	case discordgo.ApplicationCommandOptionChannel:
		v, ok := o.Value.(string)
		if !ok || v == "" {
			return errors.New("not a channel")
		}
		// Discord resolves the channel; one of another kind than the
		// definition offers is refused.
		if resolved == nil || resolved.Channels[v] == nil ||
			len(def.ChannelTypes) > 0 && !slices.Contains(def.ChannelTypes, resolved.Channels[v].Type) {
			return errors.New("not a channel of the kinds offered")
		}
	default:
		return errors.New("a type the bot does not use")
	}
	return nil
}

// checkChoice checks a value is one of the definition's choices, if it
// has any.
func checkChoice(def *discordgo.ApplicationCommandOption, v any) error {
	if len(def.Choices) == 0 {
		return nil
	}
	for _, c := range def.Choices {
		switch cv := c.Value.(type) {
		case int:
			if f, ok := v.(float64); ok && f == float64(cv) {
				return nil
			}
		case string:
			if s, ok := v.(string); ok && s == cv {
				return nil
			}
		}
	}
	return errors.New("not one of the choices")
}

// Key names a subcommand: its command and its own name.
type Key struct{ Command, Sub string }
