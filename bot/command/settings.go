package command

import (
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// /cribbage-admin settings changes a server's settings all or none: a bad
// value is refused with what to write instead, and nothing changes.

// The bounds of the timers a server may set (or turn off): a reminder
// more often than every 10 minutes is noise, a forfeit within the hour is
// no time to come back, and beyond 90 days either is as good as off.
const (
	minReminder = 10 * time.Minute
	minForfeit  = time.Hour
	maxTimer    = 90 * 24 * time.Hour
)

// settingError refuses a setting, saying what to write instead.
type settingError string

func (e settingError) Error() string { return string(e) }

// SettingsChange is the change the options given make, and Said its
// words, one for each setting it changes.
type SettingsChange struct {
	changes []func(gs *cribbage.GuildSettings)
	Said    []string
}

func (c *SettingsChange) set(what string, fn func(gs *cribbage.GuildSettings)) {
	c.changes, c.Said = append(c.changes, fn), append(c.Said, what)
}

// Apply makes the change to gs.
func (c *SettingsChange) Apply(gs *cribbage.GuildSettings) {
	for _, fn := range c.changes {
		fn(gs)
	}
}

// ParseSettings reads the options given to /cribbage-admin settings in
// the server guildID into one change; any bad value refuses them all, with
// what to write instead.
func ParseSettings(l lang.Lang, guildID string, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) (*SettingsChange, error) {
	c := &SettingsChange{}
	if err := c.reset(l, opts); err != nil {
		return nil, err
	}
	if err := c.timer(l, opts, SetReminder, minReminder, "settings.said-reminders", func(gs *cribbage.GuildSettings, d *time.Duration) { gs.ReminderAfter = d }); err != nil {
		return nil, err
	}
	if err := c.timer(l, opts, SetForfeit, minForfeit, "settings.said-forfeits", func(gs *cribbage.GuildSettings, d *time.Duration) { gs.ForfeitAfter = d }); err != nil {
		return nil, err
	}
	if o, ok := opts[SetPoints]; ok {
		points := int(o.IntValue())
		c.set(l.T("settings.said-points", "Points", points, "Start", l.T("cmd.name.start")), func(gs *cribbage.GuildSettings) { gs.DefaultPoints = points })
	}
	if o, ok := opts[SetChannel]; ok {
		id := o.Value.(string)
		c.set(l.T("settings.said-channel", "Channel", id), func(gs *cribbage.GuildSettings) { gs.GamesChannel = id })
	}
	if o, ok := opts[SetMaxTables]; ok {
		n := int(o.IntValue())
		words := l.N("settings.said-tables", n)
		if n == 0 {
			words = l.T("settings.said-no-limit")
		}
		c.set(words, func(gs *cribbage.GuildSettings) { gs.MaxOpenTables = n })
	}
	if o, ok := opts[SetCancelRole]; ok {
		id := o.Value.(string)
		if id == guildID {
			// The @everyone role's id is the server's.
			return nil, settingError(l.T("settings.everyone", "Opt", l.T("cmd.name.cancel-role")))
		}
		c.set(l.T("settings.said-cancel-role", "Role", id), func(gs *cribbage.GuildSettings) { gs.CancelRole = id })
	}
	if o, ok := opts[SetLanguage]; ok {
		chosen, known := lang.ByCode(o.StringValue())
		if !known {
			return nil, settingError(l.T("settings.bad-language", "Opt", l.T("cmd.name.language")))
		}
		c.set(l.T("settings.said-language", "Language", chosen.Name()), func(gs *cribbage.GuildSettings) { gs.Language = chosen.Code() })
	}
	return c, nil
}

// reset reads the reset option: one setting back to the default, or
// every one, and never together with setting it.
func (c *SettingsChange) reset(l lang.Lang, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) error {
	o, ok := opts["reset"]
	if !ok {
		return nil
	}
	name := o.StringValue()
	if _, also := opts[name]; also {
		return settingError(l.T("settings.set-and-reset", "Opt", l.T("cmd.name."+name)))
	}
	if name == SetEverything && len(opts) > 1 {
		return settingError(l.T("settings.everything-alone", "Reset", l.T("cmd.name.reset"), "Everything", l.T("cmd.choice.reset.everything")))
	}
	c.set(resetWords(l, name), func(gs *cribbage.GuildSettings) { resetSetting(gs, name) })
	return nil
}

// timer reads a timer's option: a wait from least to maxTimer, or off.
func (c *SettingsChange) timer(l lang.Lang, opts map[string]*discordgo.ApplicationCommandInteractionDataOption, name string, least time.Duration, what string,
	field func(gs *cribbage.GuildSettings, d *time.Duration)) error {
	o, ok := opts[name]
	if !ok {
		return nil
	}
	d, err := cribbage.ParseDuration(o.StringValue())
	if err != nil || d != 0 && (d < least || d > maxTimer) {
		return settingError(l.T("settings.bad-time", "Opt", l.T("cmd.name."+name), "Least", render.WaitWords(least), "Most", render.WaitWords(maxTimer)))
	}
	words := l.T(what+"-after", "Wait", render.WaitWords(d))
	if d == 0 {
		words = l.T(what + "-off")
	}
	c.set(words, func(gs *cribbage.GuildSettings) { field(gs, &d) })
	return nil
}

// resetSetting puts one setting, or every one, back to the default.
func resetSetting(gs *cribbage.GuildSettings, name string) {
	all := name == SetEverything
	if all || name == SetReminder {
		gs.ReminderAfter = nil
	}
	if all || name == SetForfeit {
		gs.ForfeitAfter = nil
	}
	if all || name == SetPoints {
		gs.DefaultPoints = 0
	}
	if all || name == SetChannel {
		gs.GamesChannel = ""
	}
	if all || name == SetMaxTables {
		gs.MaxOpenTables = 0
	}
	if all || name == SetCancelRole {
		gs.CancelRole = ""
	}
	if all || name == SetLanguage {
		gs.Language = ""
	}
}

// resetWords says what a reset did.
func resetWords(l lang.Lang, name string) string {
	if name == SetEverything {
		return l.T("settings.reset-all")
	}
	return l.T("settings.reset-one", "Opt", l.T("cmd.name."+name))
}
