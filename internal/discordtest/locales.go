package discordtest

import (
	"slices"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Localized commands: Discord takes a command's name and description, its
// options' and its choices' names, in each of its locales
// (name_localizations, description_localizations), keyed by the locales
// its docs list (AvailableLocalesEnum in the spec), and holds each
// localized text to the limits of the text it stands for: a chat-input
// name (a command's, an option's) is lower case, matches the name pattern
// and has at most 32 characters, a description at most 100, a choice's
// name at most 100. The schema checks none of it: its localization maps
// are plain string maps.

// enumConsts reads the values of a schema that is a oneOf of consts.
func enumConsts(schema any) map[string]bool {
	out := map[string]bool{}
	s, _ := schema.(map[string]any)
	alts, _ := s["oneOf"].([]any)
	for _, a := range alts {
		if v, ok := a.(map[string]any)["const"].(string); ok {
			out[v] = true
		}
	}
	return out
}

// Locales are the locales Discord knows, sorted: what an interaction's
// locale and guild_locale may be, and a localization's keys.
func Locales() []string {
	c, err := theContract()
	if err != nil {
		return nil
	}
	var out []string
	for l := range c.locales {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// knownLocale reports whether Discord knows locale l.
func knownLocale(l string) bool {
	c, err := theContract()
	return err == nil && c.locales[l]
}

// checkLocalized checks one localization map, field, of o: its keys are
// locales Discord knows, and each text passes ok.
func checkLocalized(o obj, field string, at path, ok func(string) bool, code, msg string) *apiError {
	m, _ := o[field].(obj)
	for locale, v := range m {
		if !knownLocale(locale) {
			return at.with(field, locale).fail("LOCALE_INVALID", "Invalid locale")
		}
		if s, _ := v.(string); !ok(s) {
			return at.with(field, locale).fail(code, msg)
		}
	}
	return nil
}

// textLength reports whether s has 1 to max characters.
func textLength(max int) func(string) bool {
	return func(s string) bool {
		n := utf8.RuneCountInString(s)
		return n >= 1 && n <= max
	}
}

// checkChatInputLocalized checks a chat-input command's or option's
// localizations, and its options', choices' and sub-options' below it.
func checkChatInputLocalized(o obj, at path) *apiError {
	if err := checkLocalized(o, "name_localizations", at, chatInputName, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"); err != nil {
		return err
	}
	if err := checkLocalized(o, "description_localizations", at, textLength(100), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."); err != nil {
		return err
	}
	opts, _ := o["options"].([]any)
	for i, raw := range opts {
		opt, _ := raw.(obj)
		here := at.with("options", i)
		name, _ := opt["name"].(string)
		if !chatInputName(name) {
			return here.with("name").fail("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if desc, _ := opt["description"].(string); !textLength(100)(desc) {
			return here.with("description").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		if err := checkChatInputLocalized(opt, here); err != nil {
			return err
		}
		choices, _ := opt["choices"].([]any)
		for j, rc := range choices {
			ch, _ := rc.(obj)
			if err := checkLocalized(ch, "name_localizations", here.with("choices", j), textLength(100), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."); err != nil {
				return err
			}
		}
	}
	return nil
}

// defaultLocale is a client's, and a server's, locale unless a test says
// otherwise.
const defaultLocale = "en-US"

// SetGuildLocale sets a server's locale (its Server Settings →
// Overview language), which Discord sends with every interaction in it
// as guild_locale.
func (s *Server) SetGuildLocale(guildID, locale string) {
	if !knownLocale(locale) {
		panic("discordtest: Discord has no locale " + locale)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guildLocales[guildID] = locale
}

// locales fills in what Discord sends with every interaction but a PING,
// the user's locale, and with one in a server the server's, guild_locale.
// A locale Discord does not know is the test's mistake.
func (s *Server) locales(i *discordgo.Interaction) {
	if i.Type == discordgo.InteractionPing {
		return
	}
	if i.Locale == "" {
		i.Locale = defaultLocale
	}
	if !knownLocale(string(i.Locale)) {
		panic("discordtest: Discord has no locale " + string(i.Locale))
	}
	if i.GuildID == "" {
		i.GuildLocale = nil
		return
	}
	s.mu.Lock()
	gl, ok := s.guildLocales[i.GuildID]
	s.mu.Unlock()
	if !ok {
		gl = defaultLocale
	}
	l := discordgo.Locale(gl)
	i.GuildLocale = &l
}
