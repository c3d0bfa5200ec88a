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
var quotedCommand = regexp.MustCompile("`/([a-z-]+)((?: [a-z-]+)*)((?: [a-z-]+: [^ `]+)*)`")

// TestQuotedCommandsAreOffered: every command that a refusal or help quotes
// for players to type is one the bot registers: its subcommand, its
// options, and a value Discord lets them choose where the option has
// choices. A player told to type anything else cannot.
func TestQuotedCommandsAreOffered(t *testing.T) {
	texts := []string{render.HelpText}
	// Every language quotes the commands by their registered names.
	for _, code := range lang.Codes() {
		l, _ := lang.ByCode(code)
		for _, m := range errorTexts {
			texts = append(texts, l.T(m.id))
		}
	}
	commands := map[string]*discordgo.ApplicationCommand{}
	for _, c := range command.Definitions() {
		commands[c.Name] = c
	}
	checked := 0
	for _, text := range texts {
		for _, q := range quotedCommand.FindAllStringSubmatch(text, -1) {
			checked++
			if err := offered(commands, q[1], strings.Fields(q[2]), q[3]); err != nil {
				t.Errorf("%s quotes %s: %v", strings.SplitN(text, "\n", 2)[0], q[0], err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no quoted command found: the pattern is wrong")
	}
}

// offered checks a quoted command against the registered ones.
func offered(commands map[string]*discordgo.ApplicationCommand, name string, path []string, opts string) error {
	c, ok := commands[name]
	if !ok {
		return fmt.Errorf("no command /%s", name)
	}
	options := c.Options
	for _, p := range path {
		var found *discordgo.ApplicationCommandOption
		for _, o := range options {
			if o.Name == p && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
				found = o
			}
		}
		if found == nil {
			return fmt.Errorf("no subcommand %q", p)
		}
		options = found.Options
	}
	for _, kv := range regexp.MustCompile(`([a-z-]+): ([^ ]+)`).FindAllStringSubmatch(opts, -1) {
		var found *discordgo.ApplicationCommandOption
		for _, o := range options {
			if o.Name == kv[1] {
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
			ok = ok || ch.Name == kv[2] || fmt.Sprint(ch.Value) == kv[2]
		}
		if !ok {
			return fmt.Errorf("option %q offers no choice %q", kv[1], kv[2])
		}
	}
	return nil
}
