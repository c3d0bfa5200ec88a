package command

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestEnglishIsTheDefinitions: the English catalogue's words for the
// commands are the definitions' own, so the English a translator reads is
// the English Discord shows.
func TestEnglishIsTheDefinitions(t *testing.T) {
	n := 0
	Walk(Definitions(), func(key, english string, set func(string, string)) {
		n++
		if got := lang.English.T(key); got != english {
			t.Errorf("%s: the catalogue says %q, the definition %q", key, got, english)
		}
	})
	if n < 100 {
		t.Fatalf("only %d texts walked", n)
	}
}

// TestLocalizedCommandsRegister: the commands with every language's
// localizations are taken by the fake Discord, which refuses what
// Discord would (unknown locales, names in capitals or too long,
// descriptions over 100 characters), and every shipped language is in
// them.
func TestLocalizedCommandsRegister(t *testing.T) {
	s := discordtest.New()
	defer s.Close()
	cmds := Localized()
	var body []map[string]any
	for _, c := range cmds {
		raw, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		// The request's schema has the permissions as an integer, as
		// the bot sends them (bot.commandBody).
		if p, ok := m["default_member_permissions"].(string); ok {
			m["default_member_permissions"], _ = strconv.ParseInt(p, 10, 64)
		}
		body = append(body, m)
	}
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPut, s.URL()+"/api/v9/applications/"+s.AppID+"/guilds/1/commands", bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bot test")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		out, _ := io.ReadAll(resp.Body)
		t.Fatalf("registration refused: %d %s", resp.StatusCode, out)
	}
	start := cmds[0].Options[0]
	for _, locale := range []discordgo.Locale{"fr", "es-ES", "es-419", "pt-BR"} {
		if start.NameLocalizations[locale] == "" || start.DescriptionLocalizations[locale] == "" || (*cmds[0].DescriptionLocalizations)[locale] == "" {
			t.Errorf("/cribbage %s has no %s", start.Name, locale)
		}
	}
	if got := start.NameLocalizations["fr"]; got != "commencer" {
		t.Errorf("/cribbage start in French: %q", got)
	}
	for _, c := range cmds {
		if c.Name == ChallengeMenu && (c.NameLocalizations == nil || (*c.NameLocalizations)["fr"] != "Défier au cribbage") {
			t.Errorf("the person menu's challenge has no French name: %v", c.NameLocalizations)
		}
	}
}
