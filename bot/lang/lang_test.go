package lang

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// catalog reads one language's catalogue as written: each message's
// forms, by plural category ("" for a message with no plural).
func catalog(t *testing.T, code string) map[string]map[string]string {
	t.Helper()
	raw, err := catalogs.ReadFile(catalogFile(code))
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	out := map[string]map[string]string{}
	for id, v := range file {
		switch v := v.(type) {
		case string:
			out[id] = map[string]string{"": v}
		case map[string]any:
			forms := map[string]string{}
			for k, s := range v {
				forms[k], _ = s.(string)
			}
			out[id] = forms
		default:
			t.Errorf("%s: %s is neither a text nor plural forms", code, id)
		}
	}
	return out
}

var placeholder = regexp.MustCompile(`\{\{\s*\.([A-Za-z]+)\s*\}\}`)

// placeholders are the fields a text fills in, sorted, once each.
func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestCataloguesAgree: every language has every message any other has,
// and each message fills in the same placeholders in every language and
// every plural form (a form may leave out {{.N}}: "one table"). A
// language lacking a message would speak English there; one with other
// placeholders would show a hole, or drop what the player needs.
func TestCataloguesAgree(t *testing.T) {
	all := map[string]map[string]map[string]string{}
	ids := map[string]bool{}
	for _, code := range Codes() {
		all[code] = catalog(t, code)
		for id := range all[code] {
			ids[id] = true
		}
	}
	en := all["en"]
	for id := range ids {
		want := placeholdersOf(en[id], "N")
		for _, code := range Codes() {
			forms, ok := all[code][id]
			if !ok {
				t.Errorf("%s lacks %s", code, id)
				continue
			}
			_, single := forms[""]
			if _, enSingle := en[id][""]; en[id] != nil && single != enSingle {
				t.Errorf("%s: %s is plural in one language and not in another", code, id)
			}
			if got := placeholdersOf(forms, "N"); !slices.Equal(got, want) {
				t.Errorf("%s: %s fills in %v, English %v", code, id, got, want)
			}
			for form, text := range forms {
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s: %s %s is empty", code, id, form)
				}
			}
		}
	}
}

// placeholdersOf are the placeholders of all a message's forms, less
// skip (which a plural form may spell out).
func placeholdersOf(forms map[string]string, skip string) []string {
	var out []string
	for _, text := range forms {
		for _, p := range placeholders(text) {
			if p != skip {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestPluralForms: every plural message has every form its language's
// plural rules (CLDR's, as go-i18n has them) pick for a count, in that
// language and not English: French and Portuguese say "1 table" but "0
// table" too, and "1 000 000 de tables".
func TestPluralForms(t *testing.T) {
	for _, code := range Codes() {
		cat := catalog(t, code)
		for id, forms := range cat {
			if _, single := forms[""]; single {
				continue
			}
			for _, n := range []int{0, 1, 2, 3, 5, 11, 21, 101, 1000000} {
				_, tag, err := localizers[code].LocalizeWithTag(&i18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: map[string]any{"N": n}})
				if err != nil {
					t.Errorf("%s: %s with %d: %v", code, id, n, err)
					continue
				}
				if tag.String() != code {
					t.Errorf("%s: %s with %d speaks %s", code, id, n, tag)
				}
			}
		}
	}
}

// TestEveryMessageRenders: each message of each language executes as a
// template with its placeholders given, and comes out in that language.
func TestEveryMessageRenders(t *testing.T) {
	for _, code := range Codes() {
		for id, forms := range catalog(t, code) {
			data := map[string]any{}
			for _, p := range placeholdersOf(forms, "") {
				data[p] = "x"
			}
			cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: data}
			if _, single := forms[""]; !single {
				data["N"] = 2
				cfg.PluralCount = 2
			}
			s, tag, err := localizers[code].LocalizeWithTag(cfg)
			if err != nil || s == "" || strings.Contains(s, "<no value>") {
				t.Errorf("%s: %s: %q, %v", code, id, s, err)
			}
			if tag.String() != code {
				t.Errorf("%s: %s speaks %s", code, id, tag)
			}
		}
	}
}

func TestPick(t *testing.T) {
	for _, c := range []struct {
		setting, guild string
		want           string
	}{
		{"", "", "en"},
		{"", "fr", "fr"},
		{"", "es-419", "es"},
		{"", "ja", "en"},
		{"fr", "en-US", "fr"},
		{"pt-BR", "fr", "pt-BR"},
		{"xx", "fr", "fr"},
	} {
		if got := Server(c.setting, c.guild).Code(); got != c.want {
			t.Errorf("Server(%q, %q) = %s, want %s", c.setting, c.guild, got, c.want)
		}
	}
	if got := User("pt-BR").N("refusal.too-many-tables", 1); !strings.Contains(got, "1 mesa aberta") {
		t.Errorf("pt-BR one table: %q", got)
	}
	if got := User("fr").Int(12345); got != "12 345" && got != "12\u00a0345" && got != "12\u202f345" {
		t.Errorf("French 12345: %q", got)
	}
}

// TestPlainMessagesAsTemplatesWriteThem: every message filled without
// text/template reads as go-i18n writes it, with text, numbers and a
// repeated name among the values; and one with a field left out is left
// to go-i18n.
func TestPlainMessagesAsTemplatesWriteThem(t *testing.T) {
	n := 0
	for _, code := range Codes() {
		for id, m := range plain[code] {
			var args []any
			data := map[string]any{}
			for i, f := range m.fields {
				var v any = fmt.Sprintf("<%s & é %d>", f, i)
				if i%2 == 1 {
					v = 1000 + i
				}
				args = append(args, f, "overwritten", f, v)
				data[f] = v
			}
			want, err := localizers[code].Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
			if err != nil {
				t.Fatalf("%s: %s: %v", code, id, err)
			}
			got, ok := m.fill(args)
			if !ok || got != want {
				t.Errorf("%s: %s: filled %q (%v), go-i18n writes %q", code, id, got, ok, want)
			}
			if len(m.fields) > 0 {
				last := m.fields[len(m.fields)-1]
				var without []any
				for j := 0; j+1 < len(args); j += 2 {
					if args[j] != last {
						without = append(without, args[j], args[j+1])
					}
				}
				if _, ok := m.fill(without); ok {
					t.Errorf("%s: %s: filled without its field %s", code, id, last)
				}
			}
			n++
		}
	}
	if n < 2000 {
		t.Errorf("only %d messages are filled without text/template", n)
	}
	if got := (Lang{code: "fr"}).T("answer.joined"); got != "Tu t'es joint à la table <no value>." {
		t.Errorf("a message missing its value: %q", got)
	}
}

// BenchmarkPlainMessage is a plain message with a number, and one with
// words, as a hand view writes them.
func BenchmarkPlainMessage(b *testing.B) {
	l := Lang{code: "en"}
	for b.Loop() {
		l.T("hand.count", "Count", 21)
		l.T("hand.count-hand", "Cards", "5♥ 5♣ J♦ 4♠", "Starter", "5♠")
	}
}
