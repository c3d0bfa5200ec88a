package refusal

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// quotedCommand is a command as user text quotes it in backticks:
// "`/cribbage start computer: strong`".
var quotedCommand = regexp.MustCompile("`/([\\p{Ll}-]+)((?: [\\p{Ll}-]+)*)((?: [\\p{Ll}-]+: [^ `]+)*)`")

// TestQuotedCommandsAreOffered: every command that a refusal or help quotes
// for players to type is one the bot registers, as a player of that
// language sees it (its localized names): its subcommand, its options,
// and a value Discord lets them choose where the option has choices. A
// player told to type anything else cannot.
func TestQuotedCommandsAreOffered(t *testing.T) {
	commands := map[string]*discordgo.ApplicationCommand{}
	for _, c := range command.Localized() {
		commands[c.Name] = c
	}
	checked := 0
	for _, code := range lang.Codes() {
		l, _ := lang.ByCode(code)
		locale := discordgo.Locale(l.Locales()[0])
		texts := []string{render.Help(l)}
		for _, m := range errorTexts {
			texts = append(texts, l.T(m.id))
		}
		texts = append(texts, l.N("refusal.too-many-tables", 2), l.T("refusal.over", "ID", 7, "Result", "x."), l.T("refusal.closed", "ID", 7),
			l.T("timer.lobby-closed", "ID", 7), l.T("games.none"))
		for _, text := range texts {
			for _, q := range quotedCommand.FindAllStringSubmatch(text, -1) {
				checked++
				if err := offered(commands, locale, q[1], strings.Fields(q[2]), q[3]); err != nil {
					t.Errorf("%s: %s quotes %s: %v", code, strings.SplitN(text, "\n", 2)[0], q[0], err)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no quoted command found: the pattern is wrong")
	}
}

// named reports whether a player of locale sees o named name: its
// localized name, or its own where it has none.
func named(name string, own string, localized map[discordgo.Locale]string, locale discordgo.Locale) bool {
	if l, ok := localized[locale]; ok {
		return l == name
	}
	return own == name
}

// offered checks a quoted command against the registered ones.
func offered(commands map[string]*discordgo.ApplicationCommand, locale discordgo.Locale, name string, path []string, opts string) error {
	c, ok := commands[name]
	if !ok {
		return fmt.Errorf("no command /%s", name)
	}
	options := c.Options
	for _, p := range path {
		var found *discordgo.ApplicationCommandOption
		for _, o := range options {
			if named(p, o.Name, o.NameLocalizations, locale) && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
				found = o
			}
		}
		if found == nil {
			return fmt.Errorf("no subcommand %q", p)
		}
		options = found.Options
	}
	for _, kv := range regexp.MustCompile(`([\p{Ll}-]+): ([^ ]+)`).FindAllStringSubmatch(opts, -1) {
		var found *discordgo.ApplicationCommandOption
		for _, o := range options {
			if named(kv[1], o.Name, o.NameLocalizations, locale) {
				found = o
			}
		}
		if found == nil {
			return fmt.Errorf("no option %q", kv[1])
		}
		if len(found.Choices) == 0 {
			continue
		}
		ok := false
		for _, ch := range found.Choices {
			ok = ok || named(kv[2], ch.Name, ch.NameLocalizations, locale) || fmt.Sprint(ch.Value) == kv[2]
		}
		if !ok {
			return fmt.Errorf("option %q offers no choice %q", kv[1], kv[2])
		}
	}
	return nil
}
