package command

import (
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/lang"
)

// The commands in every language the bot speaks: each command's,
// subcommand's and option's name and description, and each choice's
// name, localized for the Discord locales of each language
// (name_localizations, description_localizations). Their words are in the
// catalogues (bot/lang) under keys made from where they are:
//
//	cmd.name.<name>                 a subcommand's or an option's name, the same wherever it is used
//	cmd.desc.<command>[.<sub>…]     a description, by its place
//	cmd.choice.<option>.<value>     a choice's name (reset's choices are the settings' option names)
//	cmd.menu.challenge              the person menu's command
//
// English is the definitions' own text, which Discord shows to every
// locale the bot does not speak; the English catalogue holds the same
// words, and a test holds the two equal. The top-level commands keep
// their names in every language (cribbage is cribbage), and so do choices
// whose name is their number and the language choices, each named in
// itself.

// Key returns the catalogue key of the localizable text at a place.
func nameKey(name string) string         { return "cmd.name." + name }
func descKey(path string) string         { return "cmd.desc." + path }
func choiceKey(opt, value string) string { return "cmd.choice." + opt + "." + value }

// menuKey is the key of the person menu's command (ChallengeMenu).
const menuKey = "cmd.menu.challenge"

// Localized are the definitions with their localizations.
func Localized() []*discordgo.ApplicationCommand {
	cmds := Definitions()
	Walk(cmds, func(key, english string, set func(locale, text string)) {
		for _, code := range lang.Codes() {
			l, _ := lang.ByCode(code)
			if l == lang.English {
				continue
			}
			for _, locale := range l.Locales() {
				set(locale, l.T(key))
			}
		}
	})
	return cmds
}

// Walk calls f with the key and English text of every localizable text
// of cmds, and a set that localizes it.
func Walk(cmds []*discordgo.ApplicationCommand, f func(key, english string, set func(locale, text string))) {
	for _, c := range cmds {
		if c.Type == discordgo.UserApplicationCommand {
			// A person's menu shows the challenge in the reader's
			// language; the interaction still names it ChallengeMenu.
			if c.NameLocalizations == nil {
				c.NameLocalizations = &map[discordgo.Locale]string{}
			}
			f(menuKey, c.Name, setter(c.NameLocalizations))
			continue
		}
		if c.DescriptionLocalizations == nil {
			c.DescriptionLocalizations = &map[discordgo.Locale]string{}
		}
		f(descKey(c.Name), c.Description, setter(c.DescriptionLocalizations))
		walkOptions(c.Name, c.Options, f, map[*discordgo.ApplicationCommandOption]bool{})
	}
}

func walkOptions(path string, opts []*discordgo.ApplicationCommandOption, f func(key, english string, set func(locale, text string)), seen map[*discordgo.ApplicationCommandOption]bool) {
	for _, o := range opts {
		here := path + "." + o.Name
		if seen[o] {
			continue // an option shared by subcommands is localized once
		}
		seen[o] = true
		f(nameKey(o.Name), o.Name, setter(&o.NameLocalizations))
		f(descKey(here), o.Description, setter(&o.DescriptionLocalizations))
		for _, ch := range o.Choices {
			value := fmt.Sprint(ch.Value)
			switch {
			case ch.Name == strconv.Itoa(intValue(ch.Value)) || o.Name == SetLanguage:
				continue
			case o.Name == "reset" && value != SetEverything:
				// reset names a setting by its option's name, in each
				// language the option's localized name.
				f(nameKey(value), ch.Name, setter(&ch.NameLocalizations))
			default:
				f(choiceKey(o.Name, value), ch.Name, setter(&ch.NameLocalizations))
			}
		}
		walkOptions(here, o.Options, f, seen)
	}
}

// setter sets one locale's text in a localization map, making the map.
func setter(m *map[discordgo.Locale]string) func(locale, text string) {
	return func(locale, text string) {
		if *m == nil {
			*m = map[discordgo.Locale]string{}
		}
		(*m)[discordgo.Locale(locale)] = text
	}
}

// intValue is a choice's value as a number, or -1 for a string's.
func intValue(v any) int {
	if n, ok := v.(int); ok {
		return n
	}
	return -1
}
