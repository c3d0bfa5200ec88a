package discordtest

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestInteractionsCarryLocales: every interaction carries its user's
// locale (en-US unless the test user has another), and one made in a
// server the server's guild_locale, as SetGuildLocale set it; a DM's
// carries none, and the wire leaves the field out.
func TestInteractionsCarryLocales(t *testing.T) {
	s := New()
	defer s.Close()
	if got := Locales(); !slices.Contains(got, "fr") || !slices.Contains(got, "pt-BR") || slices.Contains(got, "fr-CA") || len(got) < 30 {
		t.Fatalf("Discord's locales: %v", got)
	}
	ana := User{ID: "1", Name: "Ana"}
	zoe := User{ID: "2", Name: "Zoé", Locale: "fr"}
	s.SetGuildLocale("g2", "pt-BR")
	for _, c := range []struct {
		i             *discordgo.Interaction
		locale, guild string
	}{
		{Command("g1", "c1", ana, "start"), "en-US", "en-US"},
		{Command("g1", "c1", zoe, "start"), "fr", "en-US"},
		{Click("g2", "c2", zoe, "m1", "/x"), "fr", "pt-BR"},
		{Command("", "d1", zoe, "start"), "fr", ""},
	} {
		i := s.Prepare(c.i)
		guild := ""
		if i.GuildLocale != nil {
			guild = string(*i.GuildLocale)
		}
		if string(i.Locale) != c.locale || guild != c.guild {
			t.Errorf("in %q: locale %q, guild_locale %q; want %q, %q", i.GuildID, i.Locale, guild, c.locale, c.guild)
		}
		raw, _ := json.Marshal(wire(i))
		var sent map[string]any
		_ = json.Unmarshal(raw, &sent)
		if _, has := sent["guild_locale"]; has != (c.guild != "") {
			t.Errorf("in %q: guild_locale sent %v", i.GuildID, sent["guild_locale"])
		}
	}
}
