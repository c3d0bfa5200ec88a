// Package lang holds the words players see, in every language the bot
// speaks, and picks the language to speak.
//
// The words are message catalogues (catalog/*.json, one file a
// language), embedded in the binary and read with go-i18n, which gives
// each language its CLDR plural rules. A message is a Go text/template:
// its placeholders are {{.Name}} fields, filled from the key and value
// pairs a caller passes. The catalogues are read once, when the program
// starts, and never change after: a Lang is a plain value, so the
// packages that draw messages with it (bot/render, bot/refusal) stay pure.
//
// Whose language where: an answer only its user sees (a hand view, the
// coach, stats, a refusal) speaks the user's own (the interaction's
// locale); what a channel sees (the table message, the story, a
// tournament, the leaderboard) speaks the server's: its admins' setting,
// else the guild_locale Discord sends, else English. See Server.
package lang

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed catalog/*.json
var catalogs embed.FS

// Lang is a language the bot speaks. The zero Lang is English.
type Lang struct{ code string }

// English is the bot's first language, and what it speaks when it knows
// nothing better.
var English = Lang{}

// shipped are the languages with a catalogue, by catalogue name, with the
// Discord locales each serves. Discord has one French, "fr": it is
// written here as Quebec's players speak it. Spanish serves Spain's
// and Latin America's clients; Portuguese is Brazil's.
var shipped = []struct {
	code    string
	locales []string
	name    string // in itself, for the admin's choice
}{
	{"en", []string{"en-US", "en-GB"}, "English"},
	{"fr", []string{"fr"}, "Français"},
	{"es", []string{"es-ES", "es-419"}, "Español"},
	{"pt-BR", []string{"pt-BR"}, "Português do Brasil"},
}

// localizers are read from the catalogues once, at start. An error there
// is a bug in a catalogue, which the tests catch: the program must not
// start speaking half a language.
var localizers = load()

func load() map[string]*i18n.Localizer {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("json", json.Unmarshal)
	files, err := fs.Glob(catalogs, "catalog/*.json")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(catalogs, f); err != nil {
			panic(fmt.Sprintf("lang: %s: %v", f, err))
		}
	}
	out := map[string]*i18n.Localizer{}
	for _, s := range shipped {
		// A message a language lacks falls back to English; the tests
		// make sure none does.
		out[s.code] = i18n.NewLocalizer(b, s.code, "en")
	}
	return out
}

// plain are, by language, the messages with no plural forms whose
// placeholders are all plain fields ({{.Name}}): nearly all of them.
// They are filled without text/template, which was a fiftieth of the CPU
// of the 900-table benchmark; a test holds them to what go-i18n writes.
var plain = loadPlain()

// plainMessage is a message cut at its placeholders: text[0], the value
// of fields[0], text[1], and so on.
type plainMessage struct {
	text   []string
	fields []string
}

// plainField is a plain field in a message.
var plainField = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

func loadPlain() map[string]map[string]plainMessage {
	out := map[string]map[string]plainMessage{}
	for _, s := range shipped {
		raw, err := catalogs.ReadFile(catalogFile(s.code))
		if err != nil {
			panic(err)
		}
		var msgs map[string]any
		if err := json.Unmarshal(raw, &msgs); err != nil {
			panic(fmt.Sprintf("lang: %s: %v", s.code, err))
		}
		out[s.code] = map[string]plainMessage{}
		for id, v := range msgs {
			text, ok := v.(string)
			if !ok || strings.Count(text, "{{") != len(plainField.FindAllStringIndex(text, -1)) {
				continue
			}
			var m plainMessage
			last := 0
			for _, at := range plainField.FindAllStringSubmatchIndex(text, -1) {
				m.text = append(m.text, text[last:at[0]])
				m.fields = append(m.fields, text[at[2]:at[3]])
				last = at[1]
			}
			m.text = append(m.text, text[last:])
			out[s.code][id] = m
		}
	}
	return out
}

// fill writes the message with its fields from args, pairs of a name and
// its value, as text/template prints them; false if a field has no value
// in args (go-i18n then writes it as text/template does).
func (m plainMessage) fill(args []any) (string, bool) {
	var b strings.Builder
	for i, t := range m.text {
		b.WriteString(t)
		if i == len(m.fields) {
			break
		}
		// The last value given for a name is the one used, as in
		// localize's map; a nil one is left to text/template.
		var value any
		for j := 0; j+1 < len(args); j += 2 {
			if name, ok := args[j].(string); ok && name == m.fields[i] {
				value = args[j+1]
			}
		}
		// Strings and ints, most of the values, are written as fmt would
		// write them without its reflection: localizing was a thirtieth
		// of the bot's CPU at 900 tables.
		switch v := value.(type) {
		case nil:
			return "", false
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(strconv.Itoa(v))
		default:
			fmt.Fprint(&b, value)
		}
	}
	return b.String(), true
}

// Code is the language's catalogue name: "en", "fr", "es", "pt-BR".
func (l Lang) Code() string {
	if l.code == "" {
		return "en"
	}
	return l.code
}

// Name is the language's name in itself.
func (l Lang) Name() string {
	for _, s := range shipped {
		if s.code == l.Code() {
			return s.name
		}
	}
	return "English"
}

// ByCode returns the language with catalogue name code, if the bot
// speaks it.
func ByCode(code string) (Lang, bool) {
	for _, s := range shipped {
		if s.code == code {
			return Lang{code: s.code}, true
		}
	}
	return English, false
}

// Codes lists the catalogue names of every language the bot speaks,
// English first.
func Codes() []string {
	var out []string
	for _, s := range shipped {
		out = append(out, s.code)
	}
	return out
}

// ForLocale returns the language that serves a Discord locale ("fr",
// "es-419", "en-GB"), if the bot speaks one.
func ForLocale(locale string) (Lang, bool) {
	for _, s := range shipped {
		for _, l := range s.locales {
			if strings.EqualFold(l, locale) {
				return Lang{code: s.code}, true
			}
		}
	}
	return English, false
}

// Locales lists the Discord locales the language serves.
func (l Lang) Locales() []string {
	for _, s := range shipped {
		if s.code == l.Code() {
			return s.locales
		}
	}
	return nil
}

// User is the language of an answer only its user sees: their client's
// locale, or English.
func User(locale string) Lang {
	l, _ := ForLocale(locale)
	return l
}

// Server is the language of what a server's channels see: the language
// its admins chose (a catalogue name, "" for none), else the server's
// own locale as Discord sends it (guild_locale, "" where it sends none),
// else English.
//
// A table outside a server (a DM with the bot, a group DM) has none: it
// speaks the language of whoever started it, its starter's locale passed
// as guildLocale (command.PlaceLocale).
func Server(setting, guildLocale string) Lang {
	if l, ok := ByCode(setting); ok {
		return l
	}
	return User(guildLocale)
}

// T returns message id with its placeholders filled from args, pairs of
// a name and its value: T("table.title", "ID", 7).
func (l Lang) T(id string, args ...any) string {
	return l.localize(id, nil, args)
}

// N returns message id in the plural form n takes in the language, with
// n as its {{.N}} and the rest from args.
func (l Lang) N(id string, n int, args ...any) string {
	return l.localize(id, n, append(args, "N", n))
}

func (l Lang) localize(id string, count any, args []any) string {
	if count == nil {
		if m, ok := plain[l.Code()][id]; ok {
			if s, ok := m.fill(args); ok {
				return s
			}
		}
	}
	data := map[string]any{}
	for i := 0; i+1 < len(args); i += 2 {
		data[fmt.Sprint(args[i])] = args[i+1]
	}
	s, err := localizers[l.Code()].Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil {
		// A missing message is a bug the catalogue test catches; the
		// player still sees something meaningful rather than nothing.
		return id
	}
	return s
}

// Int writes n as the language writes numbers: "12,345" in English,
// "12 345" in French.
func (l Lang) Int(n int) string {
	return message.NewPrinter(language.Make(l.Code())).Sprint(n)
}

// Float writes x with the given decimals as the language does: "1.5" in
// English, "1,5" in French.
func (l Lang) Float(x float64, decimals int) string {
	return message.NewPrinter(language.Make(l.Code())).Sprintf("%.*f", decimals, x)
}

// catalogFile is the catalogue file of a language, for the tests.
func catalogFile(code string) string { return path.Join("catalog", code+".json") }
